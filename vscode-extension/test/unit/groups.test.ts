// Groups (loops, the expansions of inline helpers' calls), what is drawn when some are collapsed, and
// the lines between what is drawn, under node:test.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Edge, Task, TaskGraph } from '../../webview/contract';
import { BIG_GRAPH, defaultCollapsed, FEWEST_NODES, groupCaption, groupsOf, toOpen, visible } from '../../webview/groups';
import { certainEnough, linksOf } from '../../webview/links';

const task = (id: number, path: string[] = []): Task =>
    ({ id, name: `k${id}`, kind: 'dispatch', line: 10 + id, col: 5, loops: path.filter((p) => p.startsWith('L')).map((p) => Number(p.slice(1))), path });
const edge = (from: number, to: number, extra: Partial<Edge> = {}): Edge =>
    ({ from, to, rule: 'G4', kind: 'raw', buffer: 'b', carried: false, overlap: 'certain', ...extra });

// entry: #0 | layer (g0): #1, loop L0: #2, mix (g1): #3, #4 | #5 | one (g2): #6
const GRAPH: TaskGraph = {
    function: 'entry', line: 1,
    tasks: [task(0), task(1, ['g0']), task(2, ['g0', 'L0']), task(3, ['g0', 'L0', 'g1']), task(4, ['g0', 'L0', 'g1']), task(5),
        task(6, ['g2'])],
    loops: [{ id: 0, kind: 'range', line: 30, trips: 4, parent: null, uri: 'file:///m/blocks.py' }],
    inlined: [
        { id: 0, helper: 'layer', line: 5, col: 5, uri: null, parent: null, tasks: [1, 2, 3, 4] },
        { id: 1, helper: 'mix', line: 31, col: 9, uri: 'file:///m/blocks.py', parent: 0, tasks: [3, 4] },
        { id: 2, helper: 'one', line: 7, col: 5, uri: null, parent: null, tasks: [6] },
    ],
    edges: [edge(0, 1), edge(1, 2), edge(2, 3), edge(3, 5), edge(0, 5), edge(2, 2, { carried: true }),
        edge(1, 5, { overlap: 'unknown' }), edge(3, 4)],
    hazards: [{ code: 'UnorderedWriteAfterRead', rule: 'Z1', severity: 'warning', first: 1, second: 3, message: 'm' }],
};

describe('groups', () => {
    it('finds every group from the paths, nested, with all its tasks', () => {
        const { byKey, pathOf } = groupsOf(GRAPH);
        assert.deepEqual([...byKey.keys()], ['g0', 'L0', 'g1'], 'a call launching one task is no group');
        assert.deepEqual(byKey.get('g0')!.tasks, [1, 2, 3, 4]);
        assert.equal(byKey.get('L0')!.parent, 'g0');
        assert.equal(byKey.get('g1')!.parent, 'L0');
        assert.deepEqual(pathOf.get(3), ['g0', 'L0', 'g1']);
        assert.deepEqual(pathOf.get(6), []);
    });

    it('falls back to the loops when a producer gives no path', () => {
        const old: TaskGraph = { ...GRAPH, tasks: GRAPH.tasks.map((t) => ({ ...t, path: undefined })) };
        assert.deepEqual([...groupsOf(old).byKey.keys()], ['L0']);
    });

    it('captions a helper call and a loop where they are', () => {
        const { byKey } = groupsOf(GRAPH);
        assert.equal(groupCaption(GRAPH, byKey.get('g0')!), 'layer \u00b7 line 5');
        assert.equal(groupCaption(GRAPH, byKey.get('g1')!), 'mix \u00b7 blocks.py:31');
        assert.equal(groupCaption(GRAPH, byKey.get('L0')!), 'pl.range \u00d74 \u00b7 blocks.py:30');
    });

    it('collapses the helpers of a big graph only', () => {
        const groups = groupsOf(GRAPH);
        assert.deepEqual([...defaultCollapsed(GRAPH, groups)], []);
        const big: TaskGraph = { ...GRAPH, tasks: [...GRAPH.tasks, ...Array.from({ length: BIG_GRAPH }, (_, i) => task(7 + i))] };
        assert.deepEqual([...defaultCollapsed(big, groupsOf(big))].sort(), ['g0', 'g1']);
    });

    it('opens the biggest folded call while a big graph would show too few nodes', () => {
        // one call of 70 tasks holding two of 35: folded, that is one node; opened, two
        const tasks = Array.from({ length: 70 }, (_, i) => task(i, ['g0', i < 35 ? 'g1' : 'g2']));
        const one: TaskGraph = { function: 'f', line: 1, tasks, loops: [], edges: [], hazards: [], inlined: [
            { id: 0, helper: 'core', line: 3, col: 5, tasks: tasks.map((t) => t.id) },
            { id: 1, helper: 'half', line: 10, col: 5, parent: 0, tasks: tasks.slice(0, 35).map((t) => t.id) },
            { id: 2, helper: 'half', line: 11, col: 5, parent: 0, tasks: tasks.slice(35).map((t) => t.id) },
        ] };
        // g0, then one half, then the other: each opening still draws fewer than FEWEST_NODES
        const collapsed = defaultCollapsed(one, groupsOf(one));
        assert.ok(!collapsed.has('g0') && visible(one, groupsOf(one), collapsed).leaves.length >= FEWEST_NODES, [...collapsed].join());
    });

    it('draws the outermost collapsed group for what it holds, and says what to open to reach a task', () => {
        const groups = groupsOf(GRAPH);
        const folded = visible(GRAPH, groups, new Set(['g0', 'g1']));
        assert.deepEqual([...folded.rep.entries()], [[0, 't0'], [1, 'g0'], [2, 'g0'], [3, 'g0'], [4, 'g0'], [5, 't5'], [6, 't6']]);
        assert.deepEqual(folded.leaves.map((l) => [l.key, l.first, l.tasks]),
            [['t0', 0, [0]], ['g0', 1, [1, 2, 3, 4]], ['t5', 5, [5]], ['t6', 6, [6]]]);
        assert.deepEqual(folded.open, []);
        assert.deepEqual(toOpen(groups, 3, new Set(['g0', 'g1'])), ['g0', 'g1']);
        const inner = visible(GRAPH, groups, new Set(['g1']));
        assert.deepEqual(inner.open.map((g) => g.key), ['g0', 'L0']);
        assert.deepEqual(inner.leaves.find((l) => l.key === 'g1'), { key: 'g1', parent: 'L0', first: 3, tasks: [3, 4] });
    });
});

describe('links', () => {
    const all = GRAPH.edges.map((_, i) => i);

    it('draws one line per pair of leaves and kind, none inside a collapsed group', () => {
        const folded = visible(GRAPH, groupsOf(GRAPH), new Set(['g0']));
        const links = linksOf(GRAPH, folded, all);
        const edges = links.filter((l) => !l.hazard).map((l) => [l.from, l.to, l.items, l.forward]);
        assert.deepEqual(edges, [['t0', 'g0', [0], true], ['g0', 't5', [3], true], ['t0', 't5', [4], true], ['g0', 't5', [6], true]]);
        assert.deepEqual(links.filter((l) => l.hazard), [], 'the hazard is inside the group: its badge tells');
    });

    it('keeps every edge and the carried self-edge when nothing is collapsed', () => {
        const links = linksOf(GRAPH, visible(GRAPH, groupsOf(GRAPH), new Set()), all);
        assert.equal(links.filter((l) => !l.hazard).length, GRAPH.edges.length);
        const carried = links.find((l) => l.from === 't2' && l.to === 't2')!;
        assert.equal(carried.forward, false, 'a carried edge is an arc');
        assert.deepEqual(links.filter((l) => l.hazard).map((l) => [l.from, l.to]), [['t1', 't3']]);
    });

    it('hides the edges of unknown overlap only when asked', () => {
        assert.deepEqual(certainEnough(GRAPH, all, 'hidden'), [0, 1, 2, 3, 4, 5, 7]);
        assert.deepEqual(certainEnough(GRAPH, all, 'apart'), all);
    });
});
