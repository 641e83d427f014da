// What the layout gives ELK (the skeleton of the ordering between what is drawn, open groups as
// containers), and that ELK places the fixture graphs in program order, under node:test.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Edge, Task, TaskGraph } from '../../webview/contract';
import { groupsOf, visible } from '../../webview/groups';
import { elkGraph, layoutGraph, skeleton } from '../../webview/layout';

const FIXTURES = join(__dirname, '..', '..', 'test', 'fixtures');
const fixture = (name: string): TaskGraph => JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')) as TaskGraph;

const task = (id: number, loops: number[] = [], path?: string[]): Task =>
    ({ id, name: `k${id}`, kind: 'call', line: id + 1, col: 1, loops, path });
const edge = (from: number, to: number, carried = false): Edge => ({ from, to, rule: 'G4', kind: 'raw', carried, overlap: 'certain' });
const graphOf = (tasks: Task[], edges: Edge[], loops: TaskGraph['loops'] = []): TaskGraph =>
    ({ function: 'f', line: 1, tasks, loops, edges, hazards: [] });
const open = (g: TaskGraph, collapsed: string[] = []) => visible(g, groupsOf(g), new Set(collapsed));

describe('skeleton', () => {
    it('keeps only the forward edges no other path implies, once per pair', () => {
        const g = graphOf([0, 1, 2, 3].map((i) => task(i)), [edge(0, 1), edge(1, 2), edge(0, 2), edge(2, 3), edge(0, 3), edge(1, 2)]);
        assert.deepEqual(skeleton(g, open(g)), [['t0', 't1'], ['t1', 't2'], ['t2', 't3']]);
    });

    it('leaves out carried edges (they would be cycles)', () => {
        const g = graphOf([0, 1].map((i) => task(i)), [edge(0, 1), edge(1, 0, true), edge(1, 1, true)]);
        assert.deepEqual(skeleton(g, open(g)), [['t0', 't1']]);
    });

    it('puts a task nothing orders after the task before it, except at the start', () => {
        // 0 and 1 start the function unordered; 3 and 4 come after 2 in the program
        const g = graphOf([0, 1, 2, 3, 4].map((i) => task(i)), [edge(0, 2)]);
        assert.deepEqual(skeleton(g, open(g)), [['t0', 't2'], ['t2', 't3'], ['t3', 't4']]);
    });

    it('orders a collapsed group by its first task, edges inside it gone', () => {
        // 0 | g0: 1, 2 | 3
        const g = graphOf([task(0), task(1, [], ['g0']), task(2, [], ['g0']), task(3)], [edge(0, 1), edge(1, 2), edge(2, 3), edge(0, 3)]);
        assert.deepEqual(skeleton(g, open(g, ['g0'])), [['t0', 'g0'], ['g0', 't3']]);
    });
});

describe('elkGraph', () => {
    it('nests loops, keeps program order, and joins containers through their children', () => {
        // 0 | loop 0: 1, loop 1 (in 0): 2 | 3
        const g = graphOf([task(0), task(1, [0]), task(2, [0, 1]), task(3)], [edge(0, 2), edge(1, 2), edge(2, 3)],
            [{ id: 0, kind: 'range', line: 2, trips: 4, parent: null }, { id: 1, kind: 'parallel', line: 3, trips: 8, parent: 0 }]);
        const root = elkGraph(g, 'DOWN', open(g));
        assert.deepEqual(root.children?.map((c) => c.id), ['t0', 'L0', 't3']);
        const loop0 = root.children![1];
        assert.deepEqual(loop0.children?.map((c) => c.id), ['t1', 'L1']);
        assert.deepEqual(loop0.children![1].children?.map((c) => c.id), ['t2']);
        const ends = (n: typeof root) => (n.edges ?? []).map((e) => `${e.sources[0]}>${e.targets[0]}`);
        assert.deepEqual(ends(root), ['t0>L0', 'L0>t3']);
        assert.deepEqual(ends(loop0), ['t1>L1']);
        assert.equal(loop0.layoutOptions?.['elk.direction'], 'DOWN', 'every container gets the direction');
    });

    it('nests an expansion in a loop in an expansion as the paths say, and folds a collapsed one', () => {
        // g0: [0, loop 0: [1, g1: [2]]] | 3
        const g = graphOf([task(0, [], ['g0']), task(1, [0], ['g0', 'L0']), task(2, [0], ['g0', 'L0', 'g1']), task(3)],
            [edge(0, 1), edge(1, 2), edge(2, 3)], [{ id: 0, kind: 'range', line: 2, trips: null, parent: null }]);
        const root = elkGraph(g, 'DOWN', open(g));
        assert.deepEqual(root.children?.map((c) => c.id), ['g0', 't3']);
        assert.deepEqual(root.children![0].children?.map((c) => c.id), ['t0', 'L0']);
        assert.deepEqual(root.children![0].children![1].children?.map((c) => c.id), ['t1', 'g1']);
        const folded = elkGraph(g, 'DOWN', open(g, ['L0']));
        assert.deepEqual(folded.children![0].children?.map((c) => c.id), ['t0', 'L0']);
        assert.equal(folded.children![0].children![1].children, undefined, 'a collapsed group is a leaf');
    });
});

describe('layoutGraph', () => {
    for (const name of ['decode', 'prefill']) {
        it(`places every task and loop of ${name}, an ordering edge always pointing down`, async () => {
            const g = fixture(name);
            const view = open(g);
            const layout = await layoutGraph(g, 'DOWN', view);
            assert.equal(layout.nodes.size, g.tasks.length);
            assert.equal(layout.groups.size, new Set(g.tasks.flatMap((t) => t.loops)).size);
            for (const [from, to] of skeleton(g, view)) {
                const a = layout.nodes.get(from)!;
                const b = layout.nodes.get(to)!;
                assert.ok(b.y >= a.y + a.height, `${to} (y ${b.y}) below ${from} (y ${a.y})`);
            }
            for (const t of g.tasks) {
                const box = layout.nodes.get(`t${t.id}`)!;
                for (const loop of t.loops) {
                    const group = layout.groups.get(`L${loop}`)!;
                    assert.ok(box.x >= group.x && box.y >= group.y && box.x + box.width <= group.x + group.width
                        && box.y + box.height <= group.y + group.height, `#${t.id} inside loop ${loop}`);
                }
            }
        });
    }
});
