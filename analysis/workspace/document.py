"""Analyse one document: units, parse, lower, run the chain per program, place the results.

Every step is cached by content, not by line numbers: a unit's parse by its
text, a function's lowering by its unit's text and the module context, a
program's chain by its functions and their callees' signatures. An edit
above a function only moves it (its unit's line offset changes).
"""
from __future__ import annotations

import hashlib
import re
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Callable, Optional

from ..ir import nodes as ir
from ..ir.context import ModuleContext
from ..ir.lower import FunctionLowering
from ..ir.module import FunctionSource, ProgramDecl, build_context, find_programs, unit_contribution
from ..ir.nodes import ARG_STRENGTH
from ..pipeline.model import CallResult, Derivation, Evidence, Fn, external_copy
from ..pipeline.in_param_written import FIX_REASONS
from ..pipeline.program import ProgramResult, analyse_program
from ..registry.registry import Registry
from ..syntax import chunker
from ..syntax.parser import SyntaxProblem
from ..syntax.recovery import parse_recovering
from ..syntax.nodes import Span
from ..registry.bundled import bundled_locations, bundled_source
from .explain import operator_markdown
from .graphs import place_graphs
from .results import (ArgHint, CallSite, Diagnostic, DocumentAnalysis, Explanation, Location, OperatorSite, Range,
                      SignatureChange, Step)
from .text import code_end

External = Callable[[ir.CalleeRef, "ModuleContext"], Optional[Fn]]


class LRU(OrderedDict):
    """A dict that forgets its least recently used entries beyond `size`."""

    def __init__(self, size: int):
        super().__init__()
        self.size = size

    def __setitem__(self, key, value) -> None:
        super().__setitem__(key, value)
        self.move_to_end(key)
        if len(self) > self.size:
            self.popitem(last=False)

    def get(self, key, default=None):
        if key in self:
            self.move_to_end(key)
            return super().__getitem__(key)
        return default

    def get_or(self, key, make):
        value = self.get(key, _MISSING)
        if value is _MISSING:
            value = self[key] = make()
        return value


_MISSING = object()


@dataclass
class ParsedUnit:
    stmts: list
    problem: Optional[SyntaxProblem]
    contributions: dict = field(default_factory=dict, compare=False)  # context key -> unit_contribution


class Caches:
    """Content-keyed caches shared by every document of a workspace."""

    def __init__(self) -> None:
        self.parses = LRU(20000)
        self.lowered = LRU(20000)
        self.programs = LRU(2000)
        self.placed = LRU(4000)  # a program's results in absolute positions, by its offsets
        self.splitters: dict = {}  # uri -> the chunker.Splitter of that document
        self.module_copies = LRU(2000)  # (module function, offset) -> its external copy

    def splitter(self, uri: str) -> chunker.Splitter:
        if uri not in self.splitters:
            self.splitters[uri] = chunker.Splitter()
        return self.splitters[uri]


def parse(caches: Caches, unit: chunker.Unit) -> ParsedUnit:
    def run() -> ParsedUnit:
        text = unit.text
        if unit.kind == "class":
            text += "\n" + " " * 4 + "pass"  # a class header alone has no body
        stmts, problem = parse_recovering(text)
        return ParsedUnit(stmts, problem)
    return caches.parses.get_or((unit.kind, unit.text), run)


class DocumentAnalyzer:
    def __init__(self, registry: Callable[[], Registry], caches: Optional[Caches] = None,
                 external: Optional[External] = None,
                 imported_constants: Optional[Callable[[ModuleContext], dict]] = None):
        self.registry = registry
        self.caches = caches or Caches()
        self.external = external or (lambda ref, ctx: None)
        self.imported_constants = imported_constants or (lambda ctx: {})
        self.module_functions: dict[str, Fn] = {}  # after analyse(): the module's pl functions
        self.module_offsets: dict[str, int] = {}  # their first lines
        self.module_constants: dict = {}
        self.module_imports: dict = {}

    def analyse(self, text: str, uri: Optional[str] = None, version: Optional[int] = None) -> DocumentAnalysis:
        units = self.caches.splitter(uri).split(text) if uri else chunker.split(text)
        lines = text.split("\n")
        parsed: list[ParsedUnit] = []
        diagnostics: list[Diagnostic] = []
        relevant, uses_pl = _relevance(self.caches, units)
        for unit in units:
            if not relevant(unit):
                parsed.append(_SKIPPED)  # no pl code in it: not worth a parse
                continue
            result = parse(self.caches, unit)
            # one diagnostic per broken unit, at its first error; a file without pl code is not ours
            if result.problem is not None and uses_pl:
                line = min(unit.start + result.problem.line, len(lines) - 1)
                col = min(result.problem.col, len(lines[line]))
                end = max(col, len(lines[line].rstrip()))
                diagnostics.append(Diagnostic("SyntaxError", "error", f"syntax error: {result.problem.message}",
                                              Range(line, col, line, end)))
            parsed.append(result)
        statements = [p.stmts for p in parsed]
        top = [st if u.kind == "statement" else [] for st, u in zip(statements, units)]
        ctx = build_context(top, self.imported_constants)
        self.module_constants = dict(ctx.constants)
        self.module_imports = dict(ctx.imported)
        self.module_functions, self.module_offsets = {}, {}
        self.closures: dict = {}  # (closure program, unit) -> its functions and their offset
        fingerprint = _context_key(ctx)
        contributions = [_contribution(p, ctx, fingerprint, u.kind) for p, u in zip(parsed, units)]
        programs = find_programs(ctx, statements, [u.kind for u in units], [u.parent for u in units],
                                 contributions)
        registry = self.registry()
        analysis = DocumentAnalysis(uri, version, [], [], diagnostics)
        alias = next((name for name, path in ctx.aliases.items() if path == "pl"), "pl")
        for program in programs:
            functions = self._lower(program, units, ctx, fingerprint)
            if not functions:
                continue
            try:
                result = self._chain(program, functions, registry, ctx)
            except RecursionError:
                analysis.diagnostics.append(_failure(program, units, "is nested too deeply to analyse"))
                continue
            offsets = tuple((name, units[src.unit].start) for name, (src, _) in functions.items())
            key = (id(result), offsets, alias)

            placed = self.caches.placed.get(key)
            if placed is None or placed[0] is not result:  # (an id may be reused once a result is gone)
                placed = self.caches.placed[key] = (result, _place(program, functions, units, lines, result, alias))
            calls, signatures, found, operators, (graphs, hazards, notes) = placed[1]
            analysis.calls.extend(calls)
            analysis.signatures.extend(signatures)
            analysis.diagnostics.extend(found + hazards)
            analysis.operators.extend(operators)
            analysis.graphs.extend(graphs)
            analysis.optional_diagnostics.extend(notes)
            if program.kind == "module":
                self.module_functions = {name: result.fns[name] for name in functions if name in result.fns}
                self.module_offsets = {name: units[src.unit].start for name, (src, _) in functions.items()}
            elif program.kind == "closure":
                self.closures[(program.name, program.unit)] = (
                    {name: result.fns[name] for name in functions if name in result.fns}, units[program.unit].start)
        analysis.calls.sort(key=lambda c: (c.range.line, c.range.col))
        analysis.diagnostics = _dedupe_operator_notes(analysis.diagnostics)
        return analysis

    def _lower(self, program: ProgramDecl, units, ctx: ModuleContext,
               fingerprint: str) -> dict[str, tuple[FunctionSource, ir.Function]]:
        out = {}
        for source in program.functions:
            unit = units[source.unit]
            key = (unit.kind, unit.text, source.name, source.node.span, fingerprint,
                   tuple(sorted(source.constants.items(), key=lambda kv: kv[0])) if source.constants else ())

            def run(source=source):
                constants = dict(ctx.constants)
                constants.update(source.constants)
                return FunctionLowering(ctx, constants, source.in_class).function(
                    source.node, source.kind, source.jit, source.attrs)
            out[source.name] = (source, self.caches.lowered.get_or(key, run))
        return out

    def _module_function(self, ref: ir.CalleeRef, program: ProgramDecl) -> Optional[Fn]:
        """A pl function of this file called by plain name from another program: one defined beside
        the program in the same enclosing function, or at module level."""
        if ref.how != "name":
            return None
        sibling = self.closures.get((program.parent, program.unit)) if program.parent else None
        if sibling is not None and ref.name in sibling[0]:
            return self._copy(sibling[0][ref.name], f"{ref.name}@{program.parent}", sibling[1])
        if ref.name in self.module_functions:
            return self._copy(self.module_functions[ref.name], f"{ref.name}@module",
                              self.module_offsets.get(ref.name, 0))
        return None

    def _copy(self, fn: Fn, owner: str, offset: int) -> Fn:
        key = (id(fn), owner, offset)
        copy = self.caches.module_copies.get(key)
        if copy is None or copy[0] is not fn:
            copy = (fn, external_copy(fn, owner, (None, offset)))
            self.caches.module_copies[key] = copy
        return copy[1]

    def _chain(self, program: ProgramDecl, functions, registry: Registry, ctx: ModuleContext) -> ProgramResult:
        lowered = [fn for _, fn in functions.values()]
        externals: dict = {}

        def external(ref: ir.CalleeRef) -> Optional[Fn]:
            if ref not in externals:
                externals[ref] = self._module_function(ref, program) if program.kind != "module" else None
                if externals[ref] is None:
                    externals[ref] = self.external(ref, ctx)
            return externals[ref]

        key = (program.name, tuple(id(fn) for fn in lowered), id(registry))
        hit = self.caches.programs.get(key)
        if hit is not None and all(external(ref) is fn for ref, fn in hit[1].items()):
            return hit[0]
        result = analyse_program(program.name, lowered, registry, external)
        self.caches.programs[key] = (result, dict(externals))
        return result


def _owners(result: ProgramResult) -> dict:
    """Where the callees from other programs or files live: owner -> (uri or None, line offset)."""
    out = {}
    for call in result.calls:
        fn = call.callee_fn
        if fn is not None and fn.home is not None:
            out[fn.owner] = fn.home
    return out


def _contribution(parsed: ParsedUnit, ctx: ModuleContext, fingerprint: str, kind: str):
    """A unit's share of the module's programs, cached on its parse (valid for one module context)."""
    memo = parsed.contributions
    key = (fingerprint, kind)
    if key not in memo:
        if len(memo) > 4:
            memo.clear()
        memo[key] = unit_contribution(ctx, parsed.stmts, kind)
    return memo[key]


_SKIPPED = ParsedUnit([], None)
_IMPORT = re.compile(r"(?:from|import)\b")
_ASSIGNMENT = re.compile(r"[A-Za-z_]\w*\s*(?::[^=]*)?=(?!=)")


def _relevance(caches: Caches, units: list[chunker.Unit]) -> tuple[Callable[[chunker.Unit], bool], bool]:
    """Which units need a parse (imports, module constants, and units that mention the DSL's
    names), and whether the file uses pl at all. A file without pl code still gives its
    imports and constants (a pl file may import its sizes from a plain config module)."""
    names = set()
    for unit in units:
        if unit.kind == "statement" and _IMPORT.match(unit.text) and "pypto" in unit.text:
            ctx = build_context([parse(caches, unit).stmts])
            names.update(ctx.aliases)

    def module_level(unit: chunker.Unit) -> bool:
        return unit.kind == "statement" and bool(_IMPORT.match(unit.text) or _ASSIGNMENT.match(unit.text))
    if not names:
        return module_level, False
    mention = re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, names))) + r")\b")
    return (lambda unit: module_level(unit) or mention.search(unit.text) is not None), True


def _context_key(ctx: ModuleContext) -> str:
    text = repr((sorted(ctx.aliases.items()), sorted(ctx.constants.items(), key=lambda kv: kv[0]),
                 sorted(ctx.imported.items()), sorted(ctx.modules.items())))
    return hashlib.sha1(text.encode("utf-8", "replace")).hexdigest()


# -- placing results in the document ------------------------------------------------------


class _Places:
    """Turns (owner function, unit-relative span) into absolute ranges."""

    def __init__(self, functions, units, external=None):
        self.offsets = {name: units[src.unit].start for name, (src, _) in functions.items()}
        self.external = external or {}  # owner -> (uri, line offset) of functions in other places

    def range(self, owner: str, span: Span) -> Optional[Range]:
        offset = self.offsets.get(owner)
        if offset is None:
            return None
        return Range(span.line + offset, span.col, span.end_line + offset, span.end_col)

    def location(self, owner: str, span: Span) -> Optional[Location]:
        """Where a span of some function is: here, or in another file (`external` owners)."""
        r = self.range(owner, span)
        if r is not None:
            return Location(None, r)
        if owner in self.external:
            uri, offset = self.external[owner]
            return Location(uri, Range(span.line + offset, span.col, span.end_line + offset, span.end_col))
        return None

    def step(self, ev: Evidence) -> Step:
        return Step(ev.label, ev.note, self.location(ev.owner, ev.span))

    def explain(self, d: Derivation) -> Explanation:
        return Explanation(d.rule, d.text, tuple(self.step(e) for e in d.evidence))


def _depths(fns: dict[str, Fn]) -> dict[str, int]:
    depth = {}

    def of(key: str) -> int:
        if key in depth:
            return depth[key]
        fn = fns.get(key)
        depth[key] = 0 if fn is None or fn.parent is None else of(fn.parent) + 1
        return depth[key]
    for key in fns:
        of(key)
    return depth


def _failure(program: ProgramDecl, units, why: str) -> Diagnostic:
    line = units[program.unit].start if program.unit >= 0 else 0
    return Diagnostic("AnalysisFailed", "information", f"PyPTO Lens could not analyse {program.name}: it {why}",
                      Range(line, 0, line, 0))


def _dedupe_operator_notes(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """One note per operator without declarations per document, at its first call (less noise)."""
    seen: set = set()
    out = []
    for d in diagnostics:
        if d.code in ("UnclassifiedOperator", "UnknownOperator"):
            op = d.message.split(" ", 1)[0]
            if op in seen:
                continue
            seen.add(op)
        out.append(d)
    return out


def _place(program: ProgramDecl, functions, units, lines: list[str], result: ProgramResult, alias: str):
    """(call sites, signature changes, diagnostics) of one program, in absolute positions."""
    calls: list[CallSite] = []
    signatures: list[SignatureChange] = []
    diagnostics: list[Diagnostic] = []
    places = _Places(functions, units, _owners(result))
    depth = _depths(result.fns)
    groups: dict = {}
    for call_result in result.calls:
        call = call_result.call
        owner = call.owner or result.fns[call_result.fn].owner
        groups.setdefault((owner, call.span.line, call.span.col), []).append(call_result)
    for (owner, _, _), group in groups.items():
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
    for write in result.in_param_written:
        r = places.range(write.owner, write.span)
        if r is None:
            continue
        annotation = places.range(write.function, write.annotation) if write.annotation else None
        diagnostics.append(Diagnostic(
            "InParamWritten", "warning",
            f"parameter '{write.param}' of {write.function} is declared In, but {write.writer} writes it: "
            f"declare it {alias}.{write.suggestion}[...] ({FIX_REASONS[write.suggestion]})",
            r, tuple(places.step(e) for e in write.evidence),
            {"param": write.param, "function": write.function, "suggestion": write.suggestion,
             "annotation": annotation.__dict__ if annotation else None, "alias": alias}))
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
            markdown = operator_markdown(use.dsl, use.op_name, use.info, use.effects, _declared(use))
            operators.append(OperatorSite(r, use.op_name, markdown))
    extents = {name: Range(units[src.unit].start, 0, units[src.unit].end - 1, 0)
               for name, (src, _) in functions.items()}
    return calls, signatures, diagnostics, operators, place_graphs(result.graphs, places, lines, extents)


def _declared(use) -> str:
    """Where the operator's effects were declared: the workspace's sources, or PyPTO's (bundled)."""
    info = use.info
    if info is None:
        return "nowhere"
    if info.location is not None:
        return f"at {info.location.path}:{info.location.line + 1} (this workspace's registry)"
    where = bundled_locations().get(use.op_name)
    commit = str(bundled_source().get("commit", ""))[:8]
    place = f"at {where.path}:{where.line + 1} in PyPTO" if where else "in PyPTO"
    return f"{place} (the bundled table{', commit ' + commit if commit else ''})"


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
    n = len(vectors[0].directions)
    hints = []
    header_col = code_end(lines[call_range.line]) if first.dispatch and call_range.line < len(lines) else None
    for i in range(n):
        values = [r.directions[i] for r in vectors if i < len(r.directions)]
        best = max(range(len(values)), key=lambda j: ARG_STRENGTH[values[j]])
        direction = values[best]
        why = vectors[best].derivations[i]
        param = callee.params[i].name if callee and i < len(callee.params) else f"#{i}"
        arg = call.args[i]
        arg_name = arg.var.name if isinstance(arg, ir.Ref) and not arg.var.name.startswith("_t") else None
        if first.dispatch:
            line, col = call_range.line, header_col
        else:
            r = places.range(owner, call.arg_spans[i]) if i < len(call.arg_spans) else None
            line, col = (r.line, r.col) if r else (call_range.line, call_range.col)
        declared = None
        if callee is not None and i < len(callee.params) and callee.params[i].span is not None:
            declared = places.location(callee.owner, callee.params[i].span)
        hints.append(ArgHint(line, col, direction, param, arg_name, i, places.explain(why),
                             tuple(values) if len(values) > 1 else (), declared))
    return CallSite(call_range, name_range, callee.name if callee else "?", callee.kind.value if callee else "?",
                    first.fn, tuple(hints), first.dispatch, bool(call.submit), None, tuple(notes))
