"""Where each task of a graph lives (N1): a task, a loop or a barrier expanded from an inline helper of
another file is placed in that file, at its own call or scope header, not at the entry's `def`; a
hazard with such a task names that file and line; a U6 hidden output of a scope is named as a
result, not as the capture of the same name; a task whose callee is unknown says what it orders.

tests/task_places/entry.py calls two helpers of tests/task_places/blocks.py (PyPTO's pipeline
derives the directions these tests rely on: norm_block x Input, y InOut; peek_top Input,
OutputExisting; overwrite Input, InOut)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from pypto_lens.presentation.graph_view import hover_line
from pypto_lens.workspace.workspace import Workspace, path_to_uri

ROOT = Path(__file__).resolve().parent.parent
PLACES = ROOT / "tests" / "task_places"
ENTRY, BLOCKS = PLACES / "entry.py", PLACES / "blocks.py"
LENS = [sys.executable, "-m", "pypto_lens.entry"]


def _line(path: Path, text: str) -> int:
    """1-based line of the first line holding `text`."""
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1) if text in line)


def _graph() -> dict:
    proc = subprocess.run(LENS + ["graph", f"{ENTRY}:entry", "--format", "json", "--information"],
                          capture_output=True, text=True, cwd=str(ROOT))
    assert proc.returncode == 0, proc.stderr
    (graph,) = json.loads(proc.stdout)
    return graph


def test_tasks_of_another_files_helpers_are_placed_there():
    graph = _graph()
    where = [(t["name"], t["kind"], t["uri"], t["line"]) for t in graph["tasks"]]
    blocks = BLOCKS.as_uri()
    assert where == [
        ("task_dummy", "barrier", blocks, _line(BLOCKS, "gate = pl.system.task_dummy")),
        ("norm_block", "dispatch", blocks, _line(BLOCKS, 'name_hint="norm_block"')),
        ("peek_top", "dispatch", blocks, _line(BLOCKS, 'name_hint="peek_top"')),
        ("overwrite", "call", None, _line(ENTRY, "y = overwrite(s, y)")),
    ]
    # the columns are the call's or the header's own (the barrier's call, not its line's start)
    barrier = graph["tasks"][0]
    text = BLOCKS.read_text(encoding="utf-8").split("\n")[barrier["line"] - 1]
    assert text[barrier["col"] - 1:].startswith("pl.system.task_dummy(")
    assert [t["elsewhere"] for t in graph["tasks"]] == ["norm_rows", "norm_rows", "peek_rows", None]
    (loop,) = graph["loops"]
    assert (loop["uri"], loop["line"]) == (blocks, _line(BLOCKS, "for blk in pl.range(4)"))


def test_a_hazard_names_the_other_files_task_by_file_and_line():
    (hazard,) = _graph()["hazards"]
    assert (hazard["first"], hazard["second"], hazard["line"]) == (2, 3, _line(ENTRY, "y = overwrite(s, y)"))
    peek = _line(BLOCKS, 'name_hint="peek_top"')
    assert f"peek_top (task #2, blocks.py:{peek})" in hazard["message"]


def test_the_text_report_and_the_hover_line_name_files_too():
    proc = subprocess.run(LENS + ["graph", f"{ENTRY}:entry"], capture_output=True, text=True, cwd=str(ROOT))
    header = _line(BLOCKS, 'name_hint="norm_block"')
    assert f"#1 dispatch norm_block  blocks.py:{header}  [range@blocks.py:{header - 1}]" in proc.stdout
    workspace = Workspace([PLACES])
    analysis = workspace.analysis(path_to_uri(ENTRY))
    (graph,) = analysis.graphs
    line = hover_line(graph, graph.tasks[3])
    peek = _line(BLOCKS, 'name_hint="peek_top"')
    assert line == f"Task #3 waits for #1 norm_block (blocks.py:{header}); races with #2 peek_top (blocks.py:{peek})"
    # the other file's tasks are no task of this document's positions
    peek = graph.tasks[2]
    assert graph.task_at(peek.range.line, peek.range.col) is None


def test_a_scopes_hidden_output_is_a_result_not_the_capture_of_its_name(tmp_path: Path):
    source = tmp_path / "hidden.py"
    source.write_text('''import pypto.language as pl


@pl.jit
def main(x: pl.Tensor[[16, 64], pl.FP32], y: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="square"):
        t = pl.load(x, [0, 0], [16, 64])
        x = pl.store(pl.mul(t, t), [0, 0], pl.create_tensor([16, 64], dtype=pl.FP32))
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="copy"):
        u = pl.load(x, [0, 0], [16, 64])
        y = pl.store(u, [0, 0], y)
    return y
''', encoding="utf-8")
    proc = subprocess.run(LENS + ["graph", str(source), "--format", "json"], capture_output=True, text=True)
    (graph,) = json.loads(proc.stdout)
    square = graph["tasks"][0]
    names = [(a["param"], a["text"], a["buffer"]) for a in square["args"]]
    assert ("x", "x", "x") in names
    hidden = [n for n in names if n[0].startswith("result")]
    assert hidden == [("result 0", "x (new)", "x")], names


UNKNOWN = '''import pypto.language as pl
from nowhere_at_all import mystery


@pl.jit.incore
def fill(src: pl.Tensor[[16, 64], pl.FP32], dst: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
    t = pl.load(src, [0, 0], [16, 64])
    dst = pl.store(t, [0, 0], dst)
    return dst


@pl.jit
def main(x: pl.Tensor[[16, 64], pl.FP32], y: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
    y = fill(x, y)
    y = mystery(x, y)
    y = fill(x, y)
    return y
'''


def test_a_task_of_unknown_callee_says_it_orders_everything(tmp_path: Path):
    source = tmp_path / "unknown.py"
    source.write_text(UNKNOWN, encoding="utf-8")
    analysis = Workspace([tmp_path]).analysis(path_to_uri(source))
    (graph,) = analysis.graphs
    unknown = graph.tasks[1]
    assert unknown.kind == "unknown" and unknown.name == "mystery"
    line = hover_line(graph, unknown)
    assert line.startswith("Task #1: its callee mystery is not found")
    assert "orders everything" in line and "no hazard is reported" in line
