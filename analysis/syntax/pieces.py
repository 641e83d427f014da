"""Parse a long function statement by statement: each top-level statement of its body on its own,
cached by its text and first line, so a keystroke in an 870-line function reparses one statement.
A long `with`, `for` or `while` (no `else`) is its header and, the same way, its body's statements:
a keystroke in qwen3_14b's decode_fwd.py, inside a 570-line `with pl.manual_scope():`, reparses
the statement around it, not the whole block (issue 20).

The result is exactly `parser.parse_unit` of the whole text (same nodes, same spans, same first
problem): every statement is parsed at its own line (newlines before it), at its own indentation,
and the statements of a body concatenate. Where a statement fails alone, the text from it to the
end is parsed as one piece, which meets the same tokens as the whole parse does from there (the
statements before it parsed, so it starts where a statement starts). A problem strictly before
the statement's last line is the same problem either way (the same tokens led to it), so that
piece's own problem serves.
"""
from __future__ import annotations

import re
from typing import Optional

from . import nodes as n
from .chunker import _continues, _indent, _is_code, _statement_lines
from .parser import SyntaxProblem, parse_unit

MIN_LINES = 20  # shorter units are parsed whole; a @pl.program's kernels and orchestrations are often longer
_DEF = re.compile(r"[ \t]*(?:async[ \t]+)?def\b")

Parsed = tuple[list, Optional[SyntaxProblem]]


def parse_by_statements(text: str, cache) -> Parsed:
    """`parse_unit(text)`, reusing the statements `cache` (a mapping (text, line) -> Parsed) holds."""
    lines = text.split("\n")
    split = _split(lines)
    if split is None:
        return parse_unit(text)
    body_start, starts, begins = split
    header = _cached(cache, "\n".join(lines[:body_start]) + "\n" + " " * _indent(lines[body_start]) + "pass", 0)
    stmts, problem = header
    if problem is not None or len(stmts) != 1 or not isinstance(stmts[0], n.FunctionDef):
        return parse_unit(text)
    fdef = stmts[0]
    body: list = []
    bounds = starts + [len(lines)]
    for k, start in enumerate(starts):
        piece, problem = _statement(lines, begins, start, bounds[k + 1], cache)
        if problem is None:
            body.extend(piece)
            continue
        if problem.line < _last_code_line(lines, start, bounds[k + 1]):
            return [], problem
        rest, problem = parse_unit("\n" * start + "\n".join(lines[start:]))
        if problem is not None:
            return [], problem
        body.extend(rest)
        break
    return [n.FunctionDef(fdef.name, fdef.name_span, fdef.params, fdef.returns, body, fdef.decorators, fdef.span)], None


_BLOCK = re.compile(r"[ \t]*(?:with|for|while)\b")
_BLOCKS = (n.With, n.For, n.While)


def _statement(lines: list[str], begins: list[bool], start: int, stop: int, cache) -> Parsed:
    """The statement of lines [start, stop): a long block is its header's parse with its body's
    statements (each the same way); any problem in them, and the statement is parsed whole (which
    meets the same tokens, so the same problem)."""
    whole = "\n".join(lines[start:stop])
    inner = _block_body(lines, begins, start, stop) if stop - start >= MIN_LINES and _BLOCK.match(lines[start]) \
        else None
    if inner is None:
        return _cached(cache, whole, start)
    body_start, starts = inner
    indent = _indent(lines[body_start])
    head, problem = _cached(cache, "\n".join(lines[start:body_start]) + "\n" + lines[body_start][:indent] + "pass",
                            start)
    if problem is not None or len(head) != 1 or type(head[0]) not in _BLOCKS or getattr(head[0], "orelse", None):
        return _cached(cache, whole, start)
    body: list = []
    bounds = starts + [stop]
    for k, first in enumerate(starts):
        piece, problem = _statement(lines, begins, first, bounds[k + 1], cache)
        if problem is not None:
            return _cached(cache, whole, start)
        body.extend(piece)
    block = head[0]  # (a block's span is its header's: only its body changes)
    return [type(block)(*[body if f == "body" else getattr(block, f) for f in block._fields], block.span)], None


def _block_body(lines: list[str], begins: list[bool], start: int, stop: int) -> Optional[tuple[int, list[int]]]:
    """(the first line of the block's body, the first line of each of its statements), or None when
    the block has another clause (`else:`) or a line the whole parse must place."""
    body = start + 1
    while body < stop and not (begins[body] and _is_code(lines[body])):
        body += 1
    if body >= stop or _indent(lines[body]) <= _indent(lines[start]):
        return None
    starts = _body_starts(lines, begins, body, stop)
    return (body, starts) if starts else None


def _cached(cache, piece: str, line: int) -> Parsed:
    """The piece's parse at `line`, kept by (text, line). A piece that moved (a line added or removed
    above it) is its first parse moved (nodes.moved_down), not parsed again: every statement after an
    inserted line was (68 statements of decode_fwd.py's biggest function at each edit)."""
    key = (piece, line)
    got = cache.get(key)
    if got is None:
        movable = line > 0 and piece[:1].isspace()  # (nothing at line 0 or column 0: nodes.moved_down)
        first = cache.get((piece, None)) if movable else None
        if first is not None:
            got = _moved(first[1], line - first[0])
        else:
            got = parse_unit("\n" * line + piece)
            if movable:
                cache[(piece, None)] = (line, got)
        cache[key] = got
    return got


def _moved(parsed: Parsed, lines: int) -> Parsed:
    stmts, problem = parsed
    if problem is not None and (problem.line or problem.col):  # ((0, 0): the parser's "cannot parse")
        problem = SyntaxProblem(problem.message, problem.line + lines, problem.col)
    return n.moved_down(stmts, lines), problem


def _split(lines: list[str]) -> Optional[tuple[int, list[int], list[bool]]]:
    """(the first line of the body, the first line of each of its top-level statements, which lines
    begin a statement), or None when the text is no plain `def` with an indented body (then it is
    parsed whole)."""
    begins = _statement_lines(lines)
    i = 0
    while i < len(lines) and lines[i].lstrip().startswith("@"):
        i += 1
        while i < len(lines) and not begins[i]:
            i += 1
    if i >= len(lines) or not _DEF.match(lines[i]):
        return None
    body = i + 1
    while body < len(lines) and not (begins[body] and _is_code(lines[body])):
        body += 1
    if body >= len(lines):
        return None
    if _tabbed(lines[i]) or _indent(lines[body]) <= _indent(lines[i]):
        return None
    starts = _body_starts(lines, begins, body, len(lines))
    return (body, starts, begins) if starts is not None else None


def _body_starts(lines: list[str], begins: list[bool], body: int, stop: int) -> Optional[list[int]]:
    """The first line of each statement of the body that starts at line `body` and ends before
    `stop`, or None when a line of it is one only the whole parse can place."""
    indent = _indent(lines[body])
    starts: list[int] = []
    after_decorator = False
    for k in range(body, stop):
        if not (begins[k] and _is_code(lines[k])):
            continue
        if _tabbed(lines[k]):
            return None  # a tab's width is a column, not a character: only the whole parse knows the indentation
        width = _indent(lines[k])
        if width < indent:
            return None  # a dedent inside the body: the whole parse decides what it means
        if width == indent:
            if lines[k][:indent] != lines[body][:indent]:
                return None  # the same width in other blanks (a tab): only the whole parse knows its indentation
            if not starts or not (after_decorator or _continues(lines[k])):  # (as chunker._group_end)
                starts.append(k)
            after_decorator = lines[k].lstrip().startswith("@")
    return starts


def _tabbed(line: str) -> bool:
    blanks = line[:_indent(line)]
    return "\t" in blanks or "\f" in blanks


def _last_code_line(lines: list[str], start: int, stop: int) -> int:
    last = start
    for k in range(start, stop):
        if _is_code(lines[k]):
            last = k
    return last
