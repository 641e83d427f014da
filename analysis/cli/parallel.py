"""`pypto-lens check --jobs N`: analyse files in worker processes and report them as one job does.

Every worker holds a workspace with the same roots as the one-job run, so
imports between the files resolve the same way; it reads what it needs from
disk. Work is handed out by folder (files import their siblings, so a folder's
files share most of their analyses), largest folders first, and reports are
printed in the one-job order as soon as every earlier one is in.

The result of a file is a function of the files it reads, except where imports
form a cycle: there the workspace answers with what it had when it met the
cycle, so the result depends on which file of the cycle was analysed first. A
worker flags such files (those that reach an import cycle); the parent analyses
exactly those again, in the one-job order, in a workspace of its own. No other
file reaches them, so that replays the one-job history of every file whose
result depends on it.
"""
from __future__ import annotations

import multiprocessing
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Iterator, Optional

from ..gc_policy import collect_less_often
from ..presentation.diagnostics import registration_diagnostics
from ..registry.generate import SOURCE_SUFFIXES
from ..vocabulary import Severity
from ..workspace.results import DocumentAnalysis
from ..workspace.text import decode, normalise_newlines
from ..workspace.workspace import Workspace, path_to_uri
from . import render

_SEVERITY = {Severity.ERROR: 2, Severity.WARNING: 1}


@dataclass
class FileReport:
    path: str
    worst: int = 0  # 0 nothing, 1 warning, 2 error
    lines: list[str] = field(default_factory=list)  # text format
    json: Optional[dict] = None  # json format
    order_dependent: bool = False  # it reaches an import cycle


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class Style:
    """How `check` reports: the format, and what it adds to the defaults."""

    fmt: str = "text"  # text | json
    scalar: bool = False  # Scalar arguments too
    information: bool = False  # information-level hazards too (off by default)
    operators: bool = False  # the operator notes (UnclassifiedOperator, UnknownOperator): for PyPTO's sources


def report(workspace: Workspace, path: Path, style: Style) -> FileReport:
    """What `check` prints for one file, and the worst severity found."""
    out = FileReport(str(path))
    if path.suffix in SOURCE_SUFFIXES:  # a C++ source: its REGISTER_OP chains' rules (V1-V3)
        analysis = _registrations(path)
    else:
        analysis = workspace.analysis(path_to_uri(path))
    if analysis is None:
        out.json = {"file": str(path), "error": "could not be read"}
        return out
    if style.information:  # a copy: the workspace keeps its analysis
        analysis = replace(analysis, diagnostics=sorted(analysis.diagnostics + analysis.optional_diagnostics,
                                                        key=lambda d: (d.range.line, d.range.col)))
    out.worst = max((_SEVERITY.get(d.severity, 0) for d in analysis.diagnostics), default=0)
    show = render.Show(scalar=style.scalar, operators=style.operators)
    if style.fmt == "json":
        out.json = render.analysis_json(str(path), analysis, show)
    else:
        out.lines = render.analysis_text(str(path), analysis, show)
    return out


def _registrations(path: Path) -> Optional[DocumentAnalysis]:
    try:
        text, _ = decode(path.read_bytes())
    except OSError:
        return None
    return DocumentAnalysis(path_to_uri(path), None, [], [], registration_diagnostics(normalise_newlines(text)))


def reports(files: list[Path], roots: list[Path], jobs: int, style: Style) -> Iterator[FileReport]:
    """The reports of `files`, in their order, as a one-job run over `roots` makes them."""
    if jobs <= 1 or len(files) <= 1:
        workspace = Workspace(roots)
        for path in files:
            yield report(workspace, path, style)
        return
    batches = _split(_folders(files), jobs)
    largest_first = sorted(range(len(batches)), key=lambda i: -_size(batches[i]))
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    replay: Optional[Workspace] = None
    with context.Pool(min(jobs, len(batches)), initializer=_start, initargs=(roots, style)) as pool:
        done: dict[int, list[FileReport]] = {}
        following = 0
        for index, results in pool.imap_unordered(_run, [(i, batches[i]) for i in largest_first]):
            done[index] = results
            while following in done:
                for path, result in zip(batches[following], done.pop(following)):
                    if result.order_dependent:
                        replay = replay or Workspace(roots)
                        result = report(replay, path, style)
                    yield result
                following += 1


def _folders(files: list[Path]) -> list[list[Path]]:
    """Runs of consecutive files of one folder."""
    batches: list[list[Path]] = []
    for path in files:
        if batches and batches[-1][0].parent == path.parent:
            batches[-1].append(path)
        else:
            batches.append([path])
    return batches


def _split(batches: list[list[Path]], jobs: int) -> list[list[Path]]:
    """Fewer folders than jobs: halve the largest ones (order kept) until every job has one."""
    while len(batches) < jobs:
        k = max(range(len(batches)), key=lambda i: _size(batches[i]) if len(batches[i]) > 1 else -1)
        if len(batches[k]) < 2:
            break
        half = len(batches[k]) // 2
        batches[k:k + 1] = [batches[k][:half], batches[k][half:]]
    return batches


def _size(batch: list[Path]) -> int:
    total = 0
    for path in batch:
        try:
            total += path.stat().st_size
        except OSError:
            pass
    return total


# -- in a worker ---------------------------------------------------------------------------------

_worker: dict = {}


def _start(roots: list[Path], style: Style) -> None:
    collect_less_often()
    _worker.update(workspace=Workspace(roots), style=style)


def _run(task: tuple[int, list[Path]]) -> tuple[int, list[FileReport]]:
    index, batch = task
    workspace = _worker["workspace"]
    out = []
    for path in batch:
        result = report(workspace, path, _worker["style"])
        result.order_dependent = reaches_cycle(workspace, path_to_uri(path))
        out.append(result)
    return index, out


def reaches_cycle(workspace: Workspace, uri: str) -> bool:
    """Does `uri` (through the files it read, transitively) reach an import cycle? Tarjan's
    strongly connected components over the reachable files, iteratively."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set = set()
    work = [(uri, iter(workspace.dependencies(uri)))]
    index[uri] = low[uri] = 0
    stack.append(uri)
    on_stack.add(uri)
    while work:
        node, deps = work[-1]
        dep = next(deps, None)
        if dep is not None:
            if dep == node:
                return True
            if dep not in index:
                index[dep] = low[dep] = len(index)
                stack.append(dep)
                on_stack.add(dep)
                work.append((dep, iter(workspace.dependencies(dep))))
            elif dep in on_stack:
                low[node] = min(low[node], index[dep])
            continue
        work.pop()
        if work:
            parent = work[-1][0]
            low[parent] = min(low[parent], low[node])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                return True
    return False
