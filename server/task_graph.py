"""workspace/executeCommand `pyptoLens.taskGraph`: the task graph of the function at a position, or of
the one named (notes/graph_contract.md; presentation/graph_view.py makes the answer).

Arguments: `[{"uri", "position": {"line", "character"}}]` (the position in the negotiated encoding)
or `[{"uri", "function"}]`. The answer's positions are the contract's: 1-based, code points (the
webview converts them for its editor). The client's own command, pyptoLens.showTaskGraph, which
opens the panel, is not listed here: the language client registers every listed command under
its name, and a second registration of that one would fail.
"""
from __future__ import annotations

from typing import Any, Optional

from pygls.exceptions import JsonRpcInvalidParams

from pypto_lens.presentation.graph_view import graph_answer

TASK_GRAPH = "pyptoLens.taskGraph"


def install(server) -> None:
    @server.command(TASK_GRAPH)
    async def task_graph(ls, *args: Any) -> dict:
        uri, position, function = _request(args)
        if uri is None:
            raise JsonRpcInvalidParams(f"{TASK_GRAPH} takes [{{uri, position: {{line, character}}}}] "
                                       "or [{uri, function}]")
        text, analysis = await ls.analysis(uri)
        line = None
        if position is not None and text is not None:
            line, _ = text.clamp(position[0], position[1], ls.encoding)
        return graph_answer(analysis, uri, line, function, ls.settings.hazards.information)


def _request(args) -> tuple[Optional[str], Optional[tuple[int, int]], Optional[str]]:
    """(uri, (line, character) or None, function or None); (None, None, None) when it makes no sense."""
    flat = list(args[0]) if len(args) == 1 and isinstance(args[0], (list, tuple)) else list(args)
    if len(flat) != 1 or not isinstance(flat[0], dict) or not isinstance(flat[0].get("uri"), str):
        return None, None, None
    request = flat[0]
    function = request.get("function")
    if isinstance(function, str):
        return request["uri"], None, function
    position = request.get("position")
    try:
        return request["uri"], (int(position["line"]), int(position["character"])), None
    except (KeyError, TypeError, ValueError):
        return None, None, None
