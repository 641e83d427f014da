"""A workspace that keeps what a newer analysis replaced (the server's: workspace.release_replaced)
frees it only when asked, and frees it at once otherwise (the command line, the tests): here, the
exports of a document's first analysis, after an edit."""
from __future__ import annotations

import weakref
from pathlib import Path

from pypto_lens.workspace.documents import OpenTexts
from pypto_lens.workspace.workspace import Workspace, path_to_uri

PROGRAM = '''import pypto.language as pl


@pl.function(type=pl.FunctionType.InCore)
def scale(x: pl.Tensor[[16], pl.FP32], out: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
    t = pl.load(x, [0], [16])
    out = pl.store(t, [0], out)
    return out


@pl.function(type=pl.FunctionType.Orchestration)
def main(x: pl.Tensor[[16], pl.FP32], out: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
    out = scale(x, out)
    return out
'''


def _replaced_after_an_edit(tmp_path: Path, keep: bool):
    path = tmp_path / "model.py"
    path.write_text(PROGRAM)
    texts = OpenTexts()
    workspace = Workspace([tmp_path], open_documents=texts)
    workspace.keep_replaced = keep
    uri = path_to_uri(path)
    texts.open(uri, PROGRAM, 1)
    assert workspace.analysis(uri).calls
    exports = workspace.exports(uri)  # (made by that analysis, and held by it alone)
    assert "scale" in exports.functions
    gone = weakref.ref(exports)
    del exports
    texts.change(uri, PROGRAM.replace("out = scale(x, out)", "out = scale(x, out)  # edited"), 2)
    assert workspace.analysis(uri).version == 2
    return workspace, gone


def test_a_replaced_analysis_is_kept_until_released(tmp_path):
    workspace, gone = _replaced_after_an_edit(tmp_path, keep=True)
    assert gone() is not None
    workspace.release_replaced()
    assert gone() is None  # (by reference counts: no cycle collection asked)



def test_without_keeping_a_replaced_analysis_is_freed_at_once(tmp_path):
    _, gone = _replaced_after_an_edit(tmp_path, keep=False)
    assert gone() is None
