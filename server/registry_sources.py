"""The workspace's own operator registrations: read at start, re-read as the user edits them.

When the workspace holds a PyPTO checkout (src/ir/op), its REGISTER_OP chains
replace the bundled table; an edit of an open .cpp file (saved or not) that
changes a declaration re-derives every pl program's hints at once.
"""
from __future__ import annotations

import asyncio
import logging
from typing import Optional

from pypto_lens.registry.dsl import load_dsl_map
from pypto_lens.registry.workspace_registry import WorkspaceRegistry, find_checkouts
from pypto_lens.workspace.workspace import uri_to_path

log = logging.getLogger("pypto-lens")


class RegistrySources:
    def __init__(self, server) -> None:
        self.server = server
        self.registry: Optional[WorkspaceRegistry] = None

    async def load(self) -> None:
        """Look for a PyPTO checkout in the workspace (on the worker thread: it reads many files)."""
        loop = asyncio.get_running_loop()
        self.registry = await loop.run_in_executor(self.server.worker, self._build)
        if self.registry is not None:
            for uri in list(self.server.texts):  # edits made while we were reading
                self.changed(uri, refresh=False)
            self.server.lens.set_registry(self.registry.registry())
            log.info("operator registry: %d ops from %s", len(self.registry.registry().ops), self.registry.checkout)
            self.server.refresh_views()

    def _build(self) -> Optional[WorkspaceRegistry]:
        try:
            checkouts = find_checkouts(self.server.lens.roots)
            return WorkspaceRegistry(checkouts[0], load_dsl_map()) if checkouts else None
        except Exception:
            log.exception("reading the workspace's operator registrations failed; the bundled table serves")
            return None

    def changed(self, uri: str, refresh: bool = True) -> None:
        path = uri_to_path(uri)
        if self.registry is None or path is None or not self.registry.owns(path):
            return
        text = self.server.texts.get(uri)
        if self.registry.update(path, text.normalised() if text else None):
            self.server.lens.set_registry(self.registry.registry())
            if refresh:
                self.server.refresh_views()
