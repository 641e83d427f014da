"""textDocument/inlayHint and inlayHint/resolve: the direction of every argument of every direction-bearing call.

What a line shows is the presentation's (presentation/hints.py): short words fitted into the
editor's budget for one line (`editor.inlayHints.maximumLength`), or every hint in H5's full
form (`pyptoLens.inlayHints.labelStyle: "full"`). A label's first part links to the callee
parameter; the tooltip (the parameter, the full direction and its derivation) is filled in
lazily by resolve, except a `+N`'s, which lists what did not fit.
"""
from __future__ import annotations

import json
from typing import Optional

from lsprotocol import types

from pypto_lens.presentation.explain import hint_lines, markdown_link, signature_markdown
from pypto_lens.presentation.hints import ShownHint, shown_hints
from pypto_lens.workspace.results import ArgHint, DocumentAnalysis, SignatureChange

from .convert import WireJson, wire_location, wire_position


def install(server) -> None:
    @server.feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=True))
    async def inlay_hints(ls, params: types.InlayHintParams) -> list[WireJson]:
        uri = params.text_document.uri
        current = ls.documents.get(uri)
        whole = current is None or (params.range.start.line <= 0 and params.range.end.line >= current.line_count - 1)
        # a viewport may be answered from the last analysis moved through the edits (server/analyses.py)
        text, analysis = await ls.analysis(uri, None if whole else (params.range.start.line, params.range.end.line),
                                           hints=True)
        if text is None or analysis is None or not ls.settings.inlayHints.enabled:
            return []
        encoding = ls.encoding
        # the range in (line, code point) positions; both ends included (a scope header's hints sit at
        # the end of its line, where a request for the visible lines ends)
        first = text.clamp(params.range.start.line, params.range.start.character, encoding)
        last = text.clamp(params.range.end.line, params.range.end.character, encoding)
        if last < first:
            first, last = last, first
        # a line is fitted as a whole, whatever part of it the range holds
        return [_hint(ls, uri, text, shown, encoding) for shown in shown_hints(analysis, ls.settings.hint_options(), (first[0], last[0]))
                if first <= (shown.line, shown.col) <= last]

    @server.feature(types.INLAY_HINT_RESOLVE)
    async def resolve(ls, hint: types.InlayHint) -> types.InlayHint:
        data = hint.data if isinstance(hint.data, dict) else {}
        uri = data.get("uri")
        if not uri or data.get("kind") == "more":
            return hint
        line = data.get("line")
        text, analysis = await ls.analysis(uri, (line, line) if isinstance(line, int) else None, hints=True)
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


def _hint(ls, uri: str, text, shown: ShownHint, encoding: str) -> WireJson:
    """One hint as the JSON text the client reads: an lsprotocol InlayHint's fields, camel-cased, None
    left out (convert.WireJson; tests/server/test_response_encoding.py reads each back as one)."""
    return WireJson(json.dumps(_wire(ls, uri, text, shown, encoding), separators=(",", ":")))


def _wire(ls, uri: str, text, shown: ShownHint, encoding: str) -> dict:
    at = wire_position(text, shown.line, shown.col, encoding)
    if shown.signature is not None:
        change = shown.signature
        return {"position": at, "label": shown.label, "kind": types.InlayHintKind.Type.value, "paddingLeft": True,
                "data": {"uri": uri, "kind": "signature", "function": change.function, "param": change.param}}
    if shown.more:
        lines = [f"- **{h.param}**: **{h.direction.value}** — {h.explanation.rule}: {h.explanation.text}"
                 for h in shown.hints]
        return {"position": at, "label": shown.label, "kind": types.InlayHintKind.Parameter.value, "paddingLeft": True,
                "tooltip": {"kind": types.MarkupKind.Markdown.value,
                            "value": "Not shown on this line:\n\n" + "\n".join(lines)},
                "data": {"uri": uri, "kind": "more"}}
    hint = shown.hints[0]
    parts = []
    if shown.link:
        part = {"value": shown.label[:shown.link]}
        if hint.declared:
            part["location"] = wire_location(ls, hint.declared, uri)
        parts.append(part)
    if len(shown.label) > shown.link:
        parts.append({"value": shown.label[shown.link:]})
    return {"position": at, "label": parts, "kind": types.InlayHintKind.Parameter.value,
            "paddingLeft": shown.scope, "paddingRight": not shown.scope,
            "data": {"uri": uri, "line": hint.line, "col": hint.col, "index": hint.index, "param": hint.param}}


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
