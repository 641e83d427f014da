"""Quick fixes of the hazards (runtime.md Z1, Z4): the remedies the runtime's docs give.

- add-dep: the later task (a `pl.submit` or a `with pl.at(...) as tid` dispatch) waits for the
  earlier one through `deps=`: its task id is appended to a `deps=[...]` list, or `deps=[tid]` is
  added after the last argument;
- make-inout: the reader's parameter is declared InOut (the later InOut write then finds it, G5).

The edits are made from the diagnostic's data as the client hands it back and the current text:
both may come from another version of the document, so anything that does not fit gives no fix.
"""
from __future__ import annotations

import re
from typing import Any, Callable, Optional

from ..workspace.results import Range
from .fixes import Fix
from .graph_view import fix_title, hazard_setting

LineText = Callable[[int], str]
# the text of a document by uri (None: the one the diagnostic is in), or None when it cannot be read
TextOf = Callable[[Optional[str]], Optional[LineText]]
_OPEN, _CLOSE = "([{", ")]}"
MAX_CALL_LINES = 200  # a call written over more lines than this is not one the analysis reported


def hazard_fixes(code: Any, data: Any, text_of: TextOf) -> list[Fix]:
    """The fix of one hazard diagnostic (`code` and `data` as the client sent them back)."""
    if hazard_setting(code) is None or not isinstance(data, dict) or not isinstance(data.get("fix"), dict):
        return []
    fix = data["fix"]
    try:
        kind, later = fix.get("kind"), str(fix.get("task") or "the later task")
        if kind == "add-dep":
            found = _add_dep(fix, text_of(None))
        elif kind == "make-inout":
            found = _make_inout(fix, text_of)
        else:
            return []
    except (KeyError, TypeError, ValueError, AttributeError):  # mangled data
        return []
    if found is None:
        return []
    where, new_text, uri = found
    title = fix_title(kind, fix.get("tid"), fix.get("callee"), fix.get("param"), later)
    return [Fix(title, where, new_text, True, uri)]


def _range(value: Any) -> Range:
    return Range(*(int(value[key]) for key in ("line", "col", "end_line", "end_col")))


def _add_dep(fix: dict, line_text: Optional[LineText]):
    tid = fix.get("tid")
    if line_text is None or not isinstance(tid, str) or not tid.isidentifier():
        return None
    call = _range(fix["call"])
    if not 0 <= call.line <= call.end_line <= call.line + MAX_CALL_LINES or call.col < 0:
        return None  # not a call's range (the data is the client's: it may be anything)
    text, where = _flatten(line_text, call)
    code = _code_only(text)
    written = _code_only(text, strings=False)  # where the last argument ends: a string is one
    depth = _depths(code)
    open_ = code.find("(")
    close = _matching(code, open_) if open_ >= 0 else -1
    if close < 0:
        return None  # no whole argument list in the call's range: not the text the analysis saw
    for m in _DEPS.finditer(code, open_ + 1, close):
        if depth[m.start()] != 1:
            continue
        start = m.end() + len(code[m.end():close]) - len(code[m.end():close].lstrip())
        end = _matching(code, start) if code[start:start + 1] == "[" else -1
        if end < 0:
            return None  # deps= is not a list written out (a variable, a call): nothing clear to edit
        if tid in _items(text, code, start, end):
            return None  # there already (the diagnostic is from an older version)
        last = _last_code(written, start, end)
        new = tid if last == start else (f" {tid}" if code[last] == "," else f", {tid}")
        return _insert(where[last]), new, None
    last = _last_code(written, open_, close)
    new = f"deps=[{tid}]" if last == open_ else (f" deps=[{tid}]" if code[last] == "," else f", deps=[{tid}]")
    return _insert(where[last]), new, None


def _make_inout(fix: dict, text_of: TextOf):
    annotation = fix.get("annotation")
    if not isinstance(annotation, dict):
        return None
    uri = annotation.get("uri") if isinstance(annotation.get("uri"), str) else None
    where = _range(annotation["range"])
    line_text = text_of(uri)
    if line_text is None or where.line != where.end_line or not 0 <= where.col < where.end_col:
        return None
    current = line_text(where.line)[where.col:where.end_col]
    alias = fix.get("alias") or "pl"
    if not current.endswith("]") or f"{alias}.InOut[" in current or f"{alias}.Out[" in current:
        return None  # not what the analysis saw (another version), or InOut already
    if current.startswith(f"{alias}.In["):
        new_text = f"{alias}.InOut[" + current[len(f"{alias}.In["):]
    else:
        new_text = f"{alias}.InOut[{current}]"
    return where, new_text, uri


# -- the call's text, flattened: one string, and where each of its characters is ---------------------------

_DEPS = re.compile(r"(?<![\w.])deps\s*=(?!=)")


def _flatten(line_text: LineText, r: Range) -> tuple[str, list[tuple[int, int]]]:
    chars: list[str] = []
    where: list[tuple[int, int]] = []
    for line in range(r.line, r.end_line + 1):
        text = line_text(line)
        stop = min(r.end_col if line == r.end_line else len(text), len(text))
        for col in range(r.col if line == r.line else 0, stop):
            chars.append(text[col])
            where.append((line, col))
        if line != r.end_line:
            chars.append("\n")
            where.append((line, len(text)))
    return "".join(chars), where


def _code_only(text: str, strings: bool = True) -> str:
    """The text with comments and (`strings`) strings blanked out, same length, so that brackets,
    commas and names in them do not count."""
    out, kept = list(text), list(text)
    i, quote = 0, None
    while i < len(text):
        ch = text[i]
        if quote is not None:
            if ch == "\\":
                out[i:i + 2] = [" "] * len(out[i:i + 2])
                i += 2
                continue
            if text.startswith(quote, i):
                out[i:i + len(quote)] = " " * len(quote)
                i += len(quote)
                quote = None
                continue
            if ch != "\n":
                out[i] = " "
            i += 1
        elif ch == "#":
            while i < len(text) and text[i] != "\n":
                out[i] = kept[i] = " "
                i += 1
        elif ch in "'\"":
            quote = ch * 3 if text.startswith(ch * 3, i) else ch
            out[i:i + len(quote)] = " " * len(quote)
            i += len(quote)
        else:
            i += 1
    return "".join(out if strings else kept)


def _depths(code: str) -> list[int]:
    """The bracket depth at each character (an opening bracket counts inside)."""
    out, depth = [], 0
    for ch in code:
        if ch in _OPEN:
            depth += 1
        out.append(depth)
        if ch in _CLOSE:
            depth -= 1
    return out


def _matching(code: str, start: int) -> int:
    """The index of the bracket closing the one at `start` (-1: not in the text)."""
    depth = 0
    for i in range(start, len(code)):
        if code[i] in _OPEN:
            depth += 1
        elif code[i] in _CLOSE:
            depth -= 1
            if depth == 0:
                return i
    return -1


def _items(text: str, code: str, start: int, end: int) -> list[str]:
    """The entries of the list between the brackets at `start` and `end`."""
    items, depth, begin = [], 0, start + 1
    for i in range(start + 1, end):
        if code[i] in _OPEN:
            depth += 1
        elif code[i] in _CLOSE:
            depth -= 1
        elif code[i] == "," and depth == 0:
            items.append(text[begin:i].strip())
            begin = i + 1
    items.append(text[begin:end].strip())
    return [item for item in items if item]


def _last_code(code: str, start: int, end: int) -> int:
    """The last character that is code between `start` and `end` (`start` when there is none)."""
    for i in range(end - 1, start, -1):
        if not code[i].isspace():
            return i
    return start


def _insert(after: tuple[int, int]) -> Range:
    """The empty range just after the character at `after` (an insertion)."""
    line, col = after
    return Range(line, col + 1, line, col + 1)
