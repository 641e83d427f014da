"""`pypto-lens`: check pl programs from the command line, explain a call, print the registry.

  pypto-lens check PATH... [--format text|json] [--fail-on warning|error|never] [--scalar] [--operators auto|on|off]
                           [--jobs N]
  pypto-lens explain FILE:LINE[:COL]
  pypto-lens graph FILE[:FUNCTION]... [--format text|json|dot|mermaid] [--information] [--reduced]
  pypto-lens registry PYPTO_CHECKOUT [--output FILE]

(`pypto-lens serve`, the language server, is added by pypto_lens.entry: the CLI does not know the server.)
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from pathlib import Path
from typing import Iterator, Optional

from ..gc_policy import collect_less_often
from ..presentation.expansions import helper_calls, hover_markdown as helper_markdown
from ..workspace.results import CallSite, DocumentAnalysis
from ..workspace.workspace import Workspace, path_to_uri
from . import parallel, render
from .graph import add_graph_command

_SKIP_DIRS = {".git", ".hg", ".svn", ".venv", "venv", "node_modules", "__pycache__", ".tox", ".mypy_cache",
              "build", "dist"}


class UsageError(Exception):
    pass


def python_files(paths: list[str]) -> Iterator[Path]:
    for raw in paths:
        path = Path(raw)
        if not path.exists() and not path.is_symlink():
            raise UsageError(f"no such file or directory: {raw}")
        if not path.is_dir():  # (a FIFO, a symbolic link that loops: its report says what it is)
            yield path
            continue
        for folder, dirs, files in os.walk(path):
            dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS and not d.startswith("."))
            for name in sorted(files):
                if name.endswith(".py"):
                    yield Path(folder) / name


def _workspace_for(paths: list[str]) -> Workspace:
    roots = [Path(p) if Path(p).is_dir() else Path(p).parent for p in paths if Path(p).exists()]
    return Workspace(roots)


def analyses(paths: list[str]) -> Iterator[tuple[Path, Optional[DocumentAnalysis]]]:
    """Each .py file of the paths and its analysis (None: unreadable), in one workspace over their folders."""
    files = list(python_files(paths))
    workspace = _workspace_for(paths)
    for path in files:
        yield path, workspace.analysis(path_to_uri(path))


def cmd_check(args) -> int:
    collect_less_often()  # (the workers are forked from here, or set it themselves: parallel._start)
    files = list(python_files(args.paths))
    jobs = args.jobs if args.jobs is not None else parallel.default_jobs()
    if jobs < 1:
        raise UsageError("--jobs must be at least 1")
    worst = 0  # 0 nothing, 1 warning, 2 error
    reports = []
    roots = _workspace_for(args.paths).roots
    style = parallel.Style(args.format, args.scalar, args.information, _operator_notes(args.operators, roots))
    for report in parallel.reports(files, roots, jobs, style):
        worst = max(worst, report.worst)
        if args.format == "json":
            reports.append(report.json)
        else:
            for line in report.lines:
                print(line)
    if args.format == "json":
        json.dump(reports, sys.stdout, indent=1, ensure_ascii=False)
        print()
    else:
        print(render.summary(len(files)), file=sys.stderr)
    threshold = {"warning": 1, "error": 2, "never": 3}[args.fail_on]
    return 1 if worst >= threshold else 0


def _operator_notes(choice: str, roots: list[Path]) -> bool:
    """'auto': the operator notes are for PyPTO's own sources, so only where the paths hold a checkout."""
    if choice != "auto":
        return choice == "on"
    from ..registry.workspace_registry import find_checkouts
    return bool(find_checkouts(roots))


def cmd_explain(args) -> int:
    target = args.location
    parts = target.rsplit(":", 2)
    col: Optional[int] = None
    if len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit():
        file, line, col = parts[0], int(parts[1]), int(parts[2])
    else:
        file, _, line_text = target.rpartition(":")
        if not file or not line_text.isdigit():
            raise UsageError("expected FILE:LINE or FILE:LINE:COL")
        line = int(line_text)
    path = Path(file)
    if not path.is_file():
        raise UsageError(f"no such file: {file}")
    workspace = _workspace_for([file])
    analysis = workspace.analysis(path_to_uri(path))
    sites = _sites_at(analysis, line - 1, None if col is None else col - 1)
    text = workspace.text(path_to_uri(path))
    if text is None:
        raise UsageError(f"could not read {file}")
    lines = text.count("\n") + 1
    if line < 1 or line > lines:
        print(f"{file}:{line}: past the end of the file ({lines} line{'s' if lines != 1 else ''})")
        return 1
    if not sites:
        helper = next((c for c in helper_calls(analysis) if c.range.line == line - 1), None)
        if helper is not None:  # a call of an inline helper: what it launches (N1)
            print(f"{file}:{helper.range.line + 1}:{helper.range.col + 1}\n{helper_markdown(helper)}\n")
            return 0
        print(f"{file}:{line}: no direction-bearing call on this line")
        return 1
    for site in sites:
        print(render.explain_text(site, file))
    return 0


def _sites_at(analysis: Optional[DocumentAnalysis], line: int, col: Optional[int]) -> list[CallSite]:
    if analysis is None:
        return []
    if col is not None:
        site = analysis.call_at(line, col)
        return [site] if site else []
    return analysis.calls_on_line(line)


def cmd_registry(args) -> int:
    from ..registry.generate import build_table, stats_line
    root = Path(args.checkout)
    if not (root / "src").is_dir():
        raise UsageError(f"{args.checkout} does not look like a PyPTO checkout (no src/ folder)")
    data, problems, stats = build_table(root)  # the bundled table's code and format
    data["validation"] = [{**dataclasses.asdict(p), "text": str(p)} for p in problems]
    data["stats"] = dataclasses.asdict(stats)
    text = json.dumps(data, indent=1, ensure_ascii=False)
    if args.output:
        Path(args.output).write_text(text + "\n", encoding="utf-8")
    else:
        print(text)
    for p in problems:
        print(p, file=sys.stderr)
    print(stats_line(stats), file=sys.stderr)
    return 1 if problems else 0


def build_parser() -> tuple[argparse.ArgumentParser, "argparse._SubParsersAction"]:
    """The parser and its commands (the entry module adds `serve` to them)."""
    parser = argparse.ArgumentParser(prog="pypto-lens", description="PyPTO argument directions, as PyPTO derives them.")
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("check", help="print every direction-bearing call and every diagnostic")
    check.add_argument("paths", nargs="+", metavar="PATH", help="pl files, or folders to search for .py files")
    check.add_argument("--format", choices=["text", "json"], default="text",
                       help="text: compiler-like lines (default); json: one object per file")
    check.add_argument("--fail-on", choices=["warning", "error", "never"], default="warning",
                       help="exit with status 1 when a diagnostic this severe (or worse) is found")
    check.add_argument("--exit-zero", dest="fail_on", action="store_const", const="never",
                       help="always exit 0 (same as --fail-on never)")
    check.add_argument("--scalar", action="store_true", help="also list Scalar arguments")
    check.add_argument("--operators", choices=["auto", "on", "off"], default="auto",
                       help="the notes on operators without declared effects (UnclassifiedOperator, UnknownOperator): "
                            "auto (default) prints them only when the paths hold PyPTO's operator sources")
    check.add_argument("--information", action="store_true",
                       help="also report information-level hazards (off by default: uncertain overlap or order)")
    check.add_argument("--jobs", "-j", type=int, metavar="N",
                       help="analyse files in N processes (default: the number of cores); same output as one")
    check.set_defaults(run=cmd_check)
    explain = sub.add_parser("explain", help="how each direction of the call on a line was derived")
    explain.add_argument("location", metavar="FILE:LINE[:COL]")
    explain.set_defaults(run=cmd_explain)
    add_graph_command(sub)
    registry = sub.add_parser("registry", help="the operator registry of a PyPTO checkout, validated")
    registry.add_argument("checkout", help="a PyPTO checkout (its src/ holds the REGISTER_OP sources)")
    registry.add_argument("--output", "-o", help="write the JSON here instead of printing it")
    registry.set_defaults(run=cmd_registry)
    return parser, sub


def run(parser: argparse.ArgumentParser, argv: Optional[list[str]] = None) -> int:
    """Parse the arguments and run the command: usage errors are one line, never a traceback."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except UsageError as exc:
        print(f"pypto-lens: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
