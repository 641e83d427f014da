"""`pypto-lens graph FILE[:FUNCTION]`: the task graph of orchestration functions, as text, JSON, DOT or Mermaid.

JSON is the task-graph contract (notes/graph_contract.md): a list of graphs.
DOT and Mermaid draw tasks in submit order, edges coloured by kind (carried
ones dashed, those whose overlap is known only at run time dotted), loops as
clusters and hazards as red links from the earlier to the later access.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from ..presentation.graph_view import graph_json
from ..workspace.graphs import PlacedGraph, file_name
from ..workspace.workspace import Workspace, path_to_uri

EDGE_COLOURS = {"raw": "#1f77b4", "waw": "#9467bd", "creator": "#2ca02c", "deps": "#7f7f7f"}
HAZARD_COLOUR = "#d62728"


def split_target(target: str) -> tuple[str, str | None]:
    """FILE or FILE:FUNCTION (a Windows drive's colon is part of the file)."""
    if Path(target).exists():
        return target, None
    file, sep, function = target.rpartition(":")
    if sep and file and function.isidentifier():
        return file, function
    return target, None


def graphs_of(target: str, workspace: Workspace | None = None) -> tuple[str, list[PlacedGraph]]:
    file, function = split_target(target)
    path = Path(file)
    if not path.is_file():
        raise FileNotFoundError(file)
    workspace = workspace or Workspace([path.parent])
    analysis = workspace.analysis(path_to_uri(path))
    graphs = list(analysis.graphs) if analysis is not None else []
    if function is not None:
        graphs = [g for g in graphs if g.function == function]
        if not graphs:
            raise LookupError(f"{file}: no orchestration-like function named {function}")
    return file, graphs


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def as_text(file: str, graph: PlacedGraph, information: bool, reduced: bool) -> list[str]:
    counts = graph.counts(information)
    tallies = ", ".join(_count(counts[kind], kind[:-1]) for kind in ("tasks", "edges", "hazards"))
    out = [f"{file}:{graph.range.line + 1}: {graph.function}: {tallies}" + (" (host-level, G13)" if graph.host else "")]
    for note in graph.notes:
        out.append(f"  note: {note}")
    loops = {info["id"]: info for info in graph.loops}
    for t in graph.tasks:
        where = " ".join(f"{loops[k]['kind']}@{_loop_place(loops[k])}" for k in t.loops)
        flags = [f for f, on in (("in an if", t.branch), ("manual", t.manual), (f"tid={t.tid}", t.tid)) if on]
        head = f"  #{t.id} {t.kind} {t.name}  {t.where()}" + (f"  [{where}]" if where else "") + \
            (f"  ({', '.join(flags)})" if flags else "")
        out.append(head)
        for a in t.args:
            region = "" if a.region == "whole" else f" {a.region}"
            buffer = a.buffer or "?"
            out.append(f"      {a.param} = {a.text}: {a.direction} on {buffer}{region}")
        waits = [e for e in graph.edges if e.dst == t.id and not (reduced and e.redundant)]
        for e in waits:
            extra = [x for x, on in (("carried", e.carried), ("overlap unknown", e.overlap == "unknown"),
                                     ("redundant", e.redundant)) if on]
            out.append(f"      waits for #{e.src} ({e.kind}{' ' + e.buffer if e.buffer else ''}, {e.rule}"
                       + (", " + ", ".join(extra) if extra else "") + ")")
    for h in graph.shown_hazards(information):
        out.append(f"  {h.hazard.severity} {h.hazard.code} (#{h.hazard.first} -> #{h.hazard.second}) "
                   f"line {h.range.line + 1}: {h.message}")
    return out


def _loop_place(loop: dict) -> str:
    """A loop's header line, with its file when an inline helper of another file holds it (N1)."""
    return f"{file_name(loop['uri'])}:{loop['line']}" if loop.get("uri") else str(loop["line"])


def _loop_where(loop: dict) -> str:
    return f"{file_name(loop['uri'])}:{loop['line']}" if loop.get("uri") else f"line {loop['line']}"


def _node(graph: PlacedGraph, task_id: int) -> str:
    return f"t{task_id}"


def as_dot(graph: PlacedGraph, information: bool, reduced: bool) -> list[str]:
    name = graph.function.replace('"', "'")
    out = [f'digraph "{name}" {{', "  rankdir=TB;", '  node [shape=box, fontname="Helvetica"];']
    children: dict = {}
    for info in graph.loops:
        children.setdefault(info["parent"], []).append(info)
    direct: dict = {}
    for t in graph.tasks:
        direct.setdefault(t.loops[-1] if t.loops else None, []).append(t)

    _dot_loop(graph, children, direct, None, "  ", out)
    for e in graph.edges:
        if reduced and e.redundant:
            continue
        style = "dashed" if e.carried else ("dotted" if e.overlap == "unknown" else "solid")
        label = f"{e.kind}{' ' + e.buffer if e.buffer else ''}".replace('"', "'")
        out.append(f'  {_node(graph, e.src)} -> {_node(graph, e.dst)} [label="{label}", '
                   f'color="{EDGE_COLOURS.get(e.kind, "black")}", style={style}];')
    for h in graph.shown_hazards(information):
        label = f"{h.hazard.rule} {h.hazard.buffer}".replace('"', "'")
        out.append(f'  {_node(graph, h.hazard.first)} -> {_node(graph, h.hazard.second)} [label="{label}", '
                   f'color="{HAZARD_COLOUR}", fontcolor="{HAZARD_COLOUR}", style=dashed, constraint=false];')
    out.append("}")
    return out


def _dot_loop(graph: PlacedGraph, children: dict, direct: dict, loop, indent: str, out: list) -> None:
    """A loop's tasks, then its inner loops as clusters. (The two writers are module functions, not
    recursive closures: those are a reference cycle per call, issue 13.)"""
    for t in direct.get(loop, []):
        label = f"#{t.id} {t.name}\\n{t.where()}".replace('"', "'")
        style = ', style=dashed' if t.manual else ''
        out.append(f'{indent}{_node(graph, t.id)} [label="{label}"{style}];')
    for info in children.get(loop, []):
        out.append(f"{indent}subgraph cluster_loop{info['id']} {{")
        out.append(f'{indent}  label="{info["kind"]} ({_loop_where(info)})"; style=rounded;')
        _dot_loop(graph, children, direct, info["id"], indent + "  ", out)
        out.append(f"{indent}}}")


def as_mermaid(graph: PlacedGraph, information: bool, reduced: bool) -> list[str]:
    out = ["flowchart TB"]
    children: dict = {}
    for info in graph.loops:
        children.setdefault(info["parent"], []).append(info)
    direct: dict = {}
    for t in graph.tasks:
        direct.setdefault(t.loops[-1] if t.loops else None, []).append(t)

    _mermaid_loop(graph, children, direct, None, "  ", out)
    styles = []
    count = 0
    for e in graph.edges:
        if reduced and e.redundant:
            continue
        label = f"{e.kind}{' ' + e.buffer if e.buffer else ''}".replace('"', "'").replace("|", "/")
        arrow = "-.->" if e.carried or e.overlap == "unknown" else "-->"
        out.append(f"  {_node(graph, e.src)} {arrow}|{label}| {_node(graph, e.dst)}")
        styles.append(f"  linkStyle {count} stroke:{EDGE_COLOURS.get(e.kind, 'black')}")
        count += 1
    for h in graph.shown_hazards(information):
        label = f"{h.hazard.rule} {h.hazard.buffer}".replace('"', "'").replace("|", "/")
        out.append(f"  {_node(graph, h.hazard.first)} -.-x|{label}| {_node(graph, h.hazard.second)}")
        styles.append(f"  linkStyle {count} stroke:{HAZARD_COLOUR},color:{HAZARD_COLOUR}")
        count += 1
    return out + styles


def _mermaid_loop(graph: PlacedGraph, children: dict, direct: dict, loop, indent: str, out: list) -> None:
    for t in direct.get(loop, []):
        label = f"#{t.id} {t.name}<br/>{t.where()}".replace('"', "'")
        out.append(f'{indent}{_node(graph, t.id)}["{label}"]')
    for info in children.get(loop, []):
        out.append(f'{indent}subgraph loop{info["id"]}["{info["kind"]} ({_loop_where(info)})"]')
        _mermaid_loop(graph, children, direct, info["id"], indent + "  ", out)
        out.append(f"{indent}end")


def cmd_graph(args) -> int:
    from .main import UsageError
    found: list[tuple[str, PlacedGraph]] = []
    workspaces: dict = {}
    for target in args.targets:
        folder = Path(split_target(target)[0]).parent
        try:
            file, graphs = graphs_of(target, workspaces.setdefault(folder, Workspace([folder])))
        except FileNotFoundError as exc:
            raise UsageError(f"no such file: {exc}") from exc
        except LookupError as exc:
            raise UsageError(str(exc)) from exc
        found.extend((file, g) for g in graphs)
    information = args.information
    if args.format == "json":
        json.dump([graph_json(g, file, information) for file, g in found], sys.stdout, indent=1, ensure_ascii=False)
        print()
        return 0
    if not found:
        print("pypto-lens: no orchestration-like function submits tasks", file=sys.stderr)
        return 1
    for i, (file, graph) in enumerate(found):
        if i and args.format != "text":
            print()
        lines = {"text": lambda: as_text(file, graph, information, args.reduced),
                 "dot": lambda: as_dot(graph, information, args.reduced),
                 "mermaid": lambda: as_mermaid(graph, information, args.reduced)}[args.format]()
        for line in lines:
            print(line)
    return 0


def add_graph_command(sub) -> None:
    graph = sub.add_parser("graph", help="the task graph of orchestration functions, and its hazards")
    graph.add_argument("targets", nargs="+", metavar="FILE[:FUNCTION]")
    graph.add_argument("--format", choices=["text", "json", "dot", "mermaid"], default="text")
    graph.add_argument("--information", action="store_true",
                       help="also show information-level hazards (uncertain overlap, carried pairs)")
    graph.add_argument("--reduced", action="store_true", help="hide edges implied by other edges")
    graph.set_defaults(run=cmd_graph)
