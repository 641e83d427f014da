#!/usr/bin/env python3
"""Run PyPTO Lens over every Python file of some checkouts and count what it found.

  python tools/run_corpus.py DIR... [--json]

For example over PyPTO's examples/ and tests/ and pypto-lib's models/. Prints
files, files with pl programs, direction-bearing calls, calls with
directions, calls without (by reason), diagnostics by code, and any failure
(an exception is a bug: the analysis must answer every input).
"""
from __future__ import annotations

import argparse
import collections
import json
import sys
import time
import traceback
from pathlib import Path

from pypto_lens.cli.main import python_files
from pypto_lens.workspace.workspace import Workspace, path_to_uri


def _reason(skipped: str) -> str:
    """The kind of reason, without the names of the call at hand."""
    if "takes" in skipped or "parameters; the submit passes" in skipped:
        return "argument count differs (S6)"
    if "is no pl function" in skipped:
        return "the callee is no pl function PyPTO Lens can see (S6)"
    return skipped.split(":")[0]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dirs", nargs="+")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    sys.setrecursionlimit(20000)
    counts = collections.Counter()
    skipped = collections.Counter()
    codes = collections.Counter()
    failures = []
    started = time.perf_counter()
    workspace = Workspace([Path(d) for d in args.dirs])
    for path in python_files(args.dirs):
        counts["files"] += 1
        try:
            analysis = workspace.analysis(path_to_uri(path))
        except Exception:
            failures.append((str(path), traceback.format_exc()))
            continue
        if analysis is None:
            counts["unreadable"] += 1
            continue
        if analysis.calls:
            counts["files with calls"] += 1
        for site in analysis.calls:
            counts["direction-bearing calls"] += 1
            counts["scope dispatches" if site.scope else "user calls"] += 1
            if site.skipped:
                skipped[_reason(site.skipped)] += 1
            else:
                counts["calls with directions"] += 1
        for d in analysis.diagnostics:
            codes[d.code] += 1
    counts["seconds"] = round(time.perf_counter() - started, 1)
    report = {"counts": dict(counts), "without directions": dict(skipped), "diagnostics": dict(codes),
              "failures": len(failures)}
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        for key, value in counts.items():
            print(f"{key}: {value}")
        print("calls without directions, by reason:")
        for key, value in skipped.most_common():
            print(f"  {value:6d}  {key}")
        print("diagnostics:")
        for key, value in codes.most_common():
            print(f"  {value:6d}  {key}")
        print(f"failures: {len(failures)}")
    for path, trace in failures[:20]:
        print(f"FAILED {path}\n{trace}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
