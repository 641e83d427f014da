"""Parse a unit that has a syntax error by setting aside the broken statement.

While the user types, one statement of a function is usually incomplete. We
replace that statement (from the line where it begins to the line where the
parser stopped) by `pass` and parse again, a few times at most, so the rest
of the function keeps its hints. The result depends only on the text: an
edited document and a fresh one with the same text get the same answer.
"""
from __future__ import annotations

import re
from typing import Optional

from .chunker import _statement_lines
from .parser import SyntaxProblem, parse_unit

_ATTEMPTS = 6
_HEADER = re.compile(r"\s*(?:async\s+)?(if|elif|else|for|while|with|try|except|finally|def|class)\b")


def parse_recovering(text: str) -> tuple[list, Optional[SyntaxProblem]]:
    """The statements of `text`, and the first syntax problem (None when it parsed as written)."""
    stmts, problem = parse_unit(text)
    if problem is None:
        return stmts, None
    first = problem
    lines = text.split("\n")
    for _ in range(_ATTEMPTS):
        if not _set_aside(lines, problem):
            break
        stmts, problem = parse_unit("\n".join(lines))
        if problem is None:
            return stmts, first
    return [], first


def _set_aside(lines: list[str], problem: SyntaxProblem) -> bool:
    """Replace the statement holding the error by `pass` (an unexpected indent by nothing)."""
    line = min(max(problem.line, 0), len(lines) - 1)
    begins = _statement_lines(lines)
    start = line
    while start > 0 and not (begins[start] and lines[start].strip()):
        start -= 1
    end = line
    if problem.message.startswith("unexpected end of statement"):
        end = len(lines) - 1
    if start == 0 and end == len(lines) - 1 and len(lines) > 1 and _HEADER.match(lines[0]):
        return False  # the unit's own header is broken: nothing to keep
    original = lines[start]
    indent = original[:len(original) - len(original.lstrip())]
    for k in range(start, end + 1):
        lines[k] = ""
    if "indentation" in problem.message and start == line:
        return True  # a stray indented line: drop it
    # a broken block header keeps its block: the body still parses under a stand-in header
    lines[start] = indent + ("if 0:" if _HEADER.match(original) else "pass")
    return True
