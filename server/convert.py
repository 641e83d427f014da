"""Analysis positions (code points) to LSP positions (the negotiated encoding), and back."""
from __future__ import annotations

from typing import Optional

from lsprotocol import types

from pypto_lens.workspace.results import Location, Range

from .text import LspText


def position(text: LspText, line: int, col: int, encoding: str) -> types.Position:
    return types.Position(line=line, character=text.units(line, col, encoding))


def lsp_range(text: LspText, r: Range, encoding: str) -> types.Range:
    return types.Range(start=position(text, r.line, r.col, encoding),
                       end=position(text, r.end_line, r.end_col, encoding))


def lsp_location(ls, location: Location, uri: str) -> types.Location:
    """A place in this document or another one, open or only on disk, in the client's units
    (`wire_location`, as an lsprotocol object)."""
    wire = wire_location(ls, location, uri)
    start, end = wire["range"]["start"], wire["range"]["end"]
    return types.Location(uri=wire["uri"], range=types.Range(start=types.Position(**start), end=types.Position(**end)))


class WireJson(str):
    """An item of an answer written as JSON already: LensProtocol._send_data puts it in as it is. (A
    cold open of genpl 50,000 answers 26,758 hints: as lsprotocol objects converted by pygls they cost
    35 us each, and held their objects and dictionaries until the answer was written.)"""

    __slots__ = ()


def wire_position(text: LspText, line: int, col: int, encoding: str) -> dict:
    """`position` as the JSON the client reads."""
    return {"line": line, "character": text.units(line, col, encoding)}


def wire_location(ls, location: Location, uri: str) -> dict:
    """A place in this document or another one, open or only on disk, in the client's units, as the
    JSON the client reads."""
    target = location.uri or uri
    text = ls.documents.get(target) or _disk_text(ls, target)
    r = location.range
    if text is None:  # gone from the disk as well: code points are the best guess
        start, end = {"line": r.line, "character": r.col}, {"line": r.end_line, "character": r.end_col}
    else:
        start, end = wire_position(text, r.line, r.col, ls.encoding), \
            wire_position(text, r.end_line, r.end_col, ls.encoding)
    return {"uri": target, "range": {"start": start, "end": end}}


def document_text(ls, uri: str) -> Optional[LspText]:
    """A document's text: the client's while it is open, else the file's on disk."""
    return ls.documents.get(uri) or _disk_text(ls, uri)


def _disk_text(ls, uri: str) -> Optional[LspText]:
    """The line index of a file that is not open (an imported kernel), kept while its text is."""
    source = ls.lens.text(uri)
    if source is None:
        return None
    cached = ls.disk_texts.get(uri)
    if cached is None or cached.text is not source:
        cached = ls.disk_texts[uri] = LspText(source)
    return cached
