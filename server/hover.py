"""textDocument/hover: how each direction of the call under the cursor was derived (H7).

On an operator call: what the registry declares about it, and where. On a parameter
whose effective direction differs from its declaration: why (the signature hint's reason).
"""
from __future__ import annotations

from typing import Optional

from lsprotocol import types

from pypto_lens.workspace.explain import call_markdown, signature_markdown

from .convert import lsp_range, markdown_link


def install(server) -> None:
    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def hover(ls, params: types.HoverParams) -> Optional[types.Hover]:
        uri = params.text_document.uri
        text, analysis = await ls.analysis(uri)
        if text is None or analysis is None:
            return None
        encoding = ls.encoding
        line, col = text.clamp(params.position.line, params.position.character, encoding)
        site = analysis.call_at(line, col)
        if site is not None:
            value = call_markdown(site, markdown_link(uri))
            return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=value),
                               range=lsp_range(text, site.range, encoding))
        change = analysis.signature_at(line, col)
        if change is not None:
            return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown,
                                                            value=signature_markdown(change, markdown_link(uri))),
                               range=lsp_range(text, change.range, encoding))
        op = analysis.op_at(line, col)
        if op is not None:
            return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=op.markdown),
                               range=lsp_range(text, op.range, encoding))
        return None
