"""Inline helpers' scope headers as their callers expand them (N1, H3).

A `pl.inline` / `@pl.jit.inline` helper is analysed only through its expansions: a scope in its
text is outlined once per call, in the caller's program. When the caller lives in another file,
that file's analysis derives the scope's captures, and the helper's own header would show
nothing. So:

- a caller's analysis *lends* each such expansion (`lent_scopes`): the helper's file and name, the
  header's span in the helper's text, where the caller calls the helper, and the captures'
  directions with their derivations;
- every caller's analysis records what it lent in the workspace's lending store (`Lending`), tagged
  with what it read of the helper's file (each read with its token) and the caller's text it was
  computed from;
- the helper's analysis *borrows* (`with_callers`) what the store holds for its current exports
  (those reads give the same tokens again) and the callers' current texts, never waiting for a
  caller (issue 8: a keystroke in the helper changes what its callers read, and 22 callers took
  seconds). The server lends the rest in
  the background (`callers`, then each caller's analysis: server/analyses.py), and refreshes the
  helper's views when what it borrows changed; `settle` does the same at once, in process;
- one scope site per header: one vector when the callers agree; else, per capture, the strongest
  of the callers' directions, the per-caller vectors in the hover.

"Strongest" is H3's order (ARG_STRENGTH: InOut > Output > OutputExisting > Input > NoDep >
Scalar). InOut is the one tag that both waits on the earlier writers (G4) and records the task as
a writer (G5): a header that says InOut where one caller has Input hides no write, and one that
says OutputExisting where another has Input still names the write. The order is a display rule,
not a merge the runtime does: each call site keeps its own vector, which the hover lists.
"""
from __future__ import annotations

import os
import re
import weakref
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Optional

from ..ir.nodes import ARG_STRENGTH, ArgDir, Kind
from ..ir import nodes as ir
from ..pipeline.model import CallResult
from ..pipeline.program import ProgramResult
from ..syntax.nodes import Span
from .documents import path_to_uri, uri_to_path
from .placement import _depths, _owners, _Places, _signature
from .results import BY_START, ArgHint, CallSite, DocumentAnalysis, Explanation, Location, Range, Step
from .text import header_colon, indentation


class LentScope:
    """One expansion of a scope of another file's inline helper, as the caller's analysis derived it.

    Its captures and signature are placed when first read (by the helper's analysis, or when the
    caller's analysis is made whole: `settle`): what a caller lends is not what its own hints wait
    for (issue 20: 30 of 250 ms of an edit of dspark_drafter.py)."""

    __slots__ = ("helper_uri", "helper", "span", "caller_uri", "caller_line", "caller_function", "callee", "kind",
                 "_made", "_captures", "_signature")

    def __init__(self, helper_uri: str, helper: str, span: Span, caller_uri: Optional[str], caller_line: int,
                 caller_function: str, callee: str, kind: str, made):
        self.helper_uri = helper_uri  # the file whose text holds the scope
        self.helper = helper  # the helper function whose text holds it
        self.span = span  # the header, relative to the helper's unit
        self.caller_uri = caller_uri
        self.caller_line = caller_line  # the call of the helper in the caller's text (the outermost one, N1)
        self.caller_function = caller_function
        self.callee, self.kind = callee, kind  # the outlined function's name and kind
        self._made = made  # () -> (captures, signature)
        self._captures = self._signature = None

    @property
    def captures(self) -> tuple[ArgHint, ...]:
        """Positions are the helper's to give (line, col -1)."""
        self.settle()
        return self._captures

    @property
    def signature(self) -> tuple:
        self.settle()
        return self._signature

    @property
    def settled(self) -> bool:
        """Are the captures and the signature placed?"""
        return self._made is None

    def settle(self) -> None:
        """Place the captures and the signature now (and let go of what they are placed from)."""
        if self._made is not None:
            self._captures, self._signature = self._made()
            self._made = None

    def _key(self) -> tuple:
        return (self.helper_uri, self.helper, self.span, self.caller_uri, self.caller_line, self.caller_function,
                self.callee, self.kind, self.captures, self.signature)

    def __eq__(self, other) -> bool:
        return isinstance(other, LentScope) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"LentScope{self._key()!r}"


# -- the caller's side -------------------------------------------------------------------------------
def lent_scopes(result: ProgramResult, functions, units, uri: Optional[str],
                moves: Optional[dict] = None) -> list[LentScope]:
    """The scopes of other files' inline helpers that this program expanded, one per expansion
    (`moves`: placement._Places)."""
    groups: dict = {}
    for r in result.calls:
        scope = r.callee_fn.scope if r.dispatch and r.callee_fn is not None else None
        home = scope.attrs.get("home") if scope is not None else None
        if home is None or home == uri or r.directions is None:
            continue
        key = (home, r.call.owner, r.call.span.line, r.call.span.col, scope.attrs.get("inlined_at"))
        groups.setdefault(key, []).append(r)
    if not groups:
        return []
    places = _Places(functions, units, _owners(result), moves)
    depth = _depths(result.fns)
    out = []
    for (home, helper, _, _, inlined_at), group in groups.items():
        outermost = min(depth.get(r.fn, 0) for r in group)  # H3: the dispatch of the outermost function
        chosen = [r for r in group if depth.get(r.fn, 0) == outermost]
        at = places.range(*inlined_at) if inlined_at else None
        root = _root_function(result, chosen[0])
        # (the helper's statements are owned as `name@uri`: _homed in workspace.py)
        out.append(LentScope(home, helper.split("@", 1)[0], chosen[0].call.span, uri, at.line if at else -1,
                             inlined_at[0] if inlined_at else root, chosen[0].callee_fn.name,
                             chosen[0].callee_fn.kind.value,
                             lambda chosen=chosen: (_captures(places, chosen, uri, functions, units),
                                                    _signature(chosen[0].callee_fn))))
    return out


def _root_function(result: ProgramResult, r: CallResult) -> str:
    fn = result.fns.get(r.fn)
    while fn is not None and fn.parent is not None and fn.parent in result.fns:
        fn = result.fns[fn.parent]
    return fn.name if fn is not None else r.fn


def _captures(places: _Places, chosen: list[CallResult], uri: Optional[str], functions, units) -> tuple[ArgHint, ...]:
    first = chosen[0]
    params = first.callee_fn.params
    scope = first.callee_fn.scope
    from_caller = scope.attrs.get("from_caller", {}) if scope is not None else {}
    names = scope.attrs.get("names", {}) if scope is not None else {}
    out = []
    for i in range(len(first.directions)):
        values = [(r.directions[i], r.derivations[i]) for r in chosen if i < len(r.directions)]
        direction, why = max(values, key=lambda v: ARG_STRENGTH[v[0]])
        name = params[i].name if i < len(params) else f"#{i}"
        arg = first.call.args[i] if i < len(first.call.args) else None
        arg_name = arg.var.name if isinstance(arg, ir.Ref) and not arg.var.name.startswith("_t") else None
        e = _elsewhere(places.explain(why), uri)
        via = None
        if isinstance(arg, ir.Ref) and arg.var in from_caller and arg.var not in names:
            param, owner, span = from_caller[arg.var]  # read only by what a caller passes for `param`
            text = _source(functions, units, owner, places.moved(owner, span) if span is not None else None)
            via = f"{text} for {param}" if text else f"{owner}'s argument for {param}"
            e = Explanation(e.rule, f"{name} is read by {f'`{text}`' if text else 'the expression'} that {owner} "
                                    f"passes for the helper's {param} (N1: it is computed inside the scope): "
                                    f"{e.text}", e.steps)
            if direction is ArgDir.SCALAR:
                name = param  # a value, not a buffer: shown as the helper's parameter it stands for
            arg_name = None
        out.append(ArgHint(-1, -1, direction, name, arg_name, i, e, via=via))
    return tuple(out)


def _source(functions, units, owner: str, span: Span) -> Optional[str]:
    """The text of a one-line span of a caller's function (its argument expression)."""
    entry = functions.get(owner)
    if entry is None or span is None or span.line != span.end_line:
        return None
    lines = units[entry[0].unit].text.split("\n")
    return lines[span.line][span.col:span.end_col].strip() or None if 0 <= span.line < len(lines) else None


def _elsewhere(e: Explanation, uri: Optional[str]) -> Explanation:
    """The caller's evidence, as seen from the helper's file (a location without uri is the caller's)."""
    steps = tuple(Step(s.label, s.note, Location(uri, s.location.range) if s.location and s.location.uri is None
                       else s.location) for s in e.steps)
    return Explanation(e.rule, e.text, steps)


# -- the lending store ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Lent:
    """What one caller lent one helper file: computed from that caller's text, with the helper's exports
    as they were then (what the caller read of them, each read with its token). Valid while both are
    still current."""

    reads: tuple  # ((what, token), ...): Exports.token
    text: str
    scopes: tuple[LentScope, ...]


class Lending:
    """Per helper file, what each caller lent it. A caller's analysis records here whenever it is made
    (in its own right, or in the background for a helper: `lend`); the helper's analysis only reads
    what is current, never waits for its callers (issue 8)."""

    def __init__(self) -> None:
        self.by_helper: dict[str, dict[str, Lent]] = {}  # helper file key -> caller uri -> what it lent

    def record(self, caller: str, text: str, deps: dict, lent: list[LentScope]) -> None:
        self.forget(caller)
        groups: dict = {}
        for s in lent:
            groups.setdefault(s.helper_uri, []).append(s)
        for helper_uri, scopes in groups.items():
            reads = tuple((what, token) for (dep, what), token in deps.items() if dep == helper_uri)
            self.by_helper.setdefault(_file_key(helper_uri), {})[caller] = Lent(reads, text, tuple(scopes))

    def forget(self, caller: str) -> None:
        for entries in self.by_helper.values():
            entries.pop(caller, None)

    def lenders(self, uri: str) -> tuple[str, ...]:
        """The callers whose lendings to the file `uri` the store holds (current or not)."""
        own = _file_key(uri)
        return tuple(sorted(caller for caller in self.by_helper.get(own, {})
                            if caller != uri and _file_key(caller) != own))

    def current(self, workspace, uri: str, exports) -> list[LentScope]:
        """What the callers lent `uri` with its exports as they are now, from their texts as they are now."""
        out: list[LentScope] = []
        own = _file_key(uri)
        for caller, lent in sorted(self.by_helper.get(own, {}).items()):
            if caller != uri and _file_key(caller) != own and workspace.text(caller) == lent.text \
                    and all(exports.token(what) == token for what, token in lent.reads):
                out.extend(lent.scopes)
        return out


def lent_to(analysis: Optional[DocumentAnalysis]) -> tuple[str, ...]:
    """The files whose inline helpers' scopes an analysis lent headers to (as `Lending.lenders` names them)."""
    return tuple(sorted({_file_key(s.helper_uri) for s in analysis.lent})) if analysis is not None else ()


def inline_helpers(exports) -> dict[str, int]:
    """The file's inline helpers that hold an outlined scope (whose headers their callers lend), with their offsets."""
    return {name: offset for name, fn, offset in _own_functions(exports)
            if fn.kind is Kind.INLINE and _has_scope(fn.body)}


def _own_functions(exports) -> list:
    """(name, function, first line) of the file's pl functions as its analysis lowered them (an
    analysis's exports, workspace.ExportedFunctions: their copies for other files, made when those
    read them, have the same scopes and calls)."""
    functions = exports.functions
    return [(name, fn, functions.offsets.get(name, 0)) for name, fn in sorted(functions.lowered.items())]


def callers(workspace, uri: str, exports, open_only: bool = False) -> list[str]:
    """The workspace's files (open or on disk; `open_only`: open) that may call one of `uri`'s inline helpers."""
    helpers = _reaching(exports, inline_helpers(exports))
    return _index(workspace).candidates(workspace, uri, helpers, open_only) if helpers else []


def _reaching(exports, helpers: dict) -> dict:
    """The helpers with scopes and the file's inline helpers that call them, however deep (a caller
    of `lm_head_with_sampling` expands `lm_head`'s scopes, and names only the former)."""
    found = dict(helpers)
    changed = True
    while changed:
        changed = False
        for name, fn, offset in _own_functions(exports):
            if name not in found and fn.kind is Kind.INLINE and any(
                    isinstance(st, ir.Assign) and isinstance(st.value, ir.UserCall) and st.value.callee.name in found
                    for st in ir.walk_stmts(fn.body)):
                found[name] = offset
                changed = True
    return found


# -- the helper's side -------------------------------------------------------------------------------
def with_callers(workspace, uri: str, analysis: DocumentAnalysis, exports) -> DocumentAnalysis:
    """The analysis of `uri` with its inline helpers' scope headers as the store says its callers expand them
    (what is missing or stale there is lent later, in the background: server/analyses.py)."""
    helpers = inline_helpers(exports)
    if not helpers:
        return analysis
    lent = [s for s in workspace.lending.current(workspace, uri, exports) if s.helper in helpers]
    if not lent:
        return analysis
    index = _index(workspace)
    key = (id(analysis), analysis.version, tuple(map(id, lent)))
    memo = index.borrowed.get(uri)
    if memo is not None and memo[0] == key and memo[1] is analysis:
        return memo[2]
    text = workspace.text(uri) or ""
    borrowed = _borrowed_sites(lent, helpers, text.split("\n"), analysis, uri)
    if not borrowed:
        return analysis
    at = {site.range for site in borrowed}
    calls = [site for site in analysis.calls if not (site.scope and site.range in at)] + borrowed
    calls.sort(key=BY_START)
    out = replace(analysis, calls=calls)
    index.borrowed[uri] = (key, analysis, out)
    return out


def borrowed(analysis: Optional[DocumentAnalysis]) -> tuple:
    """What an analysis shows of its callers' expansions (to tell whether the helper's views must be refreshed)."""
    if analysis is None:
        return ()
    return tuple((c.range, c.hints, c.notes, c.lent) for c in analysis.calls if c.lent)


def _has_scope(body: list) -> bool:
    return any(isinstance(st, ir.Scope) and st.outlined for st in ir.walk_stmts(body))


def _same_file(a: str, b: str) -> bool:
    return a == b or _file_key(a) == _file_key(b)


def _file_key(uri: str) -> str:
    """The file a uri names, whichever way it is spelled (the walk's uris are path_to_uri's)."""
    path = uri_to_path(uri)
    return path_to_uri(path) if path is not None else uri


def _borrowed_sites(lent: list[LentScope], offsets: dict, lines: list[str], analysis: DocumentAnalysis,
                    uri: str) -> list[CallSite]:
    headers: dict = {}
    for s in lent:
        offset = offsets[s.helper]
        headers.setdefault((s.helper, s.span.line + offset, s.span.col), []).append(s)
    out = []
    for (helper, line, col), expansions in sorted(headers.items(), key=lambda kv: kv[0][1:]):
        first = expansions[0]
        offset = offsets[helper]
        if not 0 <= line < len(lines):
            continue
        end_line, end_col = header_colon(lines, first.span.end_line + offset, first.span.end_col)
        r = Range(line, indentation(lines[line]), end_line, end_col)
        own = next((site for site in analysis.calls if site.scope and site.range == r and site.hints), None)
        out.append(_merged(r, helper, expansions, own, uri))
    return out


def _merged(r: Range, helper: str, expansions: list[LentScope], own: Optional[CallSite], uri: str) -> CallSite:
    """One header: per capture (by name: a caller passing a literal captures less, O3) the strongest direction."""
    vectors = [(_where(s), s.captures) for s in sorted(expansions, key=_order)]
    if own is not None:  # a caller in the helper's own file
        vectors.insert(0, (f"this file ({own.function})", own.hints))
    # each capture once, by the helper's own name; one that only a caller's argument expression reads
    # is that caller's: named with it, never merged with another caller's
    names: dict[tuple, list[tuple[str, ArgHint]]] = {}
    for where, captures in vectors:
        for h in captures:
            key = (h.param, None) if h.via is None or h.direction is ArgDir.SCALAR else \
                (f"{h.param} ({where.split(' ')[0]})", where)
            names.setdefault(key, []).append((where, h))
    hints = []
    for k, ((name, _), copies) in enumerate(names.items()):
        where, best = max(copies, key=lambda c: ARG_STRENGTH[c[1].direction])
        values = tuple(h.direction for _, h in copies)
        e = best.explanation
        hints.append(ArgHint(r.end_line, r.end_col, best.direction, name, None, k,
                             Explanation(e.rule, f"{e.text} (in {where})", e.steps),
                             values if len(set(values)) > 1 else (), via=best.via))
    agree = all(not h.copies for h in hints) and len({len(c) for _, c in vectors}) == 1
    count = len(vectors)
    notes = [f"{helper} is an inline helper: these are the directions of its expansion at "
             f"{'its one call' if count == 1 else f'its {count} calls'} (N1)"
             + ("" if agree else "; they disagree: each capture shows the strongest (H3)")]
    notes += [f"{where}: {_vector(captures)}" for where, captures in vectors]
    first = expansions[0]
    return CallSite(r, r, first.callee, first.kind, f"{helper} (from its callers)", tuple(hints), True,
                    False, None, tuple(notes), first.signature, lent=tuple(w for w, _ in vectors))


def _order(s: LentScope):
    return (s.caller_uri or "", s.caller_line)


def _where(s: LentScope) -> str:
    path = uri_to_path(s.caller_uri) if s.caller_uri else None
    name = path.name if path is not None else (s.caller_uri or "?")
    line = f":{s.caller_line + 1}" if s.caller_line >= 0 else ""
    return f"{name}{line} ({s.caller_function})"


def _vector(captures) -> str:
    return ", ".join(f"{h.param}{f' ({h.arg})' if h.arg and h.arg != h.param else ''}"
                     f"{f' (read by {h.via})' if h.via else ''}: {h.direction.value}"
                     for h in captures) or "no captures"


# -- which files may call a helper -----------------------------------------------------------------------
_SKIP_DIRS = {"node_modules", "__pycache__", "site-packages", "build", "dist"}
MAX_FILES = 20000  # a workspace folder larger than this is searched only this far


class _CallerIndex:
    """The workspace's Python files and which of them name a helper. The folders are walked again
    when one of them changed (a file made, removed or renamed changes its folder's time stamp)."""

    def __init__(self) -> None:
        self.roots: Optional[tuple] = None
        self.files: list[str] = []
        self.folders: dict[str, int] = {}  # folder -> its mtime when walked
        self.mentions: dict = {}  # uri -> (its text's hash and length, names, whether the text names one of them)
        self.imports: dict = {}  # uri -> (its text's hash and length, the files its imports name)
        self.borrowed: dict = {}  # helper uri -> (key, its analysis, the analysis with its callers' sites)

    def candidates(self, workspace, uri: str, helpers: dict, open_only: bool = False) -> list[str]:
        roots = tuple(workspace.roots)
        if not open_only and (roots != self.roots or not _unchanged(self.folders)):
            self.roots = roots
            self.files, self.folders = _python_files(roots)
        try:
            open_uris = {u for u in workspace.open_documents if workspace.open_documents.snapshot(u) is not None}
        except TypeError:  # an owner that cannot list its documents: files on disk only
            open_uris = set()
        names = tuple(sorted(helpers))
        pattern = None
        out = []
        own = _file_key(uri)
        for candidate in sorted(open_uris if open_only else set(self.files) | open_uris):
            if candidate in (uri, own) or (candidate in open_uris and _file_key(candidate) == own):
                continue
            text = workspace.peek_text(candidate)  # (not kept: only what was found is)
            if text is None:
                continue
            key = (hash(text), len(text))
            cached = self.mentions.get(candidate)
            if cached is None or cached[0] != key or cached[1] != names:
                pattern = pattern or re.compile(r"\b(?:" + "|".join(map(re.escape, names)) + r")\b")
                cached = self.mentions[candidate] = (key, names, pattern.search(text) is not None)
            if cached[2] and self._reaches(workspace, candidate, text, own):
                out.append(candidate)
        return out

    def _reaches(self, workspace, caller: str, text: str, helper_file: str) -> bool:
        """Do `caller`'s imports lead to `helper_file`, directly or through the files they import? A
        workspace of models from one template names the same helpers in every family: only a file
        that imports this one (or a file that does) can expand its helpers."""
        seen, todo = {_file_key(caller)}, [(caller, text)]
        while todo and len(seen) < _MAX_REACHED:
            uri, body = todo.pop()
            for target in self._imported(workspace, uri, body):
                key = _file_key(target)
                if key == helper_file:
                    return True
                if key not in seen:
                    seen.add(key)
                    imported = workspace.peek_text(target)
                    if imported is not None:
                        todo.append((target, imported))
        return bool(todo)  # (searched too far to tell: it may)

    def _imported(self, workspace, uri: str, text: str) -> tuple:
        """The files `uri`'s import statements name (kept by its text's hash)."""
        key = (hash(text), len(text))
        cached = self.imports.get(uri)
        if cached is not None and cached[0] == key:
            return cached[1]
        found = []
        for level, module, names in _import_statements(text):
            for name in [None] + names:  # (`from pkg import blocks` names the module pkg.blocks too)
                dotted = ".".join(part for part in (module, name) if part) or None
                target = workspace.resolve_module(uri, dotted, level)
                if target is not None:
                    found.append(target)
        result = tuple(dict.fromkeys(found))
        self.imports[uri] = (key, result)
        return result


_MAX_REACHED = 64  # files followed through imports from one caller, at most
_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+(\.*)[ \t]*([\w.]*)[ \t]+import[ \t]+\(?([\w., \t]*)|import[ \t]+([\w., \t]+))",
                     re.M)


def _import_statements(text: str) -> list[tuple[int, Optional[str], list[str]]]:
    """(level, module, names) of each `from m import a, b` and `import m, n.o` (as statements of a line)."""
    out = []
    for match in _IMPORT.finditer(text):
        if match.group(4) is not None:
            for part in match.group(4).split(","):
                module = part.split(" as ")[0].strip()
                if module:
                    out.append((0, module, []))
        else:
            names = [part.split(" as ")[0].strip() for part in match.group(3).split(",")]
            out.append((len(match.group(1)), match.group(2) or None, [n for n in names if n]))
    return out


def _python_files(roots: tuple) -> tuple[list[str], dict[str, int]]:
    out: list[str] = []
    folders: dict[str, int] = {}
    for root in roots:
        for folder, dirs, files in os.walk(root):
            try:
                folders[folder] = os.stat(folder).st_mtime_ns
            except OSError:
                continue
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIP_DIRS
                             and not d.endswith("venv"))
            out.extend(path_to_uri(Path(folder) / f) for f in sorted(files) if f.endswith(".py"))
            if len(out) >= MAX_FILES:
                return out[:MAX_FILES], folders
    return out, folders


def _unchanged(folders: dict[str, int]) -> bool:
    for folder, mtime in folders.items():
        try:
            if os.stat(folder).st_mtime_ns != mtime:
                return False
        except OSError:
            return False
    return True


_indexes: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _index(workspace) -> _CallerIndex:
    index = _indexes.get(workspace)
    if index is None:
        index = _indexes[workspace] = _CallerIndex()
    return index
