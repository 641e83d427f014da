"""textDocument/inlayHint and inlayHint/resolve: one hint per argument of every direction-bearing call.

The label names the direction exactly (H5); its first part links to the
callee parameter; the tooltip (the derivation) is filled in lazily by resolve.
"""
from __future__ import annotations

from typing import Optional

from lsprotocol import types

from pypto_lens.presentation.explain import hint_lines, markdown_link, signature_markdown
from pypto_lens.presentation.hints import label, signature_label
from pypto_lens.workspace.results import ArgHint, DocumentAnalysis, SignatureChange

from .convert import lsp_location, position


def install(server) -> None:
    @server.feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=True))
    async def inlay_hints(ls, params: types.InlayHintParams) -> list[types.InlayHint]:
        uri = params.text_document.uri
        current = ls.documents.get(uri)
        whole = current is None or (params.range.start.line <= 0 and params.range.end.line >= current.line_count - 1)
        # a viewport may be answered from the last analysis moved through the edits (server/analyses.py)
        text, analysis = await ls.analysis(uri, None if whole else (params.range.start.line, params.range.end.line))
        if text is None or analysis is None or not ls.settings.inlayHints.enabled:
            return []
        encoding = ls.encoding
        # the range in (line, code point) positions; both ends included (a scope header's hints sit at
        # the end of its line, where a request for the visible lines ends)
        first = text.clamp(params.range.start.line, params.range.start.character, encoding)
        last = text.clamp(params.range.end.line, params.range.end.character, encoding)
        if last < first:
            first, last = last, first
        out = []
        for site in analysis.calls_between(first[0], last[0]):
            if site.scope and not ls.settings.inlayHints.scopeHeaders:
                continue
            for hint in site.hints:
                if not first <= (hint.line, hint.col) <= last or not ls.settings.shows_direction(hint.direction.value):
                    continue
                out.append(_hint(ls, uri, text, hint, site.scope, encoding))
        if ls.settings.inlayHints.signatures:
            for change in analysis.signatures:
                if first <= (change.line, change.col) <= last:
                    out.append(_signature_hint(text, uri, change, encoding))
        return out

    @server.feature(types.INLAY_HINT_RESOLVE)
    async def resolve(ls, hint: types.InlayHint) -> types.InlayHint:
        data = hint.data if isinstance(hint.data, dict) else {}
        uri = data.get("uri")
        if not uri:
            return hint
        line = data.get("line")
        text, analysis = await ls.analysis(uri, (line, line) if isinstance(line, int) else None)
        if analysis is None:
            return hint
        if data.get("kind") == "signature":
            change = _find_signature(analysis, data)
            if change is not None:
                hint.tooltip = _markdown(signature_markdown(change, markdown_link(uri)))
            return hint
        found = _find_hint(analysis, data)
        if found is not None:
            hint.tooltip = _markdown("\n".join(hint_lines(found, markdown_link(uri))))
        return hint


def _markdown(value: str) -> types.MarkupContent:
    return types.MarkupContent(kind=types.MarkupKind.Markdown, value=value)


def _hint(ls, uri: str, text, hint: ArgHint, scope: bool, encoding: str) -> types.InlayHint:
    target = lsp_location(ls, hint.declared, uri) if hint.declared else None
    # H5's label, its first part (the parameter) linking to the callee's declaration
    parts = [types.InlayHintLabelPart(value=hint.param, location=target),
             types.InlayHintLabelPart(value=label(hint)[len(hint.param):])]
    return types.InlayHint(
        position=position(text, hint.line, hint.col, encoding), label=parts, kind=types.InlayHintKind.Parameter,
        padding_left=scope, padding_right=not scope,
        data={"uri": uri, "line": hint.line, "col": hint.col, "index": hint.index, "param": hint.param})


def _signature_hint(text, uri: str, change: SignatureChange, encoding: str) -> types.InlayHint:
    return types.InlayHint(
        position=position(text, change.line, change.col, encoding),
        label=signature_label(change), kind=types.InlayHintKind.Type, padding_left=True,
        data={"uri": uri, "kind": "signature", "function": change.function, "param": change.param})


def _find_hint(analysis: DocumentAnalysis, data: dict) -> Optional[ArgHint]:
    for site in analysis.calls:
        for hint in site.hints:
            if hint.line == data.get("line") and hint.col == data.get("col") and hint.index == data.get("index") \
                    and hint.param == data.get("param"):
                return hint
    return None


def _find_signature(analysis: DocumentAnalysis, data: dict) -> Optional[SignatureChange]:
    for change in analysis.signatures:
        if change.function == data.get("function") and change.param == data.get("param"):
            return change
    return None
