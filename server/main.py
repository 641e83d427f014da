"""Build the server, wire its features, and run it (stdio by default; --tcp / --ws)."""
from __future__ import annotations

import argparse
import logging
import os
import sys
from typing import Optional

from lsprotocol import types

from pypto_lens.gc_policy import collect_less_often

from . import (code_actions, code_lens, commands, diagnostics, hover, inlay_hints, memory, settled, status,
               task_graph, watched_files)
from .arguments import add_serve_arguments
from .server import LensServer
from .settings import hint_budget

log = logging.getLogger("pypto-lens")


def create_server() -> LensServer:
    server = LensServer()
    for feature in (inlay_hints, hover, diagnostics, code_actions, commands, code_lens, task_graph, status, memory,
                    settled, watched_files):
        feature.install(server)

    @server.feature(types.INITIALIZE)
    def initialize(ls: LensServer, params: types.InitializeParams) -> None:
        ls.set_roots(params)
        caps = params.capabilities
        ls.pull_diagnostics = bool(caps.text_document and caps.text_document.diagnostic)
        options = params.initialization_options
        if isinstance(options, dict):
            ls.apply_settings(options.get("settings", options))

    @server.feature(types.INITIALIZED)
    async def initialized(ls: LensServer, params: types.InitializedParams) -> None:
        # requests wait a little for the client's answer (LensServer.analysis), then use the defaults
        try:
            changed = await _pull_settings(ls)
        finally:
            ls.settings_in.set()
        if changed:
            ls.refresh_views()
        await ls.watched_files.register()
        await ls.registry_sources.load()
        if ls.registry_sources.checkout.registry is not None:
            await ls.watched_files.register(registry=True)
        await ls.analyses.warm()

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def configuration_changed(ls: LensServer, params: types.DidChangeConfigurationParams) -> None:
        changed = await _pull_settings(ls)
        if not changed and isinstance(params.settings, dict):
            changed = ls.apply_settings(params.settings)
        if changed:
            ls.refresh_views()

    def document_changed(ls: LensServer, params) -> None:
        """Opened or edited: publish its diagnostics, and those of the files that may import it."""
        ls.diagnostics.schedule(params.text_document.uri)
        if ls.is_python(params.text_document.uri):
            ls.diagnostics.schedule_others(params.text_document.uri)
    server.feature(types.TEXT_DOCUMENT_DID_OPEN)(document_changed)
    server.feature(types.TEXT_DOCUMENT_DID_CHANGE)(document_changed)

    return server


async def _pull_settings(ls: LensServer) -> bool:
    """Ask the client for the `pyptoLens` section, where it can answer."""
    workspace = getattr(ls.client_capabilities, "workspace", None)
    if not workspace or not workspace.configuration:
        return False
    try:  # ours, and the editor's cap on one line's hint text (VS Code: editor.inlayHints.maximumLength)
        values = await ls.workspace_configuration_async(types.ConfigurationParams(items=[
            types.ConfigurationItem(section="pyptoLens"), types.ConfigurationItem(section="editor.inlayHints")]))
    except Exception:
        log.warning("the client did not answer workspace/configuration")
        return False
    if not values:
        return False
    budget = hint_budget(values[1] if len(values) > 1 else None)
    if values[0] is None:
        return ls.apply_settings(ls.settings_values, budget) if budget != ls.settings.hint_budget else False
    return ls.apply_settings(values[0], budget)


def _set_logging() -> None:
    """Our log at PYPTO_LENS_LOG_LEVEL (INFO by default; the VS Code extension sets it from its
    logLevel setting). pygls logs every message it sends at INFO: that is the LSP trace's job, so
    its log is quieter unless DEBUG is asked for."""
    level = getattr(logging, os.environ.get("PYPTO_LENS_LOG_LEVEL", "INFO").upper(), logging.INFO)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("pypto-lens").setLevel(level)
    logging.getLogger("pygls").setLevel(level if level <= logging.DEBUG else max(level, logging.WARNING))


def serve(args: Optional[argparse.Namespace] = None) -> None:
    _set_logging()
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
    # the event loop answers while the analysis thread computes: let it have the interpreter within
    # 0.2 ms of asking. The wait is paid at every wakeup of an answer (reading, the handler, writing):
    # the default 5 ms made a moved answer take 30 ms, 1 ms still 20 ms on a 1,000-line model. It
    # costs nothing while the event loop sleeps (nobody asks for the interpreter then)
    sys.setswitchinterval(0.0002)
    collect_less_often()  # (gc_policy.py)
    memory.one_heap()  # (before the analysis thread starts)
    server = create_server()
    if args is not None and getattr(args, "tcp", False):
        server.start_tcp(args.host, args.port)
    elif args is not None and getattr(args, "ws", False):
        server.start_ws(args.host, args.port)
    else:
        server.start_io()


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pypto_lens", description="PyPTO Lens language server")
    add_serve_arguments(parser)
    serve(parser.parse_args(argv))
    return 0
