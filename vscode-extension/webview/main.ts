// The task-graph webview: a toolbar (function, search, depth, layout, edge mode, uncertain edges, groups,
// fit, counts), the graph, and beside it the selected task's details and the hazard list. It hears
// graphs from the extension and asks it to reveal source lines; everything else happens here.
// Loops and the expansions of inline helpers' calls are groups: a big graph opens with the helpers'
// expansions collapsed, one node each; a click on one opens it, a click on a group's caption folds it.
import './style.css';
import type { Focus, FromWebview, Hazard, TaskGraph, ToWebview } from './contract';
import { defaultCollapsed, groupsOf, toOpen, visible, type Groups, type Visible } from './groups';
import { layoutGraph, type Layout } from './layout';
import { certainEnough, linksOf, type Uncertain } from './links';
import {
    clip, hazardTasks, layoutKey, neighbourhood, place, plural, redundantFlags, searchTasks, taskRef, visibleEdges,
    type Direction, type EdgeMode,
} from './logic';
import { PanZoom } from './panzoom';
import { defineMarkers, draw, EDGE_KINDS, svg, type Drawn } from './render';

interface VsCodeApi {
    postMessage(message: FromWebview): void;
    getState(): unknown;
    setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

interface Options { direction: Direction; mode: EdgeMode; depth: number; uncertain: Uncertain }

/** Below this zoom the labels no longer read: a bigger graph opens at its start, not fitted. */
const READABLE_SCALE = 0.75;
/** Below this zoom a node is too small to aim at: a click on it zooms in to it first. */
const TINY_SCALE = 0.45;

const vscode = acquireVsCodeApi();
const saved = (vscode.getState() ?? {}) as Partial<Options>;
const options: Options = {
    direction: saved.direction === 'RIGHT' ? 'RIGHT' : 'DOWN',
    mode: saved.mode === 'full' || saved.mode === 'omitted' ? saved.mode : 'reduced',
    depth: typeof saved.depth === 'number' ? saved.depth : 1,
    uncertain: saved.uncertain === 'shown' || saved.uncertain === 'hidden' ? saved.uncertain : 'apart',
};

const app = document.getElementById('app') as HTMLElement;
app.innerHTML = `
<div class="toolbar" role="toolbar">
  <label class="field">Function <select id="function" aria-label="Function"></select></label>
  <span class="search graph-only">
    <input id="search" type="search" placeholder="Search: name, #id, L&lt;line&gt;" aria-label="Search tasks" spellcheck="false">
    <span id="search-result" class="hint"></span>
  </span>
  <label class="field graph-only" title="How many edges away the predecessors and successors of the selected task are highlighted: 0 none, -1 all">
    Depth <input id="depth" type="number" min="-1" step="1" aria-label="Highlight depth"></label>
  <span class="segmented graph-only" role="group" aria-label="Layout">
    <button id="dir-down" title="Layout top to bottom">T\u2193B</button><button id="dir-right" title="Layout left to right">L\u2192R</button>
  </span>
  <label class="field graph-only" title="Reduced hides edges implied by others; Omitted shows only those">Edges
    <select id="mode" aria-label="Edge mode"><option value="full">Full</option><option value="reduced">Reduced</option><option value="omitted">Omitted only</option></select></label>
  <label class="field graph-only" title="Edges that exist only if two regions overlap at run time (slices indexed by a loop variable, ...)">Uncertain
    <select id="uncertain" aria-label="Edges of unknown overlap"><option value="apart">Apart</option><option value="shown">Shown</option><option value="hidden">Hidden</option></select></label>
  <span class="segmented graph-only" role="group" aria-label="Groups">
    <button id="collapse-all" title="Fold every inline helper's expansion into one node">Collapse</button><button id="expand-all" title="Open every group">Expand</button>
  </span>
  <button id="fit" class="graph-only" title="Fit to screen (F)">Fit</button>
  <span id="counts" class="hud graph-only" aria-live="polite"></span>
</div>
<div id="banner" class="banner" hidden></div>
<div id="notice" class="notice" hidden></div>
<div class="body" id="body">
  <div id="canvas" class="canvas">
    <svg id="graph" role="img" aria-label="Task graph"><g id="viewport"></g></svg>
    <div id="legend" class="legend"></div>
    <div id="busy" class="busy" hidden>updating\u2026</div>
  </div>
  <aside class="side">
    <section id="details" class="details"></section>
    <section class="hazard-panel"><h2 id="hazard-title">Hazards</h2><ol id="hazards"></ol></section>
  </aside>
</div>`;

const $ = <T extends Element>(id: string) => document.getElementById(id) as unknown as T;
const graphSvg = $<SVGSVGElement>('graph');
const viewport = $<SVGGElement>('viewport');
const functionSelect = $<HTMLSelectElement>('function');
const searchInput = $<HTMLInputElement>('search');
const depthInput = $<HTMLInputElement>('depth');
const modeSelect = $<HTMLSelectElement>('mode');
const uncertainSelect = $<HTMLSelectElement>('uncertain');
defineMarkers(graphSvg);
const view = new PanZoom(graphSvg, viewport);
drawLegend();

interface Shown {
    uri: string;
    functions: string[];
    graph: TaskGraph;
    redundant: boolean[];
    hazardsOf: Map<number, Hazard[]>;
    groups: Groups;
    collapsed: Set<string>;
    view?: Visible;
    layout?: Layout;
    layoutKey?: string;
    drawn?: Drawn;
    shownEdges: number[];
    /** edge or hazard index -> the key of the line that draws it */
    linkOf: Map<string, string>;
}
let shown: Shown | undefined;
/** What the user folded and opened, per function, while the panel lives. */
const collapsedOf = new Map<string, Set<string>>();
let selected: number | undefined;
let focusedHazard: number | undefined;
let matches: number[] = [];
let matchIndex = -1;
let generation = 0;

function saveOptions(): void {
    vscode.setState(options);
}

function syncControls(): void {
    depthInput.value = String(options.depth);
    modeSelect.value = options.mode;
    uncertainSelect.value = options.uncertain;
    $('dir-right').classList.toggle('active', options.direction === 'RIGHT');
    $('dir-down').classList.toggle('active', options.direction === 'DOWN');
    $('dir-right').setAttribute('aria-pressed', String(options.direction === 'RIGHT'));
    $('dir-down').setAttribute('aria-pressed', String(options.direction === 'DOWN'));
}

function setNotice(text: string | undefined, keepGraph = false): void {
    const notice = $<HTMLElement>('notice');
    notice.hidden = text === undefined;
    notice.textContent = text ?? '';
    $<HTMLElement>('body').hidden = text !== undefined && !keepGraph;
    document.body.classList.toggle('no-graph', text !== undefined && !keepGraph);
}

function setFunctions(functions: readonly string[], current: string | undefined): void {
    functionSelect.replaceChildren();
    if (current === undefined) {
        const none = document.createElement('option');
        none.textContent = functions.length ? '(choose)' : '(none)';
        none.value = '';
        functionSelect.append(none);
    }
    for (const name of functions) {
        const option = document.createElement('option');
        option.value = name;
        option.textContent = name;
        functionSelect.append(option);
    }
    if (current !== undefined && !functions.includes(current)) {
        const option = document.createElement('option');
        option.value = current;
        option.textContent = current;
        functionSelect.append(option);
    }
    functionSelect.value = current ?? '';
    functionSelect.disabled = functions.length === 0;
}

async function showGraph(uri: string, functions: string[], graph: TaskGraph, note?: string, focus?: Focus): Promise<void> {
    const same = shown !== undefined && shown.uri === uri && shown.graph.function === graph.function;
    const previous = same ? shown : undefined;
    const groups = groupsOf(graph);
    const remembered = collapsedOf.get(`${uri}|${graph.function}`);
    const collapsed = new Set([...(remembered ?? defaultCollapsed(graph, groups))].filter((k) => groups.byKey.has(k)));
    collapsedOf.set(`${uri}|${graph.function}`, collapsed);
    shown = {
        uri, functions, graph, redundant: redundantFlags(graph), hazardsOf: hazardTasks(graph.hazards), shownEdges: [],
        groups, collapsed, layout: previous?.layout, layoutKey: previous?.layoutKey, linkOf: new Map(),
    };
    if (!same) {
        selected = undefined;
        focusedHazard = undefined;
    } else {
        if (selected !== undefined && !graph.tasks.some((t) => t.id === selected)) {
            selected = undefined;
        }
        if (focusedHazard !== undefined && focusedHazard >= graph.hazards.length) {
            focusedHazard = undefined;
        }
    }
    setFunctions(functions, graph.function);
    setNotice(undefined);
    const banner = $<HTMLElement>('banner');
    const notes = [
        note ?? '',
        graph.host ? 'Host-level orchestration (G13): its tasks and edges are drawn; hazards are not reported for it.' : '',
        graph.manual ? 'The whole function is a manual scope (G11): only deps= orders its tasks.' : '',
    ].filter((s) => s !== '');
    banner.hidden = notes.length === 0;
    banner.textContent = notes.join(' ');
    drawHazardList();
    const target = focus?.inlined !== undefined ? `g${focus.inlined}` : undefined;
    const only = graph.inlined?.find((e) => e.id === focus?.inlined)?.tasks[0];
    if (target !== undefined || only !== undefined) { // a call's lens: that call, nothing else chosen
        selected = undefined;
        focusedHazard = undefined;
    }
    if (target !== undefined && groups.byKey.has(target)) {
        openAround(target);
        collapsed.delete(target);
        await relayout(!same);
        centreOn(target);
        viewport.querySelector(`.group[data-group="${target}"]`)?.classList.add('focused'); // (until the next drawing)
    } else if (only !== undefined) { // a call launching one task is no group: that task
        await relayout(!same);
        selected = only;
        await bringIntoView(only);
        highlight();
        showDetails();
    } else {
        await relayout(!same);
    }
}

/** Opens the collapsed groups around a group, so that it is drawn (open or as one node). */
function openAround(key: string): void {
    if (!shown) {
        return;
    }
    for (let at = shown.groups.byKey.get(key)?.parent; at !== undefined; at = shown.groups.byKey.get(at)?.parent) {
        shown.collapsed.delete(at);
    }
}

/** Brings a task, a collapsed group or an open group into the middle of the view, readable. */
function centreOn(key: string): void {
    const box = shown?.layout?.nodes.get(key) ?? shown?.layout?.groups.get(key);
    if (box) {
        view.centre([box], READABLE_SCALE);
    }
}

/** Lays the graph out again when what the layout depends on changed, then redraws. */
async function relayout(fit: boolean): Promise<void> {
    if (!shown) {
        return;
    }
    const mine = ++generation;
    const current = shown;
    const { graph } = current;
    current.shownEdges = visibleEdges(current.redundant, options.mode);
    const folded = visible(graph, current.groups, current.collapsed);
    const key = `${layoutKey(graph, options.direction)}|${[...current.collapsed].sort().join(',')}`;
    if (!current.layout || current.layoutKey !== key) {
        const layout = await layoutGraph(graph, options.direction, folded);
        if (mine !== generation) {
            return; // a newer graph or option arrived while this one was being laid out
        }
        // a new function or direction starts at its beginning; an edit keeps the view as it is
        fit = fit || current.layoutKey === undefined || current.layoutKey.split('|')[1] !== options.direction;
        current.layout = layout;
        current.layoutKey = key;
    }
    current.view = folded;
    const links = linksOf(graph, folded, certainEnough(graph, current.shownEdges, options.uncertain));
    current.linkOf = new Map(links.flatMap((l) => l.items.map((i): [string, string] => [`${l.hazard ? 'h' : 'e'}${i}`, l.key])));
    const layout = current.layout;
    graphSvg.setAttribute('data-layout', key);
    current.drawn = draw(viewport, {
        graph, layout, links, direction: options.direction, hazardsOf: current.hazardsOf, groups: current.groups,
        view: folded, uncertainApart: options.uncertain === 'apart',
    });
    updateCounts();
    runSearch(false);
    highlight();
    showDetails();
    if (fit) {
        view.start(READABLE_SCALE, options.direction === 'RIGHT');
    }
    document.body.dataset.rendered = String(Number(document.body.dataset.rendered ?? '0') + 1);
}

function updateCounts(): void {
    if (!shown) {
        return;
    }
    const { graph } = shown;
    const shownEdges = certainEnough(graph, shown.shownEdges, options.uncertain);
    const counts = $<HTMLElement>('counts');
    const total = graph.edges.length;
    const unknown = shown.shownEdges.length - shownEdges.length;
    counts.dataset.tasks = String(graph.tasks.length);
    counts.dataset.edgesShown = String(shownEdges.length);
    counts.dataset.edgesTotal = String(total);
    counts.dataset.hazards = String(graph.hazards.length);
    counts.dataset.nodes = String(shown.view?.leaves.length ?? graph.tasks.length);
    const edgeText = shownEdges.length === total ? plural(total, 'edge') : `${shownEdges.length} of ${plural(total, 'edge')}`;
    counts.textContent = `${plural(graph.tasks.length, 'task')} \u00b7 ${edgeText}${unknown ? ` (${unknown} uncertain hidden)` : ''}`
        + ` \u00b7 ${plural(graph.hazards.length, 'hazard')}`;
}

/** The drawn node that stands for a task: itself, or the collapsed group holding it. */
function nodeOf(id: number): SVGGElement | undefined {
    const key = shown?.view?.rep.get(id);
    return key === undefined ? undefined : shown?.drawn?.nodes.get(key);
}

/** Marks the selection and its neighbourhood, the focused hazard, and search matches; dims the rest. */
function highlight(): void {
    if (!shown?.drawn) {
        return;
    }
    const { graph, drawn, linkOf } = shown;
    const shownEdges = certainEnough(graph, shown.shownEdges, options.uncertain);
    for (const g of drawn.nodes.values()) {
        g.classList.remove('selected', 'pred', 'succ', 'dim', 'match', 'pair', 'current-match');
    }
    for (const g of drawn.links.values()) {
        g.classList.remove('lit', 'dim', 'focus');
    }
    const dimAllBut = (keepTasks: Set<number>, keepLinks: Set<string>) => {
        const keepNodes = new Set([...keepTasks].map((id) => nodeOf(id)));
        for (const g of drawn.nodes.values()) {
            g.classList.toggle('dim', !keepNodes.has(g));
        }
        for (const [key, g] of drawn.links) {
            g.classList.toggle('dim', !keepLinks.has(key));
            g.classList.toggle('lit', keepLinks.has(key) && key.startsWith('e'));
        }
    };
    const linksOfItems = (items: string[]) => new Set(items.map((k) => linkOf.get(k)).filter((k): k is string => k !== undefined));
    if (focusedHazard !== undefined) {
        const h = graph.hazards[focusedHazard];
        nodeOf(h.first)?.classList.add('pair');
        nodeOf(h.second)?.classList.add('pair');
        const own = linksOfItems([`h${focusedHazard}`]);
        for (const key of own) {
            drawn.links.get(key)?.classList.add('focus');
        }
        dimAllBut(new Set([h.first, h.second]), own);
    } else if (selected !== undefined) {
        const around = neighbourhood(shownEdges.map((i) => graph.edges[i]), selected, options.depth);
        for (const id of around.preds.keys()) {
            nodeOf(id)?.classList.add('pred');
        }
        for (const id of around.succs.keys()) {
            nodeOf(id)?.classList.add('succ');
        }
        nodeOf(selected)?.classList.remove('pred', 'succ');
        nodeOf(selected)?.classList.add('selected');
        const before = new Set([selected, ...around.preds.keys()]);
        const after = new Set([selected, ...around.succs.keys()]);
        const stepsBack = (id: number) => (id === selected ? 0 : around.preds.get(id));
        const stepsOn = (id: number) => (id === selected ? 0 : around.succs.get(id));
        const lit: string[] = [];
        for (const i of shownEdges) {
            // an edge of the walk: it joins two highlighted tasks one step apart
            const e = graph.edges[i];
            const [bf, bt, sf, st] = [stepsBack(e.from), stepsBack(e.to), stepsOn(e.from), stepsOn(e.to)];
            if ((bf !== undefined && bt !== undefined && bf === bt + 1) || (sf !== undefined && st !== undefined && st === sf + 1)) {
                lit.push(`e${i}`);
            }
        }
        graph.hazards.forEach((h, i) => {
            if (h.first === selected || h.second === selected) {
                lit.push(`h${i}`);
            }
        });
        dimAllBut(new Set([...before, ...after]), linksOfItems(lit));
    } else if (matches.length > 0) {
        dimAllBut(new Set(matches), new Set());
    }
    for (const id of matches) {
        nodeOf(id)?.classList.add('match');
    }
    if (matchIndex >= 0 && matches[matchIndex] !== undefined) {
        nodeOf(matches[matchIndex])?.classList.add('current-match');
    }
    for (const li of $<HTMLElement>('hazards').children) {
        li.classList.toggle('active', (li as HTMLElement).dataset.hazard === String(focusedHazard));
    }
}

/** Opens what hides a task, lays out again if that changed anything, and brings it into view. */
async function bringIntoView(id: number): Promise<void> {
    if (!shown) {
        return;
    }
    const opens = toOpen(shown.groups, id, shown.collapsed);
    if (opens.length) {
        for (const key of opens) {
            shown.collapsed.delete(key);
        }
        await relayout(false);
    }
    centreOn(`t${id}`);
}

/** Finds the matches of the search; `step`: goes to the next one (opening its group, zooming to it). */
function runSearch(step: boolean): void {
    if (!shown) {
        return;
    }
    const query = searchInput.value;
    const found = searchTasks(shown.graph.tasks, query);
    const changed = found.join(',') !== matches.join(',');
    matches = found;
    if (changed) {
        matchIndex = -1;
    }
    if (step && matches.length > 0) {
        matchIndex = (matchIndex + 1) % matches.length;
        void bringIntoView(matches[matchIndex]).then(highlight);
    }
    const result = $<HTMLElement>('search-result');
    result.textContent = query.trim() === '' ? '' : matches.length === 0 ? 'no match'
        : matchIndex >= 0 ? `${matchIndex + 1} of ${matches.length}` : `${matches.length} match${matches.length === 1 ? '' : 'es'}`;
    result.dataset.count = String(matches.length);
}

function select(id: number | undefined, reveal: boolean): void {
    selected = id;
    focusedHazard = undefined;
    highlight();
    showDetails();
    if (id !== undefined && reveal) {
        revealTask(id);
    }
}

function revealTask(id: number): void {
    const task = shown?.graph.tasks.find((t) => t.id === id);
    if (shown && task) {
        vscode.postMessage({ type: 'reveal', uri: task.uri ?? shown.uri, line: task.line, col: task.col, endLine: task.end_line, endCol: task.end_col });
    }
}

function focusHazard(index: number): void {
    if (!shown) {
        return;
    }
    const h = shown.graph.hazards[index];
    focusedHazard = index;
    selected = undefined;
    highlight();
    showDetails(h);
    const boxes = [h.first, h.second].map((id) => shown!.layout?.nodes.get(shown!.view?.rep.get(id) ?? ''))
        .filter((b) => b !== undefined);
    view.centre(boxes, READABLE_SCALE);
    revealTask(h.second);
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] {
    const e = document.createElement(tag);
    if (text !== undefined) {
        e.textContent = text;
    }
    if (className) {
        e.className = className;
    }
    return e;
}

function drawHazardList(): void {
    const list = $<HTMLOListElement>('hazards');
    list.replaceChildren();
    if (!shown) {
        return;
    }
    const { graph } = shown;
    const task = (id: number) => graph.tasks.find((t) => t.id === id);
    const warnings = graph.hazards.filter((h) => h.severity === 'warning').length;
    $('hazard-title').textContent = graph.hazards.length === 0 ? 'Hazards'
        : `Hazards (${warnings} warning${warnings === 1 ? '' : 's'}, ${graph.hazards.length - warnings} information)`;
    if (graph.hazards.length === 0) {
        list.append(element('li', graph.host ? 'Not checked for host-level orchestration (G13).' : 'No unordered conflicts found.', 'empty'));
        return;
    }
    graph.hazards.forEach((h, i) => {
        const li = element('li', undefined, `hazard severity-${h.severity}`);
        li.dataset.hazard = String(i);
        li.tabIndex = 0;
        const head = element('div', undefined, 'head');
        head.append(element('span', h.severity === 'warning' ? '!' : 'i', 'icon'), element('span', h.code, 'code'),
            element('span', h.rule, 'rule'));
        const pair = element('div', `${taskRef(task(h.first), h.first)} \u2192 ${taskRef(task(h.second), h.second)}`
            + `${h.carried ? ' \u00b7 across iterations' : ''}`, 'pair');
        li.append(head, pair, element('div', h.message, 'message'));
        if (h.fix) {
            li.append(element('div', `Quick fix: ${h.fix.title}`, 'fix'));
        }
        li.addEventListener('click', () => focusHazard(i));
        li.addEventListener('keydown', (event) => {
            if (event.key === 'Enter' || event.key === ' ') {
                event.preventDefault();
                focusHazard(i);
            }
        });
        list.append(li);
    });
}

function showDetails(hazard?: Hazard): void {
    const details = $<HTMLElement>('details');
    details.replaceChildren();
    if (!shown) {
        return;
    }
    const { graph } = shown;
    if (hazard) {
        details.append(element('h2', `${hazard.code} (${hazard.rule})`), element('p', hazard.message));
        return;
    }
    const task = graph.tasks.find((t) => t.id === selected);
    if (!task) {
        details.append(element('p', `${graph.function} (line ${graph.line}). Click a task to go to its call and `
            + 'highlight what it waits for and what waits for it; click a hazard to see the pair.', 'hint'));
        return;
    }
    details.append(element('h2', `#${task.id} ${task.name}`));
    const helpers = (task.inlined ?? []).map((id) => graph.inlined?.find((e) => e.id === id)).filter((e) => e !== undefined)
        .map((e) => `${e!.helper} (${place(e!)})`);
    const facts = [`${task.kind}, ${place(task)}`, helpers.length ? `from ${helpers.join(' \u203a ')}` : '',
        task.tid ? `task id ${task.tid}` : '',
        task.loops.length ? `in ${task.loops.map((l) => graph.loops.find((x) => x.id === l)).filter((l) => l)
            .map((l) => `pl.${l!.kind} (${place(l!)})`).join(' \u203a ')}` : '',
        task.branch ? 'inside an if' : '', task.manual ? 'manual scope' : ''].filter((s) => s !== '');
    details.append(element('p', facts.join(' \u00b7 '), 'facts'));
    if (task.args?.length) {
        const table = element('table', undefined, 'args');
        for (const a of task.args) {
            const row = element('tr');
            row.append(element('td', a.param, 'param'), element('td', clip(a.text, 26), 'text'),
                element('td', a.direction, `direction dir-${a.direction}`));
            row.title = `${a.param} = ${a.text}: ${a.direction}${a.region ? `, region ${a.region}` : ''}${a.buffer ? `, buffer ${a.buffer}` : ''}`;
            table.append(row);
        }
        details.append(table);
    }
    const waits = graph.edges.filter((e) => e.to === task.id && e.from !== task.id);
    const name = (id: number) => `#${id} ${graph.tasks.find((t) => t.id === id)?.name ?? ''}`;
    if (waits.length) {
        const unique = [...new Set(waits.map((e) => `${name(e.from)}${e.carried ? ' (previous iteration)' : ''}`))];
        details.append(element('p', `Waits for: ${unique.join(', ')}`, 'waits'));
    }
    const races = shown.hazardsOf.get(task.id) ?? [];
    if (races.length) {
        const others = [...new Set(races.map((h) => name(h.first === task.id ? h.second : h.first)))];
        details.append(element('p', `Races with: ${others.join(', ')}`, 'races'));
    }
}

function drawLegend(): void {
    const legend = $<HTMLElement>('legend');
    const entries: [string, string][] = [
        ...EDGE_KINDS.map((k): [string, string] => [`edge kind-${k}`, { raw: 'RAW', waw: 'WAW (InOut)', creator: 'creator', deps: 'deps=' }[k]]),
        ['edge kind-other carried', 'carried'],
        ['edge kind-other unknown', 'overlap unknown'],
        ['hazard-link severity-warning', 'hazard'],
    ];
    for (const [classes, label] of entries) {
        const item = element('span', undefined, 'item');
        const sample = svg('svg', { width: 26, height: 10, 'aria-hidden': 'true' });
        const g = svg('g', { class: classes }, sample);
        svg('path', { d: 'M 1 5 L 25 5', class: 'line' }, g);
        item.append(sample, element('span', label));
        legend.append(item);
    }
}

// the graph: clicks on nodes (after no drag), keyboard on a focused node
/** A click (or Enter) on the graph: a group's caption folds it, a collapsed group opens, a task is chosen. */
function activate(target: Element): void {
    const toggle = target.closest('[data-toggle]') as SVGGElement | null;
    const node = target.closest('.node') as SVGGElement | null;
    if (toggle && shown) {
        shown.collapsed.add(toggle.dataset.toggle!);
        void relayout(false).then(() => centreOn(toggle.dataset.toggle!));
    } else if (node?.dataset.group && shown) {
        const key = node.dataset.group;
        shown.collapsed.delete(key);
        void relayout(false).then(() => centreOn(key));
    } else if (node && view.zoom < TINY_SCALE) {
        // too small to aim at: zoom in to it first, a second click goes to its call
        select(Number(node.dataset.id), false);
        centreOn(`t${node.dataset.id}`);
    } else {
        select(node ? Number(node.dataset.id) : undefined, node !== null);
    }
}
graphSvg.addEventListener('click', (event) => {
    if (view.dragged) {
        view.dragged = false;
        return;
    }
    activate(event.target as Element);
});
graphSvg.addEventListener('keydown', (event) => {
    const target = event.target as Element;
    if ((target.closest('.node') || target.closest('[data-toggle]')) && (event.key === 'Enter' || event.key === ' ')) {
        event.preventDefault();
        if (target.closest('.node[data-id]') && view.zoom < TINY_SCALE) {
            select(Number((target.closest('.node') as SVGGElement).dataset.id), true); // a keyboard user aims exactly
        } else {
            activate(target);
        }
    }
});
document.addEventListener('keydown', (event) => {
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) {
        return;
    }
    if (event.key === 'Escape') {
        select(undefined, false);
    } else if (event.key === 'f' || event.key === 'F') {
        fitView();
    } else if (event.key === '+' || event.key === '=') {
        view.zoomBy(1.25);
    } else if (event.key === '-') {
        view.zoomBy(0.8);
    } else if (event.key === '/') {
        event.preventDefault();
        searchInput.focus();
    }
});

function fitView(): void {
    if (shown?.layout) {
        view.fit();
    }
}

let searchTimer: ReturnType<typeof setTimeout> | undefined;
searchInput.addEventListener('input', () => {
    runSearch(false);
    highlight();
    // a moment after typing stops, the first match comes into view (opened, zoomed to)
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => {
        if (matches.length > 0 && matchIndex < 0) {
            runSearch(true);
            highlight();
        }
    }, 300);
});
searchInput.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
        runSearch(true);
        if (matches[matchIndex] !== undefined) {
            selected = matches[matchIndex];
            focusedHazard = undefined;
        }
        highlight();
        showDetails();
    } else if (event.key === 'Escape') {
        searchInput.value = '';
        runSearch(false);
        highlight();
    }
});
depthInput.addEventListener('change', () => {
    const value = Math.trunc(Number(depthInput.value));
    options.depth = Number.isFinite(value) ? Math.max(-1, value) : 1;
    saveOptions();
    syncControls();
    highlight();
});
modeSelect.addEventListener('change', () => {
    options.mode = modeSelect.value as EdgeMode;
    saveOptions();
    void relayout(false);
});
uncertainSelect.addEventListener('change', () => {
    options.uncertain = uncertainSelect.value as Uncertain;
    saveOptions();
    void relayout(false);
});
$('collapse-all').addEventListener('click', () => {
    if (shown) {
        const inline = [...shown.groups.byKey.values()].filter((g) => g.kind === 'inline');
        for (const g of inline.length ? inline : [...shown.groups.byKey.values()]) {
            shown.collapsed.add(g.key);
        }
        void relayout(true);
    }
});
$('expand-all').addEventListener('click', () => {
    if (shown) {
        shown.collapsed.clear();
        void relayout(true);
    }
});
for (const [id, direction] of [['dir-right', 'RIGHT'], ['dir-down', 'DOWN']] as const) {
    $(id).addEventListener('click', () => {
        if (options.direction !== direction) {
            options.direction = direction;
            saveOptions();
            syncControls();
            void relayout(true);
        }
    });
}
$('fit').addEventListener('click', fitView);
functionSelect.addEventListener('change', () => {
    if (shown && functionSelect.value) {
        vscode.postMessage({ type: 'pickFunction', uri: shown.uri, function: functionSelect.value });
    } else if (functionSelect.value && functionSelect.dataset.uri) {
        vscode.postMessage({ type: 'pickFunction', uri: functionSelect.dataset.uri, function: functionSelect.value });
    }
});
window.addEventListener('resize', () => view.resized()); // the same zoom, the same place in the middle

window.addEventListener('message', (event: MessageEvent<ToWebview>) => {
    const message = event.data;
    if (message.type === 'graph') {
        if (message.graph) {
            void showGraph(message.uri, message.functions, message.graph, message.note, message.focus);
        } else {
            shown = undefined;
            setFunctions(message.functions, undefined);
            functionSelect.dataset.uri = message.uri;
            setNotice(message.note ?? (message.functions.length
                ? `Put the cursor in one of the orchestration functions (${message.functions.join(', ')}) or choose one above.`
                : 'This file has no orchestration-like function: no task graph to draw.'));
        }
    } else if (message.type === 'notice') {
        if (message.functions) {
            setFunctions(message.functions, shown?.graph.function);
        }
        if (message.uri) {
            functionSelect.dataset.uri = message.uri;
        }
        setNotice(message.text, message.kind === 'error' && shown !== undefined);
        if (message.kind !== 'error') {
            shown = undefined;
        }
        document.body.dataset.notice = message.kind;
    } else if (message.type === 'busy') {
        $<HTMLElement>('busy').hidden = !message.busy;
    }
});

syncControls();
setNotice('Waiting for the PyPTO Lens server\u2026');
vscode.postMessage({ type: 'ready' });
