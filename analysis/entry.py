"""The `pypto-lens` command: the CLI's commands, and `serve`, which runs the language server.

The one module above both the CLI and the server, so that neither imports the other.
"""
from __future__ import annotations

import argparse
import sys
from typing import Optional

from pypto_lens.cli import main as cli
from pypto_lens.server.arguments import add_serve_arguments


def build_parser() -> argparse.ArgumentParser:
    parser, commands = cli.build_parser()
    serve = commands.add_parser("serve", help="run the language server (stdio unless --tcp/--ws)")
    add_serve_arguments(serve)
    serve.set_defaults(run=_serve)
    return parser


def _serve(args: argparse.Namespace) -> int:
    from pypto_lens.server import main as server  # (only here: the other commands do without pygls)

    server.serve(args)
    return 0


def main(argv: Optional[list[str]] = None) -> int:
    return cli.run(build_parser(), argv)


if __name__ == "__main__":
    sys.exit(main())
