"""Placing a program's results in the document: unit-relative spans become absolute ranges.

One program's call sites (one per source call, the outermost derivation winning,
H2/H3), its signature changes, its InParamWritten warnings and problems, and its
operator calls, each with the evidence of its derivation located (here, or in the
file that defines a callee).
"""
from __future__ import annotations

from dataclasses import asdict
from typing import Optional

from ..ir import nodes as ir
from ..ir.module import ProgramDecl
from ..ir.nodes import ARG_STRENGTH, ArgDir, Dir
from ..pipeline.in_param_written import FIX_REASONS
from ..pipeline.model import CallResult, Derivation, Evidence, Fn
from ..pipeline.program import ProgramResult
from ..sharing import line_number, shared
from ..syntax.nodes import Span
from ..vocabulary import Code, Severity
from .results import (ArgHint, CallSite, Diagnostic, Explanation, Location, OperatorSite, Range, SignatureChange,
                      SignatureParam, Step)
from .graphs import place_graphs
from .moved_lines import moved_span
from .text import header_colon, indentation


def _owners(result: ProgramResult) -> dict:
    """Where the callees and the inline helpers (N1) from other programs or files live: owner -> (uri or
    None, line offset)."""
    out = dict(result.homes)
    for call in result.calls:
        fn = call.callee_fn
        if fn is not None and fn.home is not None:
            out[fn.owner] = fn.home
    return out


class _Places:
    """Turns (owner function, unit-relative span) into absolute ranges."""

    def __init__(self, functions, units, external=None, moves: Optional[dict] = None):
        self.offsets = {name: units[src.unit].start for name, (src, _) in functions.items()}
        self.external = external or {}  # owner -> (uri, line offset) of functions in other places
        self.moves = moves or {}  # owner -> how its lines moved since the result was made (moved_lines.py)

    def range(self, owner: str, span: Span) -> Optional[Range]:
        offset = self.offsets.get(owner)
        if offset is None:
            return None
        moved = self.moves.get(owner)
        if moved is not None:
            span = moved_span(span, moved)
            if span is None:
                return None
        return shared(_range(span, offset))  # one object per place: a call's hints and steps share it

    def moved(self, owner: str, span: Span) -> Span:
        """A unit-relative span of `owner` where its text is now."""
        moved = self.moves.get(owner)
        return span if moved is None else moved_span(span, moved) or span

    def location(self, owner: str, span: Span) -> Optional[Location]:
        """Where a span of some function is: here, or in another file (`external` owners)."""
        r = self.range(owner, span)
        if r is not None:
            return shared(Location(None, r))
        if owner in self.external:
            uri, offset = self.external[owner]
            return shared(Location(uri, shared(_range(span, offset))))
        return None

    # (the steps and explanations of a program's hints repeat: one object per value, sharing.py)
    def step(self, ev: Evidence) -> Step:
        return shared(Step(ev.label, ev.note, self.location(ev.owner, ev.span)))

    def explain(self, d: Derivation) -> Explanation:
        return shared(Explanation(d.rule, d.text, shared(tuple(self.step(e) for e in d.evidence))))


def _range(span: Span, offset: int) -> Range:
    return Range(line_number(span.line + offset), span.col, line_number(span.end_line + offset), span.end_col)


def _depths(fns: dict[str, Fn]) -> dict[str, int]:
    depth: dict[str, int] = {}
    for key in fns:
        _depth(key, fns, depth)
    return depth


def _depth(key: str, fns: dict[str, Fn], depth: dict[str, int]) -> int:
    # (a module function, not a recursive closure: that is a reference cycle per call, issue 13)
    if key not in depth:
        fn = fns.get(key)
        depth[key] = 0 if fn is None or fn.parent is None else _depth(fn.parent, fns, depth) + 1
    return depth[key]


def place(program: ProgramDecl, functions, units, lines: list[str], result: ProgramResult, alias: str,
          moves: Optional[dict] = None):
    """(call sites, signature changes, diagnostics, operator sites, placed graphs) of one program, in
    absolute positions. `moves`: owner -> how its lines moved since `result` was made (moved_lines.py)."""
    calls, signatures = place_calls(program, functions, units, lines, result, moves)
    return (calls, signatures) + place_rest(program, functions, units, lines, result, alias, moves)


def place_calls(program: ProgramDecl, functions, units, lines: list[str], result: ProgramResult,
                moves: Optional[dict] = None):
    """(call sites, signature changes) of one program, in absolute positions: what hints show, which
    `ProgramChain.calls` gives before the rest of the analysis."""
    calls: list[CallSite] = []
    signatures: list[SignatureChange] = []
    places = _Places(functions, units, _owners(result), moves)
    depth = _depths(result.fns)
    groups: dict = {}
    for call_result in result.calls:
        call = call_result.call
        owner = call.owner or result.fns[call_result.fn].owner
        groups.setdefault((owner, call.span.line, call.span.col), []).append(call_result)
    for (owner, _, _), group in groups.items():
        if _lent(group):  # another file's text: its site is that file's (helper_callers.py)
            continue
        site = _site(places, owner, group, depth, result, lines)
        if site is not None:
            calls.append(site)
    for name, (source, function) in functions.items():
        fn = result.fns.get(name)
        if fn is None or fn.origin != "user":
            continue
        for k, param in enumerate(fn.params):
            if fn.dirs[k] is param.decl:
                continue
            p = function.params[k]
            anchor = p.annotation_span or p.span
            r = places.range(name, anchor)
            if r is None:
                continue
            last = max(anchor, p.span, key=lambda span: (span.end_line, span.end_col))
            whole = places.range(name, p.span.to(last))
            signatures.append(SignatureChange(
                fn.name, param.name, r.end_line, r.end_col, param.decl.value, fn.dirs[k].value,
                tuple(places.explain(d) for d in fn.reasons.get(k, [])), whole))
    return calls, signatures


def place_rest(program: ProgramDecl, functions, units, lines: list[str], result: ProgramResult, alias: str,
               moves: Optional[dict] = None):
    """(diagnostics, operator sites, placed graphs) of one program, in absolute positions."""
    diagnostics: list[Diagnostic] = []
    places = _Places(functions, units, _owners(result), moves)
    for write in result.in_param_written:
        r = places.range(write.owner, write.span)
        if r is None:
            continue
        annotation = places.range(write.function, write.annotation) if write.annotation else None
        message, suggestion = in_param_written_words(write, result.fns.get(write.function), alias)
        diagnostics.append(Diagnostic(
            Code.IN_PARAM_WRITTEN, Severity.WARNING, message, r, tuple(places.step(e) for e in write.evidence),
            {"param": write.param, "function": write.function, "suggestion": suggestion,
             "annotation": asdict(annotation) if annotation else None, "alias": alias}))
    for problem in result.problems:
        r = places.range(problem.owner, problem.span)
        if r is None:
            continue
        diagnostics.append(Diagnostic(problem.code, problem.severity, problem.message, r,
                                      tuple(places.step(e) for e in problem.related)))
    operators = []
    for use in result.operators:
        r = places.range(use.owner, use.span)
        if r is not None:
            operators.append(OperatorSite(r, use.dsl, use.op_name, use.info, use.effects))
    extents = {name: Range(units[src.unit].start, 0, units[src.unit].end - 1, 0)
               for name, (src, _) in functions.items()}
    own = {src.unit: units[src.unit] for src, _ in functions.values()}
    return diagnostics, operators, place_graphs(result.graphs, places, lines, extents, alias, list(own.values()))


_UPGRADES = {"U4": "PyPTO's InCore upgrade (U4)", "P3": "caller propagation (P3)"}


def in_param_written_words(write, fn: Optional[Fn], alias: str) -> tuple[str, str]:
    """IW6 in the words the hints and the hover use, and the one fix that is right. PyPTO warns that a
    body writes a parameter its declaration still says In. Where its pipeline upgrades the parameter
    itself (an InCore body, U4; a callee writing it, P3), callers already pass the upgraded direction
    (the hints show it): the declaration should say what PyPTO derives. Where nothing does, callers
    pass it as Input and nothing orders their later tasks after the write."""
    k = write.param_index
    effective = fn.dirs[k] if fn is not None and k < len(fn.dirs) else Dir.IN
    head = f"parameter '{write.param}' of {write.function} is declared In, but {write.writer} writes it"
    if effective is not Dir.IN:
        rule = next((d.rule for d in fn.reasons.get(k, []) if d.rule in _UPGRADES), None)
        by = _UPGRADES.get(rule, "PyPTO")
        return (f"{head}: {by} makes it {effective.value} for its callers (their hints show it), so declare it "
                f"{alias}.{effective.value}[...] to say the same", effective.value)
    fix = f"declare it {alias}.{write.suggestion}[...] ({FIX_REASONS[write.suggestion]})"
    tensor = fn is not None and k < len(fn.params) and fn.params[k].type.is_tensor_arg
    if not tensor:  # a Tile or an Array: no task argument of a caller stands for it (S7)
        return f"{head}: {fix}", write.suggestion
    return (f"{head}: nothing upgrades it, so its callers pass it as Input and nothing orders their later tasks "
            f"after this write; {fix}", write.suggestion)


def _lent(group: list[CallResult]) -> bool:
    """A scope header of an inline helper of another file (N1), expanded here."""
    fn = group[0].callee_fn
    return group[0].dispatch and fn is not None and fn.scope is not None and "home" in fn.scope.attrs


def _site(places: _Places, owner: str, group: list[CallResult], depth, result: ProgramResult,
          lines: list[str]) -> Optional[CallSite]:
    outermost = min(depth.get(r.fn, 0) for r in group)
    chosen = [r for r in group if depth.get(r.fn, 0) == outermost]
    first = chosen[0]
    call = first.call
    callee = first.callee_fn
    call_range = places.range(owner, call.span)
    if call_range is None:
        return None
    name_range = places.range(owner, call.name_span) or call_range
    if first.dispatch and call_range.line < len(lines):
        # a scope header: from `with`/`for` to just after its `:`, where its hints go (over lines, H4)
        end_line, end_col = header_colon(lines, call_range.end_line, call_range.end_col)
        call_range = Range(call_range.line, indentation(lines[call_range.line]), end_line, end_col)
        name_range = call_range
    notes = []
    if len(group) > len(chosen):
        notes.append("this header also dispatches an inner call inside the outlined function (H3)")
    if first.inner and not first.dispatch and callee is not None:
        parent = result.fns.get(first.fn)
        if parent is not None and parent.scope is not None:
            notes.append(f"derived inside {parent.name}, the function outlined from the scope around it (H2); "
                         "its task-level directions are those of the scope header")
    if all(r.directions is None for r in chosen):
        return CallSite(call_range, name_range, callee.name if callee else call.callee.name,
                        callee.kind.value if callee else "?", first.fn, (), first.dispatch,
                        bool(call.submit), first.skipped, tuple(notes))
    vectors = [r for r in chosen if r.directions is not None]
    hints = []
    for k, (param, column) in enumerate(_columns(vectors, first.dispatch)):
        values = [r.directions[i] for r, i in column]
        best = max(range(len(values)), key=lambda j: ARG_STRENGTH[values[j]])
        direction = values[best]
        r, i = column[best]
        why = r.derivations[i]
        arg = column[0][0].call.args[column[0][1]]
        arg_name = arg.var.name if isinstance(arg, ir.Ref) and not arg.var.name.startswith("_t") else None
        if first.dispatch:
            line, col = call_range.end_line, call_range.end_col
        else:
            r = places.range(owner, call.arg_spans[i]) if i < len(call.arg_spans) else None
            line, col = (r.line, r.col) if r else (call_range.line, call_range.col)
        declared = None  # (an outlined scope's parameters are its header: no link to where the hint is)
        if callee is not None and callee.origin != "outlined" and i < len(callee.params) \
                and callee.params[i].span is not None:
            declared = places.location(callee.owner, callee.params[i].span)
        hints.append(ArgHint(line, col, direction, param, arg_name, k if first.dispatch else i, places.explain(why),
                             shared(tuple(values)) if len(values) > 1 else (), declared))
    return CallSite(call_range, name_range, callee.name if callee else "?", callee.kind.value if callee else "?",
                    first.fn, tuple(hints), first.dispatch, bool(call.submit), None, tuple(notes), _signature(callee))


def _columns(vectors: list[CallResult], dispatch: bool) -> list[tuple[str, list[tuple[CallResult, int]]]]:
    """The hints of one source call, each with the IR calls' slots behind it (H3). A call's are its
    argument positions; a scope header's are its captures by name: two expansions of it may capture
    different variables (a literal argument is no capture, an argument expression's operands are), so
    the same position can be two different buffers."""
    columns: dict = {}
    for r in vectors:
        params = r.callee_fn.params if r.callee_fn is not None else []
        for i in range(len(r.directions)):
            name = params[i].name if i < len(params) else f"#{i}"
            if dispatch and r.directions[i] is ArgDir.SCALAR:
                name = _helper_name(r, i, name)
            columns.setdefault(name if dispatch else i, (name, []))[1].append((r, i))
    return list(columns.values())


def _helper_name(r: CallResult, i: int, name: str) -> str:
    """A scalar that an inline helper's scope captures only through the argument expression its caller
    passes (N1: `pl.cast(n, pl.INT32)` for `num_blocks`) is shown as the helper's parameter."""
    scope = r.callee_fn.scope
    arg = r.call.args[i] if i < len(r.call.args) else None
    if scope is None or not isinstance(arg, ir.Ref):
        return name
    origin = scope.attrs.get("from_caller", {}).get(arg.var)
    return origin[0] if origin is not None and arg.var not in scope.attrs.get("names", {}) else name


def _signature(callee: Optional[Fn]) -> tuple[SignatureParam, ...]:
    if callee is None:
        return ()
    return shared(tuple(shared(SignatureParam(p.name, p.decl.value,
                                              callee.dirs[k].value if k < len(callee.dirs) else p.decl.value,
                                              not p.type.is_tensor_arg and p.type.cls != "unknown"))
                        for k, p in enumerate(callee.params)))
