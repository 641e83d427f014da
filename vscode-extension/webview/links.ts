// The lines between what is drawn: the shown edges and the hazards, each between the leaves that
// stand for its tasks (groups.ts), one line per pair of leaves, kind and style (a collapsed group
// gathers many edges into one), none inside one leaf. Pure logic: test/unit runs it.
import type { TaskGraph } from './contract';
import type { Visible } from './groups';
import type { Link } from './layout';

/** Edges of unknown overlap: drawn like the others, apart (faint, beneath them), or not at all. */
export type Uncertain = 'shown' | 'apart' | 'hidden';

/** The edges (indices) an uncertainty choice leaves, of the given ones. */
export function certainEnough(graph: TaskGraph, edges: readonly number[], uncertain: Uncertain): number[] {
    return uncertain === 'hidden' ? edges.filter((i) => graph.edges[i].overlap !== 'unknown') : [...edges];
}

export function linksOf(graph: TaskGraph, view: Visible, edges: readonly number[]): Link[] {
    const order = new Map(view.leaves.map((l) => [l.key, l.first]));
    const links = new Map<string, Link>();
    const add = (kind: string, hazard: boolean, index: number, fromTask: number, toTask: number, carried: boolean) => {
        const from = view.rep.get(fromTask);
        const to = view.rep.get(toTask);
        if (from === undefined || to === undefined || (from === to && from.startsWith('g'))) {
            return; // inside one collapsed group: its badge and its tooltip tell
        }
        if (from === to && from.startsWith('L')) {
            return;
        }
        const forward = !carried && fromTask < toTask && (order.get(from) ?? 0) < (order.get(to) ?? 0);
        const key = `${hazard ? 'h' : 'e'}|${from}|${to}|${kind}|${forward}`;
        const link = links.get(key);
        if (link) {
            link.items.push(index);
        } else {
            links.set(key, { key, from, to, forward, hazard, items: [index] });
        }
    };
    for (const i of edges) {
        const e = graph.edges[i];
        const style = `${e.kind}${e.carried ? ':c' : ''}${e.overlap === 'unknown' ? ':u' : ''}`;
        add(style, false, i, e.from, e.to, e.carried === true);
    }
    graph.hazards.forEach((h, i) => add(`${h.severity}${h.carried ? ':c' : ''}`, true, i, h.first, h.second,
        h.carried === true || h.first >= h.second));
    return [...links.values()];
}
