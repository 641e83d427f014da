"""How the CLI prints analyses: compiler-like text, or JSON for machines."""
from __future__ import annotations

from dataclasses import dataclass

from ..presentation.explain import call_markdown
from ..vocabulary import Code
from ..workspace.results import CallSite, Diagnostic, DocumentAnalysis

OPERATOR_NOTES = (Code.UNCLASSIFIED_OPERATOR, Code.UNKNOWN_OPERATOR)


@dataclass(frozen=True)
class Show:
    """What `check` prints besides the directions of tensor arguments and the problems."""

    scalar: bool = False  # Scalar arguments
    operators: bool = False  # the operator notes (UnclassifiedOperator, UnknownOperator): for PyPTO's own sources

    def diagnostics(self, analysis: DocumentAnalysis) -> list[Diagnostic]:
        return [d for d in analysis.diagnostics if self.operators or d.code not in OPERATOR_NOTES]


def _call_text(site: CallSite, scalar: bool) -> str:
    args = ", ".join(f"{h.param}{'(' + h.arg + ')' if h.arg and h.arg != h.param else ''}={h.direction.value}"
                     for h in site.hints if scalar or h.direction.value != "Scalar")
    kind = "scope" if site.scope else "call"
    if site.skipped:
        return f"{kind} {site.callee}: no directions ({site.skipped})"
    return f"{kind} {site.callee}: {args}"


def analysis_text(path: str, analysis: DocumentAnalysis, show: Show) -> list[str]:
    items = []
    for site in analysis.calls:
        items.append((site.range.line, site.range.col, f"{path}:{site.range.line + 1}:{site.range.col + 1}: "
                      f"{_call_text(site, show.scalar)}"))
    for d in show.diagnostics(analysis):
        items.append((d.range.line, d.range.col, f"{path}:{d.range.line + 1}:{d.range.col + 1}: "
                      f"{d.severity}: {d.code}: {d.message}"))
    return [text for _, _, text in sorted(items, key=lambda t: (t[0], t[1]))]


def analysis_json(path: str, analysis: DocumentAnalysis, show: Show) -> dict:
    scalar = show.scalar
    return {
        "file": path,
        "calls": [{
            "line": s.range.line + 1, "column": s.range.col + 1, "callee": s.callee, "callee_kind": s.callee_kind,
            "function": s.function, "scope": s.scope, "submit": s.submit, "skipped": s.skipped,
            "args": [{"index": h.index, "param": h.param, "arg": h.arg, "direction": h.direction.value,
                      "rule": h.explanation.rule, "why": h.explanation.text,
                      "line": h.line + 1, "column": h.col + 1}
                     for h in s.hints if scalar or h.direction.value != "Scalar"],
        } for s in analysis.calls],
        "signatures": [{"function": g.function, "param": g.param, "declared": g.declared, "effective": g.effective,
                        "line": g.line + 1, "rules": [e.rule for e in g.explanation]} for g in analysis.signatures],
        "diagnostics": [{"line": d.range.line + 1, "column": d.range.col + 1, "end_line": d.range.end_line + 1,
                         "end_column": d.range.end_col + 1, "severity": d.severity, "code": d.code,
                         "message": d.message} for d in show.diagnostics(analysis)],
    }


def explain_text(site: CallSite, path: str) -> str:
    header = f"{path}:{site.range.line + 1}:{site.range.col + 1}"
    return header + "\n" + call_markdown(site) + "\n"


def summary(files: int) -> str:
    return f"pypto-lens: checked {files} file{'s' if files != 1 else ''}"
