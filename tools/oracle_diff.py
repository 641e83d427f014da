#!/usr/bin/env python3
"""Run PyPTO (the oracle) and PyPTO Lens on pl files; print the lines where their directions differ.

    python tools/oracle_diff.py FILE_OR_DIR... --oracle-python PY --oracle-script ORACLE.py
                                [--pypto-root DIR] [--mode auto|pipeline|pass-only]
                                [--lens CMD] [--all] [--json]

--oracle-python   the interpreter that can import PyPTO (a venv where PyPTO is built as its own
                  installation docs say; nothing of that build is part of this repository)
--oracle-script   the oracle driver (../shared/oracle/oracle.py); it prints every IR call's line, column
                  and arg_directions after PyPTO's DeriveCallDirections
--pypto-root      exported as PYPTO_ROOT for the oracle (default: inherit the environment)
--mode            auto (default): --pass-only when the file's leading comment says
                  "--pass-only", else --pipeline
The oracle runs once per folder with that folder on PYTHONPATH, so programs that
import sibling modules (`from config import ...`) load as they do when run from there.
--lens            the command that runs PyPTO Lens (default: the repository's
                  .venv/bin/pypto-lens, else `pypto-lens` on PATH)
--all             also print the lines where both agree
--json            print the comparison as JSON

How the two sides are lined up (spec H1/H3):
* every IR call is attributed to its source line; IR-only arguments (hidden outputs
  `retN__out`, `gm_pipe_buffer*`) are dropped;
* on a line with calls in both user-written and pipeline-created functions (a `for i in
  pl.spmd(...)` header: the parent's dispatch and the wrapper's inner call), only the
  user-written functions' calls count;
* IR calls at the same line and column are copies of one source call (inline expansions,
  unrolled copies, mixed-kernel splits): merged slot by slot, keeping the strongest
  direction, InOut > Output > OutputExisting > Input > NoDep;
* `Scalar` is left out on both sides (as the `# expect:` checkers do); the remaining
  directions of a line are compared in call-column order.

Exit status: 0 when nothing differs, 1 otherwise, 2 on usage errors.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import check_expectations  # noqa: E402  (the same way of finding pl files)

REPO = Path(__file__).resolve().parent.parent
STRENGTH = {"InOut": 5, "Output": 4, "OutputExisting": 3, "Input": 2, "NoDep": 1, "Scalar": 0}
HIDDEN_ARG = re.compile(r"^(ret\d+__out|gm_pipe_buffer.*)$")
def collect(paths: list[str]) -> list[Path]:
    try:
        return check_expectations.collect(paths)
    except SystemExit as exc:
        raise SystemExit(str(exc).replace("check_expectations:", "oracle_diff:")) from None


def mode_for(path: Path, requested: str) -> str:
    if requested != "auto":
        return requested
    head = []
    for line in path.read_text(encoding="utf-8").split("\n"):
        if line.startswith("#") or not line.strip():
            head.append(line)
        else:
            break
    return "pass-only" if "--pass-only" in "\n".join(head) else "pipeline"


# ---------------------------------------------------------------------------
# the oracle side
# ---------------------------------------------------------------------------

def run_oracle(args, files: list[Path], mode: str, folder: Path) -> dict[str, dict]:
    """Run the oracle on files of one folder; the folder goes on PYTHONPATH so that
    sibling modules (`from config import ...`, as pypto-lib models do) import."""
    env = dict(os.environ)
    if args.pypto_root:
        env["PYPTO_ROOT"] = args.pypto_root
    paths = [folder.resolve()]
    while (paths[-1] / "__init__.py").exists():  # a package: its importer sits above it
        paths.append(paths[-1].parent)
    env["PYTHONPATH"] = os.pathsep.join([str(p) for p in paths] + [env.get("PYTHONPATH", "")]).rstrip(os.pathsep)

    def run(batch: list[Path]) -> str:
        proc = subprocess.run([args.oracle_python, args.oracle_script, f"--{mode}", "--no-diagnostics",
                               "--indent", "0"] + [str(f.resolve()) for f in batch],
                              capture_output=True, text=True, env=env)
        if not proc.stdout.strip():
            raise RuntimeError(proc.stderr.strip()[-2000:] or f"exit status {proc.returncode}")
        return proc.stdout

    return check_expectations.json_reports(run, files, lambda f, exc: {"file": str(f.resolve()), "crash": str(exc)})


def oracle_lines(result: dict) -> tuple[dict[int, list[list[tuple[str, str]]]], list[str]]:
    """line -> [per source call (by column): [(arg name, direction), ...]], plus errors."""
    errors = []
    if result.get("crash"):
        return {}, [f"oracle crashed: {result['crash']}"]
    if result.get("load_error"):
        errors.append(f"oracle could not load the file: {result['load_error'].get('message', '')[:300]}")
    raw: dict[int, list[tuple[bool, int, list[tuple[str, str]]]]] = {}
    for program in result.get("programs", []):
        if program.get("error"):
            errors.append(f"oracle: {program.get('name')}: {program['error'].get('type')}: "
                          f"{program['error'].get('message', '')[:300]}")
            continue
        for func in program.get("functions", []):
            created = bool(func.get("created_by_pipeline"))
            for call in func.get("calls", []):
                if call.get("file") or not call.get("line"):
                    continue  # a call whose span lies in another file (imported helper)
                pairs = [(base, d) for base, name, d in zip(call["arg_bases"], call["args"], call["arg_directions"])
                         if not HIDDEN_ARG.match(name)]
                raw.setdefault(call["line"], []).append((created, call.get("column") or 0, pairs))
    lines: dict[int, list[list[tuple[str, str]]]] = {}
    for line, calls in raw.items():
        if any(not created for created, _, _ in calls):
            calls = [c for c in calls if not c[0]]
        lines[line] = merge_by_column([(col, pairs) for _, col, pairs in calls])
    return lines, errors


def merge_by_column(calls: list[tuple[int, list[tuple[str, str]]]]) -> list[list[tuple[str, str]]]:
    by_col: dict[int, list[tuple[str, str]]] = {}
    for col, pairs in calls:
        if col not in by_col:
            by_col[col] = list(pairs)
            continue
        merged = by_col[col]
        for i, (name, d) in enumerate(pairs):
            if i >= len(merged):
                merged.append((name, d))
            elif STRENGTH.get(d, 0) > STRENGTH.get(merged[i][1], 0):
                merged[i] = (merged[i][0], d)
    return [by_col[c] for c in sorted(by_col)]


# ---------------------------------------------------------------------------
# the PyPTO Lens side
# ---------------------------------------------------------------------------

def run_lens(command: list[str], files: list[Path]) -> dict[str, dict]:
    return check_expectations.run_lens(command, files, ("--scalar",))


def lens_lines(report: dict) -> dict[int, list[list[tuple[str, str]]]]:
    raw: dict[int, list[tuple[int, list[tuple[str, str]]]]] = {}
    for call in report.get("calls", []):
        if call.get("skipped"):
            continue
        args = sorted(call.get("args", []), key=lambda a: a.get("index", 0))
        pairs = [(a.get("arg") or a.get("param") or "?", a["direction"]) for a in args]
        raw.setdefault(call["line"], []).append((call.get("column") or 0, pairs))
    return {line: merge_by_column(calls) for line, calls in raw.items()}


# ---------------------------------------------------------------------------
# comparison
# ---------------------------------------------------------------------------

def visible(groups: list[list[tuple[str, str]]]) -> list[str]:
    return [d for pairs in groups for _, d in pairs if d != "Scalar"]


def show(groups: list[list[tuple[str, str]]]) -> str:
    if not groups:
        return "none"
    return " | ".join(", ".join(f"{n}={d}" for n, d in pairs if d != "Scalar") or "-" for pairs in groups)


def compare(path: Path, oracle: dict, lens: dict) -> dict:
    o_lines, errors = oracle_lines(oracle)
    if lens.get("error"):
        errors.append(lens["error"])
    l_lines = lens_lines(lens)
    rows = []
    for line in sorted(set(o_lines) | set(l_lines)):
        o, l = o_lines.get(line, []), l_lines.get(line, [])
        same = visible(o) == visible(l)
        rows.append({"line": line, "same": same, "oracle": show(o), "lens": show(l),
                     "oracle_dirs": visible(o), "lens_dirs": visible(l)})
    return {"file": str(path), "mode": oracle.get("mode"), "errors": errors, "lines": rows}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--oracle-python", required=True)
    parser.add_argument("--oracle-script", required=True)
    parser.add_argument("--pypto-root")
    parser.add_argument("--mode", choices=["auto", "pipeline", "pass-only"], default="auto")
    parser.add_argument("--lens")
    parser.add_argument("--all", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    files = collect(args.paths)
    batches: dict[tuple[str, Path], list[Path]] = {}
    for f in files:
        batches.setdefault((mode_for(f, args.mode), f.resolve().parent), []).append(f)
    oracle: dict[str, dict] = {}
    for (mode, folder), batch in batches.items():
        oracle.update(run_oracle(args, batch, mode, folder))
    lens = run_lens(shlex.split(args.lens) if args.lens else check_expectations.default_lens_command(), files)
    results = []
    for f in files:
        key = str(f.resolve())
        results.append(compare(f, oracle.get(key, {"crash": "no result"}), lens.get(key, {"error": "no result"})))
    differing = sum(1 for r in results for row in r["lines"] if not row["same"])
    if args.json:
        json.dump(results, sys.stdout, indent=1, ensure_ascii=False)
        print()
    else:
        for r in results:
            for e in r["errors"]:
                print(f"{r['file']}: {e}")
            for row in r["lines"]:
                if row["same"] and not args.all:
                    continue
                mark = "same" if row["same"] else "DIFF"
                print(f"{r['file']}:{row['line']}: {mark} oracle[{r['mode']}]: {row['oracle']}  lens: {row['lens']}")
        lines = sum(len(r["lines"]) for r in results)
        print(f"{len(files)} files, {lines} call lines, {differing} differ, "
              f"{sum(1 for r in results if r['errors'])} files with errors")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
