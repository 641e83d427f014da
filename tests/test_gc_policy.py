"""gc_policy.first_analysis: the process's first analysis runs without the cycle collector and
freezes what it built, so no collection walks those objects during it or after it (issue 20)."""
from __future__ import annotations

import gc
from pathlib import Path

from pypto_lens.gc_policy import first_analysis
from pypto_lens.registry.dsl import literal_truth
from pypto_lens.workspace.workspace import Workspace, path_to_uri

PROGRAMS = Path(__file__).resolve().parent / "programs"


class _Node:
    def __init__(self):
        self.others: list = []


def _unfrozen():
    gc.unfreeze()
    gc.enable()


def test_no_collection_runs_during_it_and_what_it_built_is_frozen():
    before = gc.get_freeze_count()
    try:
        collections = gc.get_stats()[0]["collections"]
        with first_analysis():
            assert not gc.isenabled()
            kept = [_Node() for _ in range(200_000)]  # (past any threshold: a collection would run)
            assert gc.get_stats()[0]["collections"] == collections
        assert gc.isenabled()
        assert gc.get_freeze_count() >= before + len(kept)
        assert gc.get_count()[0] < 1000  # nothing young is left for a collection to walk after the answer
    finally:
        _unfrozen()


def test_a_failed_first_analysis_still_freezes_and_enables_the_collector_again():
    before = gc.get_freeze_count()
    try:
        try:
            with first_analysis():
                kept = [_Node() for _ in range(1000)]
                raise RuntimeError("the analysis failed")
        except RuntimeError:
            pass
        assert gc.isenabled() and gc.get_freeze_count() >= before + len(kept)
    finally:
        _unfrozen()


def test_a_collector_turned_off_before_stays_off():
    gc.disable()
    try:
        with first_analysis():
            pass
        assert not gc.isenabled()
    finally:
        _unfrozen()


def test_a_literal_is_evaluated_once_per_text():
    """ast.literal_eval leaves a reference cycle at every call: what the first analysis freezes would
    keep one per operator call with a literal keyword (2,000 objects in prefill_cp_fwd_draft.py)."""
    literal_truth("True")
    gc.collect()
    flags = gc.get_debug()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for _ in range(10):
            assert literal_truth("True") is True and literal_truth("0") is False
        gc.collect()
        left = len(gc.garbage)
    finally:
        gc.set_debug(flags)
        gc.garbage.clear()
    assert left <= 11  # (the first "0" only: one call's closures)


def test_an_analysis_made_as_the_first_gives_the_same_hints():
    paths = sorted(PROGRAMS.glob("*.py"))[:8]
    answers = []
    try:
        for first in (False, True):
            workspace = Workspace([PROGRAMS])
            hints = []
            for path in paths:
                uri = path_to_uri(path)
                workspace.open_documents.open(uri, path.read_text(encoding="utf-8"), 1)
                if first:
                    with first_analysis():
                        analysis = workspace.analysis(uri, hints_only=True)
                else:
                    analysis = workspace.analysis(uri, hints_only=True)
                hints.append([(h.line, h.col, h.direction) for site in analysis.calls_between(0, 10 ** 6)
                              for h in site.hints])
            answers.append(hints)
    finally:
        _unfrozen()
    assert answers[0] == answers[1] and any(answers[0])
