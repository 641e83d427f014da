"""A task graph's tasks and loops are placed when first read (workspace/graphs.PlacedGraph, issue 41).

A document's code lenses, status and hazard diagnostics read a graph's counts and hazards only; the
picture, a hover on a task and the CLI's graph read its tasks. Placed at once, genpl 50000's 978 graphs
took 0.7 s of its 2.3 s rest and kept 8 MB. What is placed later must be what was placed at once: the
same tasks, argument texts and loops, for graphs of this file and of other files' helpers, and after
an edit that only moved lines (moved_lines.py places the last result again).
"""
from __future__ import annotations

import functools
from pathlib import Path

import pytest

from pypto_lens.presentation.graph_view import graph_json
from pypto_lens.presentation.status import document_status
from pypto_lens.workspace import graphs, placement
from pypto_lens.workspace.documents import OpenTexts
from pypto_lens.workspace.workspace import Workspace, path_to_uri

ROOT = Path(__file__).resolve().parent
PROGRAMS = sorted((ROOT / "graph_programs").glob("*.py")) + [ROOT / "task_places" / "entry.py"]


def _analysis(path: Path, text: str, eager: bool, monkeypatch):
    with monkeypatch.context() as m:
        if eager:
            m.setattr(placement, "place_graphs", functools.partial(graphs.place_graphs, eager=True))
        texts = OpenTexts()
        uri = path_to_uri(path)
        texts.open(uri, text, 1)
        return Workspace([path.parent], open_documents=texts).analysis(uri)


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.name)
def test_placed_later_is_placed_at_once(path, monkeypatch):
    text = path.read_text(encoding="utf-8")
    lazy = _analysis(path, text, False, monkeypatch)
    eager = _analysis(path, text, True, monkeypatch)
    assert lazy.graphs, "a graph program with no graph"
    assert all(g._tasks is None for g in lazy.graphs)  # (its diagnostics are made: nothing read the tasks)
    assert [g.counts(True) for g in lazy.graphs] == [g.counts(True) for g in eager.graphs]
    assert lazy.diagnostics == eager.diagnostics
    assert all(g._tasks is None for g in lazy.graphs)
    assert [graph_json(g, "f", True) for g in lazy.graphs] == [graph_json(g, "f", True) for g in eager.graphs]
    assert lazy.graphs == eager.graphs


def test_the_status_and_lenses_leave_the_tasks_unplaced(monkeypatch):
    path = ROOT / "task_places" / "entry.py"
    lazy = _analysis(path, path.read_text(encoding="utf-8"), False, monkeypatch)
    status = document_status(lazy)
    assert status.tasks == sum(len(g.tasks) for g in _analysis(path, path.read_text(encoding="utf-8"), True,
                                                                 monkeypatch).graphs) > 0
    assert all(g._tasks is None for g in lazy.graphs)


def test_moved_lines_place_the_moved_tasks(monkeypatch):
    """A blank line above a graph's function: the last result is placed again, moved, and its tasks
    read later are where a fresh analysis of the new text places them."""
    path = ROOT / "graph_programs" / "g4_reads_wait_on_every_live_writer.py"
    text = path.read_text(encoding="utf-8")
    texts = OpenTexts()
    uri = path_to_uri(path)
    texts.open(uri, text, 1)
    ws = Workspace([path.parent], open_documents=texts)
    ws.analysis(uri)
    at = text.index("@pl.")
    moved_text = text[:at] + "\n\n" + text[at:]
    texts.change(uri, moved_text, 2)
    moved = ws.analysis(uri)
    fresh = _analysis(path, moved_text, True, monkeypatch)
    assert [graph_json(g, "f", True) for g in moved.graphs] == [graph_json(g, "f", True) for g in fresh.graphs]


def test_a_placed_graph_keeps_its_programs_text_not_the_documents(monkeypatch):
    path = ROOT / "task_places" / "entry.py"
    lazy = _analysis(path, path.read_text(encoding="utf-8"), False, monkeypatch)
    graph = lazy.graphs[0]
    assert isinstance(graph._placer.lines, graphs._UnitLines)
    graph.tasks
    assert graph._placer is None  # (placed: what it read is let go)
