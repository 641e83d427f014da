"""textDocument/codeLens: over each orchestration-like function, its task graph's counts
(`12 tasks · 20 edges · 1 hazard`, presentation/graph_view.py), running the client's
pyptoLens.showTaskGraph with `{uri, function}` (the VS Code extension opens the panel on it)."""
from __future__ import annotations

from lsprotocol import types

from pypto_lens.presentation.graph_view import lens_title

from .convert import lsp_range

SHOW_TASK_GRAPH = "pyptoLens.showTaskGraph"  # the client's command: never listed by the server


def install(server) -> None:
    @server.feature(types.TEXT_DOCUMENT_CODE_LENS, types.CodeLensOptions(resolve_provider=False))
    async def code_lens(ls, params: types.CodeLensParams) -> list[types.CodeLens]:
        if not ls.settings.taskGraph.codeLens:
            return []
        uri = params.text_document.uri
        text, analysis = await ls.analysis(uri)
        if text is None or analysis is None:
            return []
        information = ls.settings.hazards.information
        return [types.CodeLens(
            range=lsp_range(text, graph.range, ls.encoding),
            command=types.Command(title=lens_title(graph, information), command=SHOW_TASK_GRAPH,
                                  arguments=[{"uri": uri, "function": graph.function}]))
            for graph in analysis.graphs]
