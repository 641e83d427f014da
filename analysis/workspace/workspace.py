"""The incremental engine: the documents of a workspace, their imports, and their analyses.

Open documents come from their owner (documents.py); files they import are read from disk.
An analysis is cached per document and recomputed only when the document's
text changed or when what it uses of another file (that file's exported
signatures and constants: its fingerprint) changed. That is the early cutoff
across files; inside a file the caches of caches.py do the same per unit.
"""
from __future__ import annotations

import hashlib
import os
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Optional

from ..ir import nodes as ir
from ..ir.context import ModuleContext
from ..ir.nodes import CalleeForm
from ..pipeline.model import Fn, external_copy
from ..registry.registry import Registry
from ..syntax.parser import parse_unit
from ..vocabulary import Code, Severity
from .caches import Caches
from .document import DocumentAnalyzer, ModuleSummary
from . import helper_callers
from .helper_callers import Lending, with_callers
from .documents import DiskFiles, Document, OpenDocuments, OpenTexts, path_to_uri, uri_to_path
from .results import Diagnostic, DocumentAnalysis, Range


@dataclass
class Exports:
    """What other files may use of a module: its pl functions (effective) and its constants."""

    functions: dict[str, Fn] = field(default_factory=dict)
    constants: dict = field(default_factory=dict)
    fingerprint: str = ""
    imports: dict = field(default_factory=dict)  # names it imports itself (a package re-exports them)


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
        self._analyses: dict[str, tuple[tuple, DocumentAnalysis, Exports]] = {}
        self._lock = threading.RLock()
        self._active: set = set()  # documents being analysed (import cycles)
        self._round: Optional[dict] = None  # uri -> its result, during one `analysis` (each file checked once)
        self.lending = Lending()  # what callers lent other files' inline helpers (helper_callers.py)

    # -- documents --------------------------------------------------------------------
    def forget(self, uri: str) -> None:
        """A document was closed: drop what was kept for it (its text is read from disk from now on)."""
        with self._lock:
            self._analyses.pop(uri, None)
            self.lending.forget(uri)  # its text on disk may lend otherwise
            self.caches.splitters.pop(uri, None)
            self.caches.forget(uri)

    def text(self, uri: str) -> Optional[str]:
        doc = self._document(uri)
        return doc.text if doc else None

    def _document(self, uri: str) -> Optional[Document]:
        snapshot = self.open_documents.snapshot(uri)
        if snapshot is not None:
            return Document(uri, snapshot.text, snapshot.version, True)
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
        """Make what a first analysis needs before it is asked: the operator registry, and the parser
        of the calling thread (the analysing one). A file opened after start-up then does not wait for
        them (about 45 ms: the registry's 33, the parser's 13)."""
        with self._lock:
            self.registry()
        parse_unit("pass\n")

    def set_registry(self, registry: Registry) -> None:
        with self._lock:
            self._registry = registry
            self._analyses.clear()
            self.lending = Lending()

    # -- analyses ---------------------------------------------------------------------------
    def analysis(self, uri: str) -> Optional[DocumentAnalysis]:
        """The document's analysis, its inline helpers' headers as far as the lending store knows its callers."""
        with self._lock, self._question():
            result = self._analyse(uri)
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
            result = self._analyse(uri)
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
            self._analyse(caller)

    def settle(self, uri: str) -> None:
        """Lend `uri` everything its callers lend now (what the server does in the background)."""
        for caller in self.callers(uri):
            self.lend(caller)

    def dependencies(self, uri: str) -> list[str]:
        """The documents whose exports the last analysis of `uri` read (none before it is analysed)."""
        with self._lock:
            cached = self._analyses.get(uri)
            return [dep for dep, _ in cached[0][2]] if cached else []

    def _analyse(self, uri: str) -> Optional[tuple[DocumentAnalysis, Exports]]:
        if self._round is not None and uri in self._round:
            return self._round[uri]
        if uri in self._active:  # an import cycle: use what we had, if anything
            cached = self._analyses.get(uri)
            return (cached[1], cached[2]) if cached else None
        result = self._analyse_checked(uri)
        if self._round is not None:
            self._round[uri] = result
        return result

    def _analyse_checked(self, uri: str) -> Optional[tuple[DocumentAnalysis, Exports]]:
        doc = self._document(uri)
        if doc is None:
            return None
        self._active.add(uri)
        try:
            deps: dict[str, str] = {}
            resolver = _Resolver(self, uri, deps)
            cached = self._analyses.get(uri)
            if cached is not None:
                key, analysis, exports = cached
                if key[0] == doc.text and key[1] is self.registry() and \
                        all(resolver.fingerprint(dep) == fp for dep, fp in key[2]):
                    if analysis.version != doc.version:
                        analysis.version = doc.version
                    return analysis, exports
            analyzer = DocumentAnalyzer(self.registry, self.caches, resolver.external,
                                        resolver.constants)
            analysis, summary = analyzer.analyse(doc.text, uri, doc.version)
            if not doc.valid_utf8:
                analysis.diagnostics.insert(0, Diagnostic(Code.INVALID_UTF8, Severity.WARNING,
                                                          "this file is not valid UTF-8: invalid bytes were "
                                                          "read as U+FFFD", Range(0, 0, 0, 0)))
            self._explain_unresolved(uri, analysis, summary)
            exports = _exports(uri, summary)
            self._analyses[uri] = ((doc.text, self.registry(), tuple(deps.items())), analysis, exports)
            self.lending.record(uri, doc.text, deps, analysis.lent)
            return analysis, exports
        finally:
            self._active.discard(uri)

    def _explain_unresolved(self, uri: str, analysis: DocumentAnalysis, summary: ModuleSummary) -> None:
        """A call without directions whose callee is imported says where it was to come from (S6)."""
        for k, site in enumerate(analysis.calls):
            imported = summary.imports.get(site.callee) if site.skipped else None
            if imported is None:
                continue
            module = "." * imported.level + (imported.module or "")
            target = self.resolve_module(uri, imported.module, imported.level)
            why = (f"imported from `{module}`, not found (neither beside this file nor in the workspace) (S6)"
                   if target is None else
                   f"imported from `{module}`, which defines no pl function `{imported.name}` PyPTO Lens can see "
                   f"(made at run time, or not decorated as a pl function) (S6)")
            analysis.calls[k] = replace(site, skipped=why)

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


class _Resolver:
    """Answers a document's questions about other files, recording what it used."""

    def __init__(self, workspace: Workspace, uri: str, deps: dict):
        self.workspace = workspace
        self.uri = uri
        self.deps = deps

    def fingerprint(self, uri: str) -> str:
        result = self.workspace._analyse(uri)
        return result[1].fingerprint if result else ""

    def _exports(self, module: Optional[str], level: int) -> tuple[Optional[str], Optional[Exports]]:
        target = self.workspace.resolve_module(self.uri, module, level)
        if target is None or target == self.uri:
            return target, None
        result = self.workspace._analyse(target)
        exports = result[1] if result else None
        self.deps[target] = exports.fingerprint if exports else ""
        return target, exports

    def external(self, ref: ir.CalleeRef, ctx: ModuleContext) -> Optional[Fn]:
        if ref.how == CalleeForm.HOME:  # a name in an inline helper of another file: that file's function or import
            target = ref.module
            if target == self.uri:
                return None
            result = self.workspace._analyse(target)
            exports = result[1] if result else None
            self.deps[target] = exports.fingerprint if exports else ""
            if exports is None:
                return None
            if ref.name in exports.functions:
                return exports.functions[ref.name]
            imported = exports.imports.get(ref.name)
            return self._imported_function(target, imported, 0) if imported is not None else None
        if ref.how == CalleeForm.NAME:
            imported = ctx.imported.get(ref.name)
            return self._imported_function(self.uri, imported, 0) if imported is not None else None
        if ref.how == CalleeForm.MODULE:
            module = ctx.modules.get(ref.module)
            if module is None:
                return None
            _, exports = self._exports(module[0], module[1])
            return exports.functions.get(ref.name) if exports else None
        return None

    def _imported_function(self, from_uri: str, imported, depth: int) -> Optional[Fn]:
        """The pl function `from m import f` names, following a package's own re-exports."""
        target = self.workspace.resolve_module(from_uri, imported.module, imported.level)
        if target is None or target == self.uri or depth > 4:
            return None
        result = self.workspace._analyse(target)
        exports = result[1] if result else None
        self.deps[target] = exports.fingerprint if exports else ""
        if exports is None:
            return None
        if imported.name in exports.functions:
            return exports.functions[imported.name]
        again = exports.imports.get(imported.name)
        return self._imported_function(target, again, depth + 1) if again is not None else None

    def constants(self, ctx: ModuleContext) -> dict:
        """Constants imported from other files of the workspace (for folding shapes and trip counts)."""
        out = {}
        for local, imported in ctx.imported.items():
            _, exports = self._exports(imported.module, imported.level)
            if exports is not None and imported.name in exports.constants:
                out[local] = exports.constants[imported.name]
        return out


def _exports(uri: str, summary: ModuleSummary) -> Exports:
    functions, offsets, constants, imported = summary.functions, summary.offsets, summary.constants, summary.imports
    external = {}
    parts = []
    for name, fn in sorted(functions.items()):
        external[name] = external_copy(fn, f"{name}@{uri}", (uri, offsets.get(name, 0)))
        if fn.kind is ir.Kind.INLINE:  # N1: expanded elsewhere, its names still mean what they mean here
            external[name].body = _homed(external[name].body, uri, external[name].owner)
        # declared directions too (callers' InParamWritten reads them, IW7), and where the function
        # sits (callers' hints link to its parameters)
        parts.append(repr((name, fn.kind.value, [d.value for d in fn.dirs], [p.type for p in fn.params],
                           [p.name for p in fn.params], [p.decl.value for p in fn.params], [p.span for p in fn.params],
                           offsets.get(name, 0), fn.hidden_outputs, fn.returns,
                           fn.source.digest if fn.kind is ir.Kind.INLINE and fn.source is not None else "")))
    parts.append(repr(sorted(constants.items(), key=lambda kv: kv[0])))
    parts.append(repr(sorted(imported.items())))
    fingerprint = hashlib.sha1("\n".join(parts).encode("utf-8", "replace")).hexdigest()
    return Exports(external, dict(constants), fingerprint, dict(imported))


def _homed(body: list, uri: str, owner: str) -> list:
    """An inline helper's statements as its callers in other files expand them: every plain-name call
    resolved in the module `uri` (CalleeRef 'home'), and every call, scope and loop owned by `owner`,
    the helper as those callers know it (`name@uri`: where its text is, whatever their own names)."""
    out = []
    for st in body:
        if isinstance(st, ir.Assign) and isinstance(st.value, ir.UserCall):
            callee = st.value.callee
            if callee.how == CalleeForm.NAME:
                callee = ir.CalleeRef(CalleeForm.HOME, callee.name, uri)
            st = replace(st, value=replace(st.value, callee=callee, owner=owner))
        elif isinstance(st, ir.Assign) and isinstance(st.value, ir.OpCall):
            st = replace(st, value=replace(st.value, owner=owner))
        elif isinstance(st, ir.If):
            st = replace(st, then=_homed(st.then, uri, owner), orelse=_homed(st.orelse, uri, owner))
        elif isinstance(st, ir.Scope):  # (its header is the helper's: helper_callers.py lends it back)
            st = replace(st, body=_homed(st.body, uri, owner), attrs={**st.attrs, "home": uri}, owner=owner)
        elif isinstance(st, ir.Loop):
            st = replace(st, body=_homed(st.body, uri, owner), owner=owner)
        out.append(st)
    return out
