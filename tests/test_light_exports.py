"""A file read only because another imports it is not analysed: its light exports (workspace.py,
document.LightSummary) give importers exactly what its analysis would, at the cost of what they read.

- the same tokens (signatures, declared directions, returned types, helper bodies' digests,
  constants, re-exported names) as the analysis's exports, for every file of the project's fixtures;
- helpers alone are read without running any chain; a kernel read runs the chain as far as the
  signatures, once, and the file's own analysis later goes on from there;
- an edit of a function of the imported file that the importer does not read leaves the importer's
  analysis as it was (the early cutoff is per name read).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from pypto_lens.ir.nodes import Kind
from pypto_lens.pipeline import program
from pypto_lens.workspace.documents import path_to_uri
from pypto_lens.workspace.workspace import Workspace

ROOT = Path(__file__).resolve().parent.parent

BLOCKS = '''\
import pypto.language as pl

ROWS = 16
COLS = ROWS * 4


@pl.function(type=pl.FunctionType.InCore)
def scale_rows(x: pl.Tensor[[ROWS, COLS], pl.FP32], out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]]):
    t = pl.load(x, [0, 0], [ROWS, COLS])
    pl.store(t, [0, 0], out)
    return out


@pl.jit.inline
def doubled(x: pl.Tensor[[ROWS, COLS], pl.FP32]):
    with pl.at(level=pl.Level.CORE_GROUP):
        y = pl.add(x, x)
    return y


@pl.jit.inline
def scaled_into(x: pl.Tensor[[ROWS, COLS], pl.FP32], out: pl.Tensor[[ROWS, COLS], pl.FP32]):
    out = scale_rows(x, out)
    return out


@pl.jit
def blocks_test(x: pl.Tensor[[ROWS, COLS], pl.FP32], out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]]):
    y = doubled(x)
    out = scaled_into(y, out)
    return out
'''

MODEL = '''\
import pypto.language as pl
from blocks import COLS, ROWS, doubled, scaled_into


@pl.jit
def model(x: pl.Tensor[[ROWS, COLS], pl.FP32], out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]]):
    y = doubled(x)
    out = scaled_into(y, out)
    return out
'''

USES_A_HELPER = '''\
import pypto.language as pl
from blocks import COLS, ROWS, doubled


@pl.jit
def twice(x: pl.Tensor[[ROWS, COLS], pl.FP32], out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]]):
    y = doubled(x)
    out = doubled(y)
    return out
'''

USES_KERNEL = '''\
import pypto.language as pl
from blocks import COLS, ROWS, scale_rows


@pl.jit
def direct(x: pl.Tensor[[ROWS, COLS], pl.FP32], out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]]):
    out = scale_rows(x, out)
    return out
'''


def family(tmp_path: Path) -> dict[str, str]:
    files = {"blocks.py": BLOCKS, "model.py": MODEL, "twice.py": USES_A_HELPER, "direct.py": USES_KERNEL}
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return {name: path_to_uri(tmp_path / name) for name in files}


def every_read(exports) -> dict:
    """Every token an importer could read of these exports (every function's signature forced)."""
    out = {("f", name): exports.token(("f", name)) for name in list(exports.functions)}
    out.update({("c", name): exports.token(("c", name)) for name in exports.constants})
    out.update({("i", name): exports.token(("i", name)) for name in exports.imports})
    return out


FIXTURES = sorted([*(ROOT / "examples").glob("*.py"), *(ROOT / "vscode-extension/e2e/workspace").glob("*.py"),
                   *(ROOT / "tests/graph_programs").glob("*.py")])


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_light_exports_read_as_the_analysis_exports_do(path):
    light = Workspace([path.parent]).exports(path_to_uri(path))
    full = Workspace([path.parent])
    analysed = full.analysis(path_to_uri(path))
    assert analysed is not None
    assert every_read(light) == every_read(full.exports(path_to_uri(path)))


def test_light_exports_of_the_family_read_as_the_analysis_exports_do(tmp_path):
    uris = family(tmp_path)
    for uri in uris.values():
        light = Workspace([tmp_path]).exports(uri)
        full = Workspace([tmp_path])
        full.analysis(uri)
        reads = every_read(light)
        assert reads == every_read(full.exports(uri))
        assert all(token != "<absent>" for token in reads.values())


def test_a_file_read_for_its_helpers_is_not_analysed(tmp_path, monkeypatch):
    uris = family(tmp_path)
    chains = []
    signatures = program.ProgramChain.signatures
    monkeypatch.setattr(program.ProgramChain, "signatures",
                        lambda self: chains.append(self.name) or signatures(self))
    workspace = Workspace([tmp_path])
    analysis = workspace.analysis(uris["twice.py"])
    graph = next(g for g in analysis.graphs if g.function == "twice")
    assert len(graph.tasks) == 2  # doubled's scope, expanded twice
    assert chains == ["<module>"]  # twice.py's own program only: blocks.py's (blocks_test) never ran
    assert uris["blocks.py"] not in workspace._analyses
    assert not workspace._lights[uris["blocks.py"]][2].signatures_made
    # a helper that calls the file's kernel reads the kernel's effective signature: the file's chain runs
    chains.clear()
    workspace.analysis(uris["model.py"])
    assert chains == ["<module>", "<module>"]
    assert workspace._lights[uris["blocks.py"]][2].signatures_made


def test_a_kernel_read_runs_the_chain_once_and_the_files_analysis_goes_on_from_it(tmp_path, monkeypatch):
    uris = family(tmp_path)
    ran = []
    signatures = program.ProgramChain.signatures
    monkeypatch.setattr(program.ProgramChain, "signatures",
                        lambda self: ran.append(self.phase) or signatures(self))
    analyse = program.analyse_program
    monkeypatch.setattr(program, "analyse_program", lambda *a, **k: ran.append("whole") or analyse(*a, **k))
    workspace = Workspace([tmp_path])
    workspace.analysis(uris["direct.py"])
    assert workspace._lights[uris["blocks.py"]][2].signatures_made
    ran.clear()
    taken_over = workspace.analysis(uris["blocks.py"])
    assert ran == []  # blocks.py's analysis went on from the chain its exports ran: no chain again
    fresh = Workspace([tmp_path]).analysis(uris["blocks.py"])
    assert view(taken_over) == view(fresh)


def view(analysis) -> tuple:
    return (tuple((c.range, tuple((h.direction, h.param) for h in c.hints)) for c in analysis.calls),
            tuple((d.code, d.range, d.message) for d in analysis.diagnostics),
            tuple((g.function, len(g.tasks), len(g.edges)) for g in analysis.graphs))


def test_an_edit_of_a_function_the_importer_does_not_read_keeps_its_analysis(tmp_path):
    uris = family(tmp_path)
    workspace = Workspace([tmp_path])
    before = workspace.analysis(uris["model.py"])
    # blocks_test's signature changes (its file's fingerprint did, once): model.py reads ROWS, COLS, doubled
    # and scaled_into, and scale_rows through it
    edited = BLOCKS.replace("def blocks_test(x: pl.Tensor[[ROWS, COLS], pl.FP32], out: pl.Out[",
                            "def blocks_test(x: pl.Tensor[[ROWS, COLS], pl.FP32], out: pl.InOut[")
    assert edited != BLOCKS
    (tmp_path / "blocks.py").write_text(edited, encoding="utf-8")
    assert workspace.analysis(uris["model.py"]) is before
    # a helper it reads changes: analysed again
    (tmp_path / "blocks.py").write_text(BLOCKS.replace("y = pl.add(x, x)", "y = pl.mul(x, x)"), encoding="utf-8")
    after = workspace.analysis(uris["model.py"])
    assert after is not before
    assert view(after) == view(Workspace([tmp_path]).analysis(uris["model.py"]))


def test_a_helper_read_makes_only_the_functions_it_names(tmp_path):
    """twice.py reads `doubled` alone: blocks.py's other functions are not parsed, lowered nor chained
    (issue 20: most of what importing files parsed of pypto-lib's models they never read). What is
    read is what the whole file's analysis exports."""
    uris = family(tmp_path)
    workspace = Workspace([tmp_path])
    workspace.analysis(uris["twice.py"])
    summary = workspace._lights[uris["blocks.py"]][2]
    assert set(summary.helpers) == {"doubled"}
    assert summary.maker.waiting == {"scale_rows", "scaled_into", "blocks_test"}
    full = Workspace([tmp_path])
    full.analysis(uris["blocks.py"])
    light = workspace.exports(uris["blocks.py"])
    assert light.token(("f", "doubled")) == full.exports(uris["blocks.py"]).token(("f", "doubled"))
    # a helper naming the kernel makes both, and the kernel's signature is the whole module's
    assert light.token(("f", "scaled_into")) == full.exports(uris["blocks.py"]).token(("f", "scaled_into"))
    assert every_read(light) == every_read(full.exports(uris["blocks.py"]))


SPREAD_DECORATOR = '''\
import pypto.language as pl

N = 64


@pl.jit.inline(
    auto_scope=False,
)
def spread(x: pl.Tensor[[N], pl.FP32]):
    with pl.at(level=pl.Level.CORE_GROUP):
        y = pl.add(x, x)
    return y


@pl.jit.inline
def unread(x: pl.Tensor[[N], pl.FP32]):
    return x
'''


def test_a_function_whose_decorator_spans_lines_is_found_when_read(tmp_path):
    (tmp_path / "spread.py").write_text(SPREAD_DECORATOR, encoding="utf-8")
    uri = path_to_uri(tmp_path / "spread.py")
    light = Workspace([tmp_path]).exports(uri)
    assert "spread" in light.functions and "missing" not in light.functions
    full = Workspace([tmp_path])
    full.analysis(uri)
    assert light.token(("f", "spread")) == full.exports(uri).token(("f", "spread")) != "<absent>"


def test_a_dropped_light_summary_is_freed_at_once(tmp_path):
    """Its function maker does not point back at it: a summary and its maker as a reference cycle would
    wait, with the file's units and parses, for the cycle collector (a long session's memory grew
    1.09 -> 1.13-1.15x)."""
    import gc
    import weakref
    uris = family(tmp_path)
    workspace = Workspace([tmp_path])
    workspace.analysis(uris["twice.py"])
    summary = workspace._lights[uris["blocks.py"]][2]
    assert summary.maker is not None  # (blocks.py's other functions are not made)
    gone = weakref.ref(summary.maker)
    del summary
    gc.disable()
    try:
        workspace._drop_light(uris["blocks.py"])
        assert gone() is None
    finally:
        gc.enable()


def test_an_analysis_copies_a_function_for_other_files_only_when_one_reads_it(tmp_path):
    """The analysis's exports (workspace.ExportedFunctions) make a function's copy for importers (an
    inline helper's whole body, homed) when an importer first reads it; what the helper file lends and
    borrows is read from the functions as lowered, and is what the copies would say."""
    from pypto_lens.workspace import helper_callers
    uris = family(tmp_path)
    workspace = Workspace([tmp_path])
    workspace.analysis(uris["blocks.py"])
    exports = workspace.exports(uris["blocks.py"])
    assert exports.functions.made == {}  # (the file's own analysis, and what it lends, copied nothing)
    assert helper_callers.inline_helpers(exports) == {"doubled": BLOCKS.split("\n").index("@pl.jit.inline")}
    copies = {name: exports.functions[name] for name in exports.functions}  # every copy, as importers read them
    assert helper_callers.inline_helpers(exports) == {
        name: fn.home[1] for name, fn in copies.items()
        if fn.kind is Kind.INLINE and helper_callers._has_scope(fn.body)}
    assert workspace.callers(uris["blocks.py"]) == sorted([uris["model.py"], uris["twice.py"]])

    fresh = Workspace([tmp_path])
    fresh.analysis(uris["blocks.py"])
    fresh.analysis(uris["twice.py"])  # expands doubled: reads its copy, and no other
    assert set(fresh.exports(uris["blocks.py"]).functions.made) == {"doubled"}
