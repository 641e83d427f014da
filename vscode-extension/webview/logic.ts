// The webview's pure logic: which edges are transitively redundant, which edges a mode shows,
// the neighbourhood of a task to a depth, search, and the key that decides when a new answer
// can keep the old layout. No DOM here: test/unit runs it under node.
import type { Edge, Hazard, Loop, Task, TaskGraph } from './contract';

export type EdgeMode = 'full' | 'reduced' | 'omitted';
export type Direction = 'RIGHT' | 'DOWN';

/**
 * Whether each edge is implied by a path of two or more other edges. A path orders only if it
 * certainly exists: its edges are not loop-carried and their overlap is certain, and every task
 * it passes through runs on every path (not inside an `if`). Carried edges are never redundant
 * (they are the only link between iterations). Parallel edges (one pair, two buffers) are both
 * kept: a direct edge is not a path of two.
 */
export function computeRedundant(tasks: readonly Task[], edges: readonly Edge[]): boolean[] {
    const inBranch = new Map(tasks.map((t) => [t.id, t.branch === true]));
    const orders = (e: Edge) => e.carried !== true && e.overlap !== 'unknown';
    const next = new Map<number, Set<number>>();
    for (const e of edges) {
        if (orders(e) && e.from !== e.to) {
            let set = next.get(e.from);
            if (!set) {
                set = new Set();
                next.set(e.from, set);
            }
            set.add(e.to);
        }
    }
    // reachable[x]: the tasks a path of one or more ordering edges leads to from x, where
    // every task strictly inside the path is on every path
    const reachable = new Map<number, Set<number>>();
    const reach = (start: number): Set<number> => {
        const known = reachable.get(start);
        if (known) {
            return known;
        }
        const seen = new Set<number>();
        const stack = [...(next.get(start) ?? [])];
        while (stack.length > 0) {
            const node = stack.pop() as number;
            if (seen.has(node)) {
                continue;
            }
            seen.add(node);
            if (!inBranch.get(node)) {
                stack.push(...(next.get(node) ?? []));
            }
        }
        reachable.set(start, seen);
        return seen;
    };
    return edges.map((e) => {
        if (e.carried === true || e.from === e.to) {
            return false;
        }
        for (const middle of next.get(e.from) ?? []) {
            if (middle !== e.to && !inBranch.get(middle) && reach(middle).has(e.to)) {
                return true;
            }
        }
        return false;
    });
}

/** The producer's `redundant` flags when it gave one for every edge, else computed here. */
export function redundantFlags(graph: TaskGraph): boolean[] {
    if (graph.edges.every((e) => typeof e.redundant === 'boolean')) {
        return graph.edges.map((e) => e.redundant === true);
    }
    return computeRedundant(graph.tasks, graph.edges);
}

/** Indices of the edges a mode shows: all, the non-redundant ones, or only the redundant ones. */
export function visibleEdges(redundant: readonly boolean[], mode: EdgeMode): number[] {
    const shown: number[] = [];
    redundant.forEach((r, i) => {
        if (mode === 'full' || (mode === 'reduced' && !r) || (mode === 'omitted' && r)) {
            shown.push(i);
        }
    });
    return shown;
}

export interface Neighbourhood {
    /** task id -> how many edges back (predecessors) */
    preds: Map<number, number>;
    /** task id -> how many edges forward (successors) */
    succs: Map<number, number>;
}

/**
 * The predecessors and successors of `start` up to `depth` edges away over `edges` (depth 0:
 * none, a negative depth: all). Breadth first, so each task gets its shortest distance; loop-
 * carried edges count like the others (they are dependencies too), so the walk stops at tasks
 * already seen rather than going round a loop.
 */
export function neighbourhood(edges: readonly Pick<Edge, 'from' | 'to'>[], start: number, depth: number): Neighbourhood {
    const forward = new Map<number, number[]>();
    const backward = new Map<number, number[]>();
    for (const e of edges) {
        (forward.get(e.from) ?? forward.set(e.from, []).get(e.from)!).push(e.to);
        (backward.get(e.to) ?? backward.set(e.to, []).get(e.to)!).push(e.from);
    }
    const walk = (links: Map<number, number[]>): Map<number, number> => {
        const found = new Map<number, number>();
        let frontier = [start];
        for (let level = 1; frontier.length > 0 && (depth < 0 || level <= depth); level++) {
            const following: number[] = [];
            for (const node of frontier) {
                for (const other of links.get(node) ?? []) {
                    if (other !== start && !found.has(other)) {
                        found.set(other, level);
                        following.push(other);
                    }
                }
            }
            frontier = following;
        }
        return found;
    };
    return { preds: walk(backward), succs: walk(forward) };
}

/**
 * The tasks a search matches, in program order. `#12` or `12` is a task id; `L20` or `:20` a
 * source line; anything else a case-insensitive substring of the callee's name or the task-id
 * variable (`tid`).
 */
export function searchTasks(tasks: readonly Task[], query: string): number[] {
    const q = query.trim();
    if (q === '') {
        return [];
    }
    const id = /^#?(\d+)$/.exec(q);
    if (id) {
        return tasks.filter((t) => t.id === Number(id[1])).map((t) => t.id);
    }
    const line = /^(?:L|:|line\s*)(\d+)$/i.exec(q);
    if (line) {
        const n = Number(line[1]);
        return tasks.filter((t) => n >= t.line && n <= (t.end_line ?? t.line)).map((t) => t.id);
    }
    const needle = q.toLowerCase();
    return tasks
        .filter((t) => t.name.toLowerCase().includes(needle) || (t.tid ?? '').toLowerCase().includes(needle))
        .map((t) => t.id);
}

/**
 * What the layout depends on: the tasks' ids and what holds them (loops, helpers' expansions), the loops'
 * nesting, and the edges' ends
 * (the layout places tasks by the edges alone, whatever the mode or the hazards). Names, lines
 * and messages are not in it, so an edit that only moves or renames calls keeps every node
 * where it was.
 */
export function layoutKey(graph: TaskGraph, direction: Direction): string {
    const tasks = graph.tasks.map((t) => `${t.id}:${(t.path ?? t.loops.map((l) => `L${l}`)).join('.')}`).join(',');
    const loops = graph.loops.map((l) => `${l.id}<${l.parent ?? ''}`).join(',');
    const edges = [...new Set(graph.edges.map((e) => `${e.from}>${e.to}${e.carried ? 'c' : ''}`))].sort().join(',');
    return [graph.function, direction, tasks, loops, edges].join('|');
}

/** The last part of a file's uri, as a user reads it beside a line number. */
export function fileName(uri: string): string {
    const last = uri.replace(/\/+$/, '').split('/').pop() ?? uri;
    try {
        return decodeURIComponent(last);
    } catch {
        return last;
    }
}

/** Where a task or a loop is: "line 18", or "rmsnorm.py:18" in another file's inline helper. */
export function place(item: { line: number; uri?: string | null }): string {
    return item.uri ? `${fileName(item.uri)}:${item.line}` : `line ${item.line}`;
}

/** A loop group's caption, e.g. "pl.parallel x8 · line 18". */
export function loopLabel(loop: Loop): string {
    const trips = loop.trips === null || loop.trips === undefined ? '' : ` \u00d7${loop.trips}`;
    return `pl.${loop.kind}${trips} \u00b7 ${place(loop)}`;
}

/** The tasks a hazard involves, as "#3 fill (line 20)". */
export function taskRef(task: Task | undefined, id: number): string {
    return task ? `#${task.id} ${task.name} (${place(task)})` : `#${id}`;
}

/** The hazards each task is part of, for marking nodes. */
export function hazardTasks(hazards: readonly Hazard[]): Map<number, Hazard[]> {
    const by = new Map<number, Hazard[]>();
    for (const h of hazards) {
        for (const id of new Set([h.first, h.second])) {
            (by.get(id) ?? by.set(id, []).get(id)!).push(h);
        }
    }
    return by;
}

/** `1 task`, `3 tasks`. */
export function plural(n: number, word: string): string {
    return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Shortens a label to `max` characters with an ellipsis (SVG text does not clip itself). */
export function clip(text: string, max: number): string {
    const chars = [...text];
    return chars.length <= max ? text : `${chars.slice(0, Math.max(1, max - 1)).join('')}\u2026`;
}
