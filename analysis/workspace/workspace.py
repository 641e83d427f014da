"""The incremental engine: the documents of a workspace, their imports, and their analyses.

Open documents come from their owner (documents.py); files they import are read from disk.
An analysis is cached per document and recomputed only when the document's
text changed or when what it read of another file changed: each read (a
constant, a pl function's effective signature, a name it imports itself) is
kept with its value's token, and compared again. That is the early cutoff
across files, per name: an edit of one function of a file changes nothing for
the files that use only its others. Inside a file the caches of caches.py do
the same per unit.

A file read only because another imports it is not analysed: its exports are
made lightly (`_light`: its constants and imports, its inline helpers lowered
with their types, the other functions' signatures only when one is read), which
is what importing pypto-lib's models mostly reads (helpers). When the file is
analysed in its own right later, its analysis goes on from the chain its
exports ran, if any (DocumentAnalyzer.pending).
"""
from __future__ import annotations

import collections
import os
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from collections.abc import Mapping
from typing import Callable, Optional

from ..ir import nodes as ir
from ..ir.context import ModuleContext
from ..ir.nodes import CalleeForm
from ..pipeline.model import Fn, external_copy
from ..registry.registry import Registry
from ..syntax.parser import parse_unit_with_lark
from ..vocabulary import Code
from .caches import Caches
from .document import DocumentAnalyzer, LightSummary, ModuleSummary, Rest
from . import helper_callers
from .helper_callers import Lending, with_callers
from .documents import (DiskFiles, Document, OpenDocuments, OpenTexts, not_analysed, path_to_uri, refusal,
                        unread_import, uri_to_path, utf8_note, with_disk_encoding)
from .results import Diagnostic, DocumentAnalysis
from .unresolved import unresolved_imports


_ABSENT = "<absent>"
# a read of where an import leads (not of a file's exports): its "what" is (importing uri, module, level),
# its token the uri found. A file created on disk (a branch switch) then makes stale what imported
# it while it was missing (issue 42)
_RESOLVED = "<resolved>"
_REPLACED_KEPT = 16  # replaced analyses kept for release_replaced() at most (one per open document, about)


@dataclass
class Exports:
    """What other files may use of a module: its pl functions (effective), its constants, and the
    names it imports itself (a package re-exports them). `token(what)` is what a reader compares:
    ("f", name), ("c", name), ("i", name)."""

    functions: Mapping = field(default_factory=dict)  # name -> Fn (a LazyFunctions for light exports)
    constants: dict = field(default_factory=dict)
    imports: dict = field(default_factory=dict)
    tokens: dict = field(default_factory=dict)  # function name -> its token (LazyFunctions makes the others')

    def token(self, what: tuple) -> str:
        kind, name = what
        if kind == "f":
            if name not in self.tokens:
                if name not in self.functions:
                    return _ABSENT
                self.functions[name]  # (a light export's signature is made when first read)
            return self.tokens.get(name, _ABSENT)
        if kind == "c":
            return repr(self.constants[name]) if name in self.constants else _ABSENT
        return repr(self.imports[name]) if name in self.imports else _ABSENT


class LazyFunctions(Mapping):
    """A light export's functions, each made when first read: an inline helper with the functions it
    names (LightSummary.make), the others' signatures over the whole module (its chain then runs as far
    as the signatures, once)."""

    def __init__(self, uri: str, summary: LightSummary, tokens: dict):
        self.uri, self.summary, self.tokens = uri, summary, tokens
        self.made: dict[str, Fn] = {}
        self._export_helpers()
        self.others_made = False

    def _export_helpers(self) -> None:
        for name, fn in self.summary.helpers.items():
            if name not in self.made:
                self.made[name] = _export_function(self.uri, name, fn, self.summary.offsets.get(name, 0), self.tokens)

    def _ask(self, name: str) -> None:
        if name not in self.made and self.summary.pending(name):
            self.summary.make(name)
            self._export_helpers()

    def __getitem__(self, name: str) -> Fn:
        self._ask(name)
        if name not in self.made and not self.others_made and name in self.summary.others:
            self.others_made = True  # (also against a cycle of imports asking it again meanwhile: absent then)
            try:
                signatures = self.summary.signatures()
            except BaseException:
                self.others_made = False
                raise
            self._export_helpers()
            for other, fn in signatures.items():
                self.made[other] = _export_function(self.uri, other, fn, self.summary.offsets.get(other, 0), self.tokens)
        return self.made[name]

    def __contains__(self, name) -> bool:
        self._ask(name)
        return name in self.made or (not self.others_made and name in self.summary.others)

    def _names(self) -> tuple:
        self.summary.make_whole()
        self._export_helpers()
        return tuple(self.summary.helpers) + tuple(self.summary.others)

    def __iter__(self):
        return iter(self._names())

    def __len__(self) -> int:
        return len(self._names())


class Workspace:
    def __init__(self, roots: Optional[list[Path]] = None,
                 registry: Optional[Callable[[], Registry]] = None,
                 open_documents: Optional[OpenDocuments] = None):
        self.roots = [Path(os.path.abspath(r)) for r in (roots or [])]
        self.open_documents = open_documents if open_documents is not None else OpenTexts()
        self.files = DiskFiles()
        self.caches = Caches()
        self._registry_source = registry
        self._registry: Optional[Registry] = None
        # uri -> (key, its analysis, its exports, what is left of an analysis made hints first: document.Rest)
        self._analyses: dict[str, tuple[tuple, DocumentAnalysis, Exports, Optional[Rest]]] = {}
        self._lights: dict[str, tuple[tuple, Exports, LightSummary]] = {}  # files read only for their exports
        self._lock = threading.RLock()
        self._active: set = set()  # documents being analysed (import cycles)
        self._round: Optional[dict] = None  # uri -> its result, during one `analysis` (each file checked once)
        self.lending = Lending()  # what callers lent other files' inline helpers (helper_callers.py)
        # with `keep_replaced` (the server's), a document's analyses replaced by newer ones are kept until
        # release_replaced(): freeing a model's last analysis and what it held took 9 ms of each edit of
        # dspark_drafter.py, which the server spends once the edit's answers are out
        self.keep_replaced = False
        self._replaced: list = []
        self.analysed: collections.Counter = collections.Counter()  # uri -> analyses made in its own right

    def release_replaced(self) -> None:
        """Free the analyses replaced since the last call (with `keep_replaced`). Without the lock: the
        server's event loop calls it while the worker may be analysing (a list's clear is atomic)."""
        self._replaced.clear()

    # -- documents --------------------------------------------------------------------
    def forget(self, uri: str) -> None:
        """A document was closed: drop what was kept for it (its text is read from disk from now on)."""
        with self._lock:
            self._analyses.pop(uri, None)
            self._drop_light(uri)
            self.lending.forget(uri)  # its text on disk may lend otherwise
            self.caches.splitters.pop(uri, None)
            self.caches.forget(uri)

    def holdings(self) -> dict:
        """What the workspace keeps, by kind of file (for soaks and the 500-file benchmark). Without the
        lock: read on the server's event loop (sizes and copies of dicts are atomic)."""
        return {"analyses": len(self._analyses), "lightExports": len(self._lights),
                "diskFiles": len(self.files), "diskChars": self.files.characters()}

    def disk_changed(self, uri: str) -> None:
        """`uri` changed on disk (created, written, deleted): read it again when next asked. Safe without
        the lock (one dict pop): the server calls it on its event loop while the worker may analyse.
        What was made from its old text is found stale by the reads' tokens (_current)."""
        self.files.forget(uri)

    def text(self, uri: str) -> Optional[str]:
        doc = self._document(uri)
        return doc.text if doc else None

    def peek_text(self, uri: str) -> Optional[str]:
        """The document's text, a file on disk read without being kept (DiskFiles.peek)."""
        snapshot = self.open_documents.snapshot(uri)
        return snapshot.text if snapshot is not None else self.files.peek(uri)

    def _document(self, uri: str) -> Optional[Document]:
        snapshot = self.open_documents.snapshot(uri)
        if snapshot is not None:  # (with where its file on disk is not UTF-8, if the editor shows that)
            return with_disk_encoding(Document(uri, snapshot.text, snapshot.version, True), self.files)
        return self.files.read(uri)

    # -- the registry -----------------------------------------------------------------------
    def registry(self) -> Registry:
        if self._registry is None:
            if self._registry_source is not None:
                self._registry = self._registry_source()
            else:
                from ..registry.default import default_registry
                self._registry = default_registry()
        return self._registry

    def warm(self) -> None:
        """Make what a first analysis needs before it is asked: the operator registry, and lark's parser
        for the calling thread (the analysing one). Plain Python goes to ast.parse, which needs nothing
        made, but what it does not take is lark's, a half-typed unit first of all. A file opened after
        start-up then does not wait for them (about 45 ms: the registry's 33, the parser's 13)."""
        with self._lock:
            self.registry()
        parse_unit_with_lark("pass\n")

    def set_registry(self, registry: Registry) -> None:
        with self._lock:
            self._registry = registry
            self._analyses.clear()
            for uri in list(self._lights):
                self._drop_light(uri)
            self.lending = Lending()

    # -- analyses ---------------------------------------------------------------------------
    def analysis(self, uri: str, hints_only: bool = False) -> Optional[DocumentAnalysis]:
        """The document's analysis, its inline helpers' headers as far as the lending store knows its
        callers. `hints_only`: it may be made as far as what hints show (its `complete` False): a later
        question for the whole of it makes the rest, once (document.Rest)."""
        with self._lock, self._question():
            result = self._analyse(uri, hints_only)
            return with_callers(self, uri, *result) if result else None

    @contextmanager
    def _question(self):
        outer = self._round is None
        if outer:  # every file the imports reach is checked once per question, not once per path to it
            self._round = {}
        try:
            yield
        finally:
            if outer:
                self._round = None

    # -- lending to inline helpers (helper_callers.py) ------------------------------------------------
    def callers(self, uri: str, open_only: bool = False) -> list[str]:
        """The files (`open_only`: the open documents) that may expand `uri`'s inline helpers (none when
        it has no helper with a scope)."""
        with self._lock, self._question():
            result = self._analyse(uri, hints_only=True)
            return helper_callers.callers(self, uri, result[1], open_only) if result else []

    def borrows(self, uri: str) -> bool:
        """Whether `uri`'s last analysis has inline helpers with scopes, whose headers its callers lend."""
        with self._lock:
            cached = self._analyses.get(uri)
            return cached is not None and bool(helper_callers.inline_helpers(cached[2]))

    def lend(self, caller: str) -> None:
        """Bring what `caller` lends up to date (its analysis records it; the early cutoff makes it cheap
        when nothing it reads changed)."""
        with self._lock, self._question():
            self._analyse(caller, hints_only=True)  # (what it lends is made with its calls)

    def lenders(self, uri: str) -> tuple[str, ...]:
        """The files whose lendings to `uri`'s inline helpers the store holds (what its headers may borrow)."""
        with self._lock:
            return self.lending.lenders(uri)

    def settle(self, uri: str) -> None:
        """Lend `uri` everything its callers lend now (what the server does in the background)."""
        for caller in self.callers(uri):
            self.lend(caller)

    def dependencies(self, uri: str) -> list[str]:
        """The documents whose exports the last analysis of `uri` read, or its light exports did (none
        before either is made)."""
        with self._lock:
            cached = self._analyses.get(uri)
            light = self._lights.get(uri)
            reads = cached[0][2] if cached else light[0][2] if light else {}
            return list(dict.fromkeys(dep for dep, _ in reads if dep != _RESOLVED))

    def _analyse(self, uri: str, hints_only: bool = False) -> Optional[tuple[DocumentAnalysis, Exports]]:
        round_ = self._round
        if round_ is not None:
            if uri in round_:
                return round_[uri]
            if hints_only and ("hints", uri) in round_:
                return round_[("hints", uri)]
        if uri in self._active:  # an import cycle: use what we had, if anything
            cached = self._analyses.get(uri)
            return (cached[1], cached[2]) if cached else None
        result = self._analyse_checked(uri, hints_only)
        if round_ is not None:
            round_[uri if result is None or result[0].complete else ("hints", uri)] = result
        return result

    def _analyse_checked(self, uri: str, hints_only: bool = False) -> Optional[tuple[DocumentAnalysis, Exports]]:
        doc = self._document(uri)
        why = refusal(doc) if doc is not None else self.files.problem(uri)
        if why is not None:  # bad input (documents.py): one diagnostic says why, nothing is analysed
            return not_analysed(uri, doc.version if doc else None, why), Exports(ExportedFunctions(uri, {}, {}, {}))
        if doc is None:
            return None
        self._active.add(uri)
        try:
            cached = self._analyses.get(uri)
            if cached is not None and self._current(cached[0], doc) and doc.valid_utf8 == (  # (its note is first)
                    not cached[1].diagnostics or cached[1].diagnostics[0].code != Code.INVALID_UTF8):
                key, analysis, exports, rest = cached
                if rest is not None and not hints_only:
                    analysis = rest.made(analysis)  # (a preemption leaves the hints' analysis as it was)
                    self._analyses[uri] = (key, analysis, exports, None)
                if analysis.version != doc.version:
                    analysis.version = doc.version
                return analysis, exports
            deps: dict = {}
            resolver = _Resolver(self, uri, deps)
            analyzer = DocumentAnalyzer(self.registry, self.caches, resolver.external, resolver.constants,
                                        edited=self.open_documents.snapshot(uri) is not None)
            light = self._lights.get(uri)
            taken = light[2].take_chain() if light is not None and light[0][0] == doc.text \
                and light[0][1] is self.registry() else None
            if taken is not None:  # the chain its exports ran as far as the signatures: the analysis goes on from there
                key, chain, read = taken
                analyzer.pending[key] = (chain, read)
            if hints_only:
                analysis, summary, rest = analyzer.analyse_hints(doc.text, uri, doc.version)
            else:
                (analysis, summary), rest = analyzer.analyse(doc.text, uri, doc.version), None
            own = self._explain_unresolved(uri, doc.text, analysis, summary)  # (the workspace's own go first)
            note = utf8_note(doc)
            if note is not None:
                own.insert(0, note)
            analysis.diagnostics[0:0] = own
            exports = _exports(uri, summary)
            # (the reads stay a live dict: the rest of an analysis made hints first may add to them)
            self._analyses[uri] = ((doc.text, self.registry(), deps), analysis, exports, rest)
            if cached is not None and self.keep_replaced:
                if len(self._replaced) >= _REPLACED_KEPT:  # (never released: they are freed here, as without it)
                    self._replaced.clear()
                self._replaced.append(cached)
            self._drop_light(uri)  # (its analysis answers importers from now on)
            self.analysed[uri] += 1
            self.lending.record(uri, doc.text, deps, analysis.lent)
            return analysis, exports
        finally:
            self._active.discard(uri)

    def _current(self, key: tuple, doc: Document) -> bool:
        """Is what was made from `key` (text, registry, the reads of other files and their tokens) still what
        the document and the files it read say now?"""
        if key[0] != doc.text or key[1] is not self.registry():
            return False
        return all(self._token(dep, what) == token for (dep, what), token in list(key[2].items()))

    def _token(self, uri: str, what: tuple) -> str:
        if uri == _RESOLVED:
            return self.resolve_module(*what) or _ABSENT
        exports = self.exports(uri)
        return exports.token(what) if exports is not None else _ABSENT

    def exports(self, uri: str) -> Optional[Exports]:
        """What files importing `uri` read of it: its analysis's exports when that is current, else its
        light exports (made without the analysis: LightSummary)."""
        round_ = self._round
        if round_ is not None:
            if uri in round_:
                return round_[uri][1] if round_[uri] else None
            if ("exports", uri) in round_:
                return round_[("exports", uri)]
        if uri in self._active:  # an import cycle: what we had, if anything
            cached = self._analyses.get(uri)
            light = self._lights.get(uri)
            return cached[2] if cached else light[1] if light else None
        doc = self._document(uri)
        if doc is None or refusal(doc) is not None:  # (not analysed: documents.py)
            exports = None
        else:
            self._active.add(uri)
            try:
                cached = self._analyses.get(uri)
                if cached is not None and self._current(cached[0], doc):
                    exports = cached[2]
                else:
                    exports = self._light(uri, doc)
            finally:
                self._active.discard(uri)
        if round_ is not None:
            round_[("exports", uri)] = exports
        return exports

    def _light(self, uri: str, doc: Document) -> Exports:
        light = self._lights.get(uri)
        if light is not None and not light[2].failed and self._current(light[0], doc):
            return light[1]
        deps: dict = {}  # (the reads of its signatures, made later, are added to it: its key holds it)
        resolver = _Resolver(self, uri, deps)
        analyzer = DocumentAnalyzer(self.registry, self.caches, resolver.external, resolver.constants)
        summary = analyzer.light(doc.text, uri, holder=_light_holder(uri))
        exports = _light_exports(uri, summary)
        self._lights[uri] = ((doc.text, self.registry(), deps), exports, summary)
        return exports

    def _drop_light(self, uri: str) -> None:
        if self._lights.pop(uri, None) is not None:
            self.caches.forget(_light_holder(uri))

    def _explain_unresolved(self, uri: str, text: str, analysis: DocumentAnalysis, summary: ModuleSummary
                            ) -> list[Diagnostic]:
        """A call without directions whose callee is imported says where it was to come from (S6); an
        import whose module is not found says so once (unresolved.py): its diagnostics."""
        missing: dict = {}
        for k, site in enumerate(analysis.calls):
            imported = summary.imports.get(site.callee) if site.skipped else None
            if imported is None:
                continue
            module = "." * imported.level + (imported.module or "")
            target = self.resolve_module(uri, imported.module, imported.level)
            unread = unread_import(self.files, self._document, uri, imported.module, imported.level, target,
                                   self.roots)
            why = (f"imported from `{module}`, whose file {unread} (S6)" if unread is not None else
                   f"imported from `{module}`, not found (neither beside this file nor in the workspace) (S6)"
                   if target is None else
                   f"imported from `{module}`, which defines no pl function `{imported.name}` PyPTO Lens can see "
                   f"(made at run time, or not decorated as a pl function) (S6)")
            analysis.calls[k] = replace(site, skipped=why)
            if target is None:
                missing.setdefault((imported.module, imported.level), []).append((site.callee, site.range))
        return unresolved_imports(text, missing) if missing else []

    # -- module resolution ------------------------------------------------------------------
    def resolve_module(self, from_uri: str, module: Optional[str], level: int) -> Optional[str]:
        """The uri of `module` imported from `from_uri` (relative: `level` leading dots); looked up once
        per question (`analysis`), which asks it for every import of every file it reaches."""
        if self._round is None:
            return self._resolve(from_uri, module, level)
        key = ("resolve", from_uri, module, level)
        if key not in self._round:
            self._round[key] = self._resolve(from_uri, module, level)
        return self._round[key]

    def _resolve(self, from_uri: str, module: Optional[str], level: int) -> Optional[str]:
        origin = uri_to_path(from_uri)
        parts = module.split(".") if module else []
        bases: list[Path] = []
        if level:
            if origin is None:
                return None
            base = origin.parent
            for _ in range(level - 1):
                base = base.parent
            bases.append(base)
        else:
            if origin is not None:
                bases.append(origin.parent)  # sibling modules imported by bare name
                bases.extend(_package_roots(origin.parent))
            bases.extend(self.roots)
        for base in bases:
            target = base.joinpath(*parts) if parts else base
            for candidate in (target.with_suffix(".py") if parts else None, target / "__init__.py"):
                if candidate is not None and (self._is_open(candidate) or candidate.is_file()):
                    return path_to_uri(candidate)
        return None

    def _is_open(self, path: Path) -> bool:
        return self.open_documents.snapshot(path_to_uri(path)) is not None


def _package_roots(folder: Path) -> list[Path]:
    """The folders above a package (where absolute imports of the package start)."""
    out = []
    while (folder / "__init__.py").is_file() and folder.parent != folder:
        folder = folder.parent
        out.append(folder)
    return out


def _light_holder(uri: str) -> str:
    """Who holds in the caches what a file's light exports use (caches.py): not the file's own analysis."""
    return uri + "#exports"


class _Resolver:
    """Answers a document's questions about other files, recording each read with its token (`deps`)."""

    def __init__(self, workspace: Workspace, uri: str, deps: dict):
        self.workspace = workspace
        self.uri = uri
        self.deps = deps

    def _resolve(self, from_uri: str, module: Optional[str], level: int) -> Optional[str]:
        target = self.workspace.resolve_module(from_uri, module, level)
        self.deps[(_RESOLVED, (from_uri, module, level))] = target or _ABSENT
        return target

    def _exports(self, module: Optional[str], level: int) -> tuple[Optional[str], Optional[Exports]]:
        target = self._resolve(self.uri, module, level)
        if target is None or target == self.uri:
            return target, None
        return target, self.workspace.exports(target)

    def _read(self, target: str, exports: Optional[Exports], what: tuple) -> None:
        self.deps[(target, what)] = exports.token(what) if exports is not None else _ABSENT

    def _function(self, target: str, exports: Optional[Exports], name: str) -> Optional[Fn]:
        self._read(target, exports, ("f", name))
        return exports.functions[name] if exports is not None and name in exports.functions else None

    def external(self, ref: ir.CalleeRef, ctx: ModuleContext) -> Optional[Fn]:
        if ref.how == CalleeForm.HOME:  # a name in an inline helper of another file: that file's function or import
            target = ref.module
            if target == self.uri:
                return None
            exports = self.workspace.exports(target)
            found = self._function(target, exports, ref.name)
            if found is not None or exports is None:
                return found
            self._read(target, exports, ("i", ref.name))
            imported = exports.imports.get(ref.name)
            return self._imported_function(target, imported, 0) if imported is not None else None
        if ref.how == CalleeForm.NAME:
            imported = ctx.imported.get(ref.name)
            return self._imported_function(self.uri, imported, 0) if imported is not None else None
        if ref.how == CalleeForm.MODULE:
            module = ctx.modules.get(ref.module)
            if module is None:
                return None
            target, exports = self._exports(module[0], module[1])
            return self._function(target, exports, ref.name) if target is not None and target != self.uri else None
        return None

    def _imported_function(self, from_uri: str, imported, depth: int) -> Optional[Fn]:
        """The pl function `from m import f` names, following a package's own re-exports."""
        target = self._resolve(from_uri, imported.module, imported.level)
        if target is None or target == self.uri or depth > 4:
            return None
        exports = self.workspace.exports(target)
        found = self._function(target, exports, imported.name)
        if found is not None or exports is None:
            return found
        self._read(target, exports, ("i", imported.name))
        again = exports.imports.get(imported.name)
        return self._imported_function(target, again, depth + 1) if again is not None else None

    def constants(self, ctx: ModuleContext) -> dict:
        """Constants imported from other files of the workspace (for folding shapes and trip counts)."""
        out = {}
        for local, imported in ctx.imported.items():
            target, exports = self._exports(imported.module, imported.level)
            if target is None or target == self.uri:
                continue
            self._read(target, exports, ("c", imported.name))
            if exports is not None and imported.name in exports.constants:
                out[local] = exports.constants[imported.name]
        return out


class ExportedFunctions(Mapping):
    """An analysis's module-level pl functions as other files see them (_export_function), each made
    when first read: an inline helper's export homes a copy of its whole body, which only a file
    expanding it reads (qwen3_14b's prefill_fwd_a8w8.py, whose helpers unroll: 109 ms of its cold
    open, for no importer). `lowered` are the functions as the analysis made them, in whose scopes
    and calls the copies are the same (helper_callers reads them there)."""

    def __init__(self, uri: str, lowered: dict, offsets: dict, tokens: dict):
        self.uri, self.lowered, self.offsets, self.tokens = uri, lowered, offsets, tokens
        self.made: dict[str, Fn] = {}

    def __getitem__(self, name: str) -> Fn:
        made = self.made.get(name)
        if made is None:
            made = self.made[name] = _export_function(self.uri, name, self.lowered[name],
                                                      self.offsets.get(name, 0), self.tokens)
        return made

    def __contains__(self, name) -> bool:
        return name in self.lowered

    def __iter__(self):
        return iter(sorted(self.lowered))

    def __len__(self) -> int:
        return len(self.lowered)


def _exports(uri: str, summary: ModuleSummary) -> Exports:
    tokens: dict = {}
    functions = ExportedFunctions(uri, summary.functions, summary.offsets, tokens)
    return Exports(functions, dict(summary.constants), dict(summary.imports), tokens)


def _light_exports(uri: str, summary: LightSummary) -> Exports:
    tokens: dict = {}
    return Exports(LazyFunctions(uri, summary, tokens), dict(summary.constants), dict(summary.imports), tokens)


def _export_function(uri: str, name: str, fn: Fn, offset: int, tokens: dict) -> Fn:
    """A module-level pl function as other files see it (its effective signature; an inline helper's body
    too), and its token in `tokens`: what a reader compares, declared directions included (callers'
    InParamWritten reads them, IW7), and where the function sits (callers' hints link to its parameters)."""
    external = external_copy(fn, f"{name}@{uri}", (uri, offset))
    if fn.kind is ir.Kind.INLINE:  # N1: expanded elsewhere, its names still mean what they mean here
        source = fn.source
        if source is not None and source.body is fn.body:  # (as lowered: made once per lowering)
            key = (uri, external.owner)
            if key not in source.homed:
                source.homed[key] = _homed(fn.body, uri, external.owner)
            external.body = source.homed[key]
        else:
            external.body = _homed(external.body, uri, external.owner)
    tokens[name] = repr((name, fn.kind.value, [d.value for d in fn.dirs], [p.type for p in fn.params],
                         [p.name for p in fn.params], [p.decl.value for p in fn.params], [p.span for p in fn.params],
                         offset, fn.hidden_outputs, fn.returns,
                         fn.source.digest if fn.kind is ir.Kind.INLINE and fn.source is not None else ""))
    return external


def _homed(body: list, uri: str, owner: str) -> list:
    """An inline helper's statements as its callers in other files expand them: every plain-name call
    resolved in the module `uri` (CalleeRef 'home'), and every statement and call owned by `owner`,
    the helper as those callers know it (`name@uri`: where its text is, whatever their own names)."""
    out = []
    for st in body:
        if isinstance(st, ir.Assign) and isinstance(st.value, ir.UserCall):
            callee = st.value.callee
            if callee.how == CalleeForm.NAME:
                callee = ir.CalleeRef(CalleeForm.HOME, callee.name, uri)
            st = replace(st, value=replace(st.value, callee=callee, owner=owner), owner=owner)
        elif isinstance(st, ir.Assign) and isinstance(st.value, ir.OpCall):
            st = replace(st, value=replace(st.value, owner=owner), owner=owner)
        elif isinstance(st, (ir.Assign, ir.OpaqueStmt)):
            st = replace(st, owner=owner)
        elif isinstance(st, ir.If):
            st = replace(st, then=_homed(st.then, uri, owner), orelse=_homed(st.orelse, uri, owner), owner=owner)
        elif isinstance(st, ir.Scope):  # (its header is the helper's: helper_callers.py lends it back)
            st = replace(st, body=_homed(st.body, uri, owner), attrs={**st.attrs, "home": uri}, owner=owner)
        elif isinstance(st, ir.Loop):
            st = replace(st, body=_homed(st.body, uri, owner), owner=owner)
        out.append(st)
    return out
