"""Run the whole chain of §3 on one program: N, O, U, P, W, then B/PW/C per function, and IW.

The order matters (§3): outlining sees declared directions, the InCore
upgrade runs before caller propagation, wrappers are materialised last.
The stages share a `ProgramState` (state.py); the misuse checks (misuse.py)
and the operator uses for hovers (operator_uses.py) run on the result.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable, Optional

from .. import preempt
from ..ir import nodes as ir
from ..ir.nodes import Kind
from ..registry.registry import Registry
from ..sharing import shared
from .calls import derive_calls
from .expansion_memo import ExpansionMemo, ProgramMemos
from .hazards import graphs_with_hazards
from .in_param_written import InParamWrite, applies, check
from .misuse import Problem, misuse
from .model import CallResult, Derivation, Fn, FnParam, Origin
from .normalise import normalise
from .operator_uses import OperatorUse, operator_uses
from .outline import constant_vars, outline_program
from .orch_tensors import reuse_iter_args
from .propagate import propagate
from .state import ProgramState
from .types import expr_type, infer_types
from .upgrade import upgrade
from .walk import op_calls
from .wrappers import materialize


@dataclass
class ProgramResult:
    name: str
    fns: dict[str, Fn]
    calls: list[CallResult]
    in_param_written: list[InParamWrite]
    problems: list[Problem] = field(default_factory=list)
    operators: list[OperatorUse] = field(default_factory=list)
    graphs: list = field(default_factory=list)  # task_graph.TaskGraph of each orchestration-like function
    homes: dict = field(default_factory=dict)  # owner -> home of the other files' inline helpers expanded here (N1)


def user_fn(function: ir.Function) -> Fn:
    params = [FnParam(p.name, p.decl, p.type, p.var, p.span) for p in function.params]
    return Fn(key=function.name, name=function.name, kind=function.kind, params=params, body=function.body,
              owner=function.name, source=function, returns=function.returns, level=function.level,
              role=function.role)


def analyse_program(name: str, functions: list[ir.Function], registry: Registry,
                    external: Callable[[ir.CalleeRef], Optional[Fn]] = lambda ref: None) -> ProgramResult:
    chain = ProgramChain(name, functions, registry, external)
    chain.signatures()
    return chain.finish()


class ProgramChain:
    """The chain of one program in its three phases, each run once and in order:

    - `inline_helpers()`: the inline helpers as other programs expand them (their lowered bodies, their
      types and returned types), which is all that a file importing only helpers reads of this one;
    - `signatures()`: N, O, U, P, W: every function's effective signature (what callers read);
    - `finish()`: the call directions, InParamWritten, misuse, operator uses and the task graphs.

    A file analysed only for what another imports stops after the first or the second phase
    (workspace.py); its own analysis, later, goes on from there."""

    def __init__(self, name: str, functions: list[ir.Function], registry: Registry,
                 external: Callable[[ir.CalleeRef], Optional[Fn]] = lambda ref: None, answers=None,
                 memos: Optional[ProgramMemos] = None):
        """`answers`: where the outlined scopes' answers are kept by content (scope_keys.py; the
        workspace's caches keep them across analyses), else the chain keeps its own. `memos`: where
        what N1 made of each function's statements and the outlined scopes' keys are kept for the next
        chain of the same program (expansion_memo.py), else nothing is kept."""
        self.name, self.registry = name, registry
        self.memos = memos
        self.state = state = ProgramState(registry, external, answers)
        for function in functions:
            state.add(user_fn(function))
        if memos is not None:
            state.key_memo = memos.scope_keys
            for key in [key for key in memos.functions if key not in state.fns]:  # (a function renamed, or gone)
                del memos.functions[key]
        self.users = list(state.fns.values())
        self.analysed = [fn for fn in self.users if fn.kind is not Kind.INLINE]
        self.homes: dict = {}  # where the text of each helper expanded from another file is (its statements' owner)
        self.declared: dict = {}
        self.asked: dict = {}  # fn key -> the (call, callee's returns) its types were inferred from
        self.phase = 0
        self.normalised: Optional[Normalised] = None  # (made by signatures(): its functions after N1 and the types)

    def _inline_of(self, call: ir.UserCall):
        callee = self.state.callee(call)
        if callee is not None and callee.kind is Kind.INLINE and callee.origin != Origin.OUTLINED:
            if callee.home is not None:
                self.homes[callee.owner] = callee.home
            return callee.params, callee.body, bool(callee.source and callee.source.jit)
        return None

    def _memo(self, fn: Fn) -> Optional[ExpansionMemo]:
        if self.memos is None:
            return None
        kept = self.memos.functions
        memo = kept.get(fn.key)
        if memo is None:
            memo = kept[fn.key] = ExpansionMemo()
        return memo

    def _returns_of(self, call: ir.UserCall):
        callee = self.state.callee(call)
        return callee.returns if callee is not None else None

    def _params_of(self, call: ir.UserCall):
        callee = self.state.callee(call)
        return [p.name for p in callee.params] if callee is not None else None

    def inline_helpers(self, only: Optional[set] = None) -> dict[str, Fn]:
        """The inline helpers as the files importing them read them: their types are inferred first
        (N1 does not change a helper's own body), and a missing return annotation is what the body
        returns with the annotations alone, as `signatures()` fills it in (copies: the chain's own
        functions keep their annotations until then, so that it runs as it would have). `only`:
        just these helpers, of a chain that goes no further (workspace/moved_lines.py)."""
        helpers = [fn for fn in self.users if fn.kind is Kind.INLINE and (only is None or fn.key in only)]
        if self.phase == 0:
            for fn in helpers:
                fn.types = _infer(fn, self.registry, self._returns_of, self.asked)
            self.phase = 1 if only is None else -1
        return {fn.key: replace(fn, returns=fn.returns or _returned_types(fn)) for fn in helpers}

    def signatures(self) -> dict[str, Fn]:
        """Every function of the program with its effective signature (after materialisation)."""
        if self.phase >= 2:
            return self.state.fns
        state, registry, users, analysed = self.state, self.registry, self.users, self.analysed
        helpers_done = self.phase == 1
        constants = {}
        for fn in analysed:  # before N1: the compiler folds a function's own constants, not an inlined helper's
            constants[fn.key] = constant_vars(fn.body)
            state.constant_vars |= constants[fn.key]
        for fn in analysed:  # N1
            preempt.check()  # (between the stages of a program, and in N1 at each expansion: preempt.py)
            fn.body = normalise(fn.body, self._inline_of, params_of=self._params_of, memo=self._memo(fn))
        preempt.check()
        asked = self.asked
        for fn in users:
            if not (helpers_done and fn.kind is Kind.INLINE):  # (the helpers' first round is done)
                fn.types = _infer(fn, registry, self._returns_of, asked)
        if any(not fn.returns for fn in users):  # no return annotation: what the body returns
            for fn in users:
                fn.returns = fn.returns or _returned_types(fn)
            for fn in users:  # again where a callee's returns changed (else the same answer)
                if not all(_same(self._returns_of(call), returns) for call, returns in asked[fn.key]):
                    fn.types = _infer(fn, registry, self._returns_of, asked)
        self.declared = {fn.key: fn.body for fn in analysed}
        self.normalised = Normalised(self, constants)
        self._from_normalised()
        return state.fns

    def _from_normalised(self) -> None:
        state, users = self.state, self.users
        for fn in users:  # inline helpers are analysed only through their expansions
            if fn.kind is Kind.INLINE:
                fn.origin = Origin.INLINE
        preempt.check()
        outline_program(state)
        for fn in list(state.fns.values()):
            preempt.check()
            upgrade(state, fn)
        propagate(state)
        reuse_iter_args(state)
        materialize(state)
        self.phase = 2

    @classmethod
    def resumed(cls, normalised: "Normalised", functions: list[ir.Function], registry: Registry,
                external: Callable[[ir.CalleeRef], Optional[Fn]], answers=None,
                memos: Optional[ProgramMemos] = None) -> Optional["ProgramChain"]:
        """A chain of `functions` that goes on from another's (`normalised`, for externals whose shapes
        are those it read), where none changed their text (another file's direction edit) or only
        functions no other one expands did (a kernel's `pl.Out` made `pl.InOut` in the file of its
        caller): those run N1 and the types again, as signatures() would, the others are as N1 and
        the types left them. None if any other changed, or a changed one's shape (its parameters and
        returned types, what the others' N1 and types read of it) is not the same."""
        if registry is not normalised.registry:
            return None
        chain = cls(normalised.name, functions, registry, external, answers, memos)
        old = {fn.key: fn for fn in normalised.fns}
        fresh = chain.state.fns
        if list(old) != list(fresh):
            return None
        changed = {key for key, fn in fresh.items() if fn.source is None or old[key].source is None
                   or fn.source.digest != old[key].source.digest}
        if any(fresh[key].kind is Kind.INLINE or old[key].kind is Kind.INLINE for key in changed):
            return None
        state = chain.state
        state.fns = {key: fn if key in changed else _copy(old[key]) for key, fn in fresh.items()}
        chain.users = list(state.fns.values())
        chain.analysed = [fn for fn in chain.users if fn.kind is not Kind.INLINE]
        chain.homes = dict(normalised.homes)
        constants = {fn.key: normalised.constants.get(fn.key, frozenset()) if fn.key not in changed
                     else constant_vars(fn.body) for fn in chain.analysed}
        state.constant_vars = set().union(*constants.values())
        mine = [state.fns[key] for key in fresh if key in changed]
        for fn in mine:  # N1
            preempt.check()
            fn.body = normalise(fn.body, chain._inline_of, params_of=chain._params_of, memo=chain._memo(fn))

        def as_declared(call: ir.UserCall):  # (the first round of types reads the program's returns as declared)
            callee = state.callee(call)
            if callee is None:
                return None
            return callee.source.returns if state.fns.get(callee.key) is callee and callee.source is not None \
                else callee.returns
        asked = chain.asked
        for fn in mine:
            fn.types = _infer(fn, registry, as_declared, asked)
        if any(not (fn.source.returns if fn.source is not None else fn.returns) for fn in chain.users):
            for fn in mine:
                fn.returns = fn.returns or _returned_types(fn)
            for fn in mine:  # again where a callee's returns changed, as signatures() does
                if not all(_same(chain._returns_of(call), returns) for call, returns in asked[fn.key]):
                    fn.types = _infer(fn, registry, chain._returns_of, asked)
        if any(_shape(fn) != _shape(old[fn.key]) for fn in mine):
            return None
        chain.declared = {fn.key: fn.body for fn in chain.analysed}
        chain.normalised = Normalised(chain, constants)
        chain.phase = 1
        preempt.check()
        chain._from_normalised()
        return chain

    def finish(self) -> ProgramResult:
        return self.rest(self.calls())

    def calls(self) -> ProgramResult:
        """The third phase's first part: every call's directions (what hints show). The result's other
        parts are made by `rest`."""
        state = self.state
        results: list[CallResult] = []
        for fn in state.fns.values():
            if fn.origin in (Origin.INLINE, Origin.EXTERNAL):
                continue
            preempt.check()
            results.extend(derive_calls(state, fn))
        for result in results:  # a program's derivations repeat a few values (sharing.py)
            result.derivations = [_shared(d) for d in result.derivations]
        return ProgramResult(self.name, state.fns, results, [], homes=self.homes)

    def rest(self, result: ProgramResult) -> ProgramResult:
        """The third phase's second part, on `calls()`'s result: InParamWritten, misuse, the operator
        uses and the task graphs. (Again after a preemption: it only reads the chain's state.)"""
        state, analysed, declared = self.state, self.analysed, self.declared
        preempt.check()
        writes: list[InParamWrite] = []
        for fn in analysed:
            promoted = fn.source.kind is Kind.OPAQUE and fn.kind is Kind.ORCHESTRATION
            if applies(fn.source.kind, promoted):
                probe = Fn(fn.key, fn.name, fn.source.kind, fn.params, declared[fn.key], fn.owner, source=fn.source,
                           types=fn.types)
                spans = {k: p.annotation_span for k, p in enumerate(fn.source.params)}
                writes.extend(check(state, probe, declared[fn.key], spans))
        preempt.check()  # (and between the rest's stages: a change waits for one of them at most)
        problems = misuse(state, analysed, result.calls, declared)
        preempt.check()
        operators = operator_uses(state)
        preempt.check()
        graphs = graphs_with_hazards(state, result.calls)
        result.in_param_written, result.problems, result.operators, result.graphs = writes, problems, operators, graphs
        for fn in state.fns.values():  # the stages' views of operator calls were for them (3 MB at genpl 50000)
            preempt.check()  # (a memo: types.resolve_op makes them again if this rest is made again)
            for stmt in op_calls(fn.body):
                stmt.value.views.clear()
        self.phase = 3
        return result


class Normalised:
    """A chain's functions as N1 and the types left them, before outlining: what a signature edit
    elsewhere (a direction, not a shape) leaves the same."""

    def __init__(self, chain: "ProgramChain", constants: dict):
        self.name, self.registry = chain.name, chain.registry
        self.fns = [_copy(fn) for fn in chain.users]
        self.constants = constants  # each analysed function's own (pipeline.outline.constant_vars, before N1)
        self.homes = dict(chain.homes)


def _shape(fn: Fn) -> tuple:
    """What the other functions' N1 and types read of `fn`: its kind, its parameters, its returned
    types as declared and as found."""
    return (fn.kind, tuple((p.name, p.type, p.span) for p in fn.params), tuple(fn.returns),
            tuple(fn.source.returns) if fn.source is not None else None)


def _copy(fn: Fn) -> Fn:
    """A copy of `fn` whose containers the later stages change in place (outlining a parameter's
    direction, the upgrade's, U6's removed slots) without changing fn's. Its body and types are
    shared: the stages after N1 make new statements, and the types are final once inferred."""
    return replace(fn, params=list(fn.params), dirs=list(fn.dirs), removed=set(fn.removed),
                   reasons={k: list(v) for k, v in fn.reasons.items()})


def _infer(fn: Fn, registry: Registry, returns_of, asked: dict) -> dict:
    """fn's types, noting in `asked` what returns_of answered for them."""
    answers = asked[fn.key] = []

    def noted(call: ir.UserCall):
        returns = returns_of(call)
        answers.append((call, returns))
        return returns
    return infer_types(fn.params, fn.body, registry, noted)


def _same(a: Optional[list], b: Optional[list]) -> bool:
    """The same returned types (the same objects: the types of the answer are put in types as they are)."""
    if a is None or b is None:
        return a is b
    return len(a) == len(b) and all(x is y for x, y in zip(a, b))


def _returned_types(fn: Fn) -> list:
    for stmt in ir.walk_stmts(fn.body):
        if isinstance(stmt, ir.Return) and stmt.values:
            return [expr_type(v, fn.types) for v in stmt.values]
    return []


def _shared(d: Derivation) -> Derivation:
    return shared(Derivation(d.rule, d.text, shared(tuple(shared(e) for e in d.evidence))))
