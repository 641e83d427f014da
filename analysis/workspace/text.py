"""Text as the analysis sees it: LSP line ends only, code-point columns."""
from __future__ import annotations

import re
from array import array
from itertools import accumulate
from typing import Callable, Optional

from ..syntax.chunker import _statement_lines

LINE_END = re.compile(r"\r\n|\r|\n")  # the only line ends LSP knows
_STRING_OR_COMMENT = re.compile(r"""[rRbBuUfF]{0,2}("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')|#""")


def normalise_newlines(text: str) -> str:
    """\\r\\n and \\r become \\n; nothing else is a line end (not form feed, not U+2028)."""
    if "\r" not in text:
        return text
    return LINE_END.sub("\n", text)


def decode(data: bytes) -> tuple[str, bool]:
    """Text of a file and whether it was valid UTF-8 (invalid bytes become U+FFFD)."""
    try:
        return data.decode("utf-8"), True
    except UnicodeDecodeError:
        return data.decode("utf-8", errors="replace"), False


def code_end(line: str) -> int:
    """The column just after a line's code: before a trailing comment and spaces."""
    pos = 0
    end = len(line)
    while True:
        m = _STRING_OR_COMMENT.search(line, pos)
        if m is None:
            break
        if m.group() == "#":
            end = m.start()
            break
        pos = m.end()
    return len(line[:end].rstrip())


def header_colon(lines: list[str], line: int, col: int) -> tuple[int, int]:
    """Just after the `:` that ends a `with`/`for` header whose items end at (line, col) (a scope's
    hints go there, after a multi-line header's last line); the end of the code when there is none."""
    if not 0 <= line < len(lines):
        return line, col
    text = lines[line]
    rest = text[col:]
    stripped = rest.lstrip()
    if stripped.startswith(":"):
        return line, col + len(rest) - len(stripped) + 1
    return line, code_end(text)


def indentation(line: str) -> int:
    return len(line) - len(line.lstrip())


# What may be a function header's: `def`, a decorator, `->`, or a direction or type annotation
_HEADER_WORDS = re.compile(r"\bdef\b|^\s*@|->|\bpl\.(Out|InOut|In|Tensor|Tile|Scalar|DistributedTensor)\b")
_DEF = re.compile(r"\s*(?:async\s+)?def\b")
_HEADER_REACH = 200  # lines looked back for the `def` of a parameter line (headers are shorter)


def in_a_function_header(line: Callable[[int], str], n: int) -> bool:
    """Is line n part of a function's header (decorators, `def`, parameters, return annotation)?
    An annotated assignment in a body (`x: pl.Tensor[...] = ...`) is not: it starts a statement of
    its own, where a parameter line continues the `def` statement above it."""
    text = line(n)
    if not _HEADER_WORDS.search(text):
        return False
    if _DEF.match(text) or text.lstrip().startswith("@") or "->" in text:
        return True
    for k in range(n - 1, max(-1, n - _HEADER_REACH), -1):
        if _DEF.match(line(k)):
            begins = _statement_lines([line(j) for j in range(k, n + 1)])
            return not any(begins[1:])  # every line from the def's to n continues the def statement
    return False


class TextLines:
    """A text's lines as a read-only sequence whose items are made when read. An analysis keeps its
    document's lines until the rest of its results is placed, and reads few of them: a list of
    50,000 line strings was 4.7 MB of what it held (genpl 50000, issue 41). Where the lines start is
    found at the first read: a keystroke whose programs' places are all cached reads none."""

    __slots__ = ("text", "_starts")

    def __init__(self, text: str):
        self.text = text
        self._starts: Optional[array] = None

    @property
    def starts(self) -> array:
        """Each line's first offset: 0, then one past each newline (9 ms at 50,000 lines; the split is let
        go at once)."""
        if self._starts is None:
            self._starts = array("q", [0, *accumulate(map((1).__add__, map(len, self.text.split("\n")[:-1])))])
        return self._starts

    def __len__(self) -> int:
        return len(self.starts)

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self[j] for j in range(*k.indices(len(self)))]
        starts = self.starts
        if k < 0:
            k += len(starts)
            if k < 0:
                raise IndexError(k)
        start = starts[k]  # (an IndexError past the end, as a list gives)
        return self.text[start:starts[k + 1] - 1] if k + 1 < len(starts) else self.text[start:]
