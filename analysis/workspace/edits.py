"""An analysis of an older text, moved through the edits made since: what a document showed, in the
positions of its newest text, for the moment until the analysis of that text is done (issue 8).

An `Edit` is one replacement in code-point positions (LSP line rules). A position before it stays,
one after it moves with the text after it, one inside the replaced text is gone: a hint on a line
being typed keeps its place as long as its own text is not touched. Positions in other documents
(`Location.uri` set) do not move.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Optional

from .results import (ArgHint, CallSite, Diagnostic, DocumentAnalysis, Explanation, Location, OperatorSite, Range,
                      SignatureChange, Step)


@dataclass(frozen=True)
class Edit:
    """text[start:end] replaced by a text of `lines` line ends whose last line is `tail` code points long."""

    line: int
    col: int
    end_line: int
    end_col: int
    lines: int
    tail: int


def move(edits: list[Edit], line: int, col: int, stick_right: bool = True) -> Optional[tuple[int, int]]:
    """Where (line, col) of the text before `edits` is after them, or None when its text was replaced.
    Text inserted exactly at the position goes before it (`stick_right`) or after it."""
    for e in edits:
        start, end, here = (e.line, e.col), (e.end_line, e.end_col), (line, col)
        if here < start or (here == start == end and not stick_right):
            continue
        if here < end or (here == start and start != end):
            return None
        if line == e.end_line:
            col = (col - e.end_col) + (e.tail if e.lines else e.col + e.tail)
        line += e.lines - (e.end_line - e.line)
    return line, col


def edits_by_line(edits: list[Edit]) -> Optional[dict[int, list[Edit]]]:
    """The edits of each line, in order, when none of them adds or removes a line end (typing within
    lines, nearly every burst of keystrokes), else None. Then a line's edits keep its number and
    touch no other line, so a position moves through its own line's edits alone (`move`), whatever
    the burst's length: a big document is analysed again only when typing pauses, and each keystroke
    of a long burst moved every position through every edit since (genpl 50000: 4 ms at the first
    keystroke, 7-15 ms at the sixtieth)."""
    by_line: dict[int, list[Edit]] = {}
    for e in edits:
        if e.lines or e.end_line != e.line:
            return None
        by_line.setdefault(e.line, []).append(e)
    return by_line


def moved(analysis: DocumentAnalysis, edits: list[Edit], first: int = 0, last: Optional[int] = None
          ) -> DocumentAnalysis:
    """The analysis with everything it places in its own document moved through `edits`; only what
    lands on lines [first, last] of the newest text (all of it when `last` is None); what an edit
    replaced is dropped."""
    lines_moved = sum(e.lines - (e.end_line - e.line) for e in edits)
    reach = sum(e.end_line - e.line for e in edits)
    window = None if last is None else (max(0, first - max(0, lines_moved) - reach), last - min(0, lines_moved) + reach)
    mover = _Mover(edits)
    sites = analysis.calls_between(*window) if window else analysis.calls
    calls = [c for c in map(mover.call, sites) if c is not None]
    def near(name: str) -> list:  # (before moving: only those can land in the lines asked about)
        return getattr(analysis, name) if window is None else analysis.meeting(name, *window)
    signatures = [s for s in (mover.signature(s) for s in near("signatures")) if s is not None]
    diagnostics = [d for d in (mover.diagnostic(d) for d in near("diagnostics")) if d is not None]
    ops = analysis.operators_between(*window) if window else analysis.operators
    operators = [o for o in map(mover.operator, ops) if o is not None]
    if last is not None:
        calls = [c for c in calls if c.range.end_line >= first and c.range.line <= last]
        operators = [o for o in operators if first <= o.range.line <= last]
    optional = [d for d in (mover.diagnostic(d) for d in near("optional_diagnostics")) if d is not None]
    # (the task graphs are not moved: until the new analysis is done a hover shows no task line)
    return DocumentAnalysis(analysis.uri, analysis.version, calls, signatures, diagnostics, operators,
                            optional_diagnostics=optional)


class _Mover:
    def __init__(self, edits: list[Edit]):
        self.edits = edits
        self.by_line = edits_by_line(edits)

    def move(self, line: int, col: int, stick_right: bool = True) -> Optional[tuple[int, int]]:
        if self.by_line is None:
            return move(self.edits, line, col, stick_right)
        own = self.by_line.get(line)
        return (line, col) if own is None else move(own, line, col, stick_right)

    def range(self, r: Range, stick_right: bool = True) -> Optional[Range]:
        start = self.move(r.line, r.col, stick_right)
        end = self.move(r.end_line, r.end_col, False)
        if start is None or end is None:
            return None
        return Range(start[0], start[1], end[0], end[1])

    def location(self, loc: Optional[Location]) -> Optional[Location]:
        if loc is None or loc.uri is not None:
            return loc
        r = self.range(loc.range)
        return Location(None, r) if r is not None else None

    def explanation(self, e: Explanation) -> Explanation:
        return Explanation(e.rule, e.text, tuple(Step(s.label, s.note, self.location(s.location)) for s in e.steps))

    def hint(self, h: ArgHint, scope: bool) -> Optional[ArgHint]:
        where = self.move(h.line, h.col, stick_right=not scope)  # a header's hint stays at its code's end
        if where is None:
            return None
        return replace(h, line=where[0], col=where[1], explanation=self.explanation(h.explanation),
                       declared=self.location(h.declared))

    def call(self, site: CallSite) -> Optional[CallSite]:
        r = self.range(site.range)
        name = self.range(site.name_range)
        if r is None or name is None:
            return None
        hints = tuple(h for h in (self.hint(h, site.scope) for h in site.hints) if h is not None)
        return replace(site, range=r, name_range=name, hints=hints)

    def signature(self, s: SignatureChange) -> Optional[SignatureChange]:
        where = self.move(s.line, s.col, stick_right=False)
        r = self.range(s.range)
        if where is None or r is None:
            return None
        return replace(s, line=where[0], col=where[1], range=r,
                       explanation=tuple(self.explanation(e) for e in s.explanation))

    def diagnostic(self, d: Diagnostic) -> Optional[Diagnostic]:
        r = self.range(d.range)
        if r is None:
            return None
        return replace(d, range=r, related=tuple(Step(s.label, s.note, self.location(s.location)) for s in d.related))

    def operator(self, o: OperatorSite) -> Optional[OperatorSite]:
        r = self.range(o.range)
        return replace(o, range=r) if r is not None else None
