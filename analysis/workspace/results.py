"""What the analysis of a document gives its users, in absolute positions.

Plain values, no LSP types: the presentation layer words them, the server and
the CLI render them. Lines are zero-based, columns are code points.
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Optional

from ..ir.nodes import ArgDir
from ..registry.model import OpInfo
from ..vocabulary import Code, Severity

BY_START = attrgetter("range.line", "range.col")  # the order of calls and operators (a C key: 13,000 calls a keystroke)


@dataclass(frozen=True, slots=True)
class Range:
    line: int
    col: int
    end_line: int
    end_col: int

    def holds(self, line: int, col: int) -> bool:
        """Is the position inside, both ends included (a cursor right after a call is on it)?"""
        return (self.line, self.col) <= (line, col) <= (self.end_line, self.end_col)


@dataclass(frozen=True, slots=True)
class Location:
    """A place in some document (`uri` None: the document being analysed)."""

    uri: Optional[str]
    range: Range


@dataclass(frozen=True, slots=True)
class Step:
    """One piece of evidence of a derivation, with where it is."""

    label: str
    note: str
    location: Optional[Location]


@dataclass(frozen=True, slots=True)
class Explanation:
    rule: str  # spec rule id
    text: str
    steps: tuple[Step, ...] = ()


@dataclass(frozen=True, slots=True)
class ArgHint:
    """The direction of one argument of one call (or of one captured buffer of a scope)."""

    line: int
    col: int
    direction: ArgDir
    param: str
    arg: Optional[str]  # the argument's variable name, when it is one
    index: int
    explanation: Explanation
    copies: tuple[ArgDir, ...] = ()  # H3: several IR calls behind this source call
    declared: Optional[Location] = None  # the callee parameter
    via: Optional[str] = None  # a lent header's capture that a caller's argument expression reads (N1): it


@dataclass(frozen=True, slots=True)
class SignatureParam:
    """One parameter of a callee as its callers see it (the hover's signature)."""

    name: str
    declared: str  # ParamDirection as written: In, Out, InOut
    effective: str  # after the stages (D6)
    scalar: bool  # not a tensor: passed by value (S7)


@dataclass(frozen=True, slots=True)
class CallSite:
    """A direction-bearing call as written (or a scope header with its dispatch)."""

    range: Range  # the call expression, or the scope header line
    name_range: Range  # the callee name (or the header)
    callee: str
    callee_kind: str
    function: str  # where the call was derived
    hints: tuple[ArgHint, ...]
    scope: bool = False
    submit: bool = False
    skipped: Optional[str] = None  # why it carries no directions (S6)
    notes: tuple[str, ...] = ()  # H2/H3: related vectors in words
    signature: tuple[SignatureParam, ...] = ()  # the callee's parameters (none when it is unknown)
    lent: tuple[str, ...] = ()  # an inline helper's scope as its callers expand it: the callers (helper_callers.py)


@dataclass(frozen=True, slots=True)
class SignatureChange:
    """A parameter whose effective direction differs from its declaration (D6)."""

    function: str
    param: str
    line: int
    col: int  # after the parameter's annotation (where a hint goes)
    declared: str
    effective: str
    explanation: tuple[Explanation, ...]
    range: Range  # the parameter, from its name to the end of its annotation (where a hover answers)


@dataclass(frozen=True, slots=True)
class Diagnostic:
    code: Code
    severity: Severity
    message: str
    range: Range
    related: tuple[Step, ...] = ()
    data: dict = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True, slots=True)
class OperatorSite:
    """An operator call in a pl program and what the registry says about it (for its hover)."""

    range: Range
    dsl: str  # as written, canonical (`pl.store`)
    op: Optional[str]  # the registry operator it emits, if any
    info: Optional[OpInfo]  # what the registry declares about it
    effects: tuple  # (argument label, op argument index or None, Effect) per argument passed


@dataclass(slots=True)
class DocumentAnalysis:
    """A document's results. `calls` and `operators` are in the order of their start (line, col);
    the lists are not changed once the analysis is handed out, so the questions below answer from
    an index by line made on the first of them (a request costs the lines it asks about)."""

    uri: Optional[str]
    version: Optional[int]
    calls: list[CallSite]
    signatures: list[SignatureChange]
    diagnostics: list[Diagnostic]
    operators: list = field(default_factory=list)  # OperatorSite, for operator hovers
    graphs: list = field(default_factory=list)  # graphs.PlacedGraph of each orchestration-like function
    # diagnostics off by default (information-level hazards): shown when their data["setting"] is on
    optional_diagnostics: list = field(default_factory=list)
    # scopes of other files' inline helpers this document expands (helper_callers.LentScope)
    lent: list = field(default_factory=list)
    # False: made as far as what hints show (calls, signatures, syntax errors, lent scopes); its task
    # graphs, hazards, misuse and operator sites follow (document.Rest)
    complete: bool = True
    # made without running any program's chain (each program's last result, cached or moved: moved_lines.py):
    # how long it took says nothing of what the next edit costs (server/analyses.py)
    reused: bool = field(default=False, compare=False)
    _index: Optional[tuple] = field(default=None, init=False, repr=False, compare=False)
    _by_line: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def _lines(self) -> tuple:
        if self._index is None:
            calls = sorted(self.calls, key=BY_START)
            operators = sorted(self.operators, key=BY_START)
            reach = max((c.range.end_line - c.range.line for c in calls), default=0)
            self._index = (calls, [c.range.line for c in calls], reach,
                           operators, [o.range.line for o in operators],
                           max((o.range.end_line - o.range.line for o in operators), default=0))
        return self._index

    def calls_between(self, first: int, last: int) -> list[CallSite]:
        """The calls whose lines meet lines [first, last] (their hints are on their lines)."""
        calls, starts, reach, *_ = self._lines()
        lo, hi = bisect_left(starts, first - reach), bisect_right(starts, last)
        return [c for c in calls[lo:hi] if c.range.end_line >= first]

    def operators_between(self, first: int, last: int) -> list:
        *_, operators, starts, reach = self._lines()
        lo, hi = bisect_left(starts, first - reach), bisect_right(starts, last)
        return [o for o in operators[lo:hi] if o.range.end_line >= first]

    def meeting(self, name: str, first: int, last: int) -> list:
        """The items of list `name` ("signatures", "diagnostics", "optional_diagnostics") whose range
        meets lines [first, last], in their list's order (an index by line: a moved answer on a
        50,000-line file looked at its 3,300 diagnostics at every keystroke)."""
        index = self._by_line.get(name)
        if index is None:
            items = sorted(enumerate(getattr(self, name)), key=lambda kv: kv[1].range.line)
            reach = max((item.range.end_line - item.range.line for _, item in items), default=0)
            index = self._by_line[name] = (items, [item.range.line for _, item in items], reach)
        items, starts, reach = index
        lo, hi = bisect_left(starts, first - reach), bisect_right(starts, last)
        return [item for _, item in sorted(kv for kv in items[lo:hi] if kv[1].range.end_line >= first)]

    def call_at(self, line: int, col: int) -> Optional[CallSite]:
        """The innermost call whose range holds the position."""
        best = None
        for site in self.calls_between(line, line):
            if site.range.holds(line, col):
                if best is None or (site.range.line, site.range.col) >= (best.range.line, best.range.col):
                    best = site
        return best

    def signature_at(self, line: int, col: int) -> Optional[SignatureChange]:
        """The parameter with a changed direction whose declaration holds the position."""
        return next((change for change in self.signatures if change.range.holds(line, col)), None)

    def op_at(self, line: int, col: int) -> Optional[OperatorSite]:
        return next((site for site in self.operators_between(line, line) if site.range.holds(line, col)), None)

    def graph_at(self, line: int):
        """The task graph of the function whose text holds the line (None: not an orchestration)."""
        for graph in self.graphs:
            if graph.extent is not None and graph.extent.line <= line <= graph.extent.end_line:
                return graph
        return None

    def calls_on_line(self, line: int) -> list[CallSite]:
        """The calls that start on a line (what `explain FILE:LINE` shows)."""
        return [c for c in self.calls_between(line, line) if c.range.line == line]
