"""The diagnostics of a C++ source with REGISTER_OP chains: the registration rules V1-V3 (spec §14),
and the chains read only in part (UnparsedRegistration), as plain diagnostics like those of pl programs."""
from __future__ import annotations

from ..registry.cpp_chains import unparsed
from ..registry.validate import validate_source
from ..vocabulary import Code, Severity
from ..workspace.results import Diagnostic, Range


def registration_diagnostics(text: str) -> list[Diagnostic]:
    out = []
    for problem in validate_source(text):
        r = problem.range
        out.append(Diagnostic(problem.code, Severity.ERROR, f"{problem.rule}: {problem.message}",
                              Range(r.line, r.col, r.end_line, r.end_col)))
    for problem in unparsed(text):
        r = problem.range
        out.append(Diagnostic(Code.UNPARSED_REGISTRATION, Severity.WARNING, problem.message,
                              Range(r.line, r.col, r.end_line, r.end_col)))
    return sorted(out, key=lambda d: (d.range.line, d.range.col))
