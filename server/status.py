"""`pyptoLens/status`: what the editor's status item shows for a document (presentation/status.py).

A request of ours (not LSP's): `{"uri": ...}` in, `{"tasks", "calls", "scopes", "withoutDirections"}`
out, or null for a document that holds no pl program. The VS Code extension asks it for the active
editor's document (its status.ts).
"""
from __future__ import annotations

from typing import Any, Optional

from pypto_lens.presentation.status import document_status

STATUS = "pyptoLens/status"


def install(server) -> None:
    @server.feature(STATUS)
    async def status(ls, params: Any) -> Optional[dict]:
        uri = params.get("uri") if isinstance(params, dict) else getattr(params, "uri", None)
        if not isinstance(uri, str):
            return None
        text, analysis = await ls.analysis(uri)
        if text is None or analysis is None:
            return None
        return document_status(analysis).as_json()
