"""Every stage of the chain, pinned by small pl programs with their expected directions beside them.

Each program in tests/programs (and each example) cites the spec rules it
checks and was verified with PyPTO itself (or spec §13 for InParamWritten).
The expectations (`# expect:` comments) are read as the shared LSP checker
reads them, and compared with `pypto-lens check --format json`, computed in
this process (lens_check.reports; test_cli.py checks it is the CLI's output).
"""
from __future__ import annotations

from pathlib import Path

import pytest
from lens_check import ROOT, check, check_file
from lens_check import reports as lens_reports

from check_expectations import collect

PROGRAMS = collect([str(ROOT / "tests" / "programs"), str(ROOT / "examples")])


@pytest.fixture(scope="module")
def reports() -> dict:
    return lens_reports(PROGRAMS)


def test_there_are_programs_for_every_stage():
    prefixes = {p.name.split("_")[0] for p in PROGRAMS}
    for stage in ("s4", "s7", "s10", "s11", "s12", "c5", "c7", "c8", "c12", "n1", "n2", "n4", "o1", "o2", "o5",
                  "u1", "u2", "u3", "p2", "p3", "w4", "w6", "b1", "b5", "b7", "b9"):
        assert stage in prefixes, stage
    assert any(p.name.startswith("iw") for p in PROGRAMS)


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: str(p.relative_to(ROOT)))
def test_expectations(path: Path, reports: dict):
    count, failures = check_file(path, reports[str(path.resolve())])
    assert failures == []
    if path.parent.name != "multifile" and path.parent.parent.name != "multifile":
        assert count > 0, "a program without expectations checks nothing"


def test_check_holds_a_program_to_its_expect_comments():
    source = (ROOT / "examples" / "01_directions_basics.py").read_text(encoding="utf-8")
    check(source)
    wrong = source.replace("y = self.scale(x, 3.0, y)  # expect: Input, InOut",
                           "y = self.scale(x, 3.0, y)  # expect: Input, OutputExisting", 1)
    assert wrong != source
    with pytest.raises(AssertionError, match=r":62: expected \['Input', 'OutputExisting'\], got \['Input', 'InOut'\]"):
        check(wrong)


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: str(p.relative_to(ROOT)))
def test_use_discipline_errors_only_where_expected(path: Path, reports: dict):
    """InOutUseDiscipline rejects the program: a false one would hide every hint a user needs."""
    lines = path.read_text(encoding="utf-8").split("\n")
    expected = {i + 1 for i, line in enumerate(lines) if "expect-error: InOutUseDiscipline" in line}
    got = {d["line"] for d in reports[str(path.resolve())].get("diagnostics", []) if d.get("code") == "InOutUseDiscipline"}
    assert got == expected
