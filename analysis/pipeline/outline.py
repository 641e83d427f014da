"""Stage O (§5): outline scopes into functions and infer their parameter directions.

Three passes, as the compiler runs them (O1): hierarchy `pl.at` scopes (from
Opaque functions), then InCore scopes (`pl.at(level=CORE_GROUP)`, the body of
`pl.spmd` loop forms, top-level `pl.split_aiv`), then `pl.cluster()` and
`pl.spmd` wrappers. Inner scopes are outlined before the scopes around them.
Each scope becomes a `Fn` whose parameters are its live-ins (O3), with
directions from InferParamDirections (O5), and a `Dispatch` in the parent.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Optional

from ..ir import nodes as ir
from ..ir.nodes import CalleeForm, Dir, Kind, ScopeKind
from ..registry.model import Effect
from ..sharing import shared
from ..vocabulary import Code
from .model import Derivation, Dispatch, Evidence, Fn, FnParam, Origin
from .scope_keys import CHECK, ScopeAnswers, moved, scope_key
from .state import ProgramState
from .types import alias_source, resolve_op
from .walk import defined_vars, header_uses, iter_uses, kept, op_calls, top_level_defs

_PASS_KINDS = {
    "hierarchy": (ScopeKind.HIERARCHY,),
    "incore": (ScopeKind.INCORE, ScopeKind.SPLIT_AIV),
    "wrapper": (ScopeKind.CLUSTER, ScopeKind.SPMD),
}
# D9: O5 step 2 (inner callees' slots, two flags) runs only when cluster and spmd scopes are
# outlined; hierarchy and InCore scopes keep step 0/1 evidence only
_INNER_CALLEE_KINDS = (ScopeKind.CLUSTER, ScopeKind.SPMD, ScopeKind.SPMD_FOR)
# scopes whose bodies become kernels (or run on the cores, for wrappers)
_KERNEL_KINDS = (ScopeKind.INCORE, ScopeKind.SPLIT_AIV, ScopeKind.SPMD, ScopeKind.SPMD_FOR, ScopeKind.CLUSTER)


def outline_program(state: ProgramState) -> None:
    """Outline every scope of every eligible function of `state` (a ProgramState)."""
    if state.key_memo is not None:
        state.key_memo.start()
    for stage in ("hierarchy", "incore", "wrapper"):
        for fn in list(state.fns.values()):
            if not _eligible(fn, stage):
                continue
            outlined_incore = [0]
            fn.body = _rewrite(state, fn, fn.body, stage, outlined_incore, UseCounts(fn.body))
            if stage == "incore" and outlined_incore[0] and fn.kind is Kind.OPAQUE:
                fn.kind = Kind.ORCHESTRATION  # O1: an Opaque parent of an InCore scope is promoted
    if state.key_memo is not None:
        state.key_memo.done()


def _eligible(fn: Fn, stage: str) -> bool:
    if stage == "hierarchy":
        return fn.kind is Kind.OPAQUE
    return fn.kind is Kind.OPAQUE or fn.kind.orchestration_like


def _rewrite(state, fn: Fn, body: list, stage: str, counter: list, use_counts: "UseCounts",
             in_kernel: bool = False) -> list:
    """`in_kernel`: inside a scope that becomes a kernel, where a `pl.split_aiv` region is not
    outlined on its own (O1: only top-level regions are)."""
    out = []
    for stmt in body:
        # (a block with nothing to outline is kept as it is: most of a model's loops and branches)
        if isinstance(stmt, ir.If):
            then = _rewrite(state, fn, stmt.then, stage, counter, use_counts, in_kernel)
            orelse = _rewrite(state, fn, stmt.orelse, stage, counter, use_counts, in_kernel)
            if not (kept(then, stmt.then) and kept(orelse, stmt.orelse)):
                stmt = replace(stmt, then=then, orelse=orelse)
        elif isinstance(stmt, ir.Loop):
            body = _rewrite(state, fn, stmt.body, stage, counter, use_counts, in_kernel)
            if not kept(body, stmt.body):
                stmt = replace(stmt, body=body)
        elif isinstance(stmt, ir.Scope):
            inner = _unwrap_spmd(stmt.body) if stmt.kind is ScopeKind.CLUSTER and stage == "wrapper" else stmt.body
            kernel = in_kernel or stmt.kind in _KERNEL_KINDS
            body = _rewrite(state, fn, inner, stage, counter, use_counts, kernel)
            rewritten = stmt if kept(body, stmt.body) else replace(stmt, body=body)
            if stage == "incore" and (stmt.kind is ScopeKind.SPMD_FOR or (stmt.kind is ScopeKind.SPMD and _reads_block_idx(stmt.body))):
                # the loop form (and a body reading the block index) wraps an auto-outlined InCore scope
                counter[0] += 1
                # the header's task controls and counts belong to the Spmd dispatch, not to the body
                body_only = replace(rewritten, kind=ScopeKind.INCORE, deps=[], tid=None, submit=False, uses=[])
                inner = _outline(state, fn, body_only, stmt, use_counts)
                stmt = replace(rewritten, kind=ScopeKind.SPMD, body=[inner])
                out.append(stmt)
                continue
            if stmt.kind in _PASS_KINDS[stage] and not (stmt.kind is ScopeKind.SPLIT_AIV and in_kernel):
                if stage == "incore":
                    counter[0] += 1
                out.append(_outline(state, fn, rewritten, stmt, use_counts))
                continue
            stmt = rewritten
        out.append(stmt)
    return out


def _outline(state, parent: Fn, scope: ir.Scope, original: ir.Scope, use_counts: "UseCounts") -> Dispatch:
    """`original` is the scope as it stands in the parent's body, whose uses `use_counts` counts (for the
    uses after it)."""
    body = scope.body
    kind = {ScopeKind.INCORE: Kind.INCORE, ScopeKind.SPLIT_AIV: Kind.INCORE, ScopeKind.HIERARCHY: Kind.OPAQUE,
            ScopeKind.CLUSTER: Kind.GROUP, ScopeKind.SPMD: Kind.SPMD, ScopeKind.SPMD_FOR: Kind.SPMD}[scope.kind]
    # O3: a live-in whose value is a literal constant is not passed: PyPTO propagates it
    body_uses = iter_uses(body)  # (asked once: O3 and O4 both read them)
    captures = [v for v in _live_ins(body, scope, body_uses) if v not in state.constant_vars]
    outputs = use_counts.used_outside(original, top_level_defs(body),
                                      header_uses(original, []) + body_uses if original.body is body else None)
    name = _name(parent, scope, state)
    # N1: a scope in an inline helper's text names its captures as that text does
    names = {v: scope.attrs.get("names", {}).get(v, v.name) for v in captures}
    params = [FnParam(names[v], Dir.IN, parent.types.get(v, v.annotation or ir.UNKNOWN), v, scope.span)
              for v in captures]
    fn = Fn(key=name, name=name, kind=kind, params=params, body=body, owner=scope.owner or parent.owner,
            origin=Origin.OUTLINED, scope=scope, parent=parent.key, level=scope.attrs.get("level"),
            role=scope.attrs.get("role"), types=parent.types)
    answers = _answers(state, fn, scope.kind, captures, outputs)
    state.add(fn)
    no_dep, no_dep_spans, problems = set(), {}, []
    for name_, span in scope.no_dep_args:
        matches = [i for i, v in enumerate(captures) if names[v] == name_]
        if matches:
            no_dep.add(matches[0])
            no_dep_spans[matches[0]] = span
        else:
            problems.append((Code.NO_DEP_ARG_NOT_CAPTURED,
                             f"no_dep_args names '{name_}', which this scope does not use (S12)", span))
    call = ir.UserCall(ir.CalleeRef(CalleeForm.FN, fn.key), [ir.Ref(v, scope.span) for v in captures],
                       [scope.span] * len(captures), scope.span, scope.span, shared(frozenset(no_dep)), no_dep_spans,
                       submit="scope" if scope.submit else None, deps=list(scope.deps), problems=problems,
                       owner=scope.owner or parent.owner)
    pairs = list(zip(outputs, answers.aliases))
    returned = tuple(None if i is None else outputs[i] for i in answers.returned)
    return Dispatch(call, pairs, scope, scope.span, returned)


def _answers(state, fn: Fn, kind: ScopeKind, captures: list, outputs: list) -> ScopeAnswers:
    """O5, O4's aliases and return order for the function a scope became: kept by its body's content
    (scope_keys.py), else made and kept. The function gets O5's directions either way."""
    key, bases = scope_key(state, fn, kind, captures, outputs)
    state.scope_keys.append(key)
    found = state.answers.get(key)
    if found is not None and not CHECK:
        dirs, reasons = found.o5
        _set_directions(fn, dirs, moved(reasons, bases, found.bases))
        fn.answers, fn.bases = found, found.bases if bases == found.bases else bases  # (one dict, mostly)
        return found
    hierarchy = kind is ScopeKind.HIERARCHY
    _infer_param_directions(state, fn, hierarchy=hierarchy, inner_callees=kind in _INNER_CALLEE_KINDS)
    aliases = output_aliases(state, fn, outputs)
    pairs = [(v, aliases.get(v)) for v in outputs]
    position = {v: i for i, v in enumerate(outputs)}
    returned = tuple(None if v is None else position[v]
                     for v in returned_order(state, fn, pairs, hierarchy=hierarchy))
    made = ScopeAnswers((tuple(fn.dirs), tuple((k, tuple(v)) for k, v in fn.reasons.items())),
                        tuple(k for _, k in pairs), returned, bases)
    if found is not None:  # (PYPTO_LENS_CHECK_SCOPE_KEYS: a kept answer must be what the stages make)
        dirs, reasons = found.o5
        assert ((dirs, moved(reasons, bases, found.bases)), found.aliases, found.returned) == \
            (made.o5, made.aliases, made.returned), fn.name
        made = found
    else:
        state.answers.put(key, made, key.weight)
    fn.answers, fn.bases = made, bases
    return made


def _set_directions(fn: Fn, dirs: tuple, reasons: tuple) -> None:
    """The function's directions and their reasons as kept (its parameters declared with them, as O5
    leaves an outlined function)."""
    fn.dirs = list(dirs)
    fn.reasons = {k: list(why) for k, why in reasons}
    for k, param in enumerate(fn.params):
        if param.decl is not dirs[k]:
            fn.params[k] = replace(param, decl=dirs[k])


def returned_order(state, fn: Fn, outputs: list, hierarchy: bool) -> tuple:
    """O4 in the order PyPTO's outliner returns a scope's results: first the values defined in the
    body and used after it, in the order they are defined, except those naming a capture that a
    `tile.store` writes; then (not for hierarchy scopes) each capture some `tile.store` writes, in
    the reverse order of their first stores: the outliner keeps them in a hash set of pointers,
    which iterates newest first (always for two, nearly always for more: D11). Caller propagation
    binds the dispatch's tuple to its written slots by position in this order (roots.py)."""
    index = {p.var: k for k, p in enumerate(fn.params)}
    stored: list = []  # capture indices, in the order of their first tile.store
    if not hierarchy:
        for stmt in op_calls(fn.body):
            view = resolve_op(stmt.value, fn.types, state.registry)
            if view.op_name == "tile.store":
                target = view.arg_for(2)
                if isinstance(target, ir.Ref) and target.var in index and index[target.var] not in stored:
                    stored.append(index[target.var])
    after = {k: v for v, k in outputs if k is not None}
    regular = tuple(v for v, k in outputs if k is None or k not in stored)
    return regular + tuple(after.get(k) for k in reversed(stored))


def _name(parent: Fn, scope: ir.Scope, state) -> str:
    hint = scope.attrs.get("name_hint")
    base = hint if isinstance(hint, str) and hint else f"{parent.name}_{scope.kind}"
    if base == hint and hint in state.fns and scope.kind == "spmd":
        base = f"{hint}_spmd"  # the Spmd wrapper of the kernel outlined from its body (PyPTO's name)
    name, n = base, 0
    while name in state.fns:
        n += 1
        name = f"{base}_{n}"
    return name


def _unwrap_spmd(body: list) -> list:
    """O1: a pl.spmd inside pl.cluster() joins the one Group."""
    out = []
    for stmt in body:
        if isinstance(stmt, ir.Scope) and stmt.kind is ScopeKind.SPMD:
            out.extend(_unwrap_spmd(stmt.body))
        else:
            out.append(stmt)
    return out


def _reads_block_idx(body: list) -> bool:
    for stmt in ir.walk_stmts(body):
        if isinstance(stmt, ir.Assign) and isinstance(stmt.value, ir.OpCall) and \
                stmt.value.dsl.endswith("get_block_idx"):
            return True
    return False


def constant_vars(body: list) -> set:
    """Variable versions bound to a literal number, or to arithmetic over such (`n0 = 16`)."""
    out: set = set()
    for stmt in ir.walk_stmts(body):
        if isinstance(stmt, ir.Assign) and stmt.var is not None and _is_constant(stmt.value, out):
            out.add(stmt.var)
    return out


def _is_constant(expr, constants: set) -> bool:
    # (a module function, not a recursive closure: that is a reference cycle per call, issue 13)
    if isinstance(expr, ir.Const):
        return isinstance(expr.value, (bool, int, float))
    if isinstance(expr, ir.Ref):
        return expr.var in constants
    if isinstance(expr, ir.Arith):
        return bool(expr.operands) and all(_is_constant(o, constants) for o in expr.operands)
    return False


def _live_ins(body: list, scope: ir.Scope, uses: list) -> list:
    """O3: variables the body uses (`uses`, in order) before defining them, in order of first use."""
    defined = defined_vars(body)
    for v in (scope.loop_var, scope.tid):
        if v is not None:
            defined.add(v)
    seen: dict = {}
    for v in uses:
        if v not in defined and v not in seen:
            seen[v] = None
    return list(seen)


class UseCounts:
    """How often each variable is used in a function body (O4: a scope's output is a version used
    outside the scope). Counted once per body and pass; a scope's own uses are counted when it is
    outlined, so the question costs the scope's size, not the function's (issue 8)."""

    def __init__(self, body: list):
        self.body = body  # (counted at the first question: most bodies have no scope of a pass's kinds)
        self.total: Counter = Counter()
        self.occurrences: Counter = Counter()

    def used_outside(self, scope: ir.Scope, candidates: list, inside_uses: Optional[list] = None) -> list:
        """The candidates used anywhere in the body except inside `scope` (its header included;
        `inside_uses`: the scope's uses, if known)."""
        if self.body is not None:
            self.total = Counter(iter_uses(self.body))
            self.occurrences = Counter(id(stmt) for stmt in ir.walk_stmts(self.body) if isinstance(stmt, ir.Scope))
            self.body = None
        times = self.occurrences.get(id(scope), 0)
        inside = Counter(iter_uses([scope]) if inside_uses is None else inside_uses)
        return [v for v in candidates if self.total.get(v, 0) > times * inside.get(v, 0)]


# -- O5 InferParamDirections ----------------------------------------------------------


def _infer_param_directions(state, fn: Fn, hierarchy: bool, inner_callees: bool) -> None:
    walk = _ScopeAccesses(state, fn)
    walk.visit(fn.body)
    read, writes, stores, callee_read, callee_write = (walk.read, walk.writes, walk.stores, walk.callee_read,
                                                       walk.callee_write)
    for k, param in enumerate(fn.params):
        wdir = Dir.INOUT if read[k] is not None else Dir.OUT
        evidence = []
        if read[k] is not None:
            evidence.append(Evidence("read", *read[k]))
        if k in stores and not hierarchy:
            fn.promote(k, wdir, Derivation("O5", f"stored into by tile.store in the scope (step 1a): {wdir.value}",
                                           tuple(evidence)))
        for op_name, owner, span in writes.get(k, []):
            fn.promote(k, wdir, Derivation("O5", f"written by {op_name} in the scope (step 1b): {wdir.value}",
                                           tuple(evidence) + (Evidence("write", owner, span, op_name),)))
        if k in callee_write and inner_callees:
            to = Dir.INOUT if (callee_read[k] or read[k] is not None) else Dir.OUT
            name, owner, span = callee_write[k][0]
            fn.promote(k, to, Derivation("O5", f"passed to {name}, which writes it (step 2): {to.value}",
                                         tuple(evidence) + (Evidence("callee", owner, span, name),)))
    for k, param in enumerate(fn.params):
        if param.decl is not fn.dirs[k]:  # the outlined function is declared with these
            fn.params[k] = replace(param, decl=fn.dirs[k])
    fn.reasons = {k: list(v) for k, v in fn.reasons.items()}


class _ScopeAccesses:
    """O5's walk over a scope function's body: where each parameter is read, what writes it.
    (An object, not recursive closures: those are a reference cycle per call, issue 13.)"""

    def __init__(self, state, fn: Fn):
        self.state, self.fn = state, fn
        self.index = {p.var: k for k, p in enumerate(fn.params)}  # capture -> its parameter
        self.alias: dict = dict(self.index)  # var -> the capture it names (result aliases, loop carries)
        self.read = [None] * len(fn.params)  # (owner, span) of the first read, or None
        self.writes: dict[int, list] = {}  # step 1b / 1a evidence
        self.stores: set = set()
        self.callee_read = [False] * len(fn.params)
        self.iter_args: set = set()  # loop iter-args that stand for a capture, and op results aliasing them
        self.callee_write: dict[int, list] = {}

    def at(self, stmt) -> tuple:
        """(owner, span) of a statement: the text that holds it, an inline helper's once N1 expanded it."""
        owner = stmt.call.owner if type(stmt) is Dispatch else getattr(stmt, "owner", "")
        return owner or self.fn.owner, stmt.span

    def mark_read(self, expr, stmt) -> None:
        for v in ir.expr_vars(expr):
            if v in self.iter_args:
                continue  # O5's alias rule follows op results, not loop carries (oracle)
            k = self.alias.get(v)
            if k is not None and self.read[k] is None:
                self.read[k] = self.at(stmt)

    def visit(self, body: list) -> None:
        for stmt in body:
            if isinstance(stmt, ir.Assign):
                value = stmt.value
                if isinstance(value, ir.OpCall):
                    view = resolve_op(value, self.fn.types, self.state.registry)
                    for arg, _, effect in view.accesses():
                        if effect is not Effect.WRITE:  # step 0: a pure-write slot is not a read
                            self.mark_read(arg, stmt)
                        if effect.writes and isinstance(arg, ir.Ref) and arg.var in self.index:
                            self.writes.setdefault(self.index[arg.var], []).append((view.op_name,) + self.at(stmt))  # step 1b
                    if view.op_name == "tile.store":
                        target = view.arg_for(2)
                        if isinstance(target, ir.Ref) and target.var in self.alias:
                            self.stores.add(self.alias[target.var])  # step 1a (O4)
                    aliased = self.state.registry.result_alias(view.op_name)
                    source = view.arg_for(aliased) if aliased is not None else None
                    if stmt.var is not None and isinstance(source, ir.Ref) and source.var in self.alias:
                        self.alias[stmt.var] = self.alias[source.var]
                        if source.var in self.iter_args:
                            self.iter_args.add(stmt.var)
                elif isinstance(value, ir.UserCall):
                    self.user_call(value, stmt)
                else:
                    self.mark_read(value, stmt)
            elif isinstance(stmt, Dispatch):
                self.user_call(stmt.call, stmt)
                for v, k in stmt.outputs:
                    if k is not None and isinstance(stmt.call.args[k], ir.Ref) and stmt.call.args[k].var in self.alias:
                        self.alias[v] = self.alias[stmt.call.args[k].var]
            elif isinstance(stmt, ir.If):
                self.mark_read(stmt.cond, stmt)
                self.visit(stmt.then)
                self.visit(stmt.orelse)
                for phi in stmt.phis:  # a branch yielding an op result that aliases a capture reads
                    for v in (phi.then_value, phi.else_value):  # it; the capture itself passed on does not
                        if v is not None and v not in self.index:
                            self.mark_read(ir.Ref(v), stmt)
            elif isinstance(stmt, ir.Loop):
                for b in stmt.bounds + stmt.header_uses:
                    self.mark_read(b, stmt)
                for c in stmt.carries:
                    if c.init is not None and c.init in self.alias:
                        self.alias[c.iter_var] = self.alias[c.init]
                        self.iter_args.add(c.iter_var)
                self.visit(stmt.body)
                for c in stmt.carries:
                    if c.yield_value is not None and c.yield_value in self.alias:
                        self.alias[c.result] = self.alias[c.yield_value]
                        if c.yield_value in self.iter_args:
                            self.iter_args.add(c.result)
            elif isinstance(stmt, ir.Scope):
                for e in stmt.uses + stmt.deps:
                    self.mark_read(e, stmt)
                self.visit(stmt.body)
            elif isinstance(stmt, ir.Return):
                for e in stmt.values:
                    self.mark_read(e, stmt)
            elif isinstance(stmt, ir.OpaqueStmt):
                for e in stmt.uses:
                    self.mark_read(e, stmt)

    def user_call(self, call: ir.UserCall, stmt) -> None:
        callee = self.state.callee(call)
        dirs = callee.dirs if callee is not None else None
        covered = dirs is not None and (len(call.args) <= len(dirs) if call.submit else len(call.args) == len(dirs))
        for i, arg in enumerate(call.args):
            g = dirs[i] if covered else None
            if g is not Dir.OUT:  # step 0: an Out slot of a user function is not a read
                self.mark_read(arg, stmt)
            # step 2: only the captured variable itself. The spec also follows iter-args; PyPTO
            # (the oracle) does not, and no seed says otherwise (oracle wins; see the README)
            if g is not None and isinstance(arg, ir.Ref) and arg.var in self.index:
                k = self.index[arg.var]
                if g in (Dir.IN, Dir.INOUT):
                    self.callee_read[k] = True
                if g in (Dir.OUT, Dir.INOUT):
                    self.callee_write.setdefault(k, []).append((callee.name,) + self.at(stmt))
        for d in call.deps:
            self.mark_read(d, stmt)


def output_aliases(state, fn: Fn, outputs: list) -> dict:
    """O4/B9: an output that is a captured buffer written in place names that capture (its index).
    A loop result or an if-result is that buffer only when what it yields is (a loop that yields
    a value computed in the scope yields a new tensor: a hidden output, U6)."""
    index = {p.var: k for k, p in enumerate(fn.params)}
    origin: dict = dict(index)
    _follow_origins(state, fn, fn.body, origin)
    return {v: origin[v] for v in outputs if v in origin}


def _follow_origins(state, fn: Fn, body: list, origin: dict) -> None:
    # (a module function, not a recursive closure: that is a reference cycle per call, issue 13)
    for stmt in body:
        if isinstance(stmt, ir.Assign) and stmt.var is not None:
            source = alias_source(stmt.value, fn.types, state.registry)
            if isinstance(source, ir.Ref) and source.var in origin:
                origin[stmt.var] = origin[source.var]
        elif isinstance(stmt, ir.Loop):
            for c in stmt.carries:
                if c.init in origin:
                    origin[c.iter_var] = origin[c.init]
            _follow_origins(state, fn, stmt.body, origin)
            for c in stmt.carries:
                if c.init in origin and origin.get(c.yield_value) == origin[c.init]:
                    origin[c.result] = origin[c.init]
        elif isinstance(stmt, ir.If):
            _follow_origins(state, fn, stmt.then, origin)
            _follow_origins(state, fn, stmt.orelse, origin)
            for phi in stmt.phis:
                then, orelse = origin.get(phi.then_value), origin.get(phi.else_value)
                if then is not None and then == orelse:
                    origin[phi.var] = then
        elif isinstance(stmt, ir.Scope):
            _follow_origins(state, fn, stmt.body, origin)
        elif isinstance(stmt, Dispatch):
            for v, k in stmt.outputs:
                arg = stmt.call.args[k] if k is not None else None
                if isinstance(arg, ir.Ref) and arg.var in origin:
                    origin[v] = origin[arg.var]
