// What holds each task: loops (`L<id>`) and the expansions of inline helpers' calls (`g<id>`), nested as
// the program nests them; which of them are collapsed, and what then stands for each task in the
// drawing (itself, or the outermost collapsed group around it). Pure logic: test/unit runs it.
import type { Expansion, TaskGraph } from './contract';
import { place } from './logic';

/** Past this many tasks a graph opens with every helper's expansion collapsed. */
export const BIG_GRAPH = 60;

export interface Group {
    key: string;
    kind: 'loop' | 'inline';
    id: number;
    parent: string | undefined;
    /** every task inside, nested groups' too, in program order */
    tasks: number[];
}

export interface Groups {
    byKey: Map<string, Group>;
    /** task id -> the groups around it, outermost first */
    pathOf: Map<number, string[]>;
}

/**
 * The groups of a graph, from each task's `path` (or its loops, from a producer that gives no path).
 * A helper call that launches one task is no group: that task's node says as much.
 */
export function groupsOf(graph: TaskGraph): Groups {
    const byKey = new Map<string, Group>();
    const pathOf = new Map<number, string[]>();
    const single = new Set((graph.inlined ?? []).filter((e) => e.tasks.length === 1).map((e) => `g${e.id}`));
    for (const task of graph.tasks) {
        const path = (task.path ?? task.loops.map((l) => `L${l}`)).filter((key) => !single.has(key));
        pathOf.set(task.id, path);
        path.forEach((key, i) => {
            let group = byKey.get(key);
            if (!group) {
                group = { key, kind: key.startsWith('g') ? 'inline' : 'loop', id: Number(key.slice(1)), parent: path[i - 1], tasks: [] };
                byKey.set(key, group);
            }
            group.tasks.push(task.id);
        });
    }
    return { byKey, pathOf };
}

/** The helper call an inline group stands for. */
export function expansionOf(graph: TaskGraph, group: Group): Expansion | undefined {
    return group.kind === 'inline' ? graph.inlined?.find((e) => e.id === group.id) : undefined;
}

/** A group's caption: "draft_layer · line 560", "pl.range ×4 · line 12". */
export function groupCaption(graph: TaskGraph, group: Group): string {
    if (group.kind === 'inline') {
        const e = expansionOf(graph, group);
        return e ? `${e.helper} \u00b7 ${place(e)}` : `inline #${group.id}`;
    }
    const loop = graph.loops.find((l) => l.id === group.id);
    if (!loop) {
        return `loop #${group.id}`;
    }
    const trips = loop.trips === null || loop.trips === undefined ? '' : ` \u00d7${loop.trips}`;
    return `pl.${loop.kind}${trips} \u00b7 ${place(loop)}`;
}

/** A graph folded to fewer nodes than this opens its biggest folded call, and again (one call of 151 tasks). */
export const FEWEST_NODES = 8;

/**
 * What a big graph opens with: every inline helper's expansion collapsed, then the biggest of the
 * folded ones opened while fewer than FEWEST_NODES nodes would be drawn; a small graph, nothing.
 */
export function defaultCollapsed(graph: TaskGraph, groups: Groups): Set<string> {
    if (graph.tasks.length <= BIG_GRAPH) {
        return new Set();
    }
    const collapsed = new Set([...groups.byKey.values()].filter((g) => g.kind === 'inline').map((g) => g.key));
    for (;;) {
        const leaves = visible(graph, groups, collapsed).leaves;
        const folded = leaves.filter((l) => collapsed.has(l.key)).sort((a, b) => b.tasks.length - a.tasks.length);
        if (leaves.length >= FEWEST_NODES || folded.length === 0) {
            return collapsed;
        }
        collapsed.delete(folded[0].key);
    }
}

export interface Leaf {
    /** `t<id>` for a task, a group's key for a collapsed group */
    key: string;
    /** the expanded group that holds it (undefined: the function itself) */
    parent: string | undefined;
    /** its first task's id: where it stands in program order */
    first: number;
    tasks: number[];
}

export interface Visible {
    /** task id -> the key of what stands for it */
    rep: Map<number, string>;
    leaves: Leaf[];
    /** the groups drawn open (containers), outermost before the ones they hold */
    open: Group[];
}

/** What is drawn with `collapsed` folded: each task, or the outermost collapsed group around it. */
export function visible(graph: TaskGraph, groups: Groups, collapsed: ReadonlySet<string>): Visible {
    const rep = new Map<number, string>();
    const leaves = new Map<string, Leaf>();
    const open = new Map<string, Group>();
    for (const task of graph.tasks) {
        const path = groups.pathOf.get(task.id) ?? [];
        let parent: string | undefined;
        let key = `t${task.id}`;
        for (const groupKey of path) {
            if (collapsed.has(groupKey)) {
                key = groupKey;
                break;
            }
            open.set(groupKey, groups.byKey.get(groupKey)!);
            parent = groupKey;
        }
        rep.set(task.id, key);
        let leaf = leaves.get(key);
        if (!leaf) {
            leaf = { key, parent, first: task.id, tasks: [] };
            leaves.set(key, leaf);
        }
        leaf.tasks.push(task.id);
    }
    return { rep, leaves: [...leaves.values()], open: [...open.values()] };
}

/** The collapsed groups to open so that a task is drawn as itself. */
export function toOpen(groups: Groups, taskId: number, collapsed: ReadonlySet<string>): string[] {
    return (groups.pathOf.get(taskId) ?? []).filter((key) => collapsed.has(key));
}
