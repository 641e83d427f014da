"""Documents as LSP 3.17 defines them (not as pygls 2.1.1's store has them).

Only \\n, \\r\\n and \\r end a line (Python's splitlines also splits on form
feed, U+2028 and others); a character past the end of a line means the line's
end, on the last line too; positions are counted in the negotiated encoding
(UTF-16 by default, UTF-8, UTF-32). Requests never raise for hostile
positions: they are clamped.
"""
from __future__ import annotations

from array import array
from bisect import bisect_right
from dataclasses import dataclass
from typing import Optional

from pypto_lens.workspace.edits import Edit
from pypto_lens.workspace.text import LINE_END, normalise_newlines


UTF8, UTF16, UTF32 = "utf-8", "utf-16", "utf-32"


def _units(ch: str, encoding: str) -> int:
    if encoding == UTF32:
        return 1
    code = ord(ch)
    if encoding == UTF16:
        return 2 if code > 0xFFFF else 1
    return 1 if code < 0x80 else 2 if code < 0x800 else 3 if code < 0x10000 else 4


def to_units(line: str, col: int, encoding: str) -> int:
    """Code-point column -> client units."""
    col = max(0, min(col, len(line)))
    if encoding == UTF32 or line.isascii():
        return col
    return sum(_units(ch, encoding) for ch in line[:col])


def from_units(line: str, units: int, encoding: str) -> int:
    """Client units -> code-point column (clamped to the line; inside a character rounds down)."""
    if units <= 0:
        return 0
    if encoding == UTF32 or line.isascii():
        return min(units, len(line))
    count = 0
    for i, ch in enumerate(line):
        count += _units(ch, encoding)
        if count > units:
            return i
        if count == units:
            return i + 1
    return len(line)


@dataclass
class Change:
    """One content change: `start`/`end` as (line, character) in client units, or None for the whole text."""

    text: str
    start: Optional[tuple[int, int]] = None
    end: Optional[tuple[int, int]] = None


# edits kept for moving an older analysis (more: that analysis is too old to move); an Edit and its
# version mark weigh about 200 bytes, so at most 100 KB a document
MAX_EDITS = 500


class LspText:
    """A document's text with an index of its lines by the LSP rules, and the edits made to it since
    its oldest analysis still in use (in code points: `edits.moved` moves that analysis's results)."""

    def __init__(self, text: str, version: Optional[int] = None):
        self.version = version
        self._set(text)
        self.edits: list[Optional[Edit]] = []  # None: the whole text was replaced
        self.first_edit = 0  # the number of edits dropped from the front of `edits`
        self.marks: dict = {version: 0}  # version -> how many edits had been made when it was current

    # -- the edits since a version ---------------------------------------------------------
    def mark(self) -> None:
        """The current version is reached (after its changes)."""
        self.marks[self.version] = self.first_edit + len(self.edits)

    def edits_since(self, version: Optional[int]) -> Optional[list[Edit]]:
        """The edits from `version` to now, or None when they are not known (dropped, or a whole
        new text in between)."""
        start = self.marks.get(version)
        if start is None or start < self.first_edit:
            return None
        since = self.edits[start - self.first_edit:]
        return None if any(e is None for e in since) else since

    def forget_before(self, version: Optional[int]) -> None:
        """No analysis older than `version` is in use any more: drop the edits before it."""
        start = self.marks.get(version)
        if start is None:
            return
        drop = start - self.first_edit
        if drop > 0:
            del self.edits[:drop]
            self.first_edit = start
        self.marks = {v: k for v, k in self.marks.items() if k >= start}

    def _record(self, edit: Optional[Edit]) -> None:
        self.edits.append(edit)
        if len(self.edits) > MAX_EDITS:
            self.first_edit += len(self.edits)
            self.edits = []
            self.marks = {}

    def _set(self, text: str) -> None:
        self.text = text
        starts = [0]
        ends = []
        for m in LINE_END.finditer(text):
            ends.append(m.start())
            starts.append(m.end())
        ends.append(len(text))
        # (machine integers, not a list of int objects: 7.2 MB -> 1.6 MB for both at 100,000 lines)
        self.starts = array("q", starts)
        self.ends = array("q", ends)
        # lines from _shift_from on start and end _shift code points later than `starts`/`ends` say:
        # an edit shifts every line after it, and typing on one line must not re-add 50,000 offsets
        self._shift_from = len(starts)
        self._shift = 0
        self._normal: Optional[str] = None

    def _start(self, n: int) -> int:
        return self.starts[n] + (self._shift if n >= self._shift_from else 0)

    def _end(self, n: int) -> int:
        return self.ends[n] + (self._shift if n >= self._shift_from else 0)

    def _line_of(self, offset: int) -> int:
        """bisect_right of the lines' starts for a code-point offset."""
        cut = self._shift_from
        if cut >= len(self.starts) or offset < self.starts[cut] + self._shift:
            return bisect_right(self.starts, offset, 0, cut)
        return bisect_right(self.starts, offset - self._shift, cut)

    def _settle_shift(self) -> None:
        cut, shift = self._shift_from, self._shift
        if shift:
            self.starts[cut:] = array("q", [s + shift for s in self.starts[cut:]])
            self.ends[cut:] = array("q", [e + shift for e in self.ends[cut:]])
        self._shift_from, self._shift = len(self.starts), 0

    @property
    def line_count(self) -> int:
        return len(self.starts)

    def line(self, n: int) -> str:
        if n < 0 or n >= len(self.starts):
            return ""
        return self.text[self._start(n):self._end(n)]

    def normalised(self) -> str:
        """The text with every line end a \\n (same lines, same columns): what the analysis reads."""
        if self._normal is None:
            self._normal = normalise_newlines(self.text)
        return self._normal

    def offset(self, line: int, units: int, encoding: str) -> int:
        """The code-point offset of a client position, clamped into the text."""
        if line < 0:
            return 0
        if line >= len(self.starts):
            return len(self.text)
        col = from_units(self.line(line), units, encoding)
        return self._start(line) + col

    def apply(self, change: Change, encoding: str) -> None:
        if change.start is None or change.end is None:
            self._set(change.text)
            self._record(None)
            return
        a = self.offset(change.start[0], change.start[1], encoding)
        b = self.offset(change.end[0], change.end[1], encoding)
        start = self.clamp(change.start[0], change.start[1], encoding)
        end = self.clamp(change.end[0], change.end[1], encoding)
        if b < a:
            a, b = b, a  # a reversed range: the same span of text
            start, end = end, start
        ends = list(LINE_END.finditer(change.text))
        tail = len(change.text) - ends[-1].end() if ends else len(change.text)
        self._splice(a, b, change.text)
        self._record(Edit(start[0], start[1], end[0], end[1], len(ends), tail))

    def _splice(self, a: int, b: int, new: str) -> None:
        """Replace text[a:b] and re-index only the lines around it (a keystroke must stay cheap): the
        lines after them are shifted lazily (_shift), while the edits stay before the shifted ones."""
        old_len = len(self.text)
        text = self.text[:a] + new + self.text[b:]
        delta = len(text) - old_len
        first = max(self._line_of(a) - 2, 0)  # one line more on each side: \r + \n may join
        last = self._line_of(b) + 1
        count = len(self.starts)
        if self._shift_from < last:  # the shifted lines begin among the edited ones (an edit elsewhere)
            self._settle_shift()
        if self._shift_from >= count:  # nothing shifted: the shift may begin after the edited lines
            self._shift_from, self._shift = min(last, count), 0
        cut = self._shift_from
        begin = self._start(first)
        stop = (self._start(last) + delta) if last < count else len(text)
        starts, ends = [begin], []
        for m in LINE_END.finditer(text, begin, stop):
            ends.append(m.start())
            starts.append(m.end())
        if last < count:
            starts.pop()  # the line at `stop` is the first unchanged one
            # lines [last, cut) move now, those from `cut` on by the shift
            starts += [s + delta for s in self.starts[last:cut]]
            ends += [e + delta for e in self.ends[last:cut]]
        else:
            ends.append(len(text))
        self.starts[first:cut] = array("q", starts)
        self.ends[first:cut] = array("q", ends)
        self._shift_from = first + len(starts)
        self._shift += delta
        self.text = text
        self._normal = None

    def clamp(self, line: int, units: int, encoding: str) -> tuple[int, int]:
        """A client position -> (line, code-point column), both clamped into the text."""
        if line < 0:
            return 0, 0
        if line >= len(self.starts):
            last = len(self.starts) - 1
            return last, len(self.line(last))
        return line, from_units(self.line(line), units, encoding)

    def units(self, line: int, col: int, encoding: str) -> int:
        """(line, code-point column) -> client units."""
        return to_units(self.line(line), col, encoding)
