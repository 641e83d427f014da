"""Task graphs and their hazards in absolute positions (the picture, the CLI, the hover line).

The analysis gives graphs in unit-relative spans (pipeline/task_graph.py);
this places them in the document, fills the tasks' lines into the hazard
messages, and turns each hazard into a Diagnostic at the later access with
related information at the earlier access and at the buffer's allocation.
presentation/graph_view.py makes the task-graph JSON of notes/graph_contract.md
and the hover's line from them.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Optional, Sequence
from urllib.parse import unquote

from .. import preempt
from ..ir import nodes as ir
from ..pipeline.expansions import Expansion
from ..pipeline.hazards import HAZARD_CODES, INFORMATION_SETTING, Hazard
from ..pipeline.task_graph import Task, TaskGraph
from ..sharing import shared
from .results import Diagnostic, Location, Range, Step


@dataclass(frozen=True, slots=True)
class PlacedArg:
    param: str
    text: str
    buffer: Optional[str]
    direction: str
    region: str
    range: Optional[Range]


@dataclass(frozen=True, slots=True)
class PlacedTask:
    id: int
    name: str
    kind: str
    range: Range
    loops: tuple[int, ...]
    branch: bool
    manual: bool
    tid: Optional[str]
    args: tuple[PlacedArg, ...]
    waits_on_unknown: bool
    elsewhere: Optional[str] = None  # the inline helper whose text, in another file, holds the call (N1)
    uri: Optional[str] = None  # that file (`range` is in it), or None: this document; or "" when nobody
    # knows where that helper is (`range` is then the function's name)
    inlined: tuple[int, ...] = ()  # the expansions (PlacedGraph.expansions) it came from, outermost first
    path: tuple[str, ...] = ()  # what holds it, outermost first: loops `L<id>` and expansions `g<id>`

    def where(self) -> str:
        """`line 12`, or `rmsnorm.py:12` for a call in another file's helper."""
        return _where(self.uri, self.range)


@dataclass(frozen=True, slots=True)
class PlacedExpansionArg:
    index: int  # the argument's position in the helper call
    text: str  # as written there
    direction: str  # the strongest write of a task on it, else Input (expansions.py)
    uses: tuple[tuple[int, str], ...]  # (task id, ArgDirection)


@dataclass(frozen=True, slots=True)
class PlacedExpansion:
    """One call of an inline helper as it expands in one graph (N1): the tasks it launches."""

    id: int
    helper: str
    range: Range  # the call, in `uri`'s text
    uri: Optional[str]  # None: this document; "": nobody knows where (range is the function's name then)
    parent: Optional[int]  # the expansion whose text holds the call
    tasks: tuple[int, ...]
    args: tuple[PlacedExpansionArg, ...]

    def where(self) -> str:
        return _where(self.uri, self.range)


def _where(uri: Optional[str], r: Range) -> str:
    return f"{file_name(uri)}:{r.line + 1}" if uri else f"line {r.line + 1}"


@dataclass(frozen=True, slots=True)
class PlacedHazard:
    hazard: Hazard
    message: str
    range: Range  # where the diagnostic goes


class PlacedGraph:
    """One function's task graph in the document. Its tasks and loops, with the text of every argument,
    are placed when first read (the picture, a hover, the CLI's graph): a document's code lenses, status
    and diagnostics read only the counts and the hazards, and placing every task of genpl 50000's
    978 graphs took 0.7 s of its 2.3 s rest and kept 8 MB (issue 41)."""

    __slots__ = ("function", "range", "extent", "host", "edges", "hazards", "notes", "expansions", "task_count",
                 "_tasks", "_loops", "_placer")

    def __init__(self, function: str, range: Range, extent: Optional[Range], host: bool, placer: "_TaskPlacer",
                 edges: list, hazards: list, notes: list, expansions: list):
        self.function = function
        self.range = range  # the function's name (or an outlined scope's header)
        self.extent = extent  # the lines of the function's text (which positions belong to it)
        self.host = host
        self.edges = edges  # task_graph.Edge (task ids only: nothing to place)
        self.hazards: list[PlacedHazard] = hazards
        self.notes: list[str] = notes
        self.expansions: list[PlacedExpansion] = expansions
        self.task_count = placer.count
        self._tasks: Optional[list[PlacedTask]] = None
        self._loops: Optional[list[dict]] = None
        self._placer: Optional[_TaskPlacer] = placer

    @property
    def tasks(self) -> list[PlacedTask]:
        if self._tasks is None:
            self._place()
        return self._tasks

    @property
    def loops(self) -> list[dict]:
        if self._loops is None:
            self._place()
        return self._loops

    def _place(self) -> None:
        # (a request's thread may read it while the analysis thread does: the one that places it
        # second finds it placed, as both set the same values before letting the placer go)
        placer = self._placer
        if placer is None:
            return
        self._tasks, self._loops = placer.tasks(), placer.loops()
        self._placer = None  # (what it read is let go with it)

    def __eq__(self, other) -> bool:
        return type(other) is PlacedGraph and all(getattr(self, name) == getattr(other, name) for name in _COMPARED)

    __hash__ = None  # (mutable: placed on first read)

    def __repr__(self) -> str:
        return f"PlacedGraph({self.function!r}, {self.task_count} tasks, {len(self.hazards)} hazards)"

    def shown_hazards(self, information: bool = False) -> list[PlacedHazard]:
        return [h for h in self.hazards if information or h.hazard.severity == "warning"]

    def counts(self, information: bool = False) -> dict:
        return {"tasks": self.task_count, "edges": len(self.edges), "hazards": len(self.shown_hazards(information))}

    def task_at(self, line: int, col: int) -> Optional[PlacedTask]:
        """The task whose call (or scope header) holds the position (innermost first)."""
        best = None
        for task in self.tasks:
            if task.uri is None and task.range.holds(line, col) and \
                    (best is None or (task.range.line, task.range.col) >= (best.range.line, best.range.col)):
                best = task
        return best


def place_graphs(graphs: list[TaskGraph], places, lines, extents: dict, alias: str = "pl", units: Sequence = (),
                 eager: bool = False):
    """(placed graphs, warnings, information diagnostics) of one program's graphs. `places` is the
    document's _Places; `lines` the document's; `units` its program's functions' units, which the
    tasks are quoted from when first read (`eager`: now, from `lines`); `extents` maps a user function
    to the Range of its text; `alias` is the program's name for pypto.language (a quick fix writes it)."""
    placed, warnings, notes = [], [], []
    for graph in graphs:
        preempt.check()  # (placing a model's graph takes up to 15 ms: a change waits for one at most)
        where = places.range(graph.owner, graph.span)
        if where is None:
            continue
        placer = _TaskPlacer(places, graph, where, lines if eager else _UnitLines(units))
        expansions = [_expansion(places, lines, k, e, where) for k, e in enumerate(graph.expansions)]
        out = PlacedGraph(graph.function, where, extents.get(graph.owner), graph.host, placer, list(graph.edges),
                          [], list(graph.notes), expansions)
        if eager:
            out._place()  # (now, quoting the document's lines)
        for hazard in graph.hazards:
            item = _hazard(places, out, hazard, alias, placer, lines)
            if item is None:
                continue
            out.hazards.append(item[0])
            (warnings if hazard.severity == "warning" else notes).append(item[1])
        placed.append(out)
    return placed, warnings, notes


_COMPARED = ("function", "range", "extent", "host", "edges", "hazards", "notes", "expansions", "tasks", "loops")


class _TaskPlacer:
    """What placing a graph's tasks and loops reads: the places, the graph, and the text of the program's
    own functions (a placed graph outlives its analysis in the caches: it keeps the units it quotes,
    which the document's chunker keeps too, not the whole document's text of its version)."""

    __slots__ = ("places", "graph", "where", "index", "lines", "count")

    def __init__(self, places, graph: TaskGraph, where: Range, lines):
        self.places, self.graph, self.where, self.lines = places, graph, where, lines
        self.index = {e.frame: k for k, e in enumerate(graph.expansions)}
        self.count = len(graph.tasks)

    def tasks(self) -> list[PlacedTask]:
        return [_task(self.places, self.lines, t, self.where, self.index, self.graph.loops) for t in self.graph.tasks]

    def task(self, k: int, lines) -> PlacedTask:
        """Task k placed now, quoting `lines` (what a hazard names: the same as its place in `tasks()`)."""
        return _task(self.places, lines, self.graph.tasks[k], self.where, self.index, self.graph.loops)

    def loops(self) -> list[dict]:
        loops = []
        for info in self.graph.loops:
            at = self.places.location(info.owner, info.span)
            loops.append({"id": info.id, "kind": info.kind, "line": at.range.line + 1 if at else None,
                          "uri": at.uri if at else None, "trips": info.trips, "parent": info.parent})
        return loops


class _UnitLines:
    """The lines of some units of a document, by their line in it (as `lines[k]` reads them; "" elsewhere)."""

    __slots__ = ("units", "_split")

    def __init__(self, units: list):
        self.units = sorted(units, key=lambda u: u.start)
        self._split: dict = {}

    def __len__(self) -> int:
        return self.units[-1].end if self.units else 0

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self[j] for j in range(*k.indices(len(self)))]
        for unit in self.units:
            if unit.start <= k < unit.end:
                lines = self._split.get(unit.start)
                if lines is None:
                    lines = self._split[unit.start] = unit.text.split("\n")
                return lines[k - unit.start] if k - unit.start < len(lines) else ""
        return ""


def _quote(lines: list[str], r: Range) -> str:
    """The text of a range, its lines joined by one space."""
    if r.line >= len(lines):
        return ""
    if r.line == r.end_line:
        return lines[r.line][r.col:r.end_col]
    last = min(r.end_line, len(lines) - 1)
    parts = [lines[r.line][r.col:]] + lines[r.line + 1:last] + [lines[last][:r.end_col]]
    return " ".join(p.strip() for p in parts)


def _expansion(places, lines: list[str], k: int, e: Expansion, function: Range) -> PlacedExpansion:
    frame = e.frame
    location = places.location(frame.owner, frame.span)
    here = location is not None and location.uri is None
    args = []
    for a in e.args:
        span = frame.arg_spans[a.index] if a.index < len(frame.arg_spans) else None
        r = places.range(frame.owner, span) if span is not None and here else None
        arg = e.frame_args[a.index]
        text = _quote(lines, r) if r is not None else (arg.var.name if isinstance(arg, ir.Ref) else f"#{a.index}")
        args.append(PlacedExpansionArg(a.index, text, a.direction.value, tuple((t, d.value) for t, d in a.uses)))
    return PlacedExpansion(k, frame.helper, location.range if location is not None else function,
                           None if here else (location.uri if location is not None else ""), e.parent, e.tasks,
                           tuple(args))


def _path(task: Task, index: dict, loops: list) -> tuple[str, ...]:
    """Loops and expansions around a task, outermost first: a loop comes after the expansions
    around it (those its own statement came through, a prefix of the task's)."""
    frames = [index[f] for f in task.inlined if f in index]
    out: list[str] = []
    taken = 0
    for loop in task.loops:
        depth = len(loops[loop].inlined)
        while taken < min(depth, len(frames)):
            out.append(f"g{frames[taken]}")
            taken += 1
        out.append(f"L{loop}")
    out.extend(f"g{k}" for k in frames[taken:])
    return tuple(out)


def _task(places, lines: list[str], task: Task, function: Range, index: dict, loops: list) -> PlacedTask:
    """A task where its call is: in this document, or in the other file whose inline helper holds it (N1)."""
    location = places.location(task.owner, task.span)
    here = location is not None and location.uri is None
    elsewhere = None if here else task.owner.split("@", 1)[0]
    args = []
    for a in task.args:
        ar = places.range(task.owner, a.span) if a.span is not None and here else None
        text = shared(_quote(lines, ar)) if ar is not None else (a.text or a.param)  # (arguments repeat: sharing.py)
        args.append(PlacedArg(a.param, text, a.buffer, a.direction, a.region, ar))
    return PlacedTask(task.id, task.name, task.kind, location.range if location is not None else function,
                      task.loops, task.branch, task.manual, task.tid, tuple(args), task.waits_on_unknown, elsewhere,
                      None if here else (location.uri if location is not None else ""),
                      shared(tuple(index[f] for f in task.inlined if f in index)), shared(_path(task, index, loops)))


def file_name(uri: Optional[str]) -> str:
    """The last part of a file's uri (`rmsnorm.py`), as a user reads it beside a line number."""
    return unquote(uri.rstrip("/").rsplit("/", 1)[-1]) if uri else ""


def _hazard(places, graph: PlacedGraph, hazard: Hazard, alias: str, placer: _TaskPlacer, lines):
    first, second = placer.task(hazard.first, lines), placer.task(hazard.second, lines)
    if hazard.at is not None:
        where = places.range(*hazard.at)
    elif second.elsewhere is not None:
        return None  # its text is in another file: the graph shows it, this document cannot
    else:
        arg = second.args[hazard.second_arg] if 0 <= hazard.second_arg < len(second.args) else None
        where = arg.range if arg is not None and arg.range is not None else second.range
    if where is None:
        return None
    message = hazard.message.replace("{second}", f"{second.name} (task #{second.id})").replace(
        "{first}", f"{first.name} (task #{first.id}, {first.where()})")
    related = []
    if hazard.at is None:
        earlier = first.args[hazard.first_arg] if 0 <= hazard.first_arg < len(first.args) else None
        at = earlier.range if earlier is not None and earlier.range is not None else first.range
        verb = "writes" if hazard.first_writes else "reads"
        where_first = f" (in {first.elsewhere})" if first.elsewhere else ""
        if first.uri != "":  # (a helper nobody can place: no location to point at)
            related.append(Step("earlier access", f"{first.name} (task #{first.id}){where_first} {verb} "
                                f"{hazard.buffer}", Location(first.uri or None, at)))
    if hazard.root is not None:
        owner, span, note = hazard.root
        location = places.location(owner, span)
        if location is not None:
            related.append(Step("buffer", note, location))
    rule, setting = HAZARD_CODES[hazard.code]
    data = {"setting": setting if hazard.severity == "warning" else INFORMATION_SETTING, "rule": rule,
            "function": graph.function, "first": hazard.first, "second": hazard.second,
            "fix": _fix_data(places, hazard, second, alias)}
    placed = PlacedHazard(_moved(places, hazard), message, where)
    return placed, Diagnostic(hazard.code, hazard.severity, message, where, tuple(related), data)


def _moved(places, hazard: Hazard) -> Hazard:
    """The hazard with its spans where their lines are now, when the result it comes from was made
    before its function's lines moved (workspace/moved_lines.py): the placed hazard is then the same as
    a new analysis's."""
    if not places.moves:
        return hazard
    root, at, fix = hazard.root, hazard.at, hazard.fix
    if root is not None:
        root = (root[0], places.moved(root[0], root[1]), root[2])
    if at is not None:
        at = (at[0], places.moved(*at))
    if fix is not None and fix.annotation is not None:
        fix = replace(fix, annotation=(fix.annotation[0], places.moved(*fix.annotation)))
    return replace(hazard, root=root, at=at, fix=fix)


def _fix_data(places, hazard: Hazard, second: PlacedTask, alias: str) -> Optional[dict]:
    """What a quick fix needs, as the client hands it back: the later task's call (add-dep edits its
    deps=), the reader parameter's annotation (make-inout wraps it; uri None: this document)."""
    fix = hazard.fix
    if fix is None:
        return None
    annotation = places.location(*fix.annotation) if fix.annotation is not None else None
    return {"kind": fix.kind, "tid": fix.tid, "callee": fix.callee, "param": fix.param, "task": second.name,
            "call": asdict(second.range), "alias": alias,
            "annotation": None if annotation is None else {"uri": annotation.uri,
                                                           "range": asdict(annotation.range)}}
