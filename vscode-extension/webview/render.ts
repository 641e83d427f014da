// Draws a laid-out task graph as SVG: the open groups (loops, inline helpers' expansions, each with a
// caption that collapses it), edges (coloured by kind, carried dashed, unknown overlap dotted, or
// apart: faint, beneath), hazards (red), the task nodes and the collapsed groups' nodes. Styles live in style.css as
// classes over VS Code's theme variables; nothing here sets inline styles (the CSP forbids them).
import type { Edge, Hazard, Task, TaskGraph } from './contract';
import { groupCaption, type Group, type Groups, type Visible } from './groups';
import type { Box, Layout, Link } from './layout';
import type { Direction } from './logic';
import { clip, place, plural } from './logic';

const SVG = 'http://www.w3.org/2000/svg';
export const EDGE_KINDS = ['raw', 'waw', 'creator', 'deps'] as const;

export function svg<K extends keyof SVGElementTagNameMap>(tag: K, attributes: Record<string, string | number> = {},
    parent?: Element): SVGElementTagNameMap[K] {
    const element = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attributes)) {
        element.setAttribute(name, String(value));
    }
    parent?.appendChild(element);
    return element;
}

function title(parent: Element, text: string): void {
    svg('title', {}, parent).textContent = text;
}

/** The arrowheads, one per edge kind and one for hazards (markers cannot take the line's colour). */
export function defineMarkers(root: SVGSVGElement): void {
    const defs = svg('defs', {}, root);
    for (const kind of [...EDGE_KINDS, 'other', 'hazard']) {
        const marker = svg('marker', {
            id: `arrow-${kind}`, viewBox: '0 0 10 10', refX: 9, refY: 5,
            markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse', markerUnits: 'userSpaceOnUse',
        }, defs);
        svg('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: `arrowhead kind-${kind}` }, marker);
    }
}

export function kindClass(kind: string): string {
    return (EDGE_KINDS as readonly string[]).includes(kind) ? kind : 'other';
}

/**
 * Where each forward link leaves its source and enters its target: spread along the node's
 * side (right and left in a left-to-right layout, bottom and top in a top-to-bottom one), in the
 * order of the other ends, so that links do not all meet in one point and rarely cross there.
 */
function ports(links: readonly Link[], layout: Layout, direction: Direction): Map<string, [number, number]> {
    const across = (box: Box) => (direction === 'RIGHT' ? box.y + box.height / 2 : box.x + box.width / 2);
    const outgoing = new Map<string, Link[]>();
    const incoming = new Map<string, Link[]>();
    for (const link of links) {
        if (link.forward && !link.hazard) {
            (outgoing.get(link.from) ?? outgoing.set(link.from, []).get(link.from)!).push(link);
            (incoming.get(link.to) ?? incoming.set(link.to, []).get(link.to)!).push(link);
        }
    }
    const share = new Map<string, [number, number]>();
    const spread = (groups: Map<string, Link[]>, other: (l: Link) => string, slot: 0 | 1) => {
        for (const list of groups.values()) {
            list.sort((a, b) => across(layout.nodes.get(other(a))!) - across(layout.nodes.get(other(b))!));
            list.forEach((link, i) => {
                const entry = share.get(link.key) ?? [0.5, 0.5];
                entry[slot] = 0.2 + (0.6 * (i + 1)) / (list.length + 1);
                share.set(link.key, entry);
            });
        }
    };
    spread(outgoing, (l) => l.to, 0);
    spread(incoming, (l) => l.from, 1);
    return share;
}

/** A forward link: out of the source's far side, into the target's near side, as one curve. */
function curve(a: Box, b: Box, direction: Direction, [out, into]: [number, number]): string {
    if (direction === 'RIGHT') {
        const x0 = a.x + a.width;
        const y0 = a.y + a.height * out;
        const x1 = b.x;
        const y1 = b.y + b.height * into;
        const bend = Math.max(36, Math.abs(x1 - x0) / 2);
        return `M ${x0} ${y0} C ${x0 + bend} ${y0}, ${x1 - bend} ${y1}, ${x1 - 1} ${y1}`;
    }
    const x0 = a.x + a.width * out;
    const y0 = a.y + a.height;
    const x1 = b.x + b.width * into;
    const y1 = b.y;
    const bend = Math.max(30, Math.abs(y1 - y0) / 2);
    return `M ${x0} ${y0} C ${x0} ${y0 + bend}, ${x1} ${y1 - bend}, ${x1} ${y1 - 1}`;
}

/**
 * An arc between two placed nodes for a link ELK did not route (carried across iterations, or
 * backwards in program order): above the nodes in a left-to-right layout, to their right in a
 * top-to-bottom one; hazards bow the other way (below, left) so the two never share a path.
 */
function arc(a: Box, b: Box, direction: Direction, hazard: boolean): string {
    const side = hazard ? 1 : -1;
    if (direction === 'RIGHT') {
        const y0 = hazard ? a.y + a.height : a.y;
        const y1 = hazard ? b.y + b.height : b.y;
        if (a === b) {
            const x = a.x + a.width * 0.7;
            return `M ${x - 14} ${y0} C ${x - 20} ${y0 + side * 34}, ${x + 20} ${y0 + side * 34}, ${x + 14} ${y0}`;
        }
        const xa = a.x + a.width / 2 + 10;
        const xb = b.x + b.width / 2 - 10;
        const lift = 28 + Math.min(140, Math.abs(xa - xb) * 0.18);
        const yc = (side < 0 ? Math.min(y0, y1) : Math.max(y0, y1)) + side * lift;
        return `M ${xa} ${y0} C ${xa} ${yc}, ${xb} ${yc}, ${xb} ${y1}`;
    }
    const x0 = hazard ? a.x : a.x + a.width;
    const x1 = hazard ? b.x : b.x + b.width;
    const out = -side;
    if (a === b) {
        const y = a.y + a.height * 0.5;
        return `M ${x0} ${y - 12} C ${x0 + out * 34} ${y - 18}, ${x0 + out * 34} ${y + 18}, ${x0} ${y + 12}`;
    }
    const ya = a.y + a.height / 2 - 6;
    const yb = b.y + b.height / 2 + 6;
    const lift = 28 + Math.min(140, Math.abs(ya - yb) * 0.18);
    const xc = (out > 0 ? Math.max(x0, x1) : Math.min(x0, x1)) + out * lift;
    return `M ${x0} ${ya} C ${xc} ${ya}, ${xc} ${yb}, ${x1} ${yb}`;
}

export interface Drawn {
    /** by leaf key: `t<id>` for a task, a group's key for a collapsed group */
    nodes: Map<string, SVGGElement>;
    /** by link key */
    links: Map<string, SVGGElement>;
}

export interface DrawInput {
    graph: TaskGraph;
    layout: Layout;
    links: readonly Link[];
    direction: Direction;
    hazardsOf: Map<number, Hazard[]>;
    groups: Groups;
    view: Visible;
    /** draw the edges of unknown overlap apart: faint, beneath the others */
    uncertainApart: boolean;
}

function edgeTitle(graph: TaskGraph, edge: Edge): string {
    const name = (id: number) => `#${id} ${graph.tasks.find((t) => t.id === id)?.name ?? ''}`.trim();
    const what = `${edge.kind.toUpperCase()}${edge.buffer ? ` on ${edge.buffer}` : ''} (${edge.rule})`;
    const notes = [edge.carried ? 'from an earlier iteration' : '', edge.overlap === 'unknown' ? 'overlap unknown' : '',
        edge.redundant ? 'implied by other edges' : ''].filter((s) => s !== '');
    return `${name(edge.from)} \u2192 ${name(edge.to)}: ${what}${notes.length ? `; ${notes.join(', ')}` : ''}`;
}

export function taskTitle(task: Task, hazards: readonly Hazard[]): string {
    const lines = [`#${task.id} ${task.name} (${task.kind}), ${place(task)}${task.elsewhere ? ` (in ${task.elsewhere})` : ''}`];
    if (task.tid) {
        lines.push(`task id: ${task.tid}`);
    }
    for (const a of task.args ?? []) {
        lines.push(`  ${a.param} = ${a.text}: ${a.direction}${a.region && a.region !== 'whole' ? ` ${a.region}` : ''}`);
    }
    if (task.branch) {
        lines.push('inside an if: not on every path');
    }
    if (task.manual) {
        lines.push('inside pl.manual_scope: only deps= orders it (G11)');
    }
    if (task.kind === 'unknown') {
        lines.push('its callee is not found: its directions are unknown, so it is taken to order everything '
            + '(no hazard across it, no edges drawn)');
    } else if (task.waits_on_unknown) {
        lines.push('a deps= entry names a task id the analysis cannot follow: it may wait for any earlier task');
    }
    for (const h of hazards) {
        lines.push(`\u26a0 ${h.code} (${h.rule}): ${h.message}`);
    }
    lines.push('Click: go to the call');
    return lines.join('\n');
}

/** The hazards any task of a group is part of, each once. */
function groupHazards(group: Group, hazardsOf: Map<number, Hazard[]>): Hazard[] {
    return [...new Set(group.tasks.flatMap((t) => hazardsOf.get(t) ?? []))];
}

function linkClasses(graph: TaskGraph, link: Link, uncertainApart: boolean): string {
    if (link.hazard) {
        const h = graph.hazards[link.items[0]];
        return `hazard-link severity-${h.severity}${h.carried ? ' carried' : ''}`;
    }
    const e = graph.edges[link.items[0]];
    const unknown = e.overlap === 'unknown';
    return ['edge', `kind-${kindClass(e.kind)}`, e.carried ? 'carried' : '', unknown ? 'unknown' : '',
        unknown && uncertainApart ? 'apart' : '', link.items.length > 1 ? 'several' : ''].filter((c) => c !== '').join(' ');
}

function linkTitle(graph: TaskGraph, link: Link): string {
    if (link.hazard) {
        return link.items.map((i) => {
            const h = graph.hazards[i];
            return `\u26a0 ${h.code} (${h.rule}, ${h.severity}): ${h.message}`;
        }).join('\n');
    }
    const lines = link.items.slice(0, 12).map((i) => edgeTitle(graph, graph.edges[i]));
    if (link.items.length > 12) {
        lines.push(`\u2026 and ${link.items.length - 12} more`);
    }
    return (link.items.length > 1 ? `${link.items.length} edges\n` : '') + lines.join('\n');
}

export function draw(viewport: SVGGElement, input: DrawInput): Drawn {
    const { graph, layout, links, direction, hazardsOf, groups, view, uncertainApart } = input;
    viewport.replaceChildren();
    const groupLayer = svg('g', { class: 'groups' }, viewport);
    const apartLayer = svg('g', { class: 'edges uncertain' }, viewport);
    const edgeLayer = svg('g', { class: 'edges' }, viewport);
    const hazardLayer = svg('g', { class: 'hazard-links' }, viewport);
    const captionLayer = svg('g', { class: 'captions' }, viewport); // over the lines that cross a group's top
    const nodeLayer = svg('g', { class: 'nodes' }, viewport);

    for (const group of view.open) {
        const box = layout.groups.get(group.key);
        if (!box) {
            continue;
        }
        const loop = group.kind === 'loop' ? graph.loops.find((l) => l.id === group.id) : undefined;
        const classes = group.kind === 'loop' ? `group loop loop-${loop?.kind ?? 'range'}` : 'group inline';
        const g = svg('g', { class: classes, 'data-group': group.key }, groupLayer);
        svg('rect', { x: box.x, y: box.y, width: box.width, height: box.height, rx: 6 }, g);
        const caption = svg('g', { class: `caption caption-${group.kind}`, 'data-toggle': group.key, tabindex: 0, role: 'button' }, captionLayer);
        const label = `\u25be ${clip(groupCaption(graph, group), Math.max(8, Math.floor((box.width - 24) / 6.6)))}`;
        svg('rect', { x: box.x + 2, y: box.y + 3, width: Math.min(box.width - 4, 16 + label.length * 6.6), height: 18, rx: 4, class: 'caption-hit' }, caption);
        svg('text', { x: box.x + 8, y: box.y + 16, class: 'group-label' }, caption).textContent = label;
        const what = group.kind === 'inline' ? `${plural(group.tasks.length, 'task')} of one call of this inline helper (N1)`
            : loop?.kind === 'parallel' ? 'iterations are not ordered with each other' : plural(group.tasks.length, 'task');
        title(caption, `${groupCaption(graph, group)}: ${what}\nClick: collapse into one node`);
    }

    const drawn: Drawn = { nodes: new Map(), links: new Map() };
    const share = ports(links, layout, direction);
    for (const link of links) {
        const a = layout.nodes.get(link.from);
        const b = layout.nodes.get(link.to);
        if (!a || !b) {
            continue;
        }
        const d = link.forward && !link.hazard ? curve(a, b, direction, share.get(link.key) ?? [0.5, 0.5])
            : arc(a, b, direction, link.hazard);
        const classes = linkClasses(graph, link, uncertainApart);
        const layer = link.hazard ? hazardLayer : classes.includes('apart') ? apartLayer : edgeLayer;
        const g = svg('g', { class: classes }, layer);
        if (link.hazard) {
            g.dataset.hazard = link.items.join(',');
            svg('path', { d, class: 'line', 'marker-end': 'url(#arrow-hazard)' }, g);
        } else {
            const first = graph.edges[link.items[0]];
            g.dataset.edge = link.items.join(',');
            g.dataset.from = link.from;
            g.dataset.to = link.to;
            svg('path', { d, class: 'line', 'marker-end': `url(#arrow-${kindClass(first.kind)})` }, g);
        }
        svg('path', { d, class: 'hit' }, g);
        title(g, linkTitle(graph, link));
        drawn.links.set(link.key, g);
    }

    for (const leaf of view.leaves) {
        const box = layout.nodes.get(leaf.key);
        if (!box) {
            continue;
        }
        const g = leaf.key.startsWith('t') ? taskNode(graph, Number(leaf.key.slice(1)), box, hazardsOf, nodeLayer)
            : groupNode(graph, groups.byKey.get(leaf.key)!, box, hazardsOf, nodeLayer);
        drawn.nodes.set(leaf.key, g);
    }
    return drawn;
}

function taskNode(graph: TaskGraph, id: number, box: Box, hazardsOf: Map<number, Hazard[]>, layer: Element): SVGGElement {
    const task = graph.tasks.find((t) => t.id === id)!;
    const hazards = hazardsOf.get(task.id) ?? [];
    const classes = ['node', `task-${task.kind}`, hazards.length ? 'has-hazard' : '', task.branch ? 'branch' : '',
        task.manual ? 'manual' : ''].filter((c) => c !== '').join(' ');
    const g = svg('g', { class: classes, transform: `translate(${box.x},${box.y})`, tabindex: 0, role: 'button' }, layer);
    g.dataset.id = String(task.id);
    g.dataset.line = String(task.line);
    svg('rect', { width: box.width, height: box.height, rx: task.kind === 'dispatch' ? 10 : 4, class: 'box' }, g);
    svg('rect', { width: 5, height: box.height, rx: 2, class: `stripe stripe-${task.kind}` }, g);
    const name = svg('text', { x: 12, y: 19, class: 'name' }, g);
    svg('tspan', { class: 'tid' }, name).textContent = `#${task.id} `;
    svg('tspan', {}, name).textContent = clip(task.name, 20);
    // (the stripe tells a call from a scope's dispatch; the other kinds are named)
    const facts = [place(task), task.kind === 'call' || task.kind === 'dispatch' ? '' : task.kind, task.tid ? `\u2192 ${task.tid}` : '',
        task.manual ? 'manual' : '', task.branch ? 'if' : ''].filter((s) => s !== '');
    svg('text', { x: 12, y: 36, class: 'facts' }, g).textContent = clip(facts.join(' \u00b7 '), 28);
    badge(g, box, hazards.length);
    title(g, taskTitle(task, hazards));
    return g;
}

/** A collapsed group: one node for its tasks, `▸ helper`, the count and where it is. */
function groupNode(graph: TaskGraph, group: Group, box: Box, hazardsOf: Map<number, Hazard[]>, layer: Element): SVGGElement {
    const hazards = groupHazards(group, hazardsOf);
    const g = svg('g', { class: `node group-node group-${group.kind}${hazards.length ? ' has-hazard' : ''}`,
        transform: `translate(${box.x},${box.y})`, tabindex: 0, role: 'button' }, layer);
    g.dataset.group = group.key;
    svg('rect', { x: 4, y: 4, width: box.width - 4, height: box.height - 4, rx: 8, class: 'stack' }, g); // it holds several
    svg('rect', { width: box.width - 4, height: box.height - 4, rx: 8, class: 'box' }, g);
    const caption = groupCaption(graph, group);
    const [head] = caption.split(' \u00b7 ');
    svg('text', { x: 10, y: 20, class: 'name' }, g).textContent = `\u25b8 ${clip(head, 24)}`;
    const first = group.tasks[0];
    const last = group.tasks[group.tasks.length - 1];
    const ids = first === last ? `#${first}` : `#${first}\u2013#${last}`;
    svg('text', { x: 10, y: 39, class: 'facts' }, g).textContent =
        clip(`${plural(group.tasks.length, 'task')} ${ids} \u00b7 ${caption.slice(head.length + 3)}`, 32);
    badge(g, box, hazards.length);
    title(g, `${caption}: ${plural(group.tasks.length, 'task')} (#${first}\u2013#${last})${group.kind === 'inline' ? ', one call of an inline helper (N1)' : ''}`
        + `${hazards.length ? `\n\u26a0 ${hazards.length} hazard${hazards.length === 1 ? '' : 's'}` : ''}\nClick: expand`);
    return g;
}

function badge(g: SVGGElement, box: Box, count: number): void {
    if (count) {
        const b = svg('g', { class: 'badge', transform: `translate(${box.width - 30},5)` }, g);
        svg('rect', { width: 26, height: 15, rx: 7 }, b);
        svg('text', { x: 13, y: 11.5, 'text-anchor': 'middle' }, b).textContent = `!${count}`;
    }
}
