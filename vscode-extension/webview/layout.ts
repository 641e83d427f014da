// Places the tasks and loop groups with ELK's layered algorithm (elkjs, bundled): layers follow
// the edges, within a layer the program order (ELK's model order). Loops are compound nodes
// holding their tasks.
// ELK sees only the skeleton of the ordering: the forward edges (not loop-carried) reduced to
// the ones no other path implies. That places the tasks exactly as all edges would (the layers
// are the same), keeps the layout the same in every edge mode and whatever the hazards, and keeps
// ELK fast on long functions (every edge spanning k layers costs it k dummy nodes). The renderer
// draws every edge and hazard itself between the placed nodes.
import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkNode } from 'elkjs/lib/elk-api';
import type { TaskGraph } from './contract';
import type { Direction } from './logic';

export const NODE_WIDTH = 184;
export const NODE_HEIGHT = 46;
const GROUP_LABEL = 22;

export interface Point { x: number; y: number }
export interface Box { x: number; y: number; width: number; height: number }

export interface Layout {
    width: number;
    height: number;
    nodes: Map<number, Box>;
    groups: Map<number, Box>;
}

/** A link to draw: an edge (by index) or a hazard (by index), with its ends. */
export interface Link { key: string; from: number; to: number; carried: boolean }

let elk: InstanceType<typeof ELK> | undefined;

/** A forward link (later in program order, same iteration): drawn from one side to the other. */
export function forward(link: Link): boolean {
    return !link.carried && link.from < link.to;
}

/**
 * What ELK places the tasks by: the forward edges no path of other forward edges implies (a
 * transitive reduction by reachability), and program order for tasks no edge orders.
 */
export function skeleton(graph: TaskGraph): [number, number][] {
    const next = new Map<number, number[]>();
    for (const e of graph.edges) {
        if (e.carried !== true && e.from < e.to) {
            const list = next.get(e.from) ?? next.set(e.from, []).get(e.from)!;
            if (!list.includes(e.to)) {
                list.push(e.to);
            }
        }
    }
    const ids = [...new Set(graph.tasks.map((t) => t.id))].sort((a, b) => b - a);
    // edges point to later tasks, so the reach of each task is known once its successors' is
    const reach = new Map<number, Set<number>>();
    const kept: [number, number][] = [];
    for (const id of ids) {
        const successors = (next.get(id) ?? []).sort((a, b) => a - b);
        const mine = new Set<number>();
        for (const s of successors) {
            if (!mine.has(s)) {
                kept.push([id, s]);
            }
            mine.add(s);
            for (const r of reach.get(s) ?? []) {
                mine.add(r);
            }
        }
        reach.set(id, mine);
    }
    // A task nothing orders (NoDep-only, manual scope, independent) would go to the first
    // layer wherever it is in the program: it follows the task before it instead, except in the
    // run of such tasks that starts the function.
    const ordered = graph.tasks.map((t) => t.id).sort((a, b) => a - b);
    const hasPred = new Set(kept.map(([, to]) => to));
    let leading = true;
    for (let i = 0; i < ordered.length; i++) {
        const id = ordered[i];
        if (hasPred.has(id)) {
            leading = false;
        } else if (!leading && i > 0) {
            kept.push([ordered[i - 1], id]);
        }
    }
    return kept.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

export function elkGraph(graph: TaskGraph, direction: Direction): ElkNode {
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
    const groupNodes = new Map<number, ElkNode & { first: number }>();
    for (const loop of graph.loops) {
        groupNodes.set(loop.id, {
            id: `L${loop.id}`, children: [], first: Number.MAX_SAFE_INTEGER,
            layoutOptions: { ...options, 'elk.padding': `[top=${GROUP_LABEL + 8},left=10,bottom=10,right=10]` },
        });
    }
    const root: ElkNode = {
        id: 'root',
        layoutOptions: { ...options, 'elk.padding': '[top=16,left=16,bottom=16,right=16]' },
        children: [],
        edges: [],
    };
    const containerOf = (loops: readonly number[]): ElkNode => {
        const innermost = loops[loops.length - 1];
        return innermost === undefined ? root : (groupNodes.get(innermost) ?? root);
    };
    // tasks in program order; each loop group goes where its first task is
    for (const task of graph.tasks) {
        for (const id of task.loops) {
            const group = groupNodes.get(id);
            if (group) {
                group.first = Math.min(group.first, task.id);
            }
        }
    }
    const entries: { first: number; node: ElkNode; parent: ElkNode }[] = [];
    for (const loop of graph.loops) {
        const group = groupNodes.get(loop.id)!;
        const parent = loop.parent === null || loop.parent === undefined ? root : (groupNodes.get(loop.parent) ?? root);
        entries.push({ first: group.first, node: group, parent });
    }
    for (const task of graph.tasks) {
        entries.push({ first: task.id, node: { id: `t${task.id}`, width: NODE_WIDTH, height: NODE_HEIGHT }, parent: containerOf(task.loops) });
    }
    // a group before the task it starts with, so that it holds its place in the order
    entries.sort((a, b) => a.first - b.first || (a.node.id.startsWith('L') ? -1 : 1));
    for (const entry of entries) {
        entry.parent.children!.push(entry.node);
    }
    for (const group of groupNodes.values()) {
        delete (group as { first?: number }).first;
    }
    // ELK lays each loop out on its own (SEPARATE_CHILDREN: fast), so an edge may only join
    // nodes of one container: a link between containers becomes an edge between the two
    // children of their lowest common container that hold its ends (a task or a loop group).
    const chain = (id: number): string[] => {
        const task = graph.tasks.find((t) => t.id === id);
        const path: string[] = ['root'];
        for (const loop of task?.loops ?? []) {
            path.push(`L${loop}`);
        }
        path.push(`t${id}`);
        return path;
    };
    const containers = new Map<string, ElkNode>([['root', root], ...[...groupNodes].map(([id, n]): [string, ElkNode] => [`L${id}`, n])]);
    const seen = new Set<string>();
    for (const [from, to] of skeleton(graph)) {
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
export async function layoutGraph(graph: TaskGraph, direction: Direction): Promise<Layout> {
    elk ??= new ELK();
    const result = await elk.layout(elkGraph(graph, direction));
    const nodes = new Map<number, Box>();
    const groups = new Map<number, Box>();
    const origin = new Map<string, Point>([['root', { x: 0, y: 0 }]]);
    const visit = (node: ElkNode, offset: Point) => {
        for (const child of node.children ?? []) {
            const at = { x: offset.x + (child.x ?? 0), y: offset.y + (child.y ?? 0) };
            origin.set(child.id, at);
            const box = { x: at.x, y: at.y, width: child.width ?? 0, height: child.height ?? 0 };
            if (child.id.startsWith('t')) {
                nodes.set(Number(child.id.slice(1)), box);
            } else {
                groups.set(Number(child.id.slice(1)), box);
            }
            visit(child, at);
        }
    };
    visit(result, { x: 0, y: 0 });
    return { width: result.width ?? 0, height: result.height ?? 0, nodes, groups };
}
