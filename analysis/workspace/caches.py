"""The content-keyed caches every document of a workspace shares, and the cached parse of a unit.

Keyed by content, not by line numbers: a unit's parse by its text, a function's
lowering by its unit's text and the module context, a program's chain by its
functions and their callees' signatures, a program's placed results by its offsets.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ..syntax import chunker
from ..syntax import pieces
from ..syntax.parser import SyntaxProblem
from ..syntax.recovery import parse_recovering
from .lru import LRU


@dataclass
class ParsedUnit:
    stmts: list
    problem: Optional[SyntaxProblem]
    contributions: dict = field(default_factory=dict, compare=False)  # context key -> unit_contribution


class Caches:
    """Content-keyed caches shared by every document of a workspace."""

    def __init__(self) -> None:
        self.parses = LRU(20000)
        self.statements = LRU(100000, 2_000_000, lambda key, _: len(key[0]))  # pieces.parse_by_statements
        self.lowered = LRU(20000)
        self.programs = LRU(2000)
        self.placed = LRU(4000)  # a program's results in absolute positions, by its offsets
        self.splitters: dict = {}  # uri -> the chunker.Splitter of that document
        self.module_copies = LRU(2000)  # (module function, offset) -> its external copy

    def splitter(self, uri: str) -> chunker.Splitter:
        if uri not in self.splitters:
            self.splitters[uri] = chunker.Splitter()
        return self.splitters[uri]


def parse(caches: Caches, unit: chunker.Unit) -> ParsedUnit:
    """A unit's statements and its first syntax problem, parsed once per (kind, code): its text
    without comments and trailing blanks (chunker.code_text), so a comment typed changes nothing."""
    def run() -> ParsedUnit:
        text = unit.code
        if unit.kind == "class":
            text += "\n" + " " * 4 + "pass"  # a class header alone has no body
        if unit.end - unit.start >= pieces.MIN_LINES:  # a long function: statement by statement
            stmts, problem = parse_recovering(text, lambda t: pieces.parse_by_statements(t, caches.statements))
        else:
            stmts, problem = parse_recovering(text)
        return ParsedUnit(stmts, problem)
    return caches.parses.get_or((unit.kind, unit.code), run)
