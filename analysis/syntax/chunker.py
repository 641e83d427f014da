"""Cut a document into units: each top-level statement, and each member of a top-level class.

A cheap scan (strings, comments, brackets and indentation; no parse) finds
where statements begin, so a half-typed function breaks only its own unit.
An unclosed bracket does not swallow the rest of the file: a `def`, `class`
or decorator at the indentation of a unit boundary starts a new unit anyway.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

# string openers, comments, brackets and newlines: all the scan needs to see
_SCAN = re.compile(r"""[rRbBuUfF]{0,2}("{3}|'{3}|"|')|\#|[()\[\]{}]|\n""")
_STRING_END = {
    '"""': re.compile(r'(?:[^"\\]|\\[\s\S]|"(?!""))*"""'),
    "'''": re.compile(r"(?:[^'\\]|\\[\s\S]|'(?!''))*'''"),
    '"': re.compile(r'(?:[^"\\\n]|\\[\s\S])*"'),
    "'": re.compile(r"(?:[^'\\\n]|\\[\s\S])*'"),
}
_BLOCK_START = re.compile(r"(?:async[ \t]+)?(?:def|class)\b|@")


@dataclass(frozen=True)
class Unit:
    """A range of whole lines [start, end) that parses on its own."""

    start: int
    end: int
    text: str
    indent: int  # indentation of the unit's first line
    kind: str  # 'statement', 'class' (a class header), or 'member' (inside a class)
    parent: Optional[int] = None  # index of the class unit, for members

    @property
    def is_header(self) -> bool:
        return self.kind == "class"


def _statement_lines(text: str, lines: list[str]) -> list[bool]:
    """For each line: does a logical line (statement) begin there?"""
    begins = [True] * len(lines)
    depth = 0
    line = 0
    pos = 0
    length = len(text)
    line_starts = [0]
    for i, ln in enumerate(lines[:-1]):
        line_starts.append(line_starts[-1] + len(ln) + 1)
    while pos < length:
        m = _SCAN.search(text, pos)
        if m is None:
            break
        token = m.group()
        start = m.start()
        if token == "\n":
            line += 1
            pos = m.end()
            if depth and line < len(lines):
                stripped = lines[line].lstrip()
                indent = len(lines[line]) - len(stripped)
                if indent == 0 and _BLOCK_START.match(stripped):
                    depth = 0  # recover from an unclosed bracket at the next block
                else:
                    begins[line] = False
            continue
        if token == "#":
            end = text.find("\n", start)
            pos = length if end < 0 else end
            continue
        quote = m.group(1)
        if quote:
            end = _STRING_END[quote].match(text, m.end())
            if end is None:  # unterminated: to the end of the line, or of the text for a long string
                if len(quote) == 3:
                    for k in range(line + 1, len(lines)):
                        begins[k] = False
                    break
                nl = text.find("\n", m.end())
                pos = length if nl < 0 else nl
                continue
            string_end = end.end()
            newlines = text.count("\n", m.end(), string_end)
            for k in range(line + 1, line + newlines + 1):
                begins[k] = False
            line += newlines
            pos = string_end
            continue
        if token in "([{":
            depth += 1
        elif depth:
            depth -= 1
        pos = m.end()
    return begins


def _is_code(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith("#")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t\f"))


def split(text: str) -> list[Unit]:
    """The document's units, in order. `text` has `\\n` line ends only."""
    lines = text.split("\n")
    begins = _statement_lines(text, lines)
    starts = [i for i, ln in enumerate(lines) if begins[i] and _is_code(ln) and _indent(ln) == 0]
    units: list[Unit] = []
    k = 0
    while k < len(starts):
        j = _group_end(starts, k, lines)
        start = starts[k]
        end = _trim(lines, start, starts[j] if j < len(starts) else len(lines))
        header = _class_header(lines, begins, start, end)
        if header is None:
            units.append(Unit(start, end, "\n".join(lines[start:end]), 0, "statement"))
        else:
            units.extend(_class_units(lines, begins, start, header, end, len(units)))
        k = j
    return units


def _continues(line: str) -> bool:
    """`else:`, `elif`, `except`, `finally` continue the statement before them."""
    word = re.match(r"[a-z]*", line.lstrip()).group()
    return word in ("else", "elif", "except", "finally")


def _group_end(starts: list[int], k: int, lines: list[str]) -> int:
    """Index in `starts` of the first line after starts[k] that begins another unit."""
    j = k + 1
    while j < len(starts):
        if lines[starts[j - 1]].lstrip().startswith("@") or _continues(lines[starts[j]]):
            j += 1  # decorators stay with their definition; else/except with their block
            continue
        break
    return j


def _trim(lines: list[str], start: int, end: int) -> int:
    """Drop trailing blank and comment lines (they belong to no statement)."""
    while end > start + 1 and not _is_code(lines[end - 1]):
        end -= 1
    return end


def _class_header(lines: list[str], begins: list[bool], start: int, end: int) -> Optional[int]:
    """For a (decorated) top-level class: the line after its header, else None."""
    i = start
    while i < end and lines[i].lstrip().startswith("@"):
        i += 1
        while i < end and not begins[i]:
            i += 1
    if i >= end or not re.match(r"class\b", lines[i]):
        return None
    j = i + 1
    while j < end and not begins[j]:
        j += 1
    return j


def _class_units(lines: list[str], begins: list[bool], start: int, body: int, end: int, index: int) -> list[Unit]:
    header_end = _trim(lines, start, body)
    units = [Unit(start, header_end, "\n".join(lines[start:header_end]), 0, "class")]
    members = [i for i in range(body, end) if begins[i] and _is_code(lines[i])]
    if not members:
        return units
    base = min(_indent(lines[i]) for i in members)
    starts = [i for i in members if _indent(lines[i]) == base]
    k = 0
    while k < len(starts):
        first = starts[k]
        j = _group_end(starts, k, lines)
        stop = starts[j] if j < len(starts) else end
        stop = _trim(lines, first, stop)
        units.append(Unit(first, stop, "\n".join(lines[first:stop]), base, "member", index))
        k = j
    return units
