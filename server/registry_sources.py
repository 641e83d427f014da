"""When the workspace's own operator registrations are read (at start, off the event loop), and what an
edit of one of them triggers (new hints everywhere); the registry itself is the workspace's
(workspace/registry_sources.py)."""
from __future__ import annotations

import asyncio
import logging

from pypto_lens.workspace.registry_sources import CheckoutRegistry

log = logging.getLogger("pypto-lens")


class RegistrySources:
    def __init__(self, server) -> None:
        self.server = server
        self.checkout = CheckoutRegistry(server.lens)

    async def load(self) -> None:
        """Look for a PyPTO checkout in the workspace (on the worker thread: it reads many files)."""
        loop = asyncio.get_running_loop()
        found = await loop.run_in_executor(self.server.worker, self._find)
        if found is not None:
            self.checkout.adopt(found)
            for uri in list(self.server.documents):  # edits made while we were reading
                self.changed(uri, refresh=False)
            log.info("operator registry: %d ops from %s", len(found.registry().ops), found.checkout)
            self.server.refresh_views()

    def _find(self):
        try:
            return self.checkout.find()
        except Exception:
            log.exception("reading the workspace's operator registrations failed; the bundled table serves")
            return None

    def changed(self, uri: str, refresh: bool = True) -> None:
        if not self.checkout.owns(uri):
            return
        text = self.server.documents.get(uri)
        if self.checkout.changed(uri, text.normalised() if text else None) and refresh:
            self.server.refresh_views()
