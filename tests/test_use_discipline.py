"""InOutUseDiscipline as a user reads it: on the stale read itself, PyPTO's words and a fix that fits the
call, the call that took the variable as related information; and no report for scopes (PyPTO checks
the program before outlining them). The programs are tests/programs/use_discipline_*.py."""
from __future__ import annotations

from lens_check import ROOT

from pypto_lens.workspace.workspace import Workspace, path_to_uri

PROGRAM = ROOT / "tests" / "programs" / "use_discipline_scopes_are_no_calls.py"


def test_the_error_is_on_the_read_with_the_call_as_related_information():
    analysis = Workspace([PROGRAM.parent]).analysis(path_to_uri(PROGRAM))
    lines = PROGRAM.read_text(encoding="utf-8").split("\n")
    [error] = [d for d in analysis.diagnostics if d.code == "InOutUseDiscipline"]
    call = next(k for k, line in enumerate(lines) if "self.fill(a, mid)" in line)
    col = lines[call].index("mid)")
    assert (error.range.line, error.range.col, error.range.end_line, error.range.end_col) == (call, col, call, col + 3)
    assert "read the post-call return value instead of the pre-call variable" in error.message
    assert "`mid = self.fill(..., mid, ...)`" in error.message and "the loop carries it" in error.message
    [related] = error.related
    assert related.label == "passed as Out/InOut" and related.location.range.line == call


def test_scopes_mark_nothing():
    for path in sorted((ROOT / "tests" / "programs").glob("use_discipline_*.py")):
        analysis = Workspace([path.parent]).analysis(path_to_uri(path))
        stale = [d for d in analysis.diagnostics if d.code == "InOutUseDiscipline"]
        for d in stale:
            assert "with pl." not in path.read_text(encoding="utf-8").split("\n")[d.range.line]
