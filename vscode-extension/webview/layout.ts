// Places what is drawn (tasks, and groups collapsed into one node) and the open groups around them
// (loops, the expansions of inline helpers' calls) with ELK's layered algorithm (elkjs, bundled):
// layers follow the edges, within a layer the program order (ELK's model order). Open groups are
// compound nodes holding what they hold.
// ELK sees only the skeleton of the ordering: the forward edges (not loop-carried) between what
// stands for their tasks, reduced to the ones no other path implies. That places everything as
// all edges would (the layers are the same), keeps the layout the same in every edge mode and
// whatever the hazards, and keeps ELK fast on long functions (every edge spanning k layers costs it
// k dummy nodes). The renderer draws every edge and hazard itself between the placed nodes.
import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkNode } from 'elkjs/lib/elk-api';
import type { TaskGraph } from './contract';
import type { Leaf, Visible } from './groups';
import type { Direction } from './logic';

export const NODE_WIDTH = 184;
export const NODE_HEIGHT = 46;
export const GROUP_NODE_WIDTH = 212;
export const GROUP_NODE_HEIGHT = 52;
const GROUP_LABEL = 22;

export interface Point { x: number; y: number }
export interface Box { x: number; y: number; width: number; height: number }

export interface Layout {
    width: number;
    height: number;
    /** by leaf key: `t<id>` for a task, a group's key for a collapsed group */
    nodes: Map<string, Box>;
    /** by the key of an open group */
    groups: Map<string, Box>;
}

/**
 * A line to draw between two leaves: the edges (by index) or the hazards (by index) it stands for
 * (one, or several between the same two leaves once groups are collapsed); `forward`: later in
 * program order, in the same iteration (drawn from one side to the other; the others as arcs).
 */
export interface Link {
    key: string;
    from: string;
    to: string;
    forward: boolean;
    hazard: boolean;
    items: number[];
}

let elk: InstanceType<typeof ELK> | undefined;

/**
 * What ELK places the leaves by: the forward edges between different leaves that no path of
 * other such edges implies (a transitive reduction by reachability), and program order for
 * leaves no edge orders. Leaves are ordered by their first task (groups hold runs of tasks).
 */
export function skeleton(graph: TaskGraph, view: Visible): [string, string][] {
    const order = new Map(view.leaves.map((l) => [l.key, l.first]));
    const byOrder = [...view.leaves].sort((a, b) => a.first - b.first);
    const next = new Map<string, Set<string>>();
    for (const e of graph.edges) {
        const from = view.rep.get(e.from);
        const to = view.rep.get(e.to);
        if (e.carried === true || from === undefined || to === undefined || from === to
            || (order.get(from) ?? 0) >= (order.get(to) ?? 0)) {
            continue;
        }
        (next.get(from) ?? next.set(from, new Set()).get(from)!).add(to);
    }
    // edges point to later leaves, so the reach of each leaf is known once its successors' is
    const reach = new Map<string, Set<string>>();
    const kept: [string, string][] = [];
    for (const leaf of [...byOrder].reverse()) {
        const successors = [...(next.get(leaf.key) ?? [])].sort((a, b) => order.get(a)! - order.get(b)!);
        const mine = new Set<string>();
        for (const s of successors) {
            if (!mine.has(s)) {
                kept.push([leaf.key, s]);
            }
            mine.add(s);
            for (const r of reach.get(s) ?? []) {
                mine.add(r);
            }
        }
        reach.set(leaf.key, mine);
    }
    // A leaf nothing orders (NoDep-only, manual scope, independent) would go to the first layer
    // wherever it is in the program: it follows the leaf before it instead, except in the run of
    // such leaves that starts the function.
    const hasPred = new Set(kept.map(([, to]) => to));
    let leading = true;
    byOrder.forEach((leaf, i) => {
        if (hasPred.has(leaf.key)) {
            leading = false;
        } else if (!leading && i > 0) {
            kept.push([byOrder[i - 1].key, leaf.key]);
        }
    });
    return kept.sort((a, b) => order.get(a[0])! - order.get(b[0])! || order.get(a[1])! - order.get(b[1])!);
}

function size(leaf: Leaf): [number, number] {
    return leaf.key.startsWith('t') ? [NODE_WIDTH, NODE_HEIGHT] : [GROUP_NODE_WIDTH, GROUP_NODE_HEIGHT];
}

export function elkGraph(graph: TaskGraph, direction: Direction, view: Visible): ElkNode {
    // each container is laid out on its own, with these (ELK does not pass them down)
    const options: Record<string, string> = {
        'elk.algorithm': 'layered',
        'elk.direction': direction,
        'elk.hierarchyHandling': 'SEPARATE_CHILDREN',
        'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
        // a task goes to the first layer its predecessors allow: the program reads from the left
        'elk.layered.layering.strategy': 'LONGEST_PATH_SOURCE',
        // tasks of one layer stay in program order (left to right, or top to bottom)
        'elk.layered.crossingMinimization.forceNodeModelOrder': 'true',
        'elk.edgeRouting': 'POLYLINE',
        // network simplex overflows the stack on long graphs; Brandes-Koepf is linear
        'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
        'elk.spacing.nodeNode': '14',
        'elk.layered.spacing.nodeNodeBetweenLayers': '44',
        'elk.spacing.edgeNode': '10',
        'elk.spacing.edgeEdge': '6',
        'elk.layered.spacing.edgeNodeBetweenLayers': '12',
        'elk.layered.spacing.edgeEdgeBetweenLayers': '6',
    };
    const root: ElkNode = {
        id: 'root',
        layoutOptions: { ...options, 'elk.padding': '[top=16,left=16,bottom=16,right=16]' },
        children: [],
        edges: [],
    };
    const containers = new Map<string, ElkNode>([['root', root]]);
    for (const group of view.open) {
        containers.set(group.key, {
            id: group.key, children: [],
            layoutOptions: { ...options, 'elk.padding': `[top=${GROUP_LABEL + 8},left=10,bottom=10,right=10]` },
        });
    }
    // everything in program order; an open group goes where its first task is, before that task
    const entries: { first: number; group: boolean; node: ElkNode; parent: string }[] = [];
    for (const group of view.open) {
        entries.push({ first: group.tasks[0], group: true, node: containers.get(group.key)!, parent: group.parent ?? 'root' });
    }
    for (const leaf of view.leaves) {
        const [width, height] = size(leaf);
        entries.push({ first: leaf.first, group: false, node: { id: leaf.key, width, height }, parent: leaf.parent ?? 'root' });
    }
    entries.sort((a, b) => a.first - b.first || (a.group === b.group ? 0 : a.group ? -1 : 1));
    for (const entry of entries) {
        (containers.get(entry.parent) ?? root).children!.push(entry.node);
    }
    // ELK lays each group out on its own (SEPARATE_CHILDREN: fast), so an edge may only join nodes
    // of one container: a link between containers becomes an edge between the two children of
    // their lowest common container that hold its ends (a leaf or an open group).
    const parentOf = new Map<string, string | undefined>(view.leaves.map((l) => [l.key, l.parent]));
    for (const group of view.open) {
        parentOf.set(group.key, group.parent);
    }
    const chain = (key: string): string[] => {
        const path: string[] = [];
        for (let at: string | undefined = key; at !== undefined; at = parentOf.get(at)) {
            path.unshift(at);
        }
        return ['root', ...path];
    };
    const seen = new Set<string>();
    for (const [from, to] of skeleton(graph, view)) {
        const a = chain(from);
        const b = chain(to);
        let common = 0;
        while (common + 1 < Math.min(a.length, b.length) && a[common + 1] === b[common + 1]) {
            common++;
        }
        const source = a[common + 1];
        const target = b[common + 1];
        const key = `${source}>${target}`;
        if (source === undefined || target === undefined || source === target || seen.has(key)) {
            continue;
        }
        seen.add(key);
        const container = containers.get(a[common]) ?? root;
        (container.edges ??= []).push({ id: `p${seen.size}`, sources: [source], targets: [target] });
    }
    return root;
}

/** Runs ELK and turns its nested, container-relative coordinates into absolute ones. */
export async function layoutGraph(graph: TaskGraph, direction: Direction, view: Visible): Promise<Layout> {
    elk ??= new ELK();
    const result = await elk.layout(elkGraph(graph, direction, view));
    const leaves = new Set(view.leaves.map((l) => l.key));
    const nodes = new Map<string, Box>();
    const boxes = new Map<string, Box>();
    const visit = (node: ElkNode, offset: Point) => {
        for (const child of node.children ?? []) {
            const at = { x: offset.x + (child.x ?? 0), y: offset.y + (child.y ?? 0) };
            const box = { x: at.x, y: at.y, width: child.width ?? 0, height: child.height ?? 0 };
            (leaves.has(child.id) ? nodes : boxes).set(child.id, box);
            visit(child, at);
        }
    };
    visit(result, { x: 0, y: 0 });
    return { width: result.width ?? 0, height: result.height ?? 0, nodes, groups: boxes };
}
