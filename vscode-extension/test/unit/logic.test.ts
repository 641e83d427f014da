// The webview's pure logic and the extension's page and column helpers, under node:test.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { utf16Character } from '../../src/columns';
import { taskGraphHtml } from '../../src/taskGraphHtml';
import type { Edge, Task, TaskGraph } from '../../webview/contract';
import {
    clip, computeRedundant, hazardTasks, layoutKey, loopLabel, neighbourhood, place, plural, redundantFlags, searchTasks,
    taskRef, visibleEdges,
} from '../../webview/logic';

const FIXTURES = join(__dirname, '..', '..', 'test', 'fixtures');
const fixture = (name: string): TaskGraph => JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')) as TaskGraph;

function task(id: number, extra: Partial<Task> = {}): Task {
    return { id, name: `k${id}`, kind: 'call', line: 10 + id, col: 5, loops: [], ...extra };
}
function edge(from: number, to: number, extra: Partial<Edge> = {}): Edge {
    return { from, to, rule: 'G4', kind: 'raw', buffer: 'b', carried: false, overlap: 'certain', ...extra };
}
const tasks = (n: number, extra: Record<number, Partial<Task>> = {}) => Array.from({ length: n }, (_, i) => task(i, extra[i]));

describe('computeRedundant', () => {
    it('marks the shortcut of a diamond, not its sides', () => {
        const edges = [edge(0, 1), edge(1, 2), edge(0, 2), edge(0, 3), edge(3, 2)];
        assert.deepEqual(computeRedundant(tasks(4), edges), [false, false, true, false, false]);
    });

    it('marks every shortcut of a chain', () => {
        const edges = [edge(0, 1), edge(1, 2), edge(2, 3), edge(0, 3), edge(1, 3), edge(0, 2)];
        assert.deepEqual(computeRedundant(tasks(4), edges), [false, false, false, true, true, true]);
    });

    it('keeps an edge whose only other path passes a task inside an if', () => {
        const edges = [edge(0, 1), edge(1, 2), edge(0, 2)];
        assert.deepEqual(computeRedundant(tasks(3, { 1: { branch: true } }), edges), [false, false, false]);
        // ... anywhere along a longer path too
        const long = [edge(0, 1), edge(1, 2), edge(2, 3), edge(0, 3)];
        assert.deepEqual(computeRedundant(tasks(4, { 2: { branch: true } }), long), [false, false, false, false]);
        // the ends themselves may be in a branch
        assert.deepEqual(computeRedundant(tasks(3, { 0: { branch: true }, 2: { branch: true } }), edges), [false, false, true]);
    });

    it('keeps an edge whose other path has an edge of unknown overlap', () => {
        const edges = [edge(0, 1, { overlap: 'unknown' }), edge(1, 2), edge(0, 2)];
        assert.deepEqual(computeRedundant(tasks(3), edges), [false, false, false]);
        // an unknown edge can itself be implied by certain ones
        const implied = [edge(0, 1), edge(1, 2), edge(0, 2, { overlap: 'unknown' })];
        assert.deepEqual(computeRedundant(tasks(3), implied), [false, false, true]);
    });

    it('never marks carried edges, and does not walk them', () => {
        const edges = [edge(2, 0, { carried: true }), edge(0, 1), edge(1, 2), edge(2, 2, { carried: true }), edge(2, 1, { carried: true })];
        assert.deepEqual(computeRedundant(tasks(3), edges), [false, false, false, false, false]);
        const through = [edge(0, 1, { carried: true }), edge(1, 2), edge(0, 2)];
        assert.deepEqual(computeRedundant(tasks(3), through), [false, false, false]);
    });

    it('keeps both of two parallel edges (two buffers, one pair)', () => {
        const edges = [edge(0, 1, { buffer: 'a' }), edge(0, 1, { buffer: 'b', kind: 'waw' })];
        assert.deepEqual(computeRedundant(tasks(2), edges), [false, false]);
        // ... but both go when a longer path implies the pair
        const longer = [...edges, edge(0, 2), edge(2, 1)];
        assert.deepEqual(computeRedundant(tasks(3), longer), [true, true, false, false]);
    });

    it('agrees with the fixtures, whose flags build.js computed another way (Floyd-Warshall)', () => {
        for (const name of ['decode', 'prefill', 'host']) {
            const graph = fixture(name);
            const expected = graph.edges.map((e) => e.redundant === true);
            assert.ok(expected.some((r) => r), `${name} has redundant edges`);
            assert.deepEqual(computeRedundant(graph.tasks, graph.edges), expected, name);
        }
    });
});

describe('redundantFlags and visibleEdges', () => {
    const graph: TaskGraph = {
        function: 'f', line: 1, tasks: tasks(3), loops: [], hazards: [],
        edges: [edge(0, 1), edge(1, 2), edge(0, 2)],
    };

    it('computes the flags when the producer gave none', () => {
        assert.deepEqual(redundantFlags(graph), [false, false, true]);
    });

    it("takes the producer's flags when every edge has one", () => {
        const flagged = { ...graph, edges: graph.edges.map((e, i) => ({ ...e, redundant: i === 0 })) };
        assert.deepEqual(redundantFlags(flagged), [true, false, false]);
        // one missing flag: computed, for all
        const partly = { ...graph, edges: flagged.edges.map((e, i) => (i === 2 ? { ...e, redundant: undefined } : e)) };
        assert.deepEqual(redundantFlags(partly), [false, false, true]);
    });

    it('shows all, the irredundant, or only the redundant edges', () => {
        const flags = [false, true, false, true];
        assert.deepEqual(visibleEdges(flags, 'full'), [0, 1, 2, 3]);
        assert.deepEqual(visibleEdges(flags, 'reduced'), [0, 2]);
        assert.deepEqual(visibleEdges(flags, 'omitted'), [1, 3]);
    });
});

describe('neighbourhood', () => {
    //   0 -> 1 -> 2 -> 3 -> 4,  0 -> 3,  5 -> 2
    const edges = [edge(0, 1), edge(1, 2), edge(2, 3), edge(3, 4), edge(0, 3), edge(5, 2)];
    const asObject = (m: Map<number, number>) => Object.fromEntries([...m].sort((a, b) => a[0] - b[0]));

    it('is empty at depth 0', () => {
        const n = neighbourhood(edges, 2, 0);
        assert.equal(n.preds.size + n.succs.size, 0);
    });

    it('finds direct predecessors and successors at depth 1', () => {
        const n = neighbourhood(edges, 2, 1);
        assert.deepEqual(asObject(n.preds), { 1: 1, 5: 1 });
        assert.deepEqual(asObject(n.succs), { 3: 1 });
    });

    it('goes N edges deep, with the shortest distance', () => {
        const n = neighbourhood(edges, 3, 2);
        assert.deepEqual(asObject(n.preds), { 0: 1, 1: 2, 2: 1, 5: 2 });
        assert.deepEqual(asObject(n.succs), { 4: 1 });
    });

    it('goes all the way at depth -1', () => {
        const n = neighbourhood(edges, 4, -1);
        assert.deepEqual(asObject(n.preds), { 0: 2, 1: 3, 2: 2, 3: 1, 5: 3 });
        assert.equal(n.succs.size, 0);
    });

    it('ends on cycles made by carried edges, and never lists the start', () => {
        const looped = [edge(0, 1), edge(1, 2), edge(2, 0, { carried: true }), edge(1, 1, { carried: true })];
        const n = neighbourhood(looped, 1, -1);
        assert.deepEqual(asObject(n.preds), { 0: 1, 2: 2 });
        assert.deepEqual(asObject(n.succs), { 2: 1, 0: 2 });
    });
});

describe('searchTasks', () => {
    const list: Task[] = [
        task(0, { name: 'embed_lookup', line: 20, tid: 't_embed' }),
        task(1, { name: 'matmul', line: 22, end_line: 24 }),
        task(2, { name: 'MatMul_acc', line: 25 }),
        task(12, { name: 'store', line: 30 }),
    ];

    it('finds a task id with or without #', () => {
        assert.deepEqual(searchTasks(list, '#12'), [12]);
        assert.deepEqual(searchTasks(list, '1'), [1]);
        assert.deepEqual(searchTasks(list, '#7'), []);
    });

    it('finds a source line, within a call that spans lines', () => {
        assert.deepEqual(searchTasks(list, 'L23'), [1]);
        assert.deepEqual(searchTasks(list, ':25'), [2]);
        assert.deepEqual(searchTasks(list, 'line 20'), [0]);
    });

    it('finds names and task-id variables, ignoring case, in program order', () => {
        assert.deepEqual(searchTasks(list, 'matmul'), [1, 2]);
        assert.deepEqual(searchTasks(list, 'T_EMB'), [0]);
        assert.deepEqual(searchTasks(list, 'nothing'), []);
        assert.deepEqual(searchTasks(list, '   '), []);
    });
});

describe('layoutKey', () => {
    const graph = fixture('decode');

    it('does not change when only names, lines and messages change', () => {
        const edited: TaskGraph = {
            ...graph,
            tasks: graph.tasks.map((t) => ({ ...t, name: `${t.name}_v2`, line: t.line + 3, col: t.col + 1 })),
            hazards: graph.hazards.map((h) => ({ ...h, message: 'reworded' })),
        };
        assert.equal(layoutKey(edited, 'RIGHT'), layoutKey(graph, 'RIGHT'));
    });

    it('does not change with the hazards or the redundant flags (the layout ignores both)', () => {
        const other: TaskGraph = { ...graph, hazards: [], edges: graph.edges.map((e) => ({ ...e, redundant: !e.redundant })) };
        assert.equal(layoutKey(other, 'RIGHT'), layoutKey(graph, 'RIGHT'));
    });

    it('changes with the edges, the structure and the direction', () => {
        const key = layoutKey(graph, 'RIGHT');
        const lonely = graph.edges.findIndex((e) => graph.edges.filter((x) => x.from === e.from && x.to === e.to).length === 1);
        assert.notEqual(layoutKey({ ...graph, edges: graph.edges.filter((_, i) => i !== lonely) }, 'RIGHT'), key);
        assert.notEqual(layoutKey(graph, 'DOWN'), key);
        const moved = { ...graph, tasks: graph.tasks.map((t) => (t.id === 3 ? { ...t, loops: [] } : t)) };
        assert.notEqual(layoutKey(moved, 'RIGHT'), key);
    });
});

describe('helpers', () => {
    it('lists the hazards of each task once, a self-pair included', () => {
        const graph = fixture('decode');
        const by = hazardTasks(graph.hazards);
        for (const h of graph.hazards) {
            assert.ok(by.get(h.first)?.includes(h), `first of ${h.code}`);
            assert.ok(by.get(h.second)?.includes(h), `second of ${h.code}`);
        }
        const self = graph.hazards.find((h) => h.first === h.second);
        assert.ok(self, 'the fixture has a self-pair');
        assert.equal(by.get(self.first)?.filter((h) => h === self).length, 1);
    });

    it('places a task or a loop of another file by its file name and line', () => {
        assert.equal(place(task(2)), 'line 12');
        const elsewhere = task(3, { uri: 'file:///work/models/rms%20norm.py', elsewhere: 'rms_norm' });
        assert.equal(place(elsewhere), 'rms norm.py:13');
        assert.equal(taskRef(elsewhere, 3), '#3 k3 (rms norm.py:13)');
        assert.equal(loopLabel({ id: 0, kind: 'range', line: 40, trips: 4, uri: 'file:///m/blocks.py' }),
            'pl.range \u00d74 \u00b7 blocks.py:40');
    });

    it('clips long labels by code points', () => {
        assert.equal(clip('short', 10), 'short');
        assert.equal(clip('a_very_long_kernel_name', 10), 'a_very_lo\u2026');
        assert.equal([...clip('\u{1F600}'.repeat(12), 5)].length, 5);
    });

    it('counts one task as "1 task"', () => {
        assert.equal(plural(1, 'task'), '1 task');
        assert.equal(plural(0, 'task'), '0 tasks');
        assert.equal(plural(18, 'task'), '18 tasks');
    });

    it('converts code-point columns to UTF-16 characters', () => {
        assert.equal(utf16Character('    fill(x)', 5), 4);
        assert.equal(utf16Character('\u{1F600} = f(x)', 5), 5); // the emoji is two UTF-16 units
        assert.equal(utf16Character('é = g(y)', 5), 4);
        assert.equal(utf16Character('ab', 1), 0);
    });

    it('builds a page whose scripts all carry the nonce, under a CSP without unsafe-inline or eval', () => {
        const html = taskGraphHtml({ cspSource: 'https://x.test', nonce: 'N0nce', scriptUri: 'https://x.test/w.js', styleUri: 'https://x.test/w.css', preludeUris: ['https://x.test/p.js'] });
        const csp = /content="([^"]+)"/.exec(html)?.[1] ?? '';
        assert.match(csp, /default-src 'none'/);
        assert.match(csp, /script-src 'nonce-N0nce'/);
        assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
        const scripts = html.match(/<script[^>]*>/g) ?? [];
        assert.equal(scripts.length, 2);
        assert.ok(scripts.every((s) => s.includes('nonce="N0nce"')));
    });
});
