"""workspace/executeCommand `pyptoLens.explain`: the derivation of the call at a position, as markdown.

The VS Code command "PyPTO Lens: Explain Directions at Cursor" opens it in a
preview; any editor can call it.
"""
from __future__ import annotations

from typing import Any

from pypto_lens.presentation.explain import explain_at, markdown_link

EXPLAIN = "pyptoLens.explain"


def install(server) -> None:
    @server.command(EXPLAIN)
    async def explain(ls, *args: Any) -> str:
        uri, line, character = _arguments(args)
        if uri is None:
            return "PyPTO Lens: explain needs a document and a position."
        text, analysis = await ls.analysis(uri)
        if text is None or analysis is None:
            return "PyPTO Lens: this document holds no pl program."
        if line >= text.line_count:
            return f"Line {line + 1} is past the end of the document ({text.line_count} lines)."
        line, col = text.clamp(line, character, ls.encoding)
        return explain_at(analysis, line, col, markdown_link(uri))


def _arguments(args) -> tuple:
    """Accepts (uri, line, character), (uri, {line, character}) or ({uri, position}).

    Anything else (missing parts, a non-integer line, a uri that is not a string) gives
    (None, 0, 0): the command answers with how to call it instead of failing.
    """
    try:
        flat = list(args[0]) if len(args) == 1 and isinstance(args[0], (list, tuple)) else list(args)
        if len(flat) == 1 and isinstance(flat[0], dict):
            d = flat[0]
            pos = d.get("position", {})
            uri, line, character = d.get("uri"), int(pos.get("line", 0)), int(pos.get("character", 0))
        elif len(flat) >= 2 and isinstance(flat[1], dict):
            uri, line, character = flat[0], int(flat[1].get("line", 0)), int(flat[1].get("character", 0))
        elif len(flat) >= 3:
            uri, line, character = flat[0], int(flat[1]), int(flat[2])
        else:
            return None, 0, 0
    except (AttributeError, TypeError, ValueError):
        return None, 0, 0
    return (uri, line, character) if isinstance(uri, str) else (None, 0, 0)
