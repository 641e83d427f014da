"""textDocument/codeAction: the presentation's quick fixes (presentation/fixes.py) as LSP code actions."""
from __future__ import annotations

from lsprotocol import types

from pypto_lens.presentation.fixes import quick_fixes

from .convert import lsp_range


def install(server) -> None:
    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]))
    async def code_actions(ls, params: types.CodeActionParams) -> list[types.CodeAction]:
        uri = params.text_document.uri
        text = ls.documents.get(uri)
        if text is None:
            return []
        actions = []
        for diagnostic in params.context.diagnostics:
            for fix in quick_fixes(diagnostic.code, diagnostic.data, text.line):
                edit = types.TextEdit(range=lsp_range(text, fix.range, ls.encoding), new_text=fix.new_text)
                actions.append(types.CodeAction(
                    title=fix.title, kind=types.CodeActionKind.QuickFix, diagnostics=[diagnostic],
                    is_preferred=fix.preferred, edit=types.WorkspaceEdit(changes={uri: [edit]})))
        return actions
