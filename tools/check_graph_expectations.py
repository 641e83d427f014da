#!/usr/bin/env python3
"""Check the task-graph comments of pl programs against `pypto-lens graph --format json --information`.

    python tools/check_graph_expectations.py PATH... [--lens CMD] [--verbose]

The comment format is written down in tests/graph_programs/README.md. In short,
on the line where a task's call (or scope header) starts:

  # task: NAME                                 names this task for the other comments
  # expect-edge: FROM RULE [KIND] [BUFFER] [carried] [unknown]
                                               an edge from task FROM (a NAME, or `self`)
  # expect-edge: none                          no edge into this task
  # expect-hazard: CODE FIRST [BUFFER] [warning|information] [carried] [fix=add-dep|make-inout|none]
  # expect-hazard: none                        no hazard (of any severity) at this task

and on a `def` line: `# expect-graph: tasks=N edges=M hazards=K` (hazards of every severity).
Several items in one comment are separated by `;`. A task with `expect-edge`
comments must have exactly those incoming edges; every hazard the graph reports
must be expected on its later task's line, in every file checked.

Prints one line per failure, then `N passed, M failed`. Exit status 1 when anything failed.
"""
from __future__ import annotations

import argparse
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from check_expectations import REPO, collect, default_lens_command  # noqa: E402

ITEM_RE = re.compile(r"^\s*(task|expect-edge|expect-hazard|expect-graph):\s*(.*?)\s*$")
RULES = {"G4", "G5", "G6", "G7", "G8", "G9"}
KINDS = {"raw", "waw", "creator", "deps"}
SEVERITIES = {"warning", "information"}


def run_graphs(command: list[str], files: list[Path]) -> dict[str, list[dict]]:
    """`pypto-lens graph --format json --information` over the files (one run, then one per file
    if that fails): resolved path -> its graphs, or an error text."""

    def run(batch: list[Path]) -> list[dict]:
        proc = subprocess.run(command + ["graph", "--format", "json", "--information"] + [str(f) for f in batch],
                              capture_output=True, text=True, cwd=str(REPO))
        if proc.returncode != 0:
            raise RuntimeError(proc.stderr.strip()[-2000:] or f"exit status {proc.returncode}")
        return json.loads(proc.stdout)

    out: dict = {str(f.resolve()): [] for f in files}
    try:
        graphs = run(files)
    except (RuntimeError, json.JSONDecodeError):
        graphs = []
        for f in files:
            try:
                graphs.extend(run([f]))
            except (RuntimeError, json.JSONDecodeError) as exc:
                out[str(f.resolve())] = f"pypto-lens failed: {exc}"
    for graph in graphs:
        key = str(Path(graph["file"]).resolve())
        if isinstance(out.get(key), list):
            out[key].append(graph)
    return out


def comments(path: Path) -> dict[int, list[tuple[str, str]]]:
    """line -> [(kind, item text)] for every item of every comment on the line."""
    out: dict[int, list[tuple[str, str]]] = {}
    for number, text in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1):
        for segment in text.split("#")[1:]:
            kind = None
            for part in segment.split(";"):
                match = ITEM_RE.match(part)
                if match:
                    kind, part = match.group(1), match.group(2)
                if kind is not None and part.strip():  # without a keyword: more of the same kind
                    out.setdefault(number, []).append((kind, part.strip()))
    return out


def _edge_spec(text: str):
    words = text.split()
    if len(words) < 2 or words[1] not in RULES:
        return None
    spec = {"from": words[0], "rule": words[1], "carried": "carried" in words[2:],
            "overlap": "unknown" if "unknown" in words[2:] else "certain", "kind": None, "buffer": None}
    for w in words[2:]:
        if w in KINDS:
            spec["kind"] = w
        elif w not in ("carried", "unknown"):
            spec["buffer"] = w
    return spec


def _hazard_spec(text: str):
    words = text.split()
    if len(words) < 2:
        return None
    spec = {"code": words[0], "first": words[1], "buffer": None, "severity": None, "carried": False, "fix": None}
    for w in words[2:]:
        if w in SEVERITIES:
            spec["severity"] = w
        elif w == "carried":
            spec["carried"] = True
        elif w.startswith("fix="):
            spec["fix"] = w[4:]
        else:
            spec["buffer"] = w
    return spec


def check_file(path: Path, graphs: list[dict]) -> tuple[int, list[str]]:
    name = str(path)
    failures: list[str] = []
    checked = 0
    notes = comments(path)
    tasks_by_line: dict[int, tuple[dict, dict]] = {}
    for graph in graphs:
        for task in graph["tasks"]:
            if task.get("elsewhere") is None:
                tasks_by_line.setdefault(task["line"], (graph, task))
    names: dict[str, tuple[dict, dict]] = {}
    for line, items in notes.items():
        for kind, text in items:
            if kind == "task":
                if line not in tasks_by_line:
                    failures.append(f"{name}:{line}: `task: {text}` names no task (none starts on this line)")
                else:
                    names[text] = tasks_by_line[line]

    def task_id(word: str, graph: dict, here: dict):
        if word == "self":
            return here["id"]
        found = names.get(word)
        if found is None or found[0] is not graph:
            return None
        return found[1]["id"]

    for line, items in sorted(notes.items()):
        for kind, text in items:
            if kind == "task":
                continue
            checked += 1
            if kind == "expect-graph":
                graph = next((g for g in graphs if g["line"] == line), None)
                if graph is None:
                    failures.append(f"{name}:{line}: expect-graph on a line that starts no graph")
                    continue
                counts = dict(graph["counts"], hazards=len(graph["hazards"]))
                for pair in text.split():
                    key, _, value = pair.partition("=")
                    if key not in counts or not value.isdigit():
                        failures.append(f"{name}:{line}: unreadable expect-graph item {pair!r}")
                    elif counts[key] != int(value):
                        failures.append(f"{name}:{line}: expected {key}={value}, got {counts[key]}")
            elif line not in tasks_by_line:
                failures.append(f"{name}:{line}: {kind} on a line where no task starts")
    # edges: per task line, the expected set must equal the incoming edges
    for line, items in sorted(notes.items()):
        edges = [t for k, t in items if k == "expect-edge"]
        if not edges or line not in tasks_by_line:
            continue
        graph, task = tasks_by_line[line]
        actual = [e for e in graph["edges"] if e["to"] == task["id"]]
        if edges == ["none"]:
            if actual:
                failures.append(f"{name}:{line}: expected no edge into #{task['id']}, got {_edges(actual, graph)}")
            continue
        left = list(actual)
        for text in edges:
            spec = _edge_spec(text)
            if spec is None:
                failures.append(f"{name}:{line}: unreadable expect-edge {text!r}")
                continue
            src = task_id(spec["from"], graph, task)
            if src is None:
                failures.append(f"{name}:{line}: expect-edge names an unknown task {spec['from']!r}")
                continue
            match = next((e for e in left if e["from"] == src and e["rule"] == spec["rule"]
                          and e["carried"] == spec["carried"] and e["overlap"] == spec["overlap"]
                          and (spec["kind"] is None or e["kind"] == spec["kind"])
                          and (spec["buffer"] is None or e["buffer"] == spec["buffer"])), None)
            if match is None:
                failures.append(f"{name}:{line}: expected edge {text!r}, got {_edges(actual, graph)}")
            else:
                left.remove(match)
        if left:
            failures.append(f"{name}:{line}: unexpected edges {_edges(left, graph)}")
    # hazards: every reported one is expected, every expected one reported
    for graph in graphs:
        for line in {t["line"] for t in graph["tasks"]}:
            if line not in tasks_by_line or tasks_by_line[line][0] is not graph:
                continue
            task = tasks_by_line[line][1]
            actual = [h for h in graph["hazards"] if h["second"] == task["id"]]
            specs = [t for k, t in notes.get(line, []) if k == "expect-hazard"]
            if specs == ["none"]:
                if actual:
                    failures.append(f"{name}:{line}: expected no hazard, got {_hazards(actual, graph)}")
                continue
            left = list(actual)
            for text in specs:
                spec = _hazard_spec(text)
                first = task_id(spec["first"], graph, task) if spec else None
                if spec is None or first is None:
                    failures.append(f"{name}:{line}: unreadable expect-hazard {text!r}")
                    continue
                match = next((h for h in left if h["code"] == spec["code"] and h["first"] == first
                              and h["carried"] == spec["carried"]
                              and (spec["buffer"] is None or h["buffer"] == spec["buffer"])
                              and (spec["severity"] is None or h["severity"] == spec["severity"])
                              and (spec["fix"] is None or (h["fix"] or {}).get("kind", "none") == spec["fix"])),
                             None)
                if match is None:
                    failures.append(f"{name}:{line}: expected hazard {text!r}, got {_hazards(actual, graph) or 'none'}")
                else:
                    left.remove(match)
            if left:
                failures.append(f"{name}:{line}: unexpected hazards {_hazards(left, graph)}")
                checked += 1
    return checked, failures


def _label(graph: dict, task_id: int) -> str:
    t = graph["tasks"][task_id]
    return f"#{t['id']}@{t['line']}"


def _edges(edges: list[dict], graph: dict) -> list[str]:
    return [f"{_label(graph, e['from'])} {e['rule']} {e['kind']} {e['buffer']}"
            + (" carried" if e["carried"] else "") + (" unknown" if e["overlap"] == "unknown" else "")
            for e in edges]


def _hazards(hazards: list[dict], graph: dict) -> list[str]:
    return [f"{h['code']} from {_label(graph, h['first'])} {h['buffer']} {h['severity']}"
            + (" carried" if h["carried"] else "") for h in hazards]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--lens", help="command that runs PyPTO Lens (default: .venv/bin/pypto-lens)")
    parser.add_argument("--verbose", "-v", action="store_true", help="also print per-file counts")
    args = parser.parse_args(argv)
    command = shlex.split(args.lens) if args.lens else default_lens_command()
    passed = failed = 0
    files = collect(args.paths)
    reports = run_graphs(command, files)
    for path in files:
        graphs = reports[str(path.resolve())]
        checked, failures = (1, [f"{path}: {graphs}"]) if isinstance(graphs, str) else check_file(path, graphs)
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
