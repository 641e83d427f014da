"""A direction edit goes on from the caller's last N1 and types (issue 20).

A kernel's `pl.Out` made `pl.InOut` in blocks.py changes the directions model.py's calls read, not
what N1 expands or what the types are: the caller's chain goes on from its functions as N1 and the
types left them (caches.normalised), and its whole analysis equals a new workspace's. The same in
model.py itself: only the kernel whose text changed runs N1 and the types again. An edit of an
inline helper's body changes the expansion: N1 runs again.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pypto_lens.pipeline.program as program
from pypto_lens.workspace.documents import OpenTexts
from pypto_lens.workspace.workspace import Workspace, path_to_uri

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
from gen_model import write_model  # noqa: E402


def whole_view(analysis):
    return (analysis.calls, analysis.signatures, analysis.diagnostics, analysis.operators, analysis.graphs,
            analysis.optional_diagnostics, analysis.lent)


@pytest.fixture
def family(tmp_path):
    model = write_model(tmp_path, 400)
    return tmp_path, model.read_text(), (tmp_path / "blocks.py").read_text()


@pytest.fixture
def expansions(monkeypatch):
    """The functions of each chain that ran N1 and the types (a chain gone on from another's does not)."""
    ran = []
    real = program.ProgramChain.signatures

    def noted(chain):
        if chain.phase < 2:
            ran.append(set(chain.state.fns))
        return real(chain)
    monkeypatch.setattr(program.ProgramChain, "signatures", noted)
    return ran


def of_model(expansions) -> list:
    return [names for names in expansions if "model_core" in names]


def open_both(folder: Path, model_text: str, blocks_text: str):
    texts = OpenTexts()
    workspace = Workspace([folder], open_documents=texts)
    model, blocks = path_to_uri(str(folder / "model.py")), path_to_uri(str(folder / "blocks.py"))
    texts.open(blocks, blocks_text, 1)
    texts.open(model, model_text, 1)
    workspace.analysis(blocks)
    workspace.analysis(model)
    return workspace, texts, model, blocks


def fresh(folder: Path, model_text: str, blocks_text: str):
    workspace, _, model, _ = open_both(folder, model_text, blocks_text)
    return workspace.analysis(model)


def directions_of(analysis, callee: str) -> list:
    return [[(h.col, h.direction) for h in c.hints] for c in analysis.calls if c.callee == callee]


def test_a_kernels_direction_edit_goes_on_from_the_callers_n1_and_equals_a_new_workspace(family, expansions):
    folder, model_text, blocks_text = family
    workspace, texts, model, blocks = open_both(folder, model_text, blocks_text)
    before = directions_of(workspace.analysis(model), "scale_tile")
    edited = blocks_text.replace("dst: pl.Out[", "dst: pl.InOut[", 1)
    assert edited != blocks_text
    for version, text in enumerate([edited, blocks_text, edited], start=2):
        texts.change(blocks, text, version)
        expansions.clear()
        hints = workspace.analysis(model, hints_only=True)
        assert not of_model(expansions)  # (N1 did not run for model.py: its chain went on from the last one's)
        whole = workspace.analysis(model)
        assert hints.calls == whole.calls
        assert whole_view(whole) == whole_view(fresh(folder, model_text, text))
    assert directions_of(whole, "scale_tile") != before  # the caller's hints show the new direction


@pytest.mark.parametrize("edited_file", ["blocks.py", "model.py"])
def test_an_inline_helpers_edit_expands_again(family, expansions, edited_file):
    """In the caller's file (local_mix) or another (norm_then_exp), each changed in place: no other
    line moves."""
    folder, model_text, blocks_text = family
    workspace, texts, model, blocks = open_both(folder, model_text, blocks_text)
    if edited_file == "blocks.py":
        uri, edited = blocks, blocks_text.replace(_HELPER_LINE, _HELPER_STORES_SRC, 1)
        texts_after = (model_text, edited)
    else:
        uri, edited = model, model_text.replace(_LOCAL_HELPER_OP, _LOCAL_HELPER_OTHER_OP, 1)
        texts_after = (edited, blocks_text)
    assert edited not in (model_text, blocks_text)
    texts.change(uri, edited, 2)
    expansions.clear()
    whole = workspace.analysis(model)
    assert of_model(expansions)
    assert whole_view(whole) == whole_view(fresh(folder, *texts_after))


def test_a_file_no_editor_has_open_keeps_no_n1(family):
    folder, _, _ = family
    workspace = Workspace([folder])
    workspace.analysis(path_to_uri(str(folder / "model.py")))
    assert not workspace.caches.normalised


# blocks.py's kernel parameters whose direction the Hypothesis test changes, each as written and
# wrapped in the other directions; a kernel's body changed (its text, not its shape); an inline
# helper's body changed (what N1 expands). Each in place, so that no other function's lines move
# (a moved helper is another shape: its home).
_ROW = "pl.Tensor[[TOKENS, HIDDEN], pl.FP32]"
_PARAMS = [(f"dst: pl.Out[{_ROW}]", "dst: "), (f"acc: pl.InOut[{_ROW}]", "acc: "), (f"sink: {_ROW}", "sink: ")]
_WRAPS = [_ROW, f"pl.Out[{_ROW}]", f"pl.InOut[{_ROW}]"]
_KERNEL_LINE = "    dst = pl.store(pl.mul(t, t), [0, 0], dst)"
_HELPER_LINE = "        pl.store(pl.row_expand_mul(t, s), [0, 0], tmp)"  # (norm_then_exp: model.py calls it)
_HELPER_STORES_SRC = "        pl.store(pl.row_expand_mul(t, s), [0, 0], src)"  # (writes its caller's first argument)


def blocks_of(original: str, state) -> str:
    directions, kernel_body, helper_body = state
    text = original
    for (written, name), wrap in zip(_PARAMS, directions):
        assert written in text
        text = text.replace(written, name + _WRAPS[wrap], 1)
    if kernel_body:
        text = text.replace(_KERNEL_LINE, _KERNEL_LINE.replace("pl.mul", "pl.add"), 1)
    if helper_body:
        text = text.replace(_HELPER_LINE, _HELPER_STORES_SRC, 1)
    return text


states = st.tuples(st.tuples(*[st.integers(0, 2)] * len(_PARAMS)), st.booleans(), st.booleans())


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(states, st.booleans()), min_size=1, max_size=4))
def test_edits_of_an_imported_files_directions_and_bodies_equal_from_scratch(family, sequence):
    """Directions, a kernel's body and an inline helper's body in blocks.py changed in turn, model.py
    analysed after each (hints first, its rest made or not): its whole analysis at the end equals a
    new workspace's (a chain gone on from one whose N1 read other shapes would differ)."""
    folder, model_text, blocks_text = family
    workspace, texts, model, blocks = open_both(folder, model_text, blocks_text)
    text = blocks_text
    for version, (state, whole) in enumerate(sequence, start=2):
        text = blocks_of(blocks_text, state)
        texts.change(blocks, text, version)
        workspace.analysis(model, hints_only=True)
        if whole:
            workspace.analysis(model)
    assert whole_view(workspace.analysis(model)) == whole_view(fresh(folder, model_text, text))


def test_a_kernels_direction_edit_in_the_callers_file_runs_n1_for_that_kernel_only(family, expansions):
    folder, model_text, blocks_text = family
    workspace, texts, model, _ = open_both(folder, model_text, blocks_text)
    before = directions_of(workspace.analysis(model), "gate_0")
    edited = model_text.replace(_GATE_OUT, _GATE_INOUT, 1)
    assert edited != model_text
    texts.change(model, edited, 2)
    expansions.clear()
    hints = workspace.analysis(model, hints_only=True)
    assert not of_model(expansions)  # (model_core was not expanded again: gate_0 alone ran N1)
    whole = workspace.analysis(model)
    assert hints.calls == whole.calls
    assert whole_view(whole) == whole_view(fresh(folder, edited, blocks_text))
    assert directions_of(whole, "gate_0") != before


def test_a_kernel_whose_returned_type_changes_in_the_callers_file_makes_the_callers_types_again(family):
    folder, model_text, blocks_text = family
    workspace, texts, model, _ = open_both(folder, model_text, blocks_text)
    edited = model_of(model_text, ((False, False, False), 2, False))
    assert edited != model_text
    texts.change(model, edited, 2)
    assert whole_view(workspace.analysis(model)) == whole_view(fresh(folder, edited, blocks_text))


KEYWORDS = """import pypto.language as pl


@pl.jit.incore
def kernel(src: pl.Tensor[[64, 64], pl.FP32], dst: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    t = pl.load(src, [0, 0], [64, 64])
    dst = pl.store(t, [0, 0], dst)
    return dst


@pl.jit
def entry(x: pl.Tensor[[64, 64], pl.FP32], y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    y = kernel(x, dst=y)
    return y
"""


def test_a_kernels_parameter_renamed_in_the_callers_file_binds_the_callers_keywords_again(tmp_path):
    """N1 binds a call's keywords by the callee's parameter names: a name changed is another shape."""
    path = tmp_path / "keywords.py"
    path.write_text(KEYWORDS, encoding="utf-8")
    uri = path_to_uri(str(path))
    texts = OpenTexts()
    workspace = Workspace([tmp_path], open_documents=texts)
    texts.open(uri, KEYWORDS, 1)
    before = workspace.analysis(uri)
    renamed = KEYWORDS.replace("dst: pl.Out[", "out: pl.Out[").replace("dst = pl.store(t, [0, 0], dst)",
                                                                        "out = pl.store(t, [0, 0], out)")
    renamed = renamed.replace("    return dst\n", "    return out\n", 1)
    texts.change(uri, renamed, 2)
    after = workspace.analysis(uri)
    fresh_texts = OpenTexts()
    fresh_texts.open(uri, renamed, 1)
    assert whole_view(after) == whole_view(Workspace([tmp_path], open_documents=fresh_texts).analysis(uri))
    assert whole_view(after) != whole_view(before)


# model.py's own kernels (gate_k, as written: the first three) and its inline helper local_mix
_GATE_OUT = f"    dst: pl.Out[{_ROW}],"
_GATE_INOUT = f"    dst: pl.InOut[{_ROW}],"
_GATE_BODY = "dst = pl.store(pl.mul(t, pl.exp(g)), [0, 0], dst)"
_LOCAL_HELPER_OP = "pl.store(pl.neg(t), [r * ROWS, 0], dst)"
_LOCAL_HELPER_OTHER_OP = "pl.store(pl.exp(t), [r * ROWS, 0], dst)"


_GATE_RETURNS = "    return dst\n"
_GATE_RETURNS_SCALAR = "    return 1\n"  # (another returned type: its caller's result is a scalar, whose hints say so)


def model_of(original: str, state) -> str:
    gates, gate_body, helper_body = state
    head, sep, rest = original.partition("@pl.jit.inline")  # (the gates come before the helpers)
    parts = head.split(_GATE_OUT)
    assert len(parts) == len(gates) + 1
    head = parts[0] + "".join((_GATE_INOUT if inout else _GATE_OUT) + part for inout, part in zip(gates, parts[1:]))
    if gate_body == 1:
        head = head.replace(_GATE_BODY, _GATE_BODY.replace("pl.mul", "pl.add"), 1)
    elif gate_body == 2:
        head = head.replace(_GATE_RETURNS, _GATE_RETURNS_SCALAR, 1)
    text = head + sep + rest
    if helper_body:
        text = text.replace(_LOCAL_HELPER_OP, _LOCAL_HELPER_OTHER_OP, 1)
    return text


model_states = st.tuples(st.tuples(*[st.booleans()] * 3), st.integers(0, 2), st.booleans())


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(model_states, states, st.booleans()), min_size=1, max_size=4))
def test_edits_of_both_files_equal_from_scratch(family, sequence):
    """model.py's kernels (directions, a body) and inline helper, and blocks.py's, changed in turn,
    model.py analysed after each, hints first: its whole analysis at the end equals a new workspace's."""
    folder, model_text, blocks_text = family
    workspace, texts, model, blocks = open_both(folder, model_text, blocks_text)
    mine, theirs = model_text, blocks_text
    for version, (model_state, blocks_state, whole) in enumerate(sequence, start=2):
        mine, theirs = model_of(model_text, model_state), blocks_of(blocks_text, blocks_state)
        texts.change(blocks, theirs, version)
        texts.change(model, mine, version)
        workspace.analysis(model, hints_only=True)
        if whole:
            workspace.analysis(model)
    assert whole_view(workspace.analysis(model)) == whole_view(fresh(folder, mine, theirs))
