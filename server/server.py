"""The PyPTO Lens language server: document sync, settings, and analyses on demand.

Features live in their own modules (inlay_hints, hover, diagnostics,
code_actions, commands); this module keeps the state they share, each piece
with one owner: the open documents (documents.py, which the workspace reads),
the settings, the diagnostics scheduler and the registry sources. Text sync is
our own (server/text.py) because pygls 2.1.1's document store breaks the LSP
line rules. When analyses run and what a request answers meanwhile is
analyses.py's business (one worker thread; the newest version; a viewport's
hints from the last analysis moved through the edits until the new one is done).
"""
from __future__ import annotations

import asyncio
import inspect
import json
import logging
import traceback
from pathlib import Path
from typing import Any, Optional

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, lsp_method

from pypto_lens.workspace.registry_sources import is_registry_source
from pypto_lens.workspace.results import DocumentAnalysis
from pypto_lens.workspace.workspace import Workspace, uri_to_path

from . import __version__
from .analyses import MOVED_AFTER_SECONDS, Analyses
from .convert import WireJson
from .diagnostics import Diagnostics
from .documents import Documents
from .registry_sources import RegistrySources
from .settings import Settings, parse_settings
from .text import UTF16, Change, LspText
from .watched_files import WatchedFiles

log = logging.getLogger("pypto-lens")
# how long the first answers wait for the client's settings (a slower client gets the defaults first,
# then a refresh): without it the first hints and diagnostics raced workspace/configuration
SETTINGS_WAIT_SECONDS = 0.2



class LensProtocol(LanguageServerProtocol):
    """pygls' protocol with the document store replaced by LspText."""

    def _execute_handler(self, msg_id, handler, callback, args=None, kwargs=None):
        # pygls 2.1.1 keeps the future of every generator or coroutine handler by a message id and
        # forgets it only when it answers a request: each notification (didChange, didOpen,
        # didChangeConfiguration...) left one behind for good, about 1 KB each (issue 13)
        super()._execute_handler(msg_id, handler, callback, args, kwargs)
        future = self._request_futures.get(msg_id)
        if future is not None:
            future.add_done_callback(lambda done, key=msg_id: self._request_futures.get(key) is done
                                     and self._request_futures.pop(key))

    def _send_data(self, data: Any):
        """A response whose result is a list goes out one item converted at a time. pygls converts the
        whole message before encoding it: a cold open's hints at genpl 50,000 (26,758 of them) were
        their objects and all their dictionaries at once, 44 MB at the peak, and the allocator kept
        most of that resident after the answer (250 MB against 194 for the same open answered for a
        viewport). In a plain envelope the encoder asks `_serialize_message` for each item as it
        writes it: the same JSON, one item's dictionaries alive at a time. Items written as JSON
        already (convert.WireJson: the inlay hints) are put in as they are."""
        result = getattr(data, "result", None)
        if type(result) is list and result and getattr(data, "error", None) is None \
                and hasattr(data, "__attrs_attrs__"):
            if type(result[0]) is WireJson:  # (items written as JSON already: inlay_hints.py)
                self._write_json(f'{{"id":{json.dumps(data.id)},"jsonrpc":{json.dumps(data.jsonrpc)},'
                                 f'"result":[{",".join(result)}]}}')
                return
            data = {"id": data.id, "jsonrpc": data.jsonrpc, "result": result}
        super()._send_data(data)

    def _write_json(self, body: str) -> None:
        """A message's JSON text, framed and written as pygls frames what it encodes itself."""
        if self.writer is None:
            return
        encoded = body.encode(self.CHARSET)
        header = f"Content-Length: {len(encoded)}\r\nContent-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n"
        written = self.writer.write(header.encode("ascii") + encoded if self._include_headers else encoded)
        if inspect.isawaitable(written):
            asyncio.ensure_future(written)

    @lsp_method(types.SHUTDOWN)
    def lsp_shutdown(self, *args):
        """pygls' shutdown, over a copy of the pending futures: cancelling one runs the callback above,
        which forgets it (pygls' loop over the live dict then failed: "dictionary changed size")."""
        if (user_handler := self.fm.features.get(types.SHUTDOWN)) is not None:
            yield user_handler, args, None
        current_id = self.msg_id
        for msg_id, future in list(self._request_futures.items()):
            if msg_id != current_id and not future.done():
                future.cancel()
        self._shutdown = True
        return None

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams):
        self._server.open_document(params.text_document.uri, params.text_document.text,
                                   params.text_document.version, params.text_document.language_id)
        if (user_handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_OPEN)) is not None:
            yield user_handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams):
        self._server.change_document(params.text_document.uri, params.text_document.version,
                                     params.content_changes)
        if (user_handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield user_handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams):
        self._server.close_document(params.text_document.uri)
        if (user_handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CLOSE)) is not None:
            yield user_handler, (params,), None


class LensServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("pypto-lens", __version__, protocol_cls=LensProtocol,
                         text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.documents = Documents()
        self.lens = Workspace([], open_documents=self.documents)
        self.lens.keep_replaced = True  # (freed once an edit's answers are out: analyses.py)
        self.disk_texts: dict = {}  # uri -> LspText of files read from disk (see convert.lsp_location)
        self.settings = Settings()
        self.settings_values: Any = None  # the `pyptoLens` values the settings were read from
        self.settings_in = asyncio.Event()  # the first workspace/configuration answered (or not asked)
        self.analyses = Analyses(self)
        self.worker = self.analyses.worker  # (C++ registrations and the registry load use it too)
        self.pull_diagnostics = False
        self.diagnostics = Diagnostics(self)
        self.registry_sources = RegistrySources(self)
        self.watched_files = WatchedFiles(self)

    # -- the negotiated position encoding -----------------------------------------------------------
    @property
    def encoding(self) -> str:
        try:
            value = self.workspace.position_encoding
        except RuntimeError:
            return UTF16
        return str(getattr(value, "value", value) or UTF16)

    # -- documents -----------------------------------------------------------------------
    def open_document(self, uri: str, text: str, version: Optional[int], language: str) -> None:
        self.documents.open(uri, text, version, language)
        self.analyses.changed(uri, typed=False)
        self.on_registry_source_changed(uri)

    def change_document(self, uri: str, version: Optional[int], changes: list) -> None:
        if uri not in self.documents:
            log.warning("change for a document that is not open: %s", uri)
            return
        ours = [Change(c.text, (c.range.start.line, c.range.start.character), (c.range.end.line, c.range.end.character))
                if isinstance(c, types.TextDocumentContentChangePartial) else Change(c.text) for c in changes]
        for error in self.documents.change(uri, version, ours, self.encoding):  # never lose the document
            log.error("could not apply a change to %s:\n%s", uri,
                      "".join(traceback.format_exception(type(error), error, error.__traceback__)))
        self.analyses.changed(uri)
        self.on_registry_source_changed(uri)

    def close_document(self, uri: str) -> None:
        self.documents.close(uri)
        self.analyses.forget(uri)
        self.analyses.changed()  # the files that import it read it from disk now
        self.lens.forget(uri)
        self.disk_texts.pop(uri, None)
        self.diagnostics.forget(uri)

    def is_python(self, uri: str) -> bool:
        return self.documents.is_python(uri)

    def is_cpp(self, uri: str) -> bool:
        return self.documents.is_c(uri) or is_registry_source(uri)

    def on_registry_source_changed(self, uri: str) -> None:
        """An edit of the workspace's REGISTER_OP sources may change every program's directions."""
        if self.is_cpp(uri):
            self.registry_sources.changed(uri)

    def shows(self, code: str, data: Any = None) -> bool:
        """The settings' answer for a diagnostic, knowing whether the workspace holds PyPTO's operator sources."""
        return self.settings.shows(code, data, self.registry_sources.checkout.registry is not None)

    def refresh_views(self) -> None:
        """Ask the client to fetch hints and diagnostics again (settings or registry changed; never per keystroke)."""
        self.analyses.changed()
        self.refresh_hints()
        self.refresh_code_lenses()  # scopes' lenses, and the graphs' counts (hazards.information)
        self.diagnostics.refresh_all()

    def refresh_code_lenses(self) -> None:
        workspace = getattr(self.client_capabilities, "workspace", None)
        if workspace and workspace.code_lens and workspace.code_lens.refresh_support:
            self.workspace_code_lens_refresh(None)

    def can_refresh_hints(self) -> bool:
        workspace = getattr(self.client_capabilities, "workspace", None)
        return bool(workspace and workspace.inlay_hint and workspace.inlay_hint.refresh_support)

    def refresh_hints(self) -> None:
        if self.can_refresh_hints():
            self.workspace_inlay_hint_refresh(None)

    # -- analyses ------------------------------------------------------------------------
    async def analysis(self, uri: str, lines: Optional[tuple[int, int]] = None, hints: bool = False
                       ) -> tuple[Optional[LspText], Optional[DocumentAnalysis]]:
        """The analysis of the document's newest text (analyses.py). With `lines` (the lines a viewport
        or a hover asks about, in the newest text) the last analysis moved through the edits since may
        answer while the new one runs. `hints`: for inlay hints, which an analysis made as far as
        what hints show answers (its task graph, hazards and misuse follow)."""
        if not self.settings_in.is_set():  # the client's settings, if they come soon (else the defaults)
            try:
                await asyncio.wait_for(self.settings_in.wait(), SETTINGS_WAIT_SECONDS)
            except asyncio.TimeoutError:
                self.settings_in.set()  # (once: the later answers do not wait)
        if lines is None:
            return await self.analyses.ask(uri, hints=hints)
        return await self.analyses.ask(uri, MOVED_AFTER_SECONDS, lines, hints)

    def set_roots(self, params: types.InitializeParams) -> None:
        roots = []
        for folder in params.workspace_folders or []:
            path = uri_to_path(folder.uri)
            if path:
                roots.append(path)
        if not roots and params.root_uri:
            path = uri_to_path(params.root_uri)
            if path:
                roots.append(path)
        self.lens.roots = [Path(p) for p in roots]

    def apply_settings(self, values: Any, hint_budget: Optional[int] = None) -> bool:
        """Read new settings (and the editor's hint budget, when it said); True when they changed."""
        new = parse_settings(values, self.settings.hint_budget if hint_budget is None else hint_budget)
        for problem in new.problems:
            self.window_show_message(types.ShowMessageParams(types.MessageType.Warning,
                                                             f"PyPTO Lens: {problem} (the default is used)"))
        changed = new != self.settings
        self.settings = new
        self.settings_values = values
        return changed
