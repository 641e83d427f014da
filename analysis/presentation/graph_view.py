"""The task graph for its readers: the contract's JSON (notes/graph_contract.md: the CLI, the server's
pyptoLens.taskGraph and the webview read it), the answer of that command, the CodeLens title, the
hover's line about a task, and the words of the hazards' quick fixes.

Positions in the JSON are 1-based lines and code-point columns, whoever asks.
"""
from __future__ import annotations

from typing import Optional

from ..pipeline.hazards import HAZARD_CODES
from ..workspace.graphs import PlacedGraph, PlacedTask
from ..workspace.results import DocumentAnalysis

# the settings that switch the hazard codes (one per group; `hazards.information` adds the uncertain ones)
HAZARD_SETTINGS = sorted({setting for _, setting in HAZARD_CODES.values()})
SCOPE_WINDOW = "ScopeWindowExceeded"  # a scope's size, not a pair of tasks: no race to name


def hazard_setting(code: str) -> Optional[str]:
    """The setting of a hazard code's group (`hazards.noDep`, ...); None: not a hazard code."""
    entry = HAZARD_CODES.get(str(code))
    return entry[1] if entry else None


def fix_title(kind: str, tid: Optional[str], callee: Optional[str], param: Optional[str], later: str) -> str:
    """The quick fix of a hazard in words (the graph's list and the code action say the same)."""
    if kind == "add-dep":
        return f"Add {tid} to deps= of {later}"
    return f"Declare {callee}.{param} InOut, so that {later} waits for this read"


def graph_json(graph: PlacedGraph, file: str, information: bool = False) -> dict:
    """The task-graph JSON of the contract; `information` adds the information-level hazards."""
    return {
        "function": graph.function, "file": file, "line": graph.range.line + 1, "host": graph.host,
        "manual": bool(graph.tasks) and all(t.manual for t in graph.tasks),
        "tasks": [{
            "id": t.id, "name": t.name, "kind": t.kind,
            "line": t.range.line + 1, "col": t.range.col + 1,
            "end_line": t.range.end_line + 1, "end_col": t.range.end_col + 1,
            "loops": list(t.loops), "branch": t.branch, "manual": t.manual, "tid": t.tid,
            "waits_on_unknown": t.waits_on_unknown, "elsewhere": t.elsewhere, "uri": t.uri or None,
            "inlined": list(t.inlined), "path": list(t.path),
            "args": [{"param": a.param, "text": a.text, "buffer": a.buffer, "direction": a.direction,
                      "region": a.region} for a in t.args],
        } for t in graph.tasks],
        "loops": graph.loops,
        "inlined": [{
            "id": e.id, "helper": e.helper, "line": e.range.line + 1, "col": e.range.col + 1,
            "end_line": e.range.end_line + 1, "end_col": e.range.end_col + 1, "uri": e.uri or None,
            "parent": e.parent, "tasks": list(e.tasks),
            "args": [{"index": a.index, "text": a.text, "direction": a.direction}
                     for a in e.args],
        } for e in graph.expansions],
        "edges": [{"from": e.src, "to": e.dst, "rule": e.rule, "kind": e.kind, "buffer": e.buffer,
                   "carried": e.carried, "overlap": e.overlap, "redundant": e.redundant} for e in graph.edges],
        "hazards": [{
            "code": h.hazard.code, "rule": h.hazard.rule, "severity": h.hazard.severity,
            "first": h.hazard.first, "second": h.hazard.second, "buffer": h.hazard.buffer,
            "carried": h.hazard.carried, "overlap": h.hazard.overlap, "message": h.message,
            "line": h.range.line + 1,
            "fix": None if h.hazard.fix is None else {
                "title": fix_title(h.hazard.fix.kind, h.hazard.fix.tid, h.hazard.fix.callee, h.hazard.fix.param,
                                   graph.tasks[h.hazard.second].name),
                "kind": h.hazard.fix.kind},
        } for h in graph.shown_hazards(information)],
        "notes": list(graph.notes),
        "counts": graph.counts(information),
    }


def graph_answer(analysis: Optional[DocumentAnalysis], uri: str, line: Optional[int] = None,
                 function: Optional[str] = None, information: bool = False) -> dict:
    """pyptoLens.taskGraph's answer: the graph of the function holding `line` (0-based), or of the one
    named, with the names of the document's graph-bearing functions; `graph` null outside one."""
    graphs = list(analysis.graphs) if analysis is not None else []
    chosen = None
    if function is not None:
        chosen = next((g for g in graphs if g.function == function), None)
    elif line is not None and analysis is not None:
        chosen = analysis.graph_at(line)
    return {"uri": uri, "functions": _unique(g.function for g in graphs),
            "graph": graph_json(chosen, uri, information) if chosen is not None else None}


def _unique(names) -> list[str]:
    out: list[str] = []
    for name in names:
        if name not in out:
            out.append(name)
    return out


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def lens_title(graph: PlacedGraph, information: bool = False) -> str:
    """The CodeLens over an orchestration-like function: `12 tasks · 20 edges · 1 hazard`."""
    counts = graph.counts(information)
    return " · ".join((_plural(counts["tasks"], "task"), _plural(counts["edges"], "edge"),
                       _plural(counts["hazards"], "hazard"))) + (" (host-level)" if graph.host else "")


def hover_line(graph: PlacedGraph, task: PlacedTask, information: bool = False) -> str:
    """One line for a call's hover: which earlier tasks it waits for, and which it races with."""
    waits = sorted({e.src for e in graph.edges if e.dst == task.id and not e.carried and e.src != task.id})
    races = sorted({h.hazard.first if h.hazard.second == task.id else h.hazard.second
                    for h in graph.shown_hazards(information)
                    if task.id in (h.hazard.first, h.hazard.second) and h.hazard.code != SCOPE_WINDOW})
    if task.kind == "unknown":
        return f"Task #{task.id}: {UNKNOWN_CALLEE.format(name=task.name)}"
    text = f"Task #{task.id} waits for " + (", ".join(_name(graph, t) for t in waits) if waits
                                             else "no earlier task")
    if races:
        text += "; races with " + ", ".join(_name(graph, t) for t in races)
    if task.waits_on_unknown:
        text += "; " + UNKNOWN_DEPS
    return text


# what the analysis assumes of a task it cannot read (task_graph.py: such a task is `wild`)
UNKNOWN_CALLEE = ("its callee {name} is not found (not in this program, not importable here), so its "
                  "directions are unknown: the analysis assumes it waits for every earlier task and every later "
                  "task waits for it, so it orders everything; no hazard is reported with it or between a task "
                  "before it and one after it, and it draws no edges")
UNKNOWN_DEPS = ("a deps= entry names a task id the analysis cannot follow, so it may wait for any earlier task: "
                "no hazard is reported between it and an earlier task")


def task_line(analysis: DocumentAnalysis, line: int, col: int, information: bool = False) -> Optional[str]:
    """The hover line of the task whose call holds the position, if it is one."""
    graph = analysis.graph_at(line)
    task = graph.task_at(line, col) if graph is not None else None
    if task is None or task.uri is not None:
        return None
    return hover_line(graph, task, information)


def _name(graph: PlacedGraph, task_id: int) -> str:
    t = graph.tasks[task_id]
    return f"#{t.id} {t.name} ({t.where()})"

