#!/usr/bin/env python3
"""Benchmark the cold open of every model entry in pypto-lib (issue 20: "under a second on every model").

  python tools/bench_cold.py [--ext DIR] [--top 15] [--json OUT]

Each file under --ext's pypto-lib/models that defines a `@pl.jit` entry is opened in a fresh
process (nothing cached, as a server just started): the analysis API makes its hints (what the
first whole-document answer waits for), then the rest (diagnostics, task graphs). Its folder is
the workspace, so the helpers it imports are read, parsed and expanded as an editor's would be.
Printed slowest first, with how many take over a second. Wall clock on a shared machine: compare
figures of one run. Nothing is asserted. Without pypto-lib under --ext it says so and stops.
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
ENTRY = re.compile(r"^@pl\.jit(?:\(|$)", re.M)  # a jit entry (not .inline or .incore)

# run in a fresh interpreter per file: the cold open, then the rest; prints "hints_ms whole_ms"
_COLD = r"""
import sys, time
from pathlib import Path
from pypto_lens.gc_policy import collect_less_often
collect_less_often()
from pypto_lens.workspace.workspace import Workspace
from pypto_lens.workspace.documents import path_to_uri
path = Path(sys.argv[1])
text = path.read_text(encoding="utf-8")
workspace = Workspace([path.parent])
workspace.warm()  # (the server does this at start-up, before any file is opened)
uri = path_to_uri(str(path))
started = time.perf_counter()
workspace.open_documents.open(uri, text, 1)
workspace.analysis(uri, hints_only=True)
hints = time.perf_counter() - started
workspace.analysis(uri)
print(f"{hints * 1000:.0f} {(time.perf_counter() - started) * 1000:.0f}")
"""


def entries(models: Path) -> list[Path]:
    return sorted(p for p in models.rglob("*.py") if ENTRY.search(p.read_text(encoding="utf-8", errors="replace")))


def cold(path: Path) -> tuple[int, int]:
    out = subprocess.run([sys.executable, "-c", _COLD, str(path)], capture_output=True, text=True, check=True).stdout
    hints, whole = out.split()
    return int(hints), int(whole)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ext", type=Path, default=REPO.parent / "ext",
                        help="where a checked-out copy of pypto-lib/ lives (default ../ext)")
    parser.add_argument("--top", type=int, default=15, help="how many of the slowest to list")
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    args = parser.parse_args(argv)
    models = args.ext / "pypto-lib" / "models"
    if not models.is_dir():
        print(f"bench_cold: no pypto-lib checkout at {models}: nothing measured")
        return 0
    rows = []
    for path in entries(models):
        hints, whole = cold(path)
        lines = path.read_text(encoding="utf-8", errors="replace").count("\n") + 1
        rows.append({"file": str(path.relative_to(models)), "lines": lines, "hints_ms": hints, "whole_ms": whole})
    rows.sort(key=lambda row: -row["hints_ms"])
    print("Cold open of pypto-lib's jit entries, each in a new process (ms): the hints, then the whole analysis")
    print(f"{'file':56}{'lines':>7}{'hints':>8}{'whole':>8}")
    for row in rows[:args.top]:
        print(f"{row['file']:56}{row['lines']:>7}{row['hints_ms']:>8}{row['whole_ms']:>8}")
    over = [row for row in rows if row["hints_ms"] > 1000]
    hints = sorted(row["hints_ms"] for row in rows)
    print(f"{len(rows)} entries; hints median {hints[len(hints) // 2]} ms, max {hints[-1]} ms; "
          f"over 1 s: {len(over)}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
