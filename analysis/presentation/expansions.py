"""What a call of an inline helper launches, in words (N1): the code lens over the call and its hover.

A helper's call has no ArgDirection (S5): PyPTO copies the helper's body into the caller, and its
scopes and calls become the caller's tasks. So the call says what those tasks are and what they do
with what it passes: per argument, written (the strongest write: `out`, `inout`, `nodep`) or read
(`in`), as the task graph derives them (pipeline/expansions.py). A call the caller's own helper
makes (a helper expanded several times) sums up every expansion.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..ir.nodes import ARG_STRENGTH, ArgDir
from ..workspace.graphs import PlacedExpansion, PlacedGraph
from ..workspace.results import DocumentAnalysis, Location, Range
from .explain import LinkMaker, _plain
from .hints import LENS_LENGTH

MAX_LISTED = 40  # tasks a hover lists; the task graph shows the rest


@dataclass(frozen=True)
class HelperCall:
    """A call of an inline helper written in this document, with its expansions (one per graph and
    per expansion of the helper holding it)."""

    helper: str
    range: Range
    expansions: tuple[tuple[PlacedGraph, PlacedExpansion], ...]

    @property
    def tasks(self) -> int:
        return sum(len(e.tasks) for _, e in self.expansions)


def helper_calls(analysis: Optional[DocumentAnalysis]) -> list[HelperCall]:
    """Every call of an inline helper in the document that launches a task, in position order."""
    if analysis is None:
        return []
    found: dict = {}
    for graph in analysis.graphs:
        for e in graph.expansions:
            if e.uri is None and e.tasks:
                found.setdefault((e.range.line, e.range.col, e.range.end_line, e.range.end_col, e.helper),
                                 []).append((graph, e))
    return [HelperCall(key[4], group[0][1].range, tuple(group)) for key, group in sorted(found.items())]


def helper_call_at(analysis: Optional[DocumentAnalysis], line: int, col: int) -> Optional[HelperCall]:
    """The innermost helper call holding the position."""
    best = None
    for call in helper_calls(analysis):
        if call.range.holds(line, col) and (best is None or (call.range.line, call.range.col) >=
                                            (best.range.line, best.range.col)):
            best = call
    return best


def _arguments(call: HelperCall) -> list[tuple[int, str, ArgDir]]:
    """(position, argument as written, its direction) per argument some task touches, in call order,
    the strongest write over every expansion (else Input)."""
    by_index: dict[int, tuple[str, ArgDir]] = {}
    for _, e in call.expansions:
        for a in e.args:
            direction = ArgDir(a.direction)
            known = by_index.get(a.index)
            if known is None or _rank(direction) > _rank(known[1]):
                by_index[a.index] = (a.text, direction)
    return [(k, *by_index[k]) for k in sorted(by_index)]


def _rank(direction: ArgDir) -> tuple:
    """A write over a read; among writes, H3's order (InOut > Output > OutputExisting > NoDep)."""
    return (direction is not ArgDir.INPUT, ARG_STRENGTH[direction])


def count_text(call: HelperCall) -> str:
    """`3 tasks`, or `19 tasks × 3` for a call expanded three times (its helper is called three times)."""
    sizes = {len(e.tasks) for _, e in call.expansions}
    n = len(call.expansions)
    if n == 1 or len(sizes) == 1:
        size = next(iter(sizes))
        text = f"{size} task{'' if size == 1 else 's'}"
        return text if n == 1 else f"{text} × {n}"
    return f"{call.tasks} tasks in {n} expansions"


def lens_title(call: HelperCall, length: int = LENS_LENGTH) -> str:
    """`3 tasks · writes main_x, query_ids · reads hidden, w +3`: what the call launches, every argument
    its tasks write, the ones they only read while the title has room. Its own words (`writes`, `reads`),
    not the ArgDirections' (`out`, `in`): the call has none; the hover says which direction each write is."""
    arguments = _arguments(call)
    written = [text for _, text, d in arguments if d is not ArgDir.INPUT]
    read = [text for _, text, d in arguments if d is ArgDir.INPUT]
    parts = [count_text(call)]
    if written:
        parts.append("writes " + ", ".join(written))
    for keep in range(len(read), -1, -1):  # the reads give way
        if not read:
            break
        more = f" +{len(read) - keep}" if keep < len(read) else ""
        part = "reads " + ", ".join(read[:keep]) + more if keep else f"reads {len(read)}"
        if keep == 0 or len(" · ".join(parts + [part])) <= length:
            parts.append(part)
            break
    return " · ".join(parts)


def lens_tooltip(call: HelperCall) -> str:
    return (f"{call.helper} is an inline helper: PyPTO copies its body here (N1), and its scopes and calls "
            f"become {count_text(call)} of {_functions(call)}: the arguments they write and those they only read "
            "(the hover gives each one's ArgDirection). Click: the task graph, at this call.")


def _functions(call: HelperCall) -> str:
    names = []
    for graph, _ in call.expansions:
        if graph.function not in names:
            names.append(graph.function)
    return ", ".join(f"`{n}`" for n in names)


def hover_markdown(call: HelperCall, link: LinkMaker = _plain) -> str:
    """The hover of a helper call: what it becomes, what its tasks do with each argument, its tasks."""
    lines = [f"**{call.helper}** (inline helper) — expands into {_functions(call)}: {count_text(call)} (N1)", "",
             "PyPTO copies the helper's body here: its scopes and calls are tasks of the caller, and the call "
             "itself has no directions. What those tasks do with each argument (a read is Input):", ""]
    arguments = _arguments(call)
    graph0, first = call.expansions[0]
    # what the call writes first (what a caller looks for), then what it only reads; each in call order
    for index, text, _ in sorted(arguments, key=lambda a: a[2] is ArgDir.INPUT):
        lines.append(f"- **{text}** — " + "; ".join(_uses(call, index)))
    if not arguments:
        lines.append("- none of its arguments is a buffer its tasks touch")
    if len(call.expansions) > 1:
        lines += ["", f"_This call is expanded {len(call.expansions)} times (the helper holding it is expanded "
                      f"{len(call.expansions)} times): the uses above and the tasks below are the first expansion's; "
                      "the code lens counts the writes of every one._"]
    lines += ["", f"Tasks ({len(first.tasks)}):", ""]
    for task_id in first.tasks[:MAX_LISTED]:
        task = graph0.tasks[task_id]
        place = link(Location(task.uri or None, task.range), task.where()) if task.uri != "" else task.where()
        lines.append(f"- #{task.id} {task.name} ({_kind(task.kind)}, {place})")
    if len(first.tasks) > MAX_LISTED:
        lines.append(f"- … and {len(first.tasks) - MAX_LISTED} more: PyPTO Lens: Show Task Graph")
    return "\n".join(lines)


def _uses(call: HelperCall, index: int) -> list[str]:
    """`written by #3 rms_norm (OutputExisting)`, `read by #4 pad` (Input): in the first expansion using it."""
    for graph, e in call.expansions:
        own = next((a for a in e.args if a.index == index), None)
        if own is None:
            continue
        written = [f"#{t} {graph.tasks[t].name} ({d})" for t, d in own.uses if d != ArgDir.INPUT.value]
        read = [f"#{t} {graph.tasks[t].name}" for t, d in own.uses if d == ArgDir.INPUT.value]
        return (["**written** by " + _some(written)] if written else []) + (["read by " + _some(read)] if read else [])
    return []


def _some(items: list[str], most: int = 4) -> str:
    return ", ".join(items[:most]) + (f" and {len(items) - most} more" if len(items) > most else "")


def _kind(kind: str) -> str:
    return {"dispatch": "scope", "call": "call", "submit": "submit", "barrier": "barrier"}.get(kind, kind)
