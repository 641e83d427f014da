"""textDocument/codeLens: a scope's captures in a lens above its header (presentation/hints.py, scope_lenses).

Short labels put them there by default (`pyptoLens.inlayHints.scopeHeaderStyle`): real models' headers
are long, and hints after their `:` would start past the window's edge. A lens runs the client's
`pyptoLens.explainAt` (the VS Code extension's: the scope's derivation in a preview).
"""
from __future__ import annotations

from lsprotocol import types

from pypto_lens.presentation.hints import scope_lenses

from .convert import position

EXPLAIN_AT = "pyptoLens.explainAt"


def install(server) -> None:
    @server.feature(types.TEXT_DOCUMENT_CODE_LENS, types.CodeLensOptions(resolve_provider=False))
    async def code_lenses(ls, params: types.CodeLensParams) -> list[types.CodeLens]:
        uri = params.text_document.uri
        text, analysis = await ls.analysis(uri)
        if text is None or analysis is None or not ls.settings.inlayHints.enabled:
            return []
        encoding = ls.encoding
        out = []
        for lens in scope_lenses(analysis, ls.settings.hint_options()):
            at = position(text, lens.line, lens.col, encoding)
            out.append(types.CodeLens(
                range=types.Range(start=at, end=at),
                command=types.Command(title=lens.title, command=EXPLAIN_AT, arguments=[uri, at.line, at.character])))
        return out
