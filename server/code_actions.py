"""Quick fixes for InParamWritten: declare the parameter pl.Out[...] or pl.InOut[...] (IW6).

The preferred fix is Out when the parameter is never read, InOut when it is.
"""
from __future__ import annotations

from lsprotocol import types

from pypto_lens.pipeline.in_param_written import FIX_REASONS
from pypto_lens.workspace.results import Range

from .convert import lsp_range


def install(server) -> None:
    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]))
    async def code_actions(ls, params: types.CodeActionParams) -> list[types.CodeAction]:
        uri = params.text_document.uri
        text = ls.texts.get(uri)
        if text is None:
            return []
        actions = []
        for diagnostic in params.context.diagnostics:
            if diagnostic.code != "InParamWritten" or not isinstance(diagnostic.data, dict):
                continue
            annotation = diagnostic.data.get("annotation")
            if not isinstance(annotation, dict):
                continue
            try:  # the client hands data back: it may come from another version, or be mangled
                r = Range(*(int(annotation[key]) for key in ("line", "col", "end_line", "end_col")))
            except (KeyError, TypeError, ValueError):
                continue
            if r.line != r.end_line or not 0 <= r.col < r.end_col:
                continue
            current = text.line(r.line)[r.col:r.end_col]
            if not current:
                continue
            alias = diagnostic.data.get("alias") or "pl"
            preferred = diagnostic.data.get("suggestion", "Out")
            param = diagnostic.data.get("param", "the parameter")
            for direction in sorted(FIX_REASONS, key=lambda d: d != preferred):
                what = FIX_REASONS[direction]
                edit = types.TextEdit(range=lsp_range(text, r, ls.encoding), new_text=f"{alias}.{direction}[{current}]")
                actions.append(types.CodeAction(
                    title=f"Declare '{param}' as {alias}.{direction}[...] ({what})",
                    kind=types.CodeActionKind.QuickFix, diagnostics=[diagnostic],
                    is_preferred=direction == preferred,
                    edit=types.WorkspaceEdit(changes={uri: [edit]})))
        return actions
