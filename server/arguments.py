"""How to reach the server (`--tcp`, `--ws`, `--host`, `--port`): a module of its own, without pygls,
so that `pypto-lens check` builds its command line without importing the server (0.3 s a run)."""
from __future__ import annotations

import argparse


def add_serve_arguments(parser: argparse.ArgumentParser) -> None:
    """How to reach the server: `python -m pypto_lens` and `pypto-lens serve` take these."""
    parser.add_argument("--tcp", action="store_true", help="listen on TCP at --host:--port")
    parser.add_argument("--ws", action="store_true", help="listen on a WebSocket at --host:--port")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=2087)
