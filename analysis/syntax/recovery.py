"""Parse a unit that has a syntax error: repair the broken statement, or set it aside.

While the user types, one statement of a function is usually incomplete:
`x = self.f(a,` or `y = self.g(b) z` or `if n > 0`. We first repair it as
an editor would expect (cut the text at the error, close the open brackets,
drop a dangling operator, add a missing colon), so the call keeps its hints;
if that does not parse, the statement is replaced by `pass` so the rest of
the function keeps its hints. The result depends only on the text: an edited
document and a fresh one with the same text get the same answer.
"""
from __future__ import annotations

import re
from typing import Optional

from .chunker import _statement_lines
from .parser import SyntaxProblem, parse_unit

_ATTEMPTS = 8
_HEADER = re.compile(r"\s*(?:async\s+)?(if|elif|else|for|while|with|try|except|finally|def|class)\b")
_DANGLING = re.compile(r"(?:\.|=|\+|-|\*\*?|/{1,2}|%|@|&|\||\^|<<|>>|<=?|>=?|==|!=|\bnot|\band|\bor|\bin|\bis|:=)\s*$")
_CLOSER = {"(": ")", "[": "]", "{": "}"}
_STRING = re.compile(r"""[rRbBuUfF]{0,2}("(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?)""")


def parse_recovering(text: str, parse=parse_unit) -> tuple[list, Optional[SyntaxProblem]]:
    """The statements of `text`, and the first syntax problem (None when it parsed as written).
    `parse` is `parse_unit` or one equal to it (pieces.parse_by_statements with its cache)."""
    stmts, problem = parse(text)
    if problem is None:
        return stmts, None
    lines = text.split("\n")
    first = _at_unclosed_bracket(lines, problem)
    repaired: set = set()  # statements already repaired once: set them aside if they fail again
    for _ in range(_ATTEMPTS):
        start = _statement_start(lines, problem.line)
        if start not in repaired and _repair(lines, problem, start):
            repaired.add(start)
        elif not _set_aside(lines, problem, start):
            break
        stmts, problem = parse("\n".join(lines))
        if problem is None:
            return stmts, first
    return [], first


def _statement_start(lines: list[str], line: int) -> int:
    line = min(max(line, 0), len(lines) - 1)
    begins = _statement_lines(lines)
    while line > 0 and not (begins[line] and lines[line].strip()):
        line -= 1
    return line


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _repair(lines: list[str], problem: SyntaxProblem, start: int) -> bool:
    """Cut the statement at the error and complete it; False when that changes nothing."""
    header = _header_with_a_tail(lines, problem, start)
    if header is not None:  # `with pl.at(...):x y` over its block: the block stays the header's
        line, colon = header
        lines[line] = lines[line][:colon + 1]
        return True
    at_end = problem.message.startswith("unexpected end of statement")
    line = min(problem.line, len(lines) - 1)
    col = problem.col
    if at_end:
        line = len(lines) - 1
        while line > start and not lines[line].strip():
            line -= 1
        col = len(lines[line])
    elif line > start and lines[line].strip() and _indent(lines[line]) <= _indent(lines[start]):
        line -= 1  # the error is at the next statement: this one ended on the line before
        col = len(lines[line])
    kept = _DANGLING.sub("", lines[line][:col].rstrip()).rstrip()
    if line == start and re.match(r"\s*(?:async\s+)?(?:def|class)\b", kept):
        return False  # a broken def line: nothing sensible to complete
    closers = "".join(_CLOSER[b] for b in reversed(_open_brackets("\n".join(lines[start:line] + [kept]))))
    colon = ":" if line == start and _HEADER.match(kept) and not kept.endswith(":") else ""
    new = kept + closers + colon
    if new == lines[line]:
        return False
    lines[line] = new
    return True


def _header_with_a_tail(lines: list[str], problem: SyntaxProblem, start: int) -> Optional[tuple[int, int]]:
    """(line, block colon) of a block header with code typed after its colon, where the error is: on
    the header itself, or at the indented block under it (after `with ...: y` the block is unexpected)."""
    line = min(max(problem.line, 0), len(lines) - 1)
    if "indentation" in problem.message:
        line -= 1
        while line >= 0 and not lines[line].strip():
            line -= 1
        if line < 0 or _indent(lines[line]) >= _indent(lines[problem.line]):
            return None
        start = _statement_start(lines, line)
    if line != start or not _HEADER.match(lines[line]):
        return None
    colon = _block_colon(lines[line])
    if colon is None:
        return None
    tail = lines[line][colon + 1:].strip()
    return (line, colon) if tail and not tail.startswith("#") else None


def _block_colon(line: str) -> Optional[int]:
    """Where a header line's block colon is: the first `:` outside brackets and strings (a
    lambda's or a slice's are inside brackets), not a `:=`."""
    depth = 0
    for pos, ch in _code_chars(line):
        if ch in _CLOSER:
            depth += 1
        elif ch in ")]}":
            depth = max(0, depth - 1)
        elif ch == ":" and depth == 0 and line[pos + 1:pos + 2] != "=":
            return pos
    return None


def _at_unclosed_bracket(lines: list[str], problem: SyntaxProblem) -> SyntaxProblem:
    """A problem past a line that left a bracket open is that bracket's, as Python says it."""
    line = min(max(problem.line, 0), len(lines) - 1)
    at_end = problem.message.startswith(("unexpected end of statement", "unexpected end of line"))
    upto = "\n".join(lines) if at_end else "\n".join(lines[:line] + [lines[line][:problem.col]])
    open_ = _open_brackets(upto, positions=True)
    if not open_:
        return problem
    bracket, offset = open_[-1]
    before = upto[:offset]
    bracket_line = before.count("\n")
    if bracket_line >= line and not at_end:
        return problem  # on the error's own line: the token itself is the news
    return SyntaxProblem(f"'{bracket}' was never closed", bracket_line, offset - (before.rfind("\n") + 1))


def _open_brackets(text: str, positions: bool = False) -> list:
    """The brackets still open at the end of `text` (strings and comments skipped); with `positions`,
    (bracket, offset) pairs."""
    stack: list = []
    for pos, ch in _code_chars(text):
        if ch in _CLOSER:
            stack.append((ch, pos) if positions else ch)
        elif ch in ")]}" and stack:
            stack.pop()
    return stack


def _code_chars(text: str):
    """(offset, character) of the text's code: its strings and comments skipped."""
    pos = 0
    while pos < len(text):
        ch = text[pos]
        if ch in "'\"" or (ch in "rRbBuUfF" and pos + 1 < len(text) and text[pos + 1] in "'\""):
            m = _STRING.match(text, pos)
            pos = m.end() if m else pos + 1
            continue
        if ch == "#":
            nl = text.find("\n", pos)
            pos = len(text) if nl < 0 else nl
            continue
        yield pos, ch
        pos += 1


def _set_aside(lines: list[str], problem: SyntaxProblem, start: int) -> bool:
    """Replace the statement holding the error by `pass` (an unexpected indent by nothing)."""
    line = min(max(problem.line, 0), len(lines) - 1)
    end = line
    if problem.message.startswith("unexpected end of statement"):
        end = len(lines) - 1
    if start == 0 and end == len(lines) - 1 and len(lines) > 1 and _HEADER.match(lines[0]):
        return False  # the unit's own header is broken: nothing to keep
    original = lines[start]
    indent = original[:_indent(original)]
    for k in range(start, end + 1):
        lines[k] = ""
    if "indentation" in problem.message and start == line:
        return True  # a stray indented line: drop it
    # a broken block header keeps its block: the body still parses under a stand-in header
    lines[start] = indent + ("if 0:" if _HEADER.match(original) else "pass")
    return True
