"""Analyse one document: units, parse, lower, run the chain per program, place the results.

Every step is cached by content, not by line numbers (caches.py); an edit above
a function only moves it (its unit's line offset changes). Units without pl code
are not parsed (relevance.py); each program's results are placed in the document
by placement.py. Besides its analysis, a document gives a `ModuleSummary`: what
the files that import it may use.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field, replace
from typing import Callable, Optional

from .. import preempt
from ..ir import nodes as ir
from ..ir.context import ModuleContext
from ..ir.nodes import CalleeForm, Kind
from ..ir.lower import FunctionLowering
from ..ir.module import FunctionSource, ProgramDecl, build_context, find_programs, is_dataclass, unit_contribution
from ..ir.rebase import rebase
from ..pipeline.expansion_memo import ProgramMemos
from ..pipeline.model import Fn, Origin, external_copy
from ..pipeline.program import ProgramChain, ProgramResult
from ..registry.registry import Registry
from ..sharing import current_table, one_per_value, over, own_table
from ..syntax import chunker
from ..syntax import nodes as s
from ..vocabulary import Code, Severity
from .caches import Caches, ParsedUnit, parse
from .helper_callers import lent_scopes
from .moved_lines import composed, header_stays, line_map, same_moved
from .placement import place, place_calls, place_rest
from .relevance import relevance
from .results import BY_START, Diagnostic, DocumentAnalysis, Range
from .text import TextLines

External = Callable[[ir.CalleeRef, "ModuleContext"], Optional[Fn]]


@dataclass
class ModuleSummary:
    """What a document offers the files that import it (the workspace makes its exports of it)."""

    functions: dict[str, Fn] = field(default_factory=dict)  # the module-level pl functions, effective
    offsets: dict[str, int] = field(default_factory=dict)  # their units' first lines
    constants: dict = field(default_factory=dict)
    imports: dict = field(default_factory=dict)  # names it imports itself (a package re-exports them)


@dataclass
class LightSummary:
    """What files importing a document read of it, made without its analysis: its constants and
    imports, its inline helpers (lowered, with their types: ProgramChain.inline_helpers), and the
    effective signatures of its other module-level pl functions on demand (`signatures()`: the
    module program's chain as far as materialisation, its first two phases)."""

    constants: dict
    imports: dict
    offsets: dict  # module-level pl function -> its unit's first line
    helpers: dict  # inline helper name -> Fn
    others: tuple  # the other module-level pl functions
    # (the chain's cache key, the ProgramChain, the externals it read): the signatures are made from it once,
    # and the document's own analysis may then go on from it, once (DocumentAnalyzer.pending)
    chain: Optional[tuple] = None
    _signatures: Optional[dict] = None
    failed: bool = False  # the chain stopped half-way (preempt.py): its state is no one's to go on from
    maker: Optional["_LightMaker"] = None  # makes the functions not made yet, when asked (None: all made)

    @property
    def signatures_made(self) -> bool:
        return self._signatures is not None

    def pending(self, name: str) -> bool:
        """Is `name` a top-level function of the file not made yet (a pl function or not)?"""
        return self.maker is not None and self.maker.pending(name)

    def make(self, name: str) -> None:
        """Make the function `name` (if pending) and those it names, as far as the inline helpers."""
        if self.maker is not None:
            self.maker.make(name, self)

    def make_whole(self) -> None:
        """Make every function, and the chain of the whole module the signatures come from."""
        maker, self.maker = self.maker, None
        if maker is not None:
            try:
                maker.make_whole(self)
            except BaseException:
                self.maker = maker
                raise

    def signatures(self) -> dict:
        if self._signatures is None:
            self.make_whole()
            if self.chain is None or self.failed:
                return {}
            key, chain, externals = self.chain
            try:
                fns = chain.signatures()
            except BaseException:
                self.failed, self.chain = True, None
                raise
            self._signatures = {name: fns[name] for name in self.others if name in fns}
            self.chain = (key, chain, {ref: signature_token(fn) for ref, fn in externals.items()})
        return self._signatures

    def take_chain(self) -> Optional[tuple]:
        """(key, chain, what it read) for the document's own analysis to go on from (once), if the
        signatures were made from it."""
        chain, self.chain = (self.chain, None) if self._signatures is not None else (None, self.chain)
        return chain


_DEF = re.compile(r"^(?:async[ \t]+)?def[ \t]+([A-Za-z_]\w*)", re.M)  # (at column 0: the unit's own)
_WORD = re.compile(r"[A-Za-z_]\w*")


def _function_name(unit: chunker.Unit) -> Optional[str]:
    """The name a top-level `def` unit defines (decorated or not, its decorators on one line or many),
    else None."""
    if unit.kind != "statement" or not unit.code.startswith(("@", "def", "async")):
        return None
    match = _DEF.search(unit.code)
    return match.group(1) if match else None


class _LightMaker:
    """Makes a LightSummary's functions when importers first ask for one: that function and those its
    text names, however deep (a superset of what its chain reads of the module), are parsed, lowered
    and chained as far as the inline helpers' types, not the file's other functions. An inline
    helper's result depends on its own text and its callees' only, so it is the same as from the
    whole module's chain; the signatures of the other functions come from the whole module's chain,
    as before (`make_whole`). Most of what importing files parsed and lowered of pypto-lib's models
    was functions they never read (issue 20: prefill_cp_csa.py's imports 55% of their lines)."""

    def __init__(self, analyzer: "DocumentAnalyzer", holder: str, units: list, parsed: list, ctx: ModuleContext,
                 functions: dict):
        self.analyzer, self.holder, self.units, self.ctx = analyzer, holder, units, ctx
        # the units parsed at once (asked of the caches again, not held here: their bounds hold for them too)
        self.eager = [p is not _SKIPPED for p in parsed]
        self.functions = functions  # name -> its units
        # (not the summary: the two would be a reference cycle, and a dropped summary's units, parses and
        # analyzer would wait for the cycle collector: a long session's memory grew 1.09 -> 1.13-1.15x)
        self.waiting = set(functions)  # the names not made yet
        self.busy = False  # (an import cycle asking again meanwhile: absent then)
        self.names: dict = {}  # name -> the functions its text names (_names_in)

    def pending(self, name: str) -> bool:
        return name in self.waiting and not self.busy

    def make(self, name: str, summary: LightSummary) -> None:
        if name not in self.waiting or self.busy:
            return
        named, frontier = set(), [name]
        while frontier:
            current = frontier.pop()
            if current not in named:
                named.add(current)
                frontier.extend(word for word in self._names_in(current) if word not in named)
        self._chain(summary, named, whole=False)

    def _names_in(self, name: str) -> frozenset:
        """The file's functions the text of function `name` names (read once: importers ask for one
        helper after another, and each closure walks the texts of those it reaches)."""
        found = self.names.get(name)
        if found is None:
            found = self.names[name] = frozenset(word for k in self.functions[name]
                                                 for word in _WORD.findall(self.units[k].code) if word in self.functions)
        return found

    def make_whole(self, summary: LightSummary) -> None:
        self._chain(summary, set(self.functions), whole=True)

    def _chain(self, summary: LightSummary, named: set, whole: bool) -> None:
        analyzer, units = self.analyzer, self.units
        self.busy = True
        try:
            with analyzer.caches.analysing(self.holder, adding=True), one_per_value():
                chosen = {k for name in named for k in self.functions[name]}
                parsed = [parse(analyzer.caches, unit, False) if self.eager[k] or k in chosen else _SKIPPED
                          for k, unit in enumerate(units)]
                fingerprint, programs = _programs(units, parsed, self.ctx)
                module = next((p for p in programs if p.kind == "module"), None)
                functions = analyzer._lower(module, units, self.ctx, fingerprint) if module is not None else {}
                functions = {name: made for name, made in functions.items() if name in named}
                if not functions:
                    self.waiting -= named
                    return
                externals: dict = {}

                def external(ref: ir.CalleeRef) -> Optional[Fn]:
                    if ref not in externals:
                        externals[ref] = analyzer.external(ref, self.ctx)
                    return externals[ref]
                registry = analyzer.registry()
                lowered = [fn for _, fn in functions.values()]
                chain = ProgramChain(module.name, lowered, registry, external, analyzer.caches.scopes)
                helpers = chain.inline_helpers()
        finally:
            self.busy = False
        summary.offsets.update((name, units[src.unit].start) for name, (src, _) in functions.items())
        if whole:  # (the whole chain's helpers: the same as those made before, which importers read as copies)
            summary.helpers = helpers
            summary.others = tuple(name for name in functions if name not in helpers)
            summary.chain = ((module.name, tuple(fn.digest for fn in lowered), registry), chain, externals)
        else:
            summary.helpers.update((name, fn) for name, fn in helpers.items() if name in named
                                   and name not in summary.helpers)
            summary.others = tuple(summary.others) + tuple(name for name in functions
                                                           if name not in helpers and name not in summary.others)
        self.waiting -= named


class DocumentAnalyzer:
    def __init__(self, registry: Callable[[], Registry], caches: Optional[Caches] = None,
                 external: Optional[External] = None,
                 imported_constants: Optional[Callable[[ModuleContext], dict]] = None, edited: bool = False):
        """`edited`: the document is open in an editor, so its chains' N1 and types are kept for the next
        analysis (caches.normalised); the command line analyses each file once."""
        self.registry = registry
        self.edited = edited
        self.caches = caches or Caches()
        self.external = external or (lambda ref, ctx: None)
        self.imported_constants = imported_constants or (lambda ctx: {})
        self.pending: dict = {}  # chain key -> (ProgramChain, what it read) left by this document's LightSummary
        self.chains_run = 0  # how many program chains its analyses ran (the others' results were reused)

    def analyse(self, text: str, uri: Optional[str] = None,
                version: Optional[int] = None) -> tuple[DocumentAnalysis, ModuleSummary]:
        # what this analysis uses of the caches is what the document holds; the values its results
        # repeat are made once (sharing.py)
        with self.caches.analysing(uri), one_per_value():
            analysis, summary, rest = self._analyse(text, uri, version, hints_only=False)
            return analysis, summary

    def analyse_hints(self, text: str, uri: Optional[str] = None,
                      version: Optional[int] = None) -> tuple[DocumentAnalysis, ModuleSummary, Optional["Rest"]]:
        """The analysis as far as what hints show (every call's directions, the signatures, the syntax
        errors, what the document lends other files' helpers), and what is left of it: `Rest.made()`
        gives the whole analysis (None: it is whole already). An edit's directions are on screen
        before its program's task graph, hazards and misuse are made (issue 20)."""
        with self.caches.analysing(uri), one_per_value():
            return self._analyse(text, uri, version, hints_only=True)

    def light(self, text: str, uri: Optional[str], holder: str) -> LightSummary:
        """What importing files read of the document (LightSummary), without its analysis: its imports
        and constants at once, its top-level functions when first asked for (_LightMaker)."""
        with self.caches.analysing(holder), one_per_value():
            functions: dict[str, list[int]] = {}  # top-level function name -> its units (parsed when asked)
            units, parsed, ctx, _ = self._parsed(text, uri, by_statements=False, deferred=functions)
            summary = LightSummary(dict(ctx.constants), dict(ctx.imported), {}, {}, ())
            if functions:
                summary.maker = _LightMaker(self, holder, units, parsed, ctx, functions)
            return summary

    def _parsed(self, text: str, uri: Optional[str], by_statements: bool = True, deferred: Optional[dict] = None):
        """The document's units, their parses (units without pl code are not parsed: not worth it), its
        module context, and whether it uses pl at all. `by_statements`: long functions statement by
        statement, for the keystrokes to come (caches.parse); an imported file's are parsed whole.
        `deferred`: the top-level functions are not parsed but listed there, name -> units (a `def`
        its text did not tell is parsed, and listed too); the module context needs none of them."""
        units = self.caches.splitter(uri).split(text) if uri else chunker.split(text)
        relevant, uses_pl = relevance(self.caches, units)
        parsed = []
        for k, unit in enumerate(units):
            wanted = relevant(unit)
            name = _function_name(unit) if deferred is not None and wanted else None
            if name is not None:
                deferred.setdefault(name, []).append(k)
            parsed.append(parse(self.caches, unit, by_statements) if wanted and name is None else _SKIPPED)
        statements = [p.stmts for p in parsed]
        top = [st if u.kind == "statement" else [] for st, u in zip(statements, units)]
        if deferred is not None:
            for k, stmts in enumerate(top):
                for st in stmts:
                    if isinstance(st, s.FunctionDef):
                        deferred.setdefault(st.name, []).append(k)
        ctx = build_context(top, self.imported_constants, _config_classes(units, statements))
        return units, parsed, ctx, uses_pl

    def _analyse(self, text: str, uri: Optional[str], version: Optional[int],
                 hints_only: bool) -> tuple[DocumentAnalysis, ModuleSummary, Optional["Rest"]]:
        units, parsed, ctx, uses_pl = self._parsed(text, uri)
        lines = TextLines(text)
        diagnostics: list[Diagnostic] = []
        for unit, result in zip(units, parsed):
            # one diagnostic per broken unit, at its first error; a file without pl code is not ours
            if result.problem is not None and uses_pl:
                line = min(unit.start + result.problem.line, len(lines) - 1)
                col = min(result.problem.col, len(lines[line]))
                end = _token_end(lines[line], col, result.problem.message)
                diagnostics.append(Diagnostic(Code.SYNTAX_ERROR, Severity.ERROR, f"syntax error: {result.problem.message}",
                                              Range(line, col, line, end)))
        summary = ModuleSummary(constants=dict(ctx.constants), imports=dict(ctx.imported))
        closures: dict = {}  # (closure program, unit) -> its functions and their offset
        fingerprint, programs = _programs(units, parsed, ctx)
        registry = self.registry()
        analysis = DocumentAnalysis(uri, version, [], [], diagnostics)
        alias = next((name for name, path in ctx.aliases.items() if path == "pl"), "pl")
        rest = Rest(self, units, lines, alias)
        chains_before = self.chains_run
        for program in programs:
            preempt.check()
            lowerings: dict = {}
            functions = self._lower(program, units, ctx, fingerprint, lowerings, uri)
            if not functions:
                continue
            size = sum(len(units[src.unit].code) for src, _ in functions.values())
            try:
                result, key, left, moves = self._chain(program, functions, registry, ctx, summary, closures, size,
                                                       hints_only, (uri, lowerings))
            except RecursionError:
                analysis.diagnostics.append(_failure(program, units, "is nested too deeply to analyse"))
                continue
            offsets = tuple((name, units[src.unit].start) for name, (src, _) in functions.items())
            if left is None and hints_only and (moves or self.caches.placed.get((key, offsets, alias)) is None):
                left = (None, {}, result, None)  # (whole, but to place again: its hints first, as below)
            if left is None:
                # (the last result with its places moved is not cached: it lives for an edit or two, moved_lines.py)
                placed = place(program, functions, units, lines, result, alias, moves) if moves else \
                    self.caches.placed.get_or((key, offsets, alias),
                                              lambda: place(program, functions, units, lines, result, alias), size)
                calls, signatures, found, operators, (graphs, hazards, notes) = placed
                analysis.diagnostics.extend(found + hazards)
                analysis.operators.extend(operators)
                analysis.graphs.extend(graphs)
                analysis.optional_diagnostics.extend(notes)
            else:  # hints first: the rest of this program's results when Rest.made() is asked
                calls, signatures = place_calls(program, functions, units, lines, result, moves)
                rest.programs.append(_ProgramRest(program, functions, result, key[0], offsets, size, *left,
                                                  (calls, signatures), (len(analysis.diagnostics),
                                                  len(analysis.operators), len(analysis.graphs),
                                                  len(analysis.optional_diagnostics)), moves,
                                                  _made_from(uri, program), key))
            analysis.calls.extend(calls)
            analysis.signatures.extend(signatures)
            analysis.lent.extend(lent_scopes(result, functions, units, uri, moves))
            if program.kind == "module":
                summary.functions = {name: result.fns[name] for name in functions if name in result.fns}
                summary.offsets = {name: units[src.unit].start for name, (src, _) in functions.items()}
            elif program.kind == "closure":
                closures[(program.name, program.unit)] = (
                    {name: result.fns[name] for name in functions if name in result.fns}, units[program.unit].start)
        analysis.calls.sort(key=BY_START)
        analysis.reused = self.chains_run == chains_before
        if uri is not None:  # (the origins of programs the text no longer has: a class or closure renamed)
            made = {_made_from(uri, p) for p in programs}
            for gone in [k for k in self.caches.origins if k[0] == uri and k not in made]:
                del self.caches.origins[gone]
            for gone in [k for k in self.caches.expansions if k[0] == uri and k not in made]:
                del self.caches.expansions[gone]
        if rest.programs:
            analysis.complete = False
            rest.diagnostics_made = len(analysis.diagnostics)
            return analysis, summary, rest
        analysis.diagnostics = _dedupe_operator_notes(analysis.diagnostics)
        _settle(analysis.lent)
        return analysis, summary, None

    def _lower(self, program: ProgramDecl, units, ctx: ModuleContext, fingerprint: str,
               keys: Optional[dict] = None, uri: Optional[str] = None) -> dict[str, tuple[FunctionSource, ir.Function]]:
        """The program's functions, lowered; `keys` gets each one's lowering key. With `uri`, a
        function lowered anew is made of the objects of its lowering in the document's last analysis
        wherever the two are the same (ir/rebase.py: what the stages made of them is found again)."""
        out = {}
        origin = self.caches.origins.get(_made_from(uri, program)) if uri is not None else None
        for source in program.functions:
            unit = units[source.unit]
            key = (unit.kind, unit.code, source.name, source.node.span, fingerprint,
                   tuple(sorted(source.constants.items(), key=lambda kv: kv[0])) if source.constants else ())
            if keys is not None:
                keys[source.name] = key

            def run(source=source, key=key):
                constants = dict(ctx.constants)
                constants.update(source.constants)
                function = FunctionLowering(ctx, constants, source.in_class).function(
                    source.node, source.kind, source.jit, source.attrs)
                function.digest = hashlib.sha1(repr(key).encode("utf-8", "replace")).hexdigest()
                # (not an inline helper: N1 copies its body wherever it is expanded, and keeps nothing of it)
                last = origin[1].get(source.name) if origin is not None and function.kind is not Kind.INLINE else None
                if last is not None and last[0] != key:
                    function = rebase(self.caches.lowered.peek(last[0]), function)
                return function
            out[source.name] = (source, self.caches.lowered.get_or(key, run, len(unit.code)))
        return out

    def _module_function(self, ref: ir.CalleeRef, program: ProgramDecl, summary: ModuleSummary,
                         closures: dict) -> Optional[Fn]:
        """A pl function of this file called by plain name from another program: one defined beside
        the program in the same enclosing function, or at module level."""
        if ref.how != CalleeForm.NAME:
            return None
        sibling = closures.get((program.parent, program.unit)) if program.parent else None
        if sibling is not None and ref.name in sibling[0]:
            return self._copy(sibling[0][ref.name], f"{ref.name}@{program.parent}", sibling[1])
        if ref.name in summary.functions:
            return self._copy(summary.functions[ref.name], f"{ref.name}@module", summary.offsets.get(ref.name, 0))
        return None

    def _copy(self, fn: Fn, owner: str, offset: int) -> Fn:
        return self.caches.module_copies.get_or((signature_token(fn), owner, offset),
                                                lambda: external_copy(fn, owner, (None, offset)), 100)

    def _chain(self, program: ProgramDecl, functions, registry: Registry, ctx: ModuleContext, summary: ModuleSummary,
               closures: dict, size: int, hints_only: bool = False,
               origin: tuple = (None, None)) -> tuple[ProgramResult, tuple, Optional[tuple], Optional[dict]]:
        """The program's result, the content it was made from (its functions' lowerings and the
        effective signatures it read of other programs and files), with `hints_only`, unless the
        result was cached whole, what is left to make of it: (the chain, what it read) for `_Rest`,
        and how the lines of its functions moved since it was made (moved_lines.py), if they did.
        `origin`: (the document, its functions' lowering keys), what the next analysis of the
        document moves this one's result from."""
        lowered = [fn for _, fn in functions.values()]
        externals: dict = {}

        def external(ref: ir.CalleeRef) -> Optional[Fn]:
            if ref not in externals:
                externals[ref] = self._module_function(ref, program, summary, closures) \
                    if program.kind != "module" else None
                if externals[ref] is None:
                    externals[ref] = self.external(ref, ctx)
            return externals[ref]

        key = (program.name, tuple(fn.digest for fn in lowered), registry)
        uri, lowerings = origin
        made_from = _made_from(uri, program)
        hit = self.caches.programs.get(key)
        if hit is not None and all(signature_token(external(ref)) == token for ref, token in hit[1].items()):
            self._origins_put(made_from, key, lowerings)
            self._hold_scopes(hit)
            return hit[0], (key, frozenset(hit[1].items())), None, None
        moved = self._moved(made_from, functions, lowerings, registry, external, hints_only)
        if moved is not None:
            (result, read), moves, left = moved
            return result, (key, frozenset(read.items())), left, moves
        self._origins_put(made_from, key, lowerings)
        self.chains_run += 1
        pending = self.pending.pop(key, None)
        if pending is not None and all(signature_token(external(ref)) == token for ref, token in pending[1].items()):
            chain = pending[0]  # the chain this document's LightSummary ran as far as the signatures: go on from there
            chain.state.external = external
        else:
            memos = None
            if self.edited and uri is not None:  # (kept for documents open in an editor)
                memos = self.caches.expansions.setdefault(made_from, ProgramMemos())
            chain = self._resumed(made_from, key, external, lowered, registry, memos)
            if chain is None:
                chain = ProgramChain(program.name, lowered, registry, external, self.caches.scopes, memos)
                chain.signatures()
        if self.edited and uri is not None and chain.normalised is not None:
            self.caches.normalised[made_from] = (key, {ref: shape_token(fn) for ref, fn in externals.items()},
                                                 chain.normalised)
        chain.normalised = None  # (held by the caches alone, and only for a document open in an editor)
        result = chain.calls()
        read = {ref: signature_token(fn) for ref, fn in externals.items()}
        if hints_only:
            self._origins_put(made_from, key, lowerings, (result, chain, externals))
            return result, (key, frozenset(read.items())), (chain, externals, result, None), None
        chain.rest(result)
        read = {ref: signature_token(fn) for ref, fn in externals.items()}
        self.caches.programs.put(key, (result, read, tuple(chain.state.scope_keys)), size)
        return result, (key, frozenset(read.items())), None, None

    def _resumed(self, made_from: tuple, key: tuple, external, lowered: list, registry: Registry,
                 memos: Optional[ProgramMemos] = None) -> Optional[ProgramChain]:
        """The chain gone on from where N1 and the types left the document's last one, if the externals
        it read have the same shapes (only their directions changed: a `pl.Out` made `pl.InOut` in a
        kernel's file changes no expansion and no type): of the same functions, or of functions of which
        only some no other expands changed (ProgramChain.resumed). Else None."""
        found = self.caches.normalised.get(made_from)
        if found is None or found[0][0] != key[0]:
            return None
        _, shapes, normalised = found
        if not all(shape_token(external(ref)) == token for ref, token in shapes.items()):
            return None
        return ProgramChain.resumed(normalised, lowered, registry, external, self.caches.scopes, memos)

    def _hold_scopes(self, hit: tuple) -> None:
        """A program result used again uses its scopes' answers again (pipeline/scope_keys.py): so they
        stay held while it is the document's, for the next edit's chain to find."""
        for key in hit[2]:
            self.caches.scopes.get(key)

    def _origins_put(self, made_from: tuple, key: tuple, lowerings: Optional[dict],
                     hints: Optional[tuple] = None) -> None:
        """The program's result made from these lowerings (its spans where their lines are): whole (in
        the programs cache), or as far as its hints (`hints`: the result, its chain and what it read),
        which an edit typed before its rest was made moves as well (its rest made later, moved too)."""
        if made_from[0] is not None and lowerings is not None:
            self.caches.origins[made_from] = (key, {name: (now, None) for name, now in lowerings.items()}, hints)

    def made_whole(self, made_from: tuple, key: tuple) -> None:
        """A result whose rest was made is in the programs cache: its origin lets go of its chain."""
        origin = self.caches.origins.get(made_from)
        if origin is not None and origin[0] == key and origin[2] is not None:
            self.caches.origins[made_from] = origin[:2] + (None,)

    def _moved(self, made_from: tuple, functions: dict, lowerings: Optional[dict], registry: Registry,
               external, hints_only: bool = False) -> Optional[tuple]:
        """The result this document's program was last made from, how its functions' lines moved
        since, when they only moved (moved_lines.py), and what is left to make of it; else None. Its
        moved inline helpers are made again from their new lowerings (what other programs and files
        expand). A result made as far as its hints is moved for hints only, its rest left to make
        (an edit typed while the last one's rest was still under way: issue 20).

        The origin names the last analysis's lowerings and how the result's lines moved to them: the
        new lowerings are compared with those (the last analysis holds them; the result's own are not
        kept), and the maps composed."""
        origin = self.caches.origins.get(made_from) if lowerings is not None else None
        if origin is None:
            return None
        key, before, hints = origin
        if key[2] is not registry or list(before) != list(lowerings):
            return None
        steps = {}
        for name, now in lowerings.items():
            then, _ = before[name]
            if then == now:
                continue
            if then[:1] + then[2:3] + then[4:] != now[:1] + now[2:3] + now[4:]:
                return None  # (another kind of unit, name, module context or constants)
            step = line_map(then[1], now[1])
            if step is None:
                return None
            steps[name] = (then, step)
        moves = {name: moved for name, (_, moved) in before.items() if moved is not None and name not in steps}
        # (peeked: an edit that changed a line, not only moved lines, looks and goes on without them; a
        # get would have the new analysis hold the last result and lowerings till the document's next one)
        hit = self.caches.programs.peek(key) if steps or moves else None
        left = None
        if hit is None and hints is not None and hints_only and (steps or moves):
            result, chain, externals = hints
            hit = (result, {ref: signature_token(fn) for ref, fn in externals.items()}, tuple(chain.state.scope_keys))
            left = (chain, externals, result, key)
        if hit is None or not all(signature_token(external(ref)) == token for ref, token in hit[1].items()):
            return None
        for name, (then, step) in steps.items():
            last = self.caches.lowered.peek(then)
            if last is None or not (header_stays(last, step) and same_moved(last, functions[name][1], step)):
                return None
            moves[name] = composed(before[name][1], step)
        for then, _ in steps.values():  # (only moved lines: the result and the lowerings compared are held, as before)
            self.caches.lowered.get(then)
        self.caches.programs.get(key)
        self.caches.origins[made_from] = (key, {name: (now, moves.get(name)) for name, now in lowerings.items()},
                                          hints if left is not None else None)
        result, read = hit[0], hit[1]
        self._hold_scopes(hit)
        helpers = [name for name in moves if functions[name][1].kind is Kind.INLINE]
        if helpers:  # what other programs and files expand: made from the new lowering (moved_lines.py)
            made = ProgramChain(key[0], [fn for _, fn in functions.values()], registry, external).inline_helpers(
                set(helpers))
            for name in helpers:
                made[name].origin = Origin.INLINE
            result = replace(result, fns={**result.fns, **{name: made[name] for name in helpers}})
        return (result, read), moves, left


@dataclass
class _ProgramRest:
    """One program of a document analysed as far as its calls (DocumentAnalyzer.analyse_hints)."""

    program: ProgramDecl
    functions: dict
    result: ProgramResult
    key: tuple  # the programs cache's key of its result
    offsets: tuple
    size: int
    chain: Optional[ProgramChain]  # (None: `whole` is whole already, its rest only to place)
    externals: dict  # what its chain read of other programs and files
    whole: ProgramResult  # what the chain's rest completes and the cache keeps (`result`, or what it was moved from)
    whole_key: Optional[tuple]  # the programs cache's key of `whole`, if not `key` (it was moved)
    placed_calls: tuple  # (call sites, signature changes) placed for the hints: the whole placement keeps them
    # where its diagnostics, operators, graphs and notes go in the analysis's lists (programs in order)
    at: tuple
    moves: Optional[dict] = None  # how the lines moved since `whole` was made (moved_lines.py), if they did
    made_from: tuple = ()  # the origin's key (DocumentAnalyzer._origins_put)
    cache_key: Optional[tuple] = None  # (a whole result's: its key and what it read, as `_chain` gave them)
    made: bool = False  # its chain's rest made and the result cached whole (the chain let go then)


class Rest:
    """What `analyse_hints` left of a document's analysis: each program's task graphs, hazards,
    InParamWritten, misuse and operator uses, and their places. `made(analysis)` makes them, once,
    and gives the whole analysis (a new object: the hints' one is not changed); its programs'
    results are cached whole then, as `analyse` would have."""

    def __init__(self, analyzer: "DocumentAnalyzer", units, lines: list[str], alias: str):
        self.analyzer, self.units, self.lines, self.alias = analyzer, units, lines, alias
        self.programs: list[_ProgramRest] = []
        self.diagnostics_made = 0  # how many diagnostics the hints' analysis had (the workspace may add)
        self.whole: Optional[DocumentAnalysis] = None
        self.values = current_table()  # the hints' values, which the rest repeats (sharing.py)

    def made(self, hints: DocumentAnalysis) -> DocumentAnalysis:
        if self.whole is not None:
            return self.whole
        with self.analyzer.caches.analysing(hints.uri, adding=True):
            made = self._made(hints)
        self.values = None
        return made

    def _made(self, hints: DocumentAnalysis) -> DocumentAnalysis:
        # (a program whose result was cached whole placed its graphs, diagnostics and operators already)
        analysis = DocumentAnalysis(hints.uri, hints.version, list(hints.calls), list(hints.signatures),
                                    list(hints.diagnostics), list(hints.operators), list(hints.graphs),
                                    list(hints.optional_diagnostics), list(hints.lent))
        placements = []
        # the rest's values are the hints' equal ones, else one object each in a table of the rest's own:
        # the hints' table grown by the rest doubled to 10 MB at genpl 50000, the rest's peak (issue 41)
        with own_table(over(self.values)):
            for p in self.programs:
                preempt.check()
                self._rest_of(p)
                placements.append(self._placed(p))
        added = len(hints.diagnostics) - self.diagnostics_made  # (at the front: the workspace's own)
        for p, placed in reversed(list(zip(self.programs, placements))):  # each where it stands among the others
            _calls, _signatures, found, operators, (graphs, hazards, notes) = placed
            diagnostics_at, operators_at, graphs_at, notes_at = p.at
            analysis.diagnostics[diagnostics_at + added:diagnostics_at + added] = found + hazards
            analysis.operators[operators_at:operators_at] = operators
            analysis.graphs[graphs_at:graphs_at] = graphs
            analysis.optional_diagnostics[notes_at:notes_at] = notes
        analysis.diagnostics = _dedupe_operator_notes(analysis.diagnostics)
        _settle(analysis.lent)
        self.whole, self.programs = analysis, []
        return analysis

    def _rest_of(self, p: _ProgramRest) -> None:
        """The program's rest made, its result cached whole and its chain let go at once (every
        program's chain held until the last one's graphs were placed was 17 MB of that peak)."""
        if p.chain is None or p.made:  # (a whole result moved: its rest is made, only placed here)
            return
        p.chain.rest(p.whole)  # (again after a preemption: it only reads the chain's state)
        if p.result is not p.whole:  # (moved, its helpers made again: the same results otherwise)
            p.result.in_param_written, p.result.problems = p.whole.in_param_written, p.whole.problems
            p.result.operators, p.result.graphs = p.whole.operators, p.whole.graphs
        read = {ref: signature_token(fn) for ref, fn in p.externals.items()}
        key = p.whole_key or p.key
        self.analyzer.caches.programs.put(key, (p.whole, read, tuple(p.chain.state.scope_keys)), p.size)
        self.analyzer.made_whole(p.made_from, key)
        p.made, p.chain = True, None

    def _placed(self, p: _ProgramRest) -> tuple:
        if p.moves:  # (placed where its lines are now, and not kept: moved_lines.py)
            return p.placed_calls + place_rest(p.program, p.functions, self.units, self.lines, p.result,
                                               self.alias, p.moves)
        read = {ref: signature_token(fn) for ref, fn in p.externals.items()}
        return self.analyzer.caches.placed.get_or(
            (p.cache_key if not p.made else (p.key, frozenset(read.items())), p.offsets, self.alias),
            lambda: p.placed_calls + place_rest(p.program, p.functions, self.units, self.lines, p.result,
                                                self.alias), p.size)


def _made_from(uri: Optional[str], program: ProgramDecl) -> tuple:
    """What a program's origin is named by (caches.origins): its document, kind, name and parent."""
    return (uri, program.kind, program.name, program.parent)


def _settle(lent: list) -> None:
    """What the document lends other files' helpers is placed by the time its analysis is whole (the
    hints' analysis leaves it for later: helper_callers.LentScope)."""
    for scope in lent:
        scope.settle()


def signature_token(fn: Optional[Fn]) -> Optional[tuple]:
    """What a program reads of a function of another program or file: its effective signature,
    where it sits, and what it was lowered from (an inline helper's body is expanded)."""
    if fn is None:
        return None
    return (fn.key, fn.owner, fn.home, fn.kind.value, tuple(d.value for d in fn.dirs),
            tuple((p.name, p.decl.value, p.type, p.span) for p in fn.params), fn.hidden_outputs, tuple(fn.returns),
            tuple(sorted(fn.removed)), fn.source.digest if fn.source is not None else "")


def shape_token(fn: Optional[Fn]) -> Optional[tuple]:
    """What N1 and the types read of a function of another program or file: its signature token but
    its directions (declared and effective), and the text it was lowered from only where N1 expands
    it (an inline helper): of a kernel they read its kind, parameters and returned types."""
    if fn is None:
        return None
    return (fn.key, fn.owner, fn.home, fn.kind.value, tuple((p.name, p.type, p.span) for p in fn.params),
            fn.hidden_outputs, tuple(fn.returns), tuple(sorted(fn.removed)),
            fn.source.digest if fn.source is not None and fn.kind is Kind.INLINE else "")


def _config_classes(units: list, statements: list) -> tuple:
    """The module's `@dataclass` classes at the top level, each with its members' statements and its
    text (their constructions and fields fold into the module's constants)."""
    out = []
    for k, (unit, stmts) in enumerate(zip(units, statements)):
        if unit.kind != "class" or len(stmts) != 1 or not isinstance(stmts[0], s.ClassDef) or not is_dataclass(stmts[0]):
            continue
        members = [m for u, part in zip(units, statements) if u.kind == "member" and u.parent == k for m in part]
        text = unit.code + "".join(u.code for u in units if u.kind == "member" and u.parent == k)
        out.append((stmts[0], members, text))
    return tuple(out)


def _programs(units, parsed: list, ctx: ModuleContext) -> tuple[str, list[ProgramDecl]]:
    """The module context's key and the document's programs (each unit's share cached on its parse)."""
    fingerprint = _context_key(ctx)
    contributions = [_contribution(p, ctx, fingerprint, u.kind) for p, u in zip(parsed, units)]
    programs = find_programs(ctx, [p.stmts for p in parsed], [u.kind for u in units], [u.parent for u in units],
                             contributions)
    return fingerprint, programs


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


def _context_key(ctx: ModuleContext) -> str:
    text = repr((sorted(ctx.aliases.items()), sorted(ctx.constants.items(), key=lambda kv: kv[0]),
                 sorted(ctx.imported.items()), sorted(ctx.modules.items())))
    return hashlib.sha1(text.encode("utf-8", "replace")).hexdigest()


def _failure(program: ProgramDecl, units, why: str) -> Diagnostic:
    line = units[program.unit].start if program.unit >= 0 else 0
    return Diagnostic(Code.ANALYSIS_FAILED, Severity.INFORMATION,
                      f"PyPTO Lens could not analyse {program.name}: it {why}",
                      Range(line, 0, line, 0))


def _token_end(line: str, col: int, message: str) -> int:
    """The end of what a syntax error is about: the unclosed bracket, else the token at `col`."""
    if message.endswith("was never closed"):
        return min(col + 1, len(line))
    end = col
    while end < len(line) and not line[end].isspace():
        end += 1
    return max(end, col)


def _dedupe_operator_notes(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """One note per operator without declarations per document, at its first call (less noise)."""
    seen: set = set()
    out = []
    for d in diagnostics:
        if d.code in (Code.UNCLASSIFIED_OPERATOR, Code.UNKNOWN_OPERATOR):
            op = d.message.split(" ", 1)[0]
            if op in seen:
                continue
            seen.add(op)
        out.append(d)
    return out


