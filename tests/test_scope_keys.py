"""Outlined scopes' answers kept by their content (pipeline/scope_keys.py, issue 20).

O5, O4's aliases and return order, and U4 are asked once per distinct scope body: again for the
other expansions of an inline helper's scope, and for every scope an edit did not change. What they
answer must be what the stages make from scratch: checked here against analyses that keep nothing,
across random edits (Hypothesis), and on every bundled program with the check mode on.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pypto_lens.pipeline import outline, upgrade
from pypto_lens.pipeline.program import ProgramChain
from pypto_lens.workspace.caches import ContentCache
from pypto_lens.workspace.documents import OpenTexts
from pypto_lens.workspace.workspace import Workspace
from test_incremental import CALLER, HELPER, apply, view

REPO = Path(__file__).resolve().parent.parent

# the helper file's square_into and the caller's entry in one file, the entry with a scope of its own
OWN_SCOPE = """    with pl.at(level=pl.Level.CORE_GROUP):
        u = pl.load(mid, [0], [N])
        pl.store(u, [0], y)
        pl.write(mid, [0], pl.read(y, [1]))
"""
PROGRAM = HELPER + "\n\n" + CALLER[CALLER.index("@pl.jit"):].replace("    return y\n", OWN_SCOPE + "    return y\n")
URI = "file:///scope_keys/model.py"


class _Nothing(ContentCache):
    """An answers store that keeps nothing: every scope is analysed by the stages themselves."""

    def get(self, key, default=None):
        return default

    def put(self, key, value, weight):
        pass


def _counting(monkeypatch) -> dict:
    """How often O5 and U4 really run (not answered from what was kept)."""
    runs = {"O5": 0, "U4": 0}
    monkeypatch.setattr(outline, "CHECK", False)  # (the check mode makes every kept answer again)
    monkeypatch.setattr(upgrade, "CHECK", False)
    o5, u4 = outline._infer_param_directions, upgrade._upgrade

    def counted_o5(*args, **kwargs):
        runs["O5"] += 1
        return o5(*args, **kwargs)

    def counted_u4(*args, **kwargs):
        runs["U4"] += 1
        return u4(*args, **kwargs)
    monkeypatch.setattr(outline, "_infer_param_directions", counted_o5)
    monkeypatch.setattr(upgrade, "_upgrade", counted_u4)
    return runs


def _analysis(text: str, keeping: bool = True):
    texts = OpenTexts()
    workspace = Workspace(open_documents=texts)
    if not keeping:
        workspace.caches.scopes = _Nothing(spare=0)
    texts.open(URI, text, 1)
    return workspace, texts, workspace.analysis(URI)


def test_a_helpers_scope_expanded_three_times_is_analysed_once_per_distinct_body(monkeypatch):
    runs = _counting(monkeypatch)
    *_, kept = _analysis(PROGRAM)
    kept_runs = dict(runs)
    *_, fresh = _analysis(PROGRAM, keeping=False)
    # four scopes are outlined: the helper's three expansions and the entry's own
    assert runs["O5"] - kept_runs["O5"] == 4
    assert kept_runs["O5"] < 4
    assert view(kept) == view(fresh)


def test_an_edit_outside_the_scopes_reuses_their_answers(monkeypatch):
    runs = _counting(monkeypatch)
    workspace, texts, _ = _analysis(PROGRAM)
    spare = "    spare = pl.create_tensor([N], dtype=pl.FP32)\n"
    below = PROGRAM.replace("    return y\n", spare + "    return y\n")
    before = dict(runs)
    texts.change(URI, below, 2)
    analysis = workspace.analysis(URI)
    assert (runs["O5"], runs["U4"]) == (before["O5"], before["U4"])  # every scope's answers were kept
    assert view(analysis) == view(_analysis(below, keeping=False)[2])
    # a line above a scope moves it: its key is the same (its spans are counted from its first line),
    # and its evidence is moved with it (the steps of every hint and signature point where a fresh
    # analysis points them)
    above = below.replace("    mid = square_into(x, mid)\n", spare + "    mid = square_into(x, mid)\n", 1)
    before = dict(runs)
    texts.change(URI, above, 3)
    analysis = workspace.analysis(URI)
    assert (runs["O5"], runs["U4"]) == (before["O5"], before["U4"])
    fresh = _analysis(above, keeping=False)[2]
    assert explained(analysis) == explained(fresh)
    assert explained(analysis) != explained(_analysis(below, keeping=False)[2])  # (the steps moved)


def test_a_moved_scopes_kept_evidence_points_at_its_new_lines(monkeypatch):
    """The outlined functions' directions and reasons (O5's and U4's evidence, in spans of their owners'
    text) after a line is typed above the entry's own scope: what was kept, moved, is what the stages
    make afresh."""
    made = []
    signatures = ProgramChain._from_normalised  # (every chain's signatures: made whole, or gone on from N1)

    def recorded(chain):
        signatures(chain)
        made.append(sorted((fn.name, tuple(fn.dirs), repr(fn.reasons)) for fn in chain.state.fns.values()
                           if fn.origin == "outlined"))
    monkeypatch.setattr(ProgramChain, "_from_normalised", recorded)
    workspace, texts, _ = _analysis(PROGRAM)
    pad = "    pad = pl.create_tensor([N], dtype=pl.FP32)\n"
    above = PROGRAM.replace("    y = square_into(mid, y)\n", "    y = square_into(mid, y)\n" + pad)
    texts.change(URI, above, 2)
    workspace.analysis(URI)
    kept = made[-1]
    _analysis(above, keeping=False)
    assert kept == made[-1]
    assert kept != made[0]  # (the entry's scope moved: its evidence did)


def explained(analysis) -> tuple:
    """Every hint and signature change with its explanations, steps and their places."""
    return (sorted((h.line, h.col, repr(h.explanation)) for c in analysis.calls for h in c.hints),
            sorted((c.function, c.param, repr(c.explanation)) for c in analysis.signatures))


def test_a_write_typed_into_a_scope_is_answered_anew(monkeypatch):
    runs = _counting(monkeypatch)
    workspace, texts, first = _analysis(PROGRAM)
    edited = PROGRAM.replace("        pl.store(pl.mul(t, t), [0], dst)\n",
                             "        pl.store(pl.mul(t, t), [0], dst)\n        pl.store(t, [0], src)\n")
    before = runs["O5"]
    texts.change(URI, edited, 2)
    analysis = workspace.analysis(URI)
    assert runs["O5"] > before  # the helper's scope changed: its expansions are analysed again
    fresh = _analysis(edited, keeping=False)[2]
    assert view(analysis) == view(fresh)
    assert view(analysis) != view(first)  # (src is written now: its callers' directions changed)


SCOPE_SNIPPETS = ["pl.store(t, [0], src)\n", "pl.store(t, [0], dst)\n", "t = pl.load(dst, [0], [N])\n",
                  "pl.InOut[", "pl.Out[", "with pl.at(level=pl.Level.CORE_GROUP):\n", "    ", "\n", "x", "mid",
                  "= square_into(mid, x)\n", "pl.mul(t, t)", "#", "(", ")", ",", "t"]


@st.composite
def scope_edits(draw):
    out = []
    for _ in range(draw(st.integers(min_value=1, max_value=8))):
        where = draw(st.floats(min_value=0, max_value=1))
        span = draw(st.integers(min_value=0, max_value=40))
        out.append((where, span, "".join(draw(st.lists(st.sampled_from(SCOPE_SNIPPETS), max_size=2)))))
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scope_edits())
def test_edits_in_and_around_scopes_equal_an_analysis_that_keeps_nothing(sequence):
    workspace, texts, _ = _analysis(PROGRAM)
    text = PROGRAM
    for version, edit in enumerate(sequence, start=2):
        text = apply(text, edit)
        texts.change(URI, text, version)
        workspace.analysis(URI)
    assert view(workspace.analysis(URI)) == view(_analysis(text, keeping=False)[2])


def test_kept_answers_are_what_the_stages_make_on_every_bundled_program():
    """With PYPTO_LENS_CHECK_SCOPE_KEYS=1 every kept answer is made again and compared (a difference
    fails the analysis); the output is the same as without."""
    paths = [str(REPO / "examples"), str(REPO / "tests" / "programs")]
    command = [sys.executable, "-m", "pypto_lens.entry", "check", "--format", "json", "--scalar", "--information",
               "--exit-zero", "--jobs", "1", *paths]
    plain = subprocess.run(command, capture_output=True, text=True, cwd=REPO, timeout=600)
    checked = subprocess.run(command, capture_output=True, text=True, cwd=REPO, timeout=600,
                             env={**os.environ, "PYPTO_LENS_CHECK_SCOPE_KEYS": "1"})
    assert plain.returncode == checked.returncode == 0, checked.stderr[-2000:]
    assert "AssertionError" not in checked.stderr
    assert json.loads(checked.stdout) == json.loads(plain.stdout)
    assert json.loads(plain.stdout)  # (the programs were found and analysed)


def test_a_cached_result_used_again_holds_its_scopes():
    """An edit undone is answered with the program's cached result, which runs no chain: it holds the
    scopes' answers it was made with, so that the next edit finds them (not dropped as spare)."""
    workspace, texts, _ = _analysis(PROGRAM)
    scopes = workspace.caches.scopes
    first = set(scopes.holders)
    spare = "    spare = pl.create_tensor([N], dtype=pl.FP32)\n"
    texts.change(URI, PROGRAM.replace("    return y\n", spare + "    return y\n"), 2)
    workspace.analysis(URI)
    texts.change(URI, PROGRAM, 3)
    workspace.analysis(URI)
    assert first and first <= set(scopes.holders)
