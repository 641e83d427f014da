"""Diagnostics: pulled (textDocument/diagnostic) where the client can, pushed (debounced) otherwise.

Python documents get the analysis' diagnostics; C++ documents with
REGISTER_OP chains get the registration rules V1-V3 (spec §14). Each has a
stable `code` and the source `pypto-lens`; related information points at
the evidence.
"""
from __future__ import annotations

import asyncio
import hashlib
import logging
from typing import Optional

from lsprotocol import types

from pypto_lens.presentation import docs
from pypto_lens.presentation.diagnostics import registration_diagnostics
from pypto_lens.vocabulary import Severity
from pypto_lens.workspace.results import Diagnostic

from .convert import lsp_location, lsp_range

log = logging.getLogger("pypto-lens")

SOURCE = "pypto-lens"
DEBOUNCE_SECONDS = 0.15
_SEVERITY = {Severity.ERROR: types.DiagnosticSeverity.Error, Severity.WARNING: types.DiagnosticSeverity.Warning,
             Severity.INFORMATION: types.DiagnosticSeverity.Information, Severity.HINT: types.DiagnosticSeverity.Hint}


class Diagnostics:
    def __init__(self, server):
        self.server = server
        self.pending: dict[str, asyncio.Task] = {}
        self.published: dict[str, tuple] = {}  # uri -> (version, items) last pushed

    async def compute(self, uri: str) -> tuple[Optional[int], list[types.Diagnostic]]:
        ls = self.server
        if ls.is_cpp(uri):
            text = ls.documents.get(uri)
            if text is None:
                return None, []
            loop = asyncio.get_running_loop()
            found = await loop.run_in_executor(ls.worker, registration_diagnostics, text.normalised())
            return text.version, [_convert(ls, uri, text, d) for d in found if ls.shows(d.code, d.data)]
        text, analysis = await ls.analysis(uri)
        if text is None or analysis is None:
            return (text.version if text else None), []
        found = list(analysis.diagnostics) + list(analysis.optional_diagnostics)  # (the latter off by default)
        items = [_convert(ls, uri, text, d) for d in found if ls.shows(d.code, d.data)]
        return text.version, items

    def schedule(self, uri: str) -> None:
        """Push, a moment after the last change (only for clients that do not pull)."""
        if self.server.pull_diagnostics:
            return
        task = self.pending.pop(uri, None)
        if task is not None:
            task.cancel()
        self.pending[uri] = asyncio.ensure_future(self._publish_later(uri))

    def schedule_others(self, uri: str) -> None:
        """After a change to `uri`: the other open documents may import it (their analyses use its
        signatures), so look at them again; only those whose diagnostics changed are pushed."""
        if self.server.pull_diagnostics:
            return  # pulling clients ask again themselves (interFileDependencies)
        for other in list(self.server.documents):
            if other != uri and self.server.is_python(other):
                self.schedule(other)

    def schedule_all(self) -> None:
        """Files changed on disk: a client that does not pull gets each open document's diagnostics
        again where they changed (a pulling one is told to ask again by analyses.py, once an analysis
        shows a change: changed_elsewhere)."""
        if not self.server.pull_diagnostics:
            for uri in list(self.server.documents):
                self.schedule(uri)

    def changed_elsewhere(self, uri: str) -> None:
        """`uri`'s diagnostics changed with no edit of it (a file it imports changed on disk)."""
        if self.server.pull_diagnostics:
            if _client_can(self.server, "workspace.diagnostics.refresh_support"):
                self.server.workspace_diagnostic_refresh(None)
        else:
            self.schedule(uri)

    async def _publish_later(self, uri: str) -> None:
        try:
            await asyncio.sleep(DEBOUNCE_SECONDS)
            version, items = await self.compute(uri)
            text = self.server.documents.get(uri)
            if text is None or text.version != version:
                return  # closed, or a newer version is on its way
            if self.published.get(uri) == (version, items):
                return  # nothing new (another document changed, and not in a way that matters here)
            self.published[uri] = (version, items)
            self.server.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, version=version, diagnostics=items))
        except asyncio.CancelledError:
            pass
        except Exception:
            log.exception("publishing diagnostics for %s failed", uri)
        finally:
            if self.pending.get(uri) is asyncio.current_task():
                self.pending.pop(uri, None)

    def forget(self, uri: str) -> None:
        task = self.pending.pop(uri, None)
        if task is not None:
            task.cancel()
        self.published.pop(uri, None)
        if not self.server.pull_diagnostics:
            self.server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
            self.schedule_others(uri)  # importers now read the file on disk

    def refresh_all(self) -> None:
        if self.server.pull_diagnostics:
            if _client_can(self.server, "workspace.diagnostics.refresh_support"):
                self.server.workspace_diagnostic_refresh(None)
        else:
            for uri in list(self.server.documents):
                self.schedule(uri)


def _client_can(ls, path: str) -> bool:
    node = ls.client_capabilities
    for part in path.split("."):
        node = getattr(node, part, None)
        if node is None:
            return False
    return bool(node)


def _convert(ls, uri: str, text, d: Diagnostic) -> types.Diagnostic:
    encoding = ls.encoding
    related = []
    for step in d.related:
        if step.location is not None:
            related.append(types.DiagnosticRelatedInformation(location=lsp_location(ls, step.location, uri),
                                                               message=f"{step.label}: {step.note}".strip(": ")))
    data = dict(d.data) if d.data else None
    href = docs.link(d.code)  # the page that explains the code, shipped with the server
    return types.Diagnostic(range=lsp_range(text, d.range, encoding), message=d.message,
                            severity=_SEVERITY.get(d.severity, types.DiagnosticSeverity.Information),
                            code=str(d.code), code_description=types.CodeDescription(href=href) if href else None,
                            source=SOURCE, related_information=related or None, data=data)



def install(server) -> None:
    @server.feature(types.TEXT_DOCUMENT_DIAGNOSTIC,
                    types.DiagnosticOptions(identifier="pypto-lens", inter_file_dependencies=True,
                                            workspace_diagnostics=False))
    async def pull(ls, params: types.DocumentDiagnosticParams):
        uri = params.text_document.uri
        version, items = await ls.diagnostics.compute(uri)
        # what the client holds is unchanged only if the items are: an imported kernel, the settings
        # or the registry may change them while this document stays as it was
        result_id = f"{version}:{hashlib.sha1(repr(items).encode('utf-8', 'replace')).hexdigest()}"
        if params.previous_result_id == result_id:
            return types.UnchangedDocumentDiagnosticReport(result_id=result_id)
        return types.FullDocumentDiagnosticReport(items=items, result_id=result_id)
