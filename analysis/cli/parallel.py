"""`pypto-lens check --jobs N`: analyse files in worker processes and report them as one job does.

Every worker holds a workspace with the same roots as the one-job run, so
imports between the files resolve the same way; it reads what it needs from
disk. Work is handed out by group, largest first: a file goes with the files
whose inline helpers it may expand (it imports them, or a file that does),
since a helper's scope headers borrow what the files analysed before it lent
(helper_callers.py), and those files share most of their analyses. Reports are
printed in the one-job order as soon as every earlier one is in.

What a worker's history can change, the parent checks and makes again in the
one-job order, in a workspace of its own:
- a file that reaches an import cycle (the workspace answers with what it had
  when it met the cycle, so the result depends on which file of the cycle was
  analysed first): no other file reaches it, so that replays the one-job
  history of every file whose result depends on it;
- a file with inline helpers whose headers borrowed from other lenders than the
  files before it in the one-job order (the groups are found from the import
  lines' text, which may miss an import): it is made after exactly those.
"""
from __future__ import annotations

import multiprocessing
import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Iterator, Optional

from ..gc_policy import collect_less_often
from ..presentation.diagnostics import registration_diagnostics
from ..registry.generate import SOURCE_SUFFIXES
from ..vocabulary import Severity
from ..workspace.documents import DiskFiles
from ..workspace.helper_callers import lent_to
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
    lends_to: tuple = ()  # the files whose inline helpers' headers its analysis lent to
    # the files whose lendings the workspace held when it was reported (None: it has no inline helper with
    # a scope, whose headers borrow what callers lent)
    lenders: Optional[tuple] = None


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
        uri = path_to_uri(path)
        analysis = workspace.analysis(uri)
        out.lends_to = lent_to(analysis)
        if workspace.borrows(uri):
            out.lenders = workspace.lenders(uri)
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
        if not path.is_file():  # (a FIFO would block the read)
            return None
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
    sizes = _sizes(files)
    batches = _split(_groups(files), jobs, sizes)
    largest_first = sorted(batches, key=lambda batch: -sum(sizes[i] for i in batch))
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    replay: Optional[_Replay] = None
    lent: dict[str, set] = {}  # helper file -> the files before the next one to print that lent to it
    with context.Pool(min(jobs, len(batches)), initializer=_start, initargs=(roots, style)) as pool:
        done: dict[int, FileReport] = {}
        following = 0
        for results in pool.imap_unordered(_run, [[(i, files[i]) for i in batch] for batch in largest_first]):
            done.update(results)
            while following in done:
                result = done.pop(following)
                path = files[following]
                one_job = tuple(sorted(lent.get(path_to_uri(path), ())))
                if result.order_dependent or (result.lenders is not None and result.lenders != one_job):
                    replay = replay or _Replay(roots, files)
                    result = replay.report(following, one_job, style)
                for helper in result.lends_to:
                    lent.setdefault(helper, set()).add(path_to_uri(path))
                yield result
                following += 1


class _Replay:
    """The parent's own workspace, for the reports a worker's history may have changed: it analyses the
    files it is asked about in the one-job order, each after the lenders the one-job run had before it."""

    def __init__(self, roots: list[Path], files: list[Path]):
        self.workspace = Workspace(roots)
        self.index = {path_to_uri(path): i for i, path in enumerate(files)}
        self.files = files

    def report(self, index: int, lenders: tuple, style: Style) -> FileReport:
        held = self.workspace.lenders(path_to_uri(self.files[index]))
        for lender in sorted(set(lenders) - set(held), key=self.index.__getitem__):
            self.workspace.analysis(path_to_uri(self.files[self.index[lender]]))
        return report(self.workspace, self.files[index], style)


_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+([\w.]+)[ \t]+import|import[ \t]+([\w.]+))", re.M)
_INLINE = re.compile(r"\binline\b")


def _groups(files: list[Path]) -> list[list[int]]:
    """The files' indices, grouped: a file with every file whose inline helpers it may expand, through
    the import lines' text (a module's last name, looked up beside the importing file). Each group keeps
    the one-job order; groups come in the order of their first files."""
    texts: dict[int, str] = {}
    disk = DiskFiles()  # (never waits on a FIFO; what it does not analyse has no imports to group by)
    for i, path in enumerate(files):
        doc = disk.read(path_to_uri(path))
        texts[i] = doc.text if doc is not None else ""
    beside = {(path.parent, path.stem): i for i, path in enumerate(files)}
    parent = list(range(len(files)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i
    for i, path in enumerate(files):
        for match in _IMPORT.finditer(texts[i]):
            j = beside.get((path.parent, (match.group(1) or match.group(2)).rsplit(".", 1)[-1]))
            if j is not None and j != i and _INLINE.search(texts[j]):
                parent[find(i)] = find(j)
    groups: dict[int, list[int]] = {}
    for i in range(len(files)):
        groups.setdefault(find(i), []).append(i)
    return list(groups.values())


def _split(batches: list[list[int]], jobs: int, sizes: list[int]) -> list[list[int]]:
    """Fewer groups than jobs: halve the largest ones (order kept) until every job has one."""
    while len(batches) < jobs:
        k = max(range(len(batches)),
                key=lambda i: sum(sizes[j] for j in batches[i]) if len(batches[i]) > 1 else -1)
        if len(batches[k]) < 2:
            break
        half = len(batches[k]) // 2
        batches[k:k + 1] = [batches[k][:half], batches[k][half:]]
    return batches


def _sizes(files: list[Path]) -> list[int]:
    """Each file's size in bytes (a group's work grows with it; 0 for one that cannot be read)."""
    out = []
    for path in files:
        try:
            out.append(path.stat().st_size)
        except OSError:
            out.append(0)
    return out


# -- in a worker ---------------------------------------------------------------------------------

_worker: dict = {}


def _start(roots: list[Path], style: Style) -> None:
    collect_less_often()
    _worker.update(workspace=Workspace(roots), style=style)


def _run(batch: list[tuple[int, Path]]) -> list[tuple[int, FileReport]]:
    workspace = _worker["workspace"]
    out = []
    for index, path in batch:
        result = report(workspace, path, _worker["style"])
        result.order_dependent = reaches_cycle(workspace, path_to_uri(path))
        out.append((index, result))
    return out


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
