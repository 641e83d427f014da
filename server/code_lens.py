"""textDocument/codeLens: three kinds of lens, each running a command of the client's.

- Over each orchestration-like function, its task graph's counts (`12 tasks · 20 edges · 1 hazard`,
  presentation/graph_view.py), running pyptoLens.showTaskGraph with `{uri, function}` (the VS Code
  extension opens the panel on it); `pyptoLens.taskGraph.codeLens` switches them.
- Above each call of an inline helper (N1), what it launches (`3 tasks · writes x · reads w`,
  presentation/expansions.py), running pyptoLens.showTaskGraph at that call (`inlined`: its expansion).
- Above each outlined scope's header, its captured buffers and their directions
  (presentation/hints.py, scope_lenses): short labels put them there by default
  (`pyptoLens.inlayHints.scopeHeaderStyle`), since real models' headers are long and hints after
  their `:` would start past the window's edge. They run pyptoLens.explainAt (the extension's: the
  scope's derivation in a preview).
"""
from __future__ import annotations

from lsprotocol import types

from pypto_lens.presentation.expansions import helper_calls, lens_title as helper_lens_title
from pypto_lens.presentation.expansions import lens_tooltip as helper_lens_tooltip
from pypto_lens.presentation.graph_view import lens_title
from pypto_lens.presentation.hints import scope_lenses

from .convert import lsp_range, position

SHOW_TASK_GRAPH = "pyptoLens.showTaskGraph"  # the client's commands: never listed by the server
EXPLAIN_AT = "pyptoLens.explainAt"


def install(server) -> None:
    @server.feature(types.TEXT_DOCUMENT_CODE_LENS, types.CodeLensOptions(resolve_provider=False))
    async def code_lens(ls, params: types.CodeLensParams) -> list[types.CodeLens]:
        uri = params.text_document.uri
        text, analysis = await ls.analysis(uri)
        if text is None or analysis is None:
            return []
        out = []
        if ls.settings.taskGraph.codeLens:
            information = ls.settings.hazards.information
            out.extend(types.CodeLens(
                range=lsp_range(text, graph.range, ls.encoding),
                command=types.Command(title=lens_title(graph, information), command=SHOW_TASK_GRAPH,
                                      arguments=[{"uri": uri, "function": graph.function}]))
                for graph in analysis.graphs)
        if ls.settings.inlayHints.enabled:
            for call in helper_calls(analysis) if ls.settings.inlayHints.helperCalls else ():  # N1: what it launches
                at = position(text, call.range.line, call.range.col, ls.encoding)
                graph, expansion = call.expansions[0]
                out.append(types.CodeLens(
                    range=types.Range(start=at, end=at),
                    command=types.Command(title=helper_lens_title(call), command=SHOW_TASK_GRAPH,
                                          tooltip=helper_lens_tooltip(call),
                                          arguments=[{"uri": uri, "function": graph.function,
                                                      "inlined": expansion.id}])))
            for lens in scope_lenses(analysis, ls.settings.hint_options()):
                at = position(text, lens.line, lens.col, ls.encoding)
                out.append(types.CodeLens(
                    range=types.Range(start=at, end=at),
                    command=types.Command(title=lens.title, command=EXPLAIN_AT, tooltip=lens.tooltip,
                                          arguments=[uri, at.line, at.character])))
        return out
