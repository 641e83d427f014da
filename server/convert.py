"""Analysis positions (code points) to LSP positions (the negotiated encoding), and back."""
from __future__ import annotations

from typing import Optional

from lsprotocol import types

from analysis.workspace.results import Location, Range

from .text import LspText


def position(text: LspText, line: int, col: int, encoding: str) -> types.Position:
    return types.Position(line=line, character=text.units(line, col, encoding))


def lsp_range(text: LspText, r: Range, encoding: str) -> types.Range:
    return types.Range(start=position(text, r.line, r.col, encoding),
                       end=position(text, r.end_line, r.end_col, encoding))


def lsp_location(location: Location, uri: str, texts: dict, encoding: str) -> Optional[types.Location]:
    target = location.uri or uri
    text = texts.get(target)
    if text is None:
        return types.Location(uri=target, range=types.Range(
            start=types.Position(line=location.range.line, character=location.range.col),
            end=types.Position(line=location.range.end_line, character=location.range.end_col)))
    return types.Location(uri=target, range=lsp_range(text, location.range, encoding))


def markdown_link(uri: str):
    """A link maker for hovers: `[line 12](file:///...#L12)` opens the place in VS Code and others."""
    def link(location: Location, text: str) -> str:
        target = location.uri or uri
        return f"[{text}]({target}#L{location.range.line + 1},{location.range.col + 1})"
    return link
