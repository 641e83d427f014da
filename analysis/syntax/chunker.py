"""Cut a document into units: each top-level statement, and each member of a top-level class.

A cheap scan (strings, comments, brackets and indentation; no parse) finds
where statements begin, so a half-typed function breaks only its own unit.
An unclosed bracket does not swallow the rest of the file: a `def`, `class`
or decorator at the indentation of a unit boundary starts a new unit anyway.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
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
    code: str = field(default="", compare=False)  # the text without comments and trailing blanks (code_text)

    def __post_init__(self) -> None:
        if not self.code:
            object.__setattr__(self, "code", code_text(self.text))

    @property
    def is_header(self) -> bool:
        return self.kind == "class"


def _statement_lines(lines: list[str]) -> list[bool]:
    """For each line: does a logical line (statement) begin there?"""
    begins = [True] * len(lines)
    depth = 0
    opened_at = 0  # indentation of the line where the open brackets began
    quote: Optional[str] = None  # the open triple-quoted string, if any
    for i, line in enumerate(lines):
        if quote is not None or depth:
            begins[i] = False
            if depth and quote is None:
                stripped = line.lstrip()
                if _BLOCK_START.match(stripped) and len(line) - len(stripped) <= opened_at:
                    depth = 0  # recover from an unclosed bracket at the next def, class or decorator
                    begins[i] = True
        if not depth:
            opened_at = len(line) - len(line.lstrip())
        if quote is None and "'" not in line and '"' not in line:
            depth = max(0, depth + (_memo_delta(line) if len(line) <= _MEMO_LINE else _bracket_delta(line)))
            continue
        depth, quote = _scan_line(line, depth, quote)
    return begins


def _bracket_delta(line: str) -> int:
    """Opened minus closed brackets on a line without quotes (up to its comment)."""
    code = line.split("#", 1)[0]
    return (code.count("(") + code.count("[") + code.count("{")
            - code.count(")") - code.count("]") - code.count("}"))


# Lines are scanned at every keystroke, so their counts are kept; only lines of at most
# _MEMO_LINE characters, so that the bound holds in bytes: 4,096 of them weigh under 1.5 MB
# (65,536 kept 10 MB of edited lines). A longer line is counted again, at a cost that its length
# dwarfs anyway (issue 13).
_MEMO_LINE = 200
_memo_delta = lru_cache(maxsize=4096)(_bracket_delta)


def _scan_line(line: str, depth: int, quote: Optional[str]) -> tuple[int, Optional[str]]:
    """Strings, comments and brackets of one line, from the state at its start."""
    pos = 0
    if quote is not None:
        end = _STRING_END[quote].match(line)
        if end is None:
            return depth, quote  # the long string goes on
        pos = end.end()
        quote = None
    while True:
        m = _SCAN.search(line, pos)
        if m is None:
            return depth, None
        token = m.group()
        if token == "#" or token == "\n":
            return depth, None
        opener = m.group(1)
        if opener:
            end = _STRING_END[opener].match(line, m.end())
            if end is None:
                if len(opener) == 3:
                    return depth, opener
                return depth, None  # an unterminated string ends with its line
            pos = end.end()
            continue
        if token in "([{":
            depth += 1
        elif depth:
            depth -= 1
        pos = m.end()


_TRAILING_BLANK = re.compile(r"[ \t\f]$", re.M)


def code_text(text: str) -> str:
    """What the parser reads of a unit: its text with comments and trailing blanks cut (outside
    strings), line for line, so every token keeps its line and column. Units are cached by it:
    an edit that changes only a comment or trailing blanks changes no analysis (issue 8)."""
    if "#" not in text and not _TRAILING_BLANK.search(text):
        return text
    out = []
    quote: Optional[str] = None
    for line in text.split("\n"):
        if quote is None and "#" not in line and "'" not in line and '"' not in line:
            out.append(line.rstrip(" \t\f"))  # no string, no comment: what _code_of_line gives, without its scan
            continue
        code, quote = _code_of_line(line, quote)
        out.append(code)
    return "\n".join(out)


def _code_of_line(line: str, quote: Optional[str]) -> tuple[str, Optional[str]]:
    """The code of one line and the string still open at its end (long strings, or a short one
    continued by a backslash), from the string open at its start."""
    pos = 0
    if quote is not None:
        end = _STRING_END[quote].match(line)
        if end is None:
            return line, _still_open(line, quote)
        pos = end.end()
    while True:
        m = _SCAN.search(line, pos)
        if m is None:
            return line.rstrip(" \t\f"), None
        if m.group() == "#":
            return line[:m.start()].rstrip(" \t\f"), None
        opener = m.group(1)
        if opener:
            end = _STRING_END[opener].match(line, m.end())
            if end is None:
                return line, _still_open(line, opener)
            pos = end.end()
            continue
        pos = m.end()


def _still_open(line: str, quote: str) -> Optional[str]:
    if len(quote) == 3:
        return quote
    return quote if line.endswith("\\") else None  # a short string goes on after a backslash-newline


def _is_code(line: str) -> bool:
    stripped = line.lstrip()
    return bool(stripped) and stripped[0] != "#"


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t\f"))


def split(text: str) -> list[Unit]:
    """The document's units, in order. `text` has `\\n` line ends only."""
    return _split(text.split("\n"))[0]


def _split(lines: list[str]) -> tuple[list[Unit], list[int]]:
    """The units of these lines, and the lines that begin a top-level statement."""
    begins = _statement_lines(lines)
    # indentation of each line that begins a statement with code (-1 otherwise)
    indents = [_indent(ln) if begins[i] and _is_code(ln) else -1 for i, ln in enumerate(lines)]
    starts = [i for i, d in enumerate(indents) if d == 0]
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
            units.extend(_class_units(lines, indents, start, header, end, len(units)))
        k = j
    return units, starts


class Splitter:
    """`split`, for one document being edited: only the top-level statements around an edit are re-cut.

    Units begin where the scan is in a clean state (no open bracket or string), so
    re-cutting the top-level statements that hold the changed lines gives the same
    units as a full split, unless the edit leaves a bracket or string open at the
    end of that region: then everything after it is re-cut.
    """

    def __init__(self) -> None:
        # the last text, whole: its lines as a list weighed twice as much (4.8 MB at 50,000 lines)
        self.text: Optional[str] = None
        self.line_count = 0
        self.units: list[Unit] = []

    def split(self, text: str) -> list[Unit]:
        lines = text.split("\n")
        old = self.text
        units = self._incremental(old, text, lines) if old is not None else None
        if units is None:
            units = split(text)
        self.text, self.line_count, self.units = text, len(lines), units
        return units

    def _incremental(self, old: str, text: str, lines: list[str]) -> Optional[list[Unit]]:
        if old == text:
            return self.units
        n, m = self.line_count, len(lines)
        # a: the lines before the first changed one; b: the lines after the last changed one
        prefix = _common_prefix(old, text)
        suffix = _common_suffix(old, text, min(len(old), len(text)) - prefix)
        a = old.count("\n", 0, prefix)
        b = min(old.count("\n", len(old) - suffix), n - a, m - a)
        tops = [i for i, u in enumerate(self.units) if u.kind != "member"]
        # the top-level statements (whole classes) holding old lines [a, n - b)
        first = next((k for k, i in enumerate(tops) if self._top_end(tops, k) > a), None)
        last = next((k for k in range(len(tops) - 1, -1, -1) if self.units[tops[k]].start <= max(a, n - b - 1)), None)
        if first is None or last is None or first > last:
            return None
        # one more statement on each side: an edit can join a line to its neighbour (else:, a decorator)
        first, last = max(first - 1, 0), min(last + 1, len(tops) - 1)
        start = self.units[tops[first]].start
        old_end = self._top_end(tops, last, n)
        end = old_end + (m - n)
        if start > a or end < m - b or end <= start:
            return None
        region = lines[start:end]
        if not _clean_end(region):
            return None  # an open bracket or string runs past the region: cut everything again
        fresh, starts = _split(region)
        if end < m and starts and region[starts[-1]].lstrip().startswith("@"):
            return None  # a decorator at the region's end takes the statement after it (_group_end)
        before = self.units[:tops[first]]
        after_index = tops[last + 1] if last + 1 < len(tops) else len(self.units)
        after = self.units[after_index:]
        shift = m - n
        middle = [Unit(u.start + start, u.end + start, u.text, u.indent, u.kind,
                       None if u.parent is None else u.parent + len(before), u.code) for u in fresh]
        moved = len(before) + len(middle) - after_index
        tail = [u if not shift and not moved else
                Unit(u.start + shift, u.end + shift, u.text, u.indent, u.kind,
                     None if u.parent is None else u.parent + moved, u.code) for u in after]
        return before + middle + tail

    def _top_end(self, tops: list[int], k: int, n: Optional[int] = None) -> int:
        """Where top-level statement k ends: where the next begins (the file's end for the last)."""
        if k + 1 < len(tops):
            return self.units[tops[k + 1]].start
        return self.line_count if n is None else n


_CHUNK = 4096


def _common_prefix(x: str, y: str) -> int:
    """How many characters x and y share at their start (compared a chunk at a time)."""
    limit = min(len(x), len(y))
    i = 0
    while i < limit and x[i:i + _CHUNK] == y[i:i + _CHUNK]:
        i += _CHUNK
    i = min(i, limit)
    while i < limit and x[i] == y[i]:
        i += 1
    return i


def _common_suffix(x: str, y: str, limit: int) -> int:
    """How many characters x and y share at their end, up to `limit` (what their common prefix leaves)."""
    i = 0
    while i + _CHUNK <= limit and x[len(x) - i - _CHUNK:len(x) - i] == y[len(y) - i - _CHUNK:len(y) - i]:
        i += _CHUNK
    while i < limit and x[len(x) - 1 - i] == y[len(y) - 1 - i]:
        i += 1
    return i


def _clean_end(lines: list[str]) -> bool:
    depth, quote = 0, None
    for line in lines:
        if quote is None and "'" not in line and '"' not in line:
            depth = max(0, depth + (_memo_delta(line) if len(line) <= _MEMO_LINE else _bracket_delta(line)))
            continue
        depth, quote = _scan_line(line, depth, quote)
    return depth == 0 and quote is None


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


def _class_units(lines: list[str], indents: list[int], start: int, body: int, end: int, index: int) -> list[Unit]:
    header_end = _trim(lines, start, body)
    units = [Unit(start, header_end, "\n".join(lines[start:header_end]), 0, "class")]
    members = [i for i in range(body, end) if indents[i] >= 0]
    if not members:
        return units
    base = min(indents[i] for i in members)
    starts = [i for i in members if indents[i] == base]
    k = 0
    while k < len(starts):
        first = starts[k]
        j = _group_end(starts, k, lines)
        stop = starts[j] if j < len(starts) else end
        stop = _trim(lines, first, stop)
        units.append(Unit(first, stop, "\n".join(lines[first:stop]), base, "member", index))
        k = j
    return units
