"""Files changed on disk (issue 42): `workspace/didChangeWatchedFiles`.

The server hears of an open document's changes through the editor's edits; of a file that is not
open (kernels that a `git checkout`, a `git pull` or a code generator rewrote) only through the
client's file watcher. It asks for one where the client lets a server register it (VS Code, Neovim
where it watches files): every `*.py` of the workspace, and the C++ sources of the workspace's PyPTO
checkout when it holds one (its REGISTER_OP chains are the operator registry). A client that sends the
notification on its own is heard the same way. For a client that does neither, the files read from
disk are looked at every `POLL_SECONDS` while nobody types (their time stamps and sizes: a file
created where an import was missing is seen at the next edit only).

What a notification does:

- an open document's events are ignored: its buffer wins over the disk (once it is closed, the files
  importing it read the disk);
- a Python file is read again when next asked, and every open document is analysed again once the
  notifications pause (`analyses.DISK_PAUSE_SECONDS`: a branch switch comes in several of them, and
  each document is analysed once for all). One that reads nothing that changed costs only the check
  of what it read (the workspace's early cutoff); the editor is told to ask again for the hints,
  lenses and diagnostics of those whose answers changed (analyses.py);
- a source of the workspace's operator registrations is read again, off the event loop; a changed
  declaration refreshes every view, as an edit of it does.
"""
from __future__ import annotations

import asyncio
import logging
from typing import Optional

from lsprotocol import types

from pypto_lens.workspace.registry_sources import REGISTRY_SOURCE_GLOB, is_registry_source

log = logging.getLogger("pypto-lens")

REGISTRATION_ID = "pyptoLens.watchedFiles"
POLL_SECONDS = 2.0
PYTHON_GLOB = "**/*.py"
REGISTRY_GLOB = REGISTRY_SOURCE_GLOB


def is_python_file(uri: str) -> bool:
    return uri.endswith((".py", ".pyi"))


class WatchedFiles:
    def __init__(self, server) -> None:
        self.server = server
        self.registered: set[str] = set()  # the globs the client watches for us
        self.events = 0  # file events heard (for the log and the tests' figures)
        self.polling: Optional[asyncio.Task] = None

    def client_can_register(self) -> bool:
        workspace = getattr(self.server.client_capabilities, "workspace", None)
        watched = getattr(workspace, "did_change_watched_files", None)
        return bool(watched and watched.dynamic_registration)

    async def register(self, registry: bool = False) -> None:
        """Ask the client to watch the workspace's Python files (`registry`: its operator registry's
        C++ sources, once a checkout is found in it)."""
        if not self.client_can_register():
            if not registry and self.polling is None:
                log.info("the client cannot watch files for the server: the files read from disk are "
                         "looked at every %g s", POLL_SECONDS)
                self.polling = asyncio.ensure_future(self._poll())
            return
        glob = REGISTRY_GLOB if registry else PYTHON_GLOB
        try:
            await self.server.client_register_capability_async(types.RegistrationParams(registrations=[
                types.Registration(id=f"{REGISTRATION_ID}.{'registry' if registry else 'python'}",
                                   method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                                   register_options=types.DidChangeWatchedFilesRegistrationOptions(
                                       watchers=[types.FileSystemWatcher(glob_pattern=glob)]))]))
        except Exception:
            log.warning("the client refused to watch %s for the server: the files read from disk are "
                        "looked at every %g s", glob, POLL_SECONDS)
            if self.polling is None:
                self.polling = asyncio.ensure_future(self._poll())
            return
        self.registered.add(glob)
        log.info("watching %s", glob)

    def changed(self, changes: list[types.FileEvent]) -> None:
        """A notification's events: see the module's docstring."""
        python, registry = [], []
        for event in changes:
            uri = event.uri
            self.events += 1
            if uri in self.server.documents:
                continue  # the buffer wins
            if is_python_file(uri):
                python.append(uri)
            elif is_registry_source(uri):
                registry.append(uri)
        if python:
            self._python_changed(python)
        if registry and self.server.registry_sources.checkout.registry is not None:
            asyncio.ensure_future(self._registry_changed(registry))

    def _python_changed(self, uris: list[str]) -> None:
        for uri in uris:
            self.server.lens.disk_changed(uri)
            self.server.disk_texts.pop(uri, None)
        log.debug("%d Python files changed on disk", len(uris))
        self.server.analyses.files_changed()
        self.server.diagnostics.schedule_all()

    async def _poll(self) -> None:
        """For a client that watches no files: the files read from disk looked at while nobody types
        (ends once the client sends file events after all)."""
        loop = asyncio.get_running_loop()
        while not self.events:
            await asyncio.sleep(POLL_SECONDS)
            if self.events or self.server.analyses.typed_within(POLL_SECONDS):
                continue
            try:
                changed = await loop.run_in_executor(self.server.worker, self.server.lens.files.changed_on_disk)
            except Exception:
                log.exception("looking at the files read from disk failed")
                continue
            changed = [uri for uri in changed if uri not in self.server.documents]
            if changed and not self.events:
                self._python_changed(changed)

    async def _registry_changed(self, uris: list[str]) -> None:
        loop = asyncio.get_running_loop()
        checkout = self.server.registry_sources.checkout
        changed: Optional[bool] = False
        try:  # (reading and parsing the sources, and the new registry: on the worker, as at start-up)
            changed = await loop.run_in_executor(self.server.worker, _reread, checkout, uris)
        except Exception:
            log.exception("reading the changed operator registrations failed")
        if changed:
            log.info("operator registry: declarations changed on disk")
            self.server.refresh_views()


def _reread(checkout, uris: list[str]) -> bool:
    changed = False
    for uri in uris:
        changed = checkout.changed(uri, None) or changed
    return changed


def install(server) -> None:
    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched_files(ls, params: types.DidChangeWatchedFilesParams) -> None:
        ls.watched_files.changed(list(params.changes))
