"""A direction edit in another file goes on from the caller's last N1 and types (issue 20).

A kernel's `pl.Out` made `pl.InOut` in blocks.py changes the directions model.py's calls read, not
what N1 expands or what the types are: the caller's chain goes on from its functions as N1 and the
types left them (caches.normalised), and its whole analysis equals a new workspace's. An edit of an
inline helper's body changes the expansion: N1 runs again.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

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


def test_an_inline_helpers_edit_expands_again(family, expansions):
    folder, model_text, blocks_text = family
    workspace, texts, model, blocks = open_both(folder, model_text, blocks_text)
    start = blocks_text.index("def rows_exp(")
    body = blocks_text.index("\n", blocks_text.index("):", start)) + 1
    edited = blocks_text[:body] + "    probe = pl.exp(src)\n" + blocks_text[body:]
    texts.change(blocks, edited, 2)
    expansions.clear()
    whole = workspace.analysis(model)
    assert of_model(expansions)
    assert whole_view(whole) == whole_view(fresh(folder, model_text, edited))


def test_a_file_no_editor_has_open_keeps_no_n1(family):
    folder, _, _ = family
    workspace = Workspace([folder])
    workspace.analysis(path_to_uri(str(folder / "model.py")))
    assert not workspace.caches.normalised
