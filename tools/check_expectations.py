#!/usr/bin/env python3
"""Check the `# expect:` comments of pl programs against what PyPTO Lens derives.

    python tools/check_expectations.py PATH... [--lens CMD] [--verbose]

PATH is a file or a folder (searched for *.py). The comments have the same
meaning as in the shared LSP checker (../shared/tools/lspcheck.py), but the answers come
from `pypto-lens check --format json` instead of a running server:

  # expect: Input, OutputExisting        the non-Scalar directions on this line, in
                                         argument-position order
  # expect: x=Input, out=OutputExisting  named items: each needs an argument whose
                                         parameter or argument name is x with that
                                         direction, and the counts must agree
  # expect: none                         no (non-Scalar) direction on this line
  # expect-warning: InParamWritten       a warning with this code/message starts here
  # expect-error: NAME                   the same, for an error

`Scalar` is ignored on both sides. An InParamWritten diagnostic on a line without
an `expect-warning: InParamWritten` is a failure (a false positive).

A direction belongs to the line where its argument (its hint) is placed: for a
call that is the argument's own line, for a scope header the header line.

--lens CMD   the command that runs PyPTO Lens (default: the repository's
             .venv/bin/pypto-lens when it exists, else `pypto-lens` on PATH)

Prints one line per failure, then `N passed, M failed` (N, M count expectation
comments). Exit status 1 when anything failed.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

DIRECTIONS = ("OutputExisting", "Output", "InOut", "Input", "NoDep", "Scalar")
EXPECT_RE = re.compile(r"#\s*expect:\s*(.*?)\s*(?:#.*)?$")
EXPECT_DIAG_RE = re.compile(r"#\s*expect-(warning|error):\s*([A-Za-z_][\w.]*)")
SKIP_DIRS = {".git", ".venv", "venv", "__pycache__", "node_modules", "build", "dist"}
REPO = Path(__file__).resolve().parent.parent


def default_lens_command() -> list[str]:
    local = REPO / ".venv" / "bin" / "pypto-lens"
    if local.exists():
        return [str(local)]
    found = shutil.which("pypto-lens")
    if found:
        return [found]
    return [sys.executable, "-m", "pypto_lens.entry"]


def collect(paths: list[str]) -> list[Path]:
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for folder, dirs, names in os.walk(path):
                dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("."))
                files.extend(Path(folder) / n for n in sorted(names) if n.endswith(".py"))
        elif path.exists():
            files.append(path)
        else:
            raise SystemExit(f"check_expectations: no such file or directory: {raw}")
    return files


def json_reports(run, files: list[Path], failed) -> dict[str, dict]:
    """`run(batch)` -> stdout with a JSON report (or a list of them) per file: all files at once,
    one at a time if the batch fails, `failed(file, error)` standing in for a file that still
    fails. Maps resolved path -> report."""

    def once(batch: list[Path]) -> list[dict]:
        data = json.loads(run(batch))
        return data if isinstance(data, list) else [data]

    try:
        reports = once(files)
    except (RuntimeError, json.JSONDecodeError):
        reports = []
        for f in files:
            try:
                reports.extend(once([f]))
            except (RuntimeError, json.JSONDecodeError) as exc:
                reports.append(failed(f, exc))
    return {str(Path(r["file"]).resolve()): r for r in reports}


def run_lens(command: list[str], files: list[Path], extra: tuple[str, ...] = ()) -> dict[str, dict]:
    """`pypto-lens check --format json` over the files; path -> report."""

    def run(batch: list[Path]) -> str:
        proc = subprocess.run(command + ["check", "--format", "json", "--fail-on", "never", *extra]
                              + [str(f) for f in batch], capture_output=True, text=True, cwd=str(REPO))
        if proc.returncode not in (0, 1) or not proc.stdout.strip():
            raise RuntimeError(proc.stderr.strip()[-2000:] or f"exit status {proc.returncode}")
        return proc.stdout

    return json_reports(run, files, lambda f, exc: {"file": str(f), "error": f"pypto-lens failed: {exc}"})


def parse_expectation(spec: str) -> list[tuple[str | None, str]] | None:
    """'Input, x=InOut' -> [(None, 'Input'), ('x', 'InOut')]; 'none' -> []; unreadable -> None."""
    if spec.strip().lower() == "none":
        return []
    out: list[tuple[str | None, str]] = []
    for item in (part.strip() for part in spec.split(",")):
        if not item:
            continue
        name, _, direction = item.rpartition("=")
        direction = direction.strip()
        if direction not in DIRECTIONS:
            return None
        if direction != "Scalar":
            out.append((name.strip() or None, direction))
    return out


def found_by_line(report: dict) -> dict[int, list[dict]]:
    """Every non-Scalar argument direction, grouped by the line of its hint."""
    by_line: dict[int, list[dict]] = {}
    for call in report.get("calls", []):
        for arg in call.get("args", []):
            if arg.get("direction") in (None, "Scalar"):
                continue
            line = arg.get("line") or call.get("line")
            by_line.setdefault(line, []).append({
                "column": arg.get("column") or 0, "direction": arg["direction"],
                "names": {n for n in (arg.get("param"), arg.get("arg")) if n},
                "label": f"{arg.get('param')}({arg.get('arg')})={arg['direction']}",
            })
    for items in by_line.values():
        items.sort(key=lambda a: a["column"])
    return by_line


def check_file(path: Path, report: dict, text: str | None = None) -> tuple[int, list[str]]:
    """Return (number of expectation comments, failures); `text` is the file's (read from `path` if None)."""
    name = str(path)
    if "error" in report:
        return 1, [f"{name}: {report['error']}"]
    failures: list[str] = []
    checked = 0
    lines = (path.read_text(encoding="utf-8") if text is None else text).split("\n")
    by_line = found_by_line(report)
    diagnostics = report.get("diagnostics", [])
    expected_diags: set[tuple[int, str]] = set()
    for number, text in enumerate(lines, start=1):
        for kind, diag_name in EXPECT_DIAG_RE.findall(text):
            checked += 1
            expected_diags.add((number, diag_name))
            hit = [d for d in diagnostics if d.get("line") == number
                   and (diag_name in str(d.get("code")) or diag_name in str(d.get("message")))
                   and (d.get("severity") == kind or kind == "warning" and d.get("severity") in ("information", "hint"))]
            if not hit:
                got = [f"{d.get('severity')} {d.get('code')}" for d in diagnostics if d.get("line") == number]
                failures.append(f"{name}:{number}: expected {kind} {diag_name}, got {got or 'none'}")
        match = EXPECT_RE.search(text)
        if not match:
            continue
        checked += 1
        expected = parse_expectation(match.group(1))
        if expected is None:
            failures.append(f"{name}:{number}: unreadable expectation {match.group(1)!r}")
            continue
        found = by_line.get(number, [])
        if any(n for n, _ in expected):
            missing = [f"{n}={d}" for n, d in expected
                       if not any(d == f["direction"] and (n is None or n in f["names"]) for f in found)]
            if missing or len(found) != len(expected):
                failures.append(f"{name}:{number}: expected {match.group(1)}, got "
                                f"{[f['label'] for f in found] or 'none'}")
        elif [d for _, d in expected] != [f["direction"] for f in found]:
            failures.append(f"{name}:{number}: expected {[d for _, d in expected] or 'none'}, "
                            f"got {[f['direction'] for f in found] or 'none'}")
    for diag in diagnostics:
        text = f"{diag.get('code')} {diag.get('message')}"
        if "InParamWritten" in text and (diag.get("line"), "InParamWritten") not in expected_diags:
            failures.append(f"{name}:{diag.get('line')}: unexpected InParamWritten: {str(diag.get('message'))[:120]}")
            checked += 1
    return checked, failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--lens", help="command that runs PyPTO Lens (default: .venv/bin/pypto-lens)")
    parser.add_argument("--verbose", "-v", action="store_true", help="also print per-file counts")
    args = parser.parse_args(argv)
    files = collect(args.paths)
    command = shlex.split(args.lens) if args.lens else default_lens_command()
    reports = run_lens(command, files)
    passed = failed = 0
    for path in files:
        report = reports.get(str(path.resolve()), {"error": "no report from pypto-lens"})
        checked, failures = check_file(path, report)
        failed += len(failures)
        passed += max(checked - len(failures), 0)
        for failure in failures:
            print(failure)
        if args.verbose:
            print(f"{path}: {checked} checked, {len(failures)} failed", file=sys.stderr)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
