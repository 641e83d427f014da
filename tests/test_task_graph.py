"""The task graph and its hazards (spec/runtime.md): programs with their expected edges and hazards
beside the calls (tests/graph_programs/README.md), the CLI's JSON against the contract, and the
regions the runtime keys its map by."""
from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from check_graph_expectations import check_file, run_graphs  # noqa: E402
from check_expectations import collect  # noqa: E402

from pypto_lens.ir import nodes as ir  # noqa: E402
from pypto_lens.pipeline.runtime_buffers import (WHOLE, compose, covers, overlap, reinterpreted,  # noqa: E402
                                               sliced, subscript)

PROGRAMS = collect([str(ROOT / "tests" / "graph_programs")])
LENS = [sys.executable, "-m", "pypto_lens.entry"]


@pytest.fixture(scope="module")
def reports() -> dict:
    return run_graphs(LENS, PROGRAMS)


def test_there_is_a_program_for_every_rule():
    prefixes = {p.name.split("_")[0] for p in PROGRAMS}
    for rule in ("g4", "g5", "g6", "g7", "g8", "g9", "g10", "g11", "g13", "z1", "z7"):
        assert rule in prefixes, rule
    texts = "\n".join(p.read_text(encoding="utf-8") for p in PROGRAMS)
    for code in ("UnorderedWriteAfterRead", "UnorderedWriteAfterWrite", "InvisibleNoDepWrite",
                 "UnorderedNoDepAccess", "ManualScopeMissingDep", "ScopeWindowExceeded"):
        assert f"expect-hazard: {code}" in texts, code
    assert "expect-hazard: none" in texts


def _jit_functions(tree: ast.Module):
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            for deco in node.decorator_list:
                target = deco.func if isinstance(deco, ast.Call) else deco
                if "jit" in ast.unparse(target).split("."):
                    yield node


def test_graph_programs_keep_to_what_pypto_accepts():
    """The edges are built on the directions PyPTO derives, so every program is one PyPTO accepts
    (checked with the oracle, which CI does not have: each header says so). One way to lose that
    shows in the text: pl.submit(self.k, ...) or self.k(...) in a @pl.jit function, where self
    names nothing (pl.submit belongs to @pl.program classes)."""
    for path in PROGRAMS:
        if path.name == "kernels.py":
            continue
        text = path.read_text(encoding="utf-8")
        header = text.split("\nimport ")[0]
        assert "verified with the oracle (--pipeline)" in header, path.name
        for fn in _jit_functions(ast.parse(text)):
            used = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)}
            assert "self" not in used, f"{path.name}: {fn.name} is @pl.jit and uses self"


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: str(p.relative_to(ROOT)))
def test_graph_expectations(path: Path, reports: dict):
    graphs = reports[str(path.resolve())]
    assert not isinstance(graphs, str), graphs
    count, failures = check_file(path, graphs)
    assert failures == []
    if path.name != "kernels.py":
        assert count > 0, "a program without expectations checks nothing"


def _lens(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(LENS + list(args), capture_output=True, text=True, cwd=str(ROOT))


Z1 = ROOT / "tests" / "graph_programs" / "z1_write_after_read_is_never_ordered.py"


def _line_of(path: Path, text: str) -> int:
    """1-based line of the first line holding `text`."""
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1) if text in line)


def test_graph_json_follows_the_contract():
    proc = _lens("graph", f"{Z1}:main", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    (graph,) = json.loads(proc.stdout)
    assert graph["function"] == "main" and graph["host"] is False and graph["manual"] is False
    assert [t["id"] for t in graph["tasks"]] == list(range(len(graph["tasks"])))
    assert graph["counts"] == {"tasks": 5, "edges": 4, "hazards": 2}
    reader = graph["tasks"][1]
    assert reader["kind"] == "submit" and reader["tid"] == "seen" and reader["name"] == "fill"
    assert [(a["param"], a["text"], a["buffer"], a["direction"], a["region"]) for a in reader["args"]] == \
        [("src", "buf", "buf", "Input", "whole"), ("dst", "out", "out", "OutputExisting", "whole")]
    lines = Z1.read_text(encoding="utf-8").split("\n")
    assert "pl.submit(self.fill, buf, out)" in lines[reader["line"] - 1][reader["col"] - 1:reader["end_col"] - 1]
    edge = next(e for e in graph["edges"] if e["to"] == 1)
    assert edge == {"from": 0, "to": 1, "rule": "G4", "kind": "raw", "buffer": "buf", "carried": False,
                    "overlap": "certain", "redundant": False}
    first = graph["hazards"][0]
    assert (first["code"], first["rule"], first["severity"], first["first"], first["second"], first["buffer"]) == \
        ("UnorderedWriteAfterRead", "Z1", "warning", 1, 2, "buf")
    assert first["fix"] == {"title": "Add seen to deps= of bump", "kind": "add-dep"}
    assert f"task #1, line {_line_of(Z1, 'task: reader')}" in first["message"]


def test_check_json_carries_hazard_warnings_and_information_on_request():
    info = ROOT / "tests" / "graph_programs" / "information_only_when_uncertain.py"
    proc = _lens("check", "--format", "json", "--fail-on", "never", str(Z1), str(info))
    assert proc.returncode == 0, proc.stderr
    z1, quiet = json.loads(proc.stdout)
    hazards = [d for d in z1["diagnostics"] if d["code"] == "UnorderedWriteAfterRead"]
    assert [(d["line"], d["severity"]) for d in hazards] == [(_line_of(Z1, "task: w1"), "warning"),
                                                             (_line_of(Z1, "buf = self.fill(x, buf)  # expect"), "warning")]
    assert not [d for d in quiet["diagnostics"] if d["code"].startswith("Unordered")]  # off by default
    proc = _lens("check", "--format", "json", "--fail-on", "never", "--information", str(info))
    (loud,) = json.loads(proc.stdout)
    assert {d["severity"] for d in loud["diagnostics"] if d["code"].startswith("Unordered")} == {"information"}
    assert _lens("check", str(Z1)).returncode == 1  # warnings fail the check by default


def test_dot_and_mermaid_draw_every_task_edge_and_hazard():
    dot = _lens("graph", str(Z1), "--format", "dot").stdout
    assert dot.startswith('digraph "main"') and dot.count("[label=\"#") == 5
    assert dot.count("->") == 4 + 2 and dot.count('fontcolor="#d62728"') == 2
    mermaid = _lens("graph", str(Z1), "--format", "mermaid").stdout
    assert mermaid.startswith("flowchart TB") and mermaid.count("-.-x") == 2 and mermaid.count("-->") == 4
    text = _lens("graph", str(Z1), "--reduced").stdout
    assert "main: 5 tasks, 4 edges, 2 hazards" in text and "waits for #0 (raw buf, G4)" in text


UNRESOLVED_DEPS = """import pypto.language as pl


@pl.program
class Unresolved:
    @pl.function(type=pl.FunctionType.InCore)
    def fill(self, src: pl.Tensor[[16, 64], pl.FP32],
             dst: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 64])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.InCore)
    def bump(self, acc: pl.InOut[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(acc, [0, 0], [16, 64])
        acc = pl.store(pl.add(t, t), [0, 0], acc)
        return acc

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 64], pl.FP32]) -> pl.Tensor[[16, 64], pl.FP32]:
        g = pl.create_tensor([16, 64], dtype=pl.FP32)
        g = self.fill(x, g)
        h = pl.create_tensor([16, 64], dtype=pl.FP32)
        h, th = pl.submit(self.fill, g, h)
        g, tg = pl.submit(self.bump, g, deps=[mystery_task_id()])
        k = pl.create_tensor([16, 64], dtype=pl.FP32)
        k = self.fill(x, k)
        m = pl.create_tensor([16, 64], dtype=pl.FP32)
        m, tm = pl.submit(self.fill, k, m)
        k, tk = pl.submit(self.bump, k)
        return g
"""


def test_a_deps_entry_the_analysis_cannot_resolve_may_order_anything(tmp_path):
    """G9: a task id the analysis cannot name may be the reader's, so the write after the read is
    not reported (Z1 needs no possible path); the same pair without it is. PyPTO rejects the call
    in deps=, so this shape lives here, not among the graph programs, which PyPTO accepts."""
    path = tmp_path / "unresolved_deps.py"
    path.write_text(UNRESOLVED_DEPS, encoding="utf-8")
    proc = _lens("graph", f"{path}:main", "--format", "json", "--information")
    assert proc.returncode == 0, proc.stderr
    (graph,) = json.loads(proc.stdout)
    line = _line_of(path, "mystery_task_id()")
    (wild,) = [t for t in graph["tasks"] if t["line"] == line]
    assert wild["waits_on_unknown"] and not [e for e in graph["edges"] if e["to"] == wild["id"] and e["rule"] == "G9"]
    assert [t["waits_on_unknown"] for t in graph["tasks"]].count(True) == 1
    (hazard,) = graph["hazards"]  # the control pair, after it: the unknown entry orders only its own task
    assert hazard["code"] == "UnorderedWriteAfterRead" and hazard["buffer"] == "k"
    assert graph["tasks"][hazard["second"]]["line"] == _line_of(path, "pl.submit(self.bump, k)")


NESTED_IFS = """import pypto.language as pl


@pl.program
class NestedIfs:
    @pl.function(type=pl.FunctionType.InCore)
    def fill(self, src: pl.Tensor[[16, 64], pl.FP32],
             dst: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 64])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 64], pl.FP32], flag: pl.Scalar[pl.INT32]) -> pl.Tensor[[16, 64], pl.FP32]:
        e = pl.create_tensor([16, 64], dtype=pl.FP32)
        e = self.fill(x, e)  # first writer
        if flag > 0:
            if flag > 1:
                v = self.fill(x, e[0:8, :])  # inner writer
            o = pl.create_tensor([16, 64], dtype=pl.FP32)
            o = self.fill(e, o)  # then reader
        else:
            p = pl.create_tensor([16, 64], dtype=pl.FP32)
            p = self.fill(e, p)  # else reader
        q = pl.create_tensor([16, 64], dtype=pl.FP32)
        q = self.fill(e, q)  # after reader
        return q
"""


def test_an_if_arm_sees_only_the_writers_on_its_own_path(tmp_path):
    """G6 inserts an OutputExisting entry without a lookup (here into a slice of a buffer written
    before the ifs), in place where it can: the inner if's writer, inside the outer then-arm,
    reaches that arm's reader and the reader after both ifs, never the outer else-arm's (each arm
    starts from the map as it was before its if, whose lists the arms share until one changes them)."""
    path = tmp_path / "nested_ifs.py"
    path.write_text(NESTED_IFS, encoding="utf-8")
    proc = _lens("graph", f"{path}:main", "--format", "json", "--information")
    assert proc.returncode == 0, proc.stderr
    (graph,) = json.loads(proc.stdout)
    task = {comment: next(t["id"] for t in graph["tasks"] if t["line"] == _line_of(path, f"# {comment}"))
            for comment in ("first writer", "inner writer", "then reader", "else reader", "after reader")}

    def writers_of(reader: str) -> set:
        return {e["from"] for e in graph["edges"] if e["to"] == task[reader] and e["buffer"] == "e"}
    assert writers_of("then reader") == {task["first writer"], task["inner writer"]}
    assert writers_of("else reader") == {task["first writer"]}
    assert writers_of("after reader") == {task["first writer"], task["inner writer"]}


def test_graph_of_a_missing_function_is_a_usage_error():
    proc = _lens("graph", f"{Z1}:nowhere")
    assert proc.returncode == 2 and "no orchestration-like function named nowhere" in proc.stderr


def _slice(lo, hi):
    return ir.Arith("slice", [ir.Const(lo), ir.Const(hi), ir.Const(None)])


def test_regions_overlap_cover_and_compose():
    top = subscript(WHOLE, [_slice(0, 16)])
    bottom = subscript(WHOLE, [_slice(16, 32)])
    assert top.text() == "[0:16]" and overlap(top, bottom) == "none" and overlap(top, WHOLE) == "certain"
    row = subscript(top, [ir.Const(3)])  # a scalar index drops the dimension
    assert row.box == ((3, 4),) and subscript(row, [_slice(8, 12)]).box == ((3, 4), (8, 12))
    assert overlap(row, bottom) == "none" and covers(top, row) and not covers(row, top)
    moving = subscript(WHOLE, [ir.Arith("slice", [ir.Ref(ir.Var("i", 0, None)), ir.Const(None), ir.Const(None)])])
    assert moving.kind == "unknown" and overlap(moving, top) == "unknown" and overlap(moving, WHOLE) == "certain"
    block = sliced(WHOLE, [ir.Const(8), ir.Const(64)], [ir.Const(16), ir.Const(0)])
    assert block.box == ((16, 24), (0, 64)) and overlap(block, bottom) == "certain"
    assert compose(bottom, sliced(WHOLE, [ir.Const(4)], [ir.Const(2)])).box == ((18, 22),)
    assert compose(reinterpreted(WHOLE), top).kind == "unknown" and compose(top, WHOLE) == top
    flat = reinterpreted(WHOLE, ("tensor.reshape", 8, 128))  # the same reshape twice: one coordinate system
    assert overlap(compose(flat, top), compose(reinterpreted(WHOLE, ("tensor.reshape", 8, 128)), top)) == "certain"
    assert overlap(compose(flat, top), compose(flat, bottom)) == "none"
    assert overlap(compose(flat, top), compose(reinterpreted(WHOLE, ("tensor.reshape", 128, 8)), top)) == "unknown"
    assert overlap(compose(flat, top), top) == "unknown" and not covers(compose(flat, top), top)


def test_the_hover_line_and_the_lookups_a_server_needs():
    from pypto_lens.presentation.graph_view import hover_line
    from pypto_lens.workspace.workspace import Workspace, path_to_uri
    analysis = Workspace([Z1.parent]).analysis(path_to_uri(Z1))
    line = _line_of(Z1, "task: w1") - 1
    col = Z1.read_text(encoding="utf-8").split("\n")[line].index("pl.submit") + 3
    graph = analysis.graph_at(line)
    assert graph is not None and graph.function == "main" and analysis.graph_at(0) is None
    task = graph.task_at(line, col)
    assert (task.id, task.name, task.kind, task.tid) == (2, "bump", "submit", "later")
    w0, reader = _line_of(Z1, "task: w0"), _line_of(Z1, "task: reader")
    assert hover_line(graph, task) == f"Task #2 waits for #0 fill (line {w0}); races with #1 fill (line {reader})"
    (diag,) = [d for d in analysis.diagnostics if d.code == "UnorderedWriteAfterRead" and d.range.line == line]
    assert diag.data["setting"] == "hazards.unorderedWriteAfterRead" and diag.data["fix"]["tid"] == "seen"
    assert [s.label for s in diag.related] == ["earlier access", "buffer"]
    assert diag.related[0].location.range.line == reader - 1


def test_the_e2e_model_has_its_one_race():
    """vscode-extension/e2e/workspace/decode_layer.py, the e2e's model-like layer: what the e2e expects
    of its graph (run.js MODEL_*), checked here first."""
    model = ROOT / "vscode-extension" / "e2e" / "workspace" / "decode_layer.py"
    out = subprocess.run(LENS + ["graph", str(model), "--format", "json"], capture_output=True, text=True, check=True)
    (graph,) = json.loads(out.stdout)
    assert graph["counts"] == {"tasks": 14, "edges": 18, "hazards": 1} and graph["line"] == 127
    (race,) = graph["hazards"]
    assert (race["code"], race["first"], race["second"], race["buffer"]) == ("UnorderedWriteAfterRead", 8, 11, "normed")
    racer = graph["tasks"][11]
    assert (racer["name"], racer["line"], racer["col"], race["line"]) == ("rms_norm", 177, 18, 177)


def test_a_race_when_the_loop_runs_twice_says_so_and_how_to_fix_it(reports):
    """Z1 across the iterations of a loop with a run-time trip count: a warning that names the
    count and the fix; with a constant count of 3, the same warning without the condition."""
    path = ROOT / "tests" / "graph_programs" / "z1_carried_when_the_loop_runs_twice.py"
    (graph,) = reports[str(path.resolve())]
    by_buffer = {h["buffer"]: h for h in graph["hazards"]}
    dynamic, fixed = by_buffer["buf"], by_buffer["fixed"]
    assert dynamic["severity"] == fixed["severity"] == "warning" and dynamic["carried"] and fixed["carried"]
    assert "when `n` is 2 or more" in dynamic["message"] and "when" not in fixed["message"].split("(Z1)")[1][:40]
    assert "allocate buf inside the loop, or add the reader's task id to deps=" in dynamic["message"]


def test_affine_regions_compare_through_their_differences():
    """G3 with loop variables: rows i*16..i*16+16 of two iterations (k >= 1 apart) are disjoint;
    the same iteration's overlap is certain; a stride known only at run time leaves it unknown."""
    from pypto_lens.pipeline import affine
    i, k = affine.Symbol("i", 0, 3), affine.Symbol("k", 1, 3)
    row = affine.scale(affine.symbol(i), 16)
    later = affine.scale(affine.add(affine.symbol(i), affine.symbol(k)), 16)
    env = {}
    a = sliced(WHOLE, [ir.Const(16), ir.Const(64)], [ir.Const(0), ir.Const(0)])
    assert overlap(a, a) == "certain"
    first = affine.add(row, 0)
    box_a = type(a)("box", ((first, affine.add(first, 16)), (0, None)), (0, 1))
    box_b = type(a)("box", ((later, affine.add(later, 16)), (0, None)), (0, 1))
    assert overlap(box_a, box_b) == "none" and overlap(box_a, box_a) == "certain"
    back = affine.add(later, -16)  # starts a block earlier: the same rows as box_a at k = 1, apart from k = 2
    wide = type(a)("box", ((back, affine.add(back, 32)), (0, None)), (0, 1))
    assert overlap(box_a, wide) == "unknown"
    unknown = affine.Symbol("r")  # unbounded
    stride = type(a)("box", ((affine.symbol(unknown), affine.add(affine.symbol(unknown), 16)), (0, None)), (0, 1))
    assert overlap(box_a, stride) == "unknown"
    assert env == {}
