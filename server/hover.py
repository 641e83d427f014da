"""textDocument/hover: the presentation's hover at the position (presentation/hover.py), in LSP terms.

How each direction of the call under the cursor was derived (H7); on an operator call,
what the registry declares about it; on a parameter whose effective direction differs
from its declaration, why.
"""
from __future__ import annotations

from typing import Optional

from lsprotocol import types

from pypto_lens.presentation.explain import markdown_link
from pypto_lens.presentation.hover import hover_at

from .convert import lsp_range


def install(server) -> None:
    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def hover(ls, params: types.HoverParams) -> Optional[types.Hover]:
        uri = params.text_document.uri
        text, analysis = await ls.analysis(uri, (params.position.line, params.position.line))
        if text is None or analysis is None:
            return None
        encoding = ls.encoding
        line, col = text.clamp(params.position.line, params.position.character, encoding)
        found = hover_at(analysis, line, col, markdown_link(uri), ls.settings.hint_options().shows,
                         information=ls.settings.hazards.information)
        if found is None:
            return None
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=found.markdown),
                           range=lsp_range(text, found.range, encoding))
