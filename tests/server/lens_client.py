"""The test client of the server tests and the reference position arithmetic they check against.

Every session is a `LensClient` (pytest-lsp's test client plus a few helpers)
started from the project root. Nothing here waits without a bound: requests go
through `asyncio.wait_for`, and notifications are polled with a deadline.
"""
from __future__ import annotations

import asyncio
import contextlib
import itertools
import re
import sys
from pathlib import Path
from typing import Any, Callable, Optional

from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

ROOT = Path(__file__).resolve().parents[2]
ENCODINGS = ["utf-16", "utf-8", "utf-32"]
WAIT = 30.0  # the bound on every wait, in seconds (never reached by a passing test)
DIRECTIONS = ("Input", "Output", "OutputExisting", "InOut", "NoDep", "Scalar")
_DIRECTION_WORD = re.compile(r"\b(" + "|".join(DIRECTIONS) + r")\b")


# -- reference position arithmetic (independent of server/text.py) ----------------------------

def units(text: str, encoding: str) -> int:
    """How many code units of `encoding` `text` takes."""
    if encoding == "utf-8":
        return len(text.encode("utf-8"))
    if encoding == "utf-16":
        return len(text.encode("utf-16-le")) // 2
    return len(text)


def pos(source: str, needle: str, encoding: str, *, occurrence: int = 0, after: bool = False) -> types.Position:
    """The LSP position of the `occurrence`-th `needle` in `source` (just after it when `after`)."""
    start = -1
    for _ in range(occurrence + 1):
        start = source.index(needle, start + 1)
    if after:
        start += len(needle)
    line = source.count("\n", 0, start)
    line_start = source.rfind("\n", 0, start) + 1
    return types.Position(line=line, character=units(source[line_start:start], encoding))


def label_text(hint: types.InlayHint) -> str:
    if isinstance(hint.label, str):
        return hint.label
    return "".join(part.value for part in hint.label)


# the short labels' words (labelStyle "short", the default)
SHORT_WORDS = {"in": "Input", "OUT": "OutputExisting", "INOUT": "InOut", "NODEP": "NoDep", "NEW": "Output",
               "scalar": "Scalar"}


def direction_of(hint: types.InlayHint) -> str:
    """The one direction a hint's label names (asserts it is exactly one): a full name, or a short word first."""
    text = label_text(hint)
    found = _DIRECTION_WORD.findall(text)
    if not found and text.split(" ")[0] in SHORT_WORDS:
        return SHORT_WORDS[text.split(" ")[0]]
    assert len(found) == 1, f"label {text!r} should name exactly one direction, names {found}"
    return found[0]


# -- the client --------------------------------------------------------------------------------

class LensClient(LanguageClient):
    """pytest-lsp's client, recording a little more, with helpers for our requests."""

    encoding: str = "utf-16"
    init_result: Optional[types.InitializeResult] = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.published: list[types.PublishDiagnosticsParams] = []  # every publishDiagnostics, in order
        self.inlay_refreshes = 0
        self.code_lens_refreshes = 0
        self.registrations: list[types.Registration] = []  # client/registerCapability, in order
        self.configuration_delay = 0.0  # seconds before answering workspace/configuration (a slow editor)
        self.configuration_requests = 0
        self._uris = itertools.count()
        self.folder = Path("/nonexistent-pypto-lens-tests")
        self.stderr_lines: list[str] = []  # what the server wrote to stderr (its log), line by line

    async def start_io(self, cmd: str, *args, **kwargs):
        """pygls' start, and the server's stderr forwarded to ours as pytest-lsp does, each line also kept."""
        await super(LanguageClient, self).start_io(cmd, *args, **kwargs)
        if self._server and self._server.stderr:
            self._stderr_forwarder = asyncio.ensure_future(self._record_stderr(self._server.stderr))

    async def _record_stderr(self, stream) -> None:
        while (line := await stream.readline()) != b"":
            sys.stderr.buffer.write(line)
            self.stderr_lines.append(line.decode("utf-8", "replace").rstrip("\n"))

    # documents
    def uri(self, name: str = "doc.py") -> str:
        """A fresh document uri in this session's folder (every test opens its own documents)."""
        stem, dot, ext = name.rpartition(".")
        return (self.folder / f"{stem}_{next(self._uris)}{dot}{ext}").as_uri()

    def open(self, uri: str, text: str, *, version: int = 1, language: str = "python") -> str:
        self.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id=language, version=version, text=text)))
        return uri

    def open_new(self, text: str, name: str = "doc.py", **kwargs) -> str:
        return self.open(self.uri(name), text, **kwargs)

    def replace(self, uri: str, version: int, text: str) -> None:
        self.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))

    def edit(self, uri: str, version: int, start: tuple[int, int], end: tuple[int, int], text: str) -> None:
        self.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangePartial(
                range=types.Range(start=types.Position(*start), end=types.Position(*end)), text=text)]))

    def close(self, uri: str) -> None:
        self.text_document_did_close(types.DidCloseTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri=uri)))

    # requests (bounded)
    async def hints(self, uri: str, start: tuple[int, int] = (0, 0), end: tuple[int, int] = (10_000_000, 0)
                    ) -> list[types.InlayHint]:
        result = await bounded(self.text_document_inlay_hint_async(types.InlayHintParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=types.Range(start=types.Position(*start), end=types.Position(*end)))))
        return list(result or [])

    async def resolve(self, hint: types.InlayHint) -> types.InlayHint:
        return await bounded(self.inlay_hint_resolve_async(hint))

    async def hover(self, uri: str, position: types.Position) -> Optional[types.Hover]:
        return await bounded(self.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=position)))

    async def pull(self, uri: str, previous: Optional[str] = None):
        return await bounded(self.text_document_diagnostic_async(types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri=uri), previous_result_id=previous)))

    async def diagnostics_of(self, uri: str, predicate: Callable[[list], bool] = lambda d: True
                             ) -> list[types.Diagnostic]:
        """The document's diagnostics: pulled, or (push client) the latest published that satisfies predicate."""
        if self.pulls:
            report = await self.pull(uri)
            return list(report.items)
        params = await self.published_for(uri, lambda p: predicate(list(p.diagnostics)))
        return list(params.diagnostics)

    async def published_for(self, uri: str, predicate: Callable[[types.PublishDiagnosticsParams], bool]
                            = lambda p: True) -> types.PublishDiagnosticsParams:
        """Wait (bounded) until the latest publishDiagnostics for `uri` satisfies `predicate`."""
        async def poll():
            while True:
                latest = [p for p in self.published if p.uri == uri]
                if latest and predicate(latest[-1]):
                    return latest[-1]
                await asyncio.sleep(0.02)
        return await bounded(poll())

    async def code_actions(self, uri: str, diagnostics: list[types.Diagnostic],
                           at: Optional[types.Range] = None) -> list:
        result = await bounded(self.text_document_code_action_async(types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=at or (diagnostics[0].range if diagnostics else types.Range(
                start=types.Position(0, 0), end=types.Position(0, 0))),
            context=types.CodeActionContext(diagnostics=diagnostics))))
        return list(result or [])

    async def explain(self, *arguments: Any):
        return await bounded(self.workspace_execute_command_async(types.ExecuteCommandParams(
            command="pyptoLens.explain", arguments=list(arguments))))

    async def roundtrip(self) -> None:
        """A request the server answers after everything sent before it has been read."""
        await bounded(self.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri="file:///nonexistent-pypto-lens/roundtrip.py"),
            position=types.Position(0, 0))))

    async def settled(self) -> dict[str, int]:
        """pyptoLens/settled: once the server's background work is done; its count of analyses per document."""
        answer = await bounded(self.protocol.send_request_async("pyptoLens/settled", None))
        return {entry.uri: entry.count for entry in answer.analyses}

    def files_changed(self, *changes: tuple[Path, types.FileChangeType]) -> None:
        """workspace/didChangeWatchedFiles, as an editor's file watcher sends it."""
        self.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
            types.FileEvent(uri=path.as_uri(), type=kind) for path, kind in changes]))

    @property
    def watched_globs(self) -> list[str]:
        """The globs the server asked this client to watch (dynamic registration)."""
        globs = []
        for r in self.registrations:
            if r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES:  # (its options arrive as plain JSON)
                options = r.register_options
                watchers = options.get("watchers", []) if isinstance(options, dict) else options.watchers
                globs.extend(str(w["globPattern"] if isinstance(w, dict) else w.glob_pattern) for w in watchers)
        return globs

    @property
    def pulls(self) -> bool:
        caps = self.capabilities
        return bool(caps and caps.text_document and caps.text_document.diagnostic)


async def bounded(awaitable, seconds: float = WAIT):
    return await asyncio.wait_for(awaitable, seconds)


async def until(predicate, seconds: float = 10.0):
    """Wait (bounded) until `predicate()` holds."""
    async def poll():
        while not predicate():
            await asyncio.sleep(0.02)
    await bounded(poll(), seconds)


def _record_publish(client: LensClient, params: types.PublishDiagnosticsParams):
    client.diagnostics[params.uri] = params.diagnostics
    client.published.append(params)


def _count_inlay_refresh(client: LensClient, params: None):
    client.inlay_refreshes += 1


def _count_code_lens_refresh(client: LensClient, params: None):
    client.code_lens_refreshes += 1


def _record_registration(client: LensClient, params: types.RegistrationParams):
    client.registrations.extend(params.registrations)


async def _answer_configuration(client: LensClient, params: types.ConfigurationParams):
    client.configuration_requests += 1
    if client.configuration_delay:
        await asyncio.sleep(client.configuration_delay)
    return [client.get_configuration(section=item.section, scope_uri=item.scope_uri) for item in params.items]


def make_client() -> LensClient:
    client = LensClient(converter_factory=default_converter)
    features = dict(DEFAULT_CLIENT_FEATURES)
    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = _record_publish
    features[types.WORKSPACE_INLAY_HINT_REFRESH] = _count_inlay_refresh
    features[types.WORKSPACE_CODE_LENS_REFRESH] = _count_code_lens_refresh
    features[types.CLIENT_REGISTER_CAPABILITY] = _record_registration
    features[types.WORKSPACE_CONFIGURATION] = _answer_configuration
    register_lsp_features(client, features)
    return client


def capabilities(encoding: Optional[str] = "utf-16", *, pull: bool = True, configuration: bool = True,
                 refresh: bool = True, watch: bool = True) -> types.ClientCapabilities:
    """An editor like VS Code or Neovim 0.11: inlay hints with lazy tooltips, markdown hovers, quick fixes."""
    return types.ClientCapabilities(
        general=types.GeneralClientCapabilities(position_encodings=[encoding] if encoding else None),
        workspace=types.WorkspaceClientCapabilities(
            configuration=configuration, did_change_configuration=types.DidChangeConfigurationClientCapabilities(),
            inlay_hint=types.InlayHintWorkspaceClientCapabilities(refresh_support=refresh),
            code_lens=types.CodeLensWorkspaceClientCapabilities(refresh_support=refresh),
            did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(dynamic_registration=watch),
            diagnostics=types.DiagnosticWorkspaceClientCapabilities(refresh_support=refresh),
            execute_command=types.ExecuteCommandClientCapabilities(), workspace_folders=True),
        text_document=types.TextDocumentClientCapabilities(
            synchronization=types.TextDocumentSyncClientCapabilities(did_save=True),
            hover=types.HoverClientCapabilities(content_format=[types.MarkupKind.Markdown, types.MarkupKind.PlainText]),
            inlay_hint=types.InlayHintClientCapabilities(
                resolve_support=types.ClientInlayHintResolveOptions(properties=["tooltip"])),
            code_action=types.CodeActionClientCapabilities(
                code_action_literal_support=types.ClientCodeActionLiteralOptions(
                    code_action_kind=types.ClientCodeActionKindOptions(value_set=[types.CodeActionKind.QuickFix])),
                is_preferred_support=True),
            publish_diagnostics=types.PublishDiagnosticsClientCapabilities(
                related_information=True, version_support=True),
            diagnostic=types.DiagnosticClientCapabilities(related_document_support=False) if pull else None))


FULL_LABELS = {"pyptoLens": {"inlayHints": {"labelStyle": "full"}}}


def with_full_labels(configuration: Optional[dict]) -> dict:
    """`configuration` asking for H5's full labels as well (what most tests read), unless it says otherwise."""
    merged = dict(configuration or {})
    lens = dict(merged.get("pyptoLens") or {})
    hints = dict(lens.get("inlayHints") or {})
    hints.setdefault("labelStyle", "full")
    lens["inlayHints"] = hints
    merged["pyptoLens"] = lens
    return merged


@contextlib.asynccontextmanager
async def session(caps: types.ClientCapabilities, *, folder: Optional[Path] = None,
                  configuration: Optional[dict] = None, initialization_options: Any = None,
                  workspace_folders: bool = True, configuration_delay: float = 0.0, labels: str = "full",
                  command: Optional[list[str]] = None):
    """A server subprocess with an initialized session; shut down (bounded) afterwards.

    `labels="full"`: the client's configuration asks for H5's full labels (every hint, the
    direction's whole name) unless `configuration` names a labelStyle; `"default"`: as given.
    `command`: what starts the server (`python -m pypto_lens` by default)."""
    client = make_client()
    client.configuration_delay = configuration_delay
    if labels == "full":
        configuration = with_full_labels(configuration)
    if configuration is not None:
        client.set_configuration(configuration)
    await client.start_io(*(command or [sys.executable, "-m", "pypto_lens"]), cwd=str(ROOT))
    try:
        if folder is not None:
            client.folder = folder
        encodings = caps.general.position_encodings if caps.general else None
        client.encoding = encodings[0] if encodings else "utf-16"
        folders = [types.WorkspaceFolder(uri=folder.as_uri(), name=folder.name)] if folder and workspace_folders \
            else None
        client.init_result = await bounded(client.initialize_session(types.InitializeParams(
            capabilities=caps, root_uri=folder.as_uri() if folder else None, workspace_folders=folders,
            initialization_options=initialization_options)))
        yield client
        await bounded(client.shutdown_session())
    finally:
        server = client._server  # after a failure there was no shutdown/exit: end the process ourselves
        if server is not None and server.returncode is None and not client._stop_event.is_set():
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(server.wait()), 0.1)
            if server.returncode is None:
                server.kill()
        await bounded(client.stop())




# -- a reference LSP text model (the spec's rules, written independently of server/text.py) ------------

_EOL = re.compile(r"\r\n|\r|\n")


def line_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) code-point offsets of each line; only \\n, \\r\\n and \\r end a line."""
    spans, start = [], 0
    for m in _EOL.finditer(text):
        spans.append((start, m.start()))
        start = m.end()
    spans.append((start, len(text)))
    return spans


def offset_of(text: str, line: int, character: int, encoding: str) -> int:
    """The code-point offset of an LSP position: a line past the end means the end of the text, a
    character past the end of its line means the line's end, inside a character means before it."""
    spans = line_spans(text)
    if line >= len(spans):
        return len(text)
    start, end = spans[line]
    count = 0
    for i in range(start, end):
        width = units(text[i], encoding)
        if count + width > character:
            return i
        count += width
    return end


def apply_edit(text: str, start: types.Position, end: types.Position, new_text: str, encoding: str) -> str:
    a = offset_of(text, start.line, start.character, encoding)
    b = offset_of(text, end.line, end.character, encoding)
    a, b = min(a, b), max(a, b)
    return text[:a] + new_text + text[b:]


def lsp_position(text: str, offset: int, encoding: str) -> types.Position:
    """The LSP position of a code-point offset, by the LSP line rules."""
    for n, (start, end) in enumerate(line_spans(text)):
        if start <= offset <= end:
            return types.Position(line=n, character=units(text[start:offset], encoding))
    raise ValueError(offset)
