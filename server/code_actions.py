"""textDocument/codeAction: the presentation's quick fixes as LSP code actions: InParamWritten's
(presentation/fixes.py) and the hazards' (presentation/hazard_fixes.py; an edit may be in the file
that declares the callee)."""
from __future__ import annotations

from lsprotocol import types

from pypto_lens.presentation.fixes import quick_fixes
from pypto_lens.presentation.hazard_fixes import hazard_fixes

from .convert import document_text, lsp_range


def install(server) -> None:
    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]))
    async def code_actions(ls, params: types.CodeActionParams) -> list[types.CodeAction]:
        uri = params.text_document.uri
        text = ls.documents.get(uri)
        if text is None:
            return []

        def lines_of(target):
            found = text if target is None or target == uri else document_text(ls, target)
            return found.line if found is not None else None

        actions = []
        for diagnostic in params.context.diagnostics:
            fixes = quick_fixes(diagnostic.code, diagnostic.data, text.line) + \
                hazard_fixes(diagnostic.code, diagnostic.data, lines_of)
            for fix in fixes:
                target = fix.uri or uri
                target_text = text if target == uri else document_text(ls, target)
                if target_text is None:
                    continue
                edit = types.TextEdit(range=lsp_range(target_text, fix.range, ls.encoding), new_text=fix.new_text)
                actions.append(types.CodeAction(
                    title=fix.title, kind=types.CodeActionKind.QuickFix, diagnostics=[diagnostic],
                    is_preferred=fix.preferred, edit=types.WorkspaceEdit(changes={target: [edit]})))
        return actions
