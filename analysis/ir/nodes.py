"""The source IR: pl functions in structured SSA form (spec §4 N3, N4).

Lowering (lower.py) gives every assignment a fresh `Var` version, joins
branches with phis, carries loop values through iter vars, and hoists nested
calls into temporaries placed just before their statement (N4). Names are
kept for display; identity is the `Var` object. Spans are relative to the
unit the function was parsed from.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, Iterator, Optional, Union

from ..syntax.nodes import Span
from ..vocabulary import Word


class Dir(enum.Enum):
    """ParamDirection (D1)."""

    IN = "In"
    OUT = "Out"
    INOUT = "InOut"

    @property
    def writes(self) -> bool:
        return self is not Dir.IN

    def merge(self, other: "Dir") -> "Dir":
        """The stronger of the two along In < Out < InOut (O5)."""
        order = (Dir.IN, Dir.OUT, Dir.INOUT)
        return max(self, other, key=order.index)


class ArgDir(enum.Enum):
    """ArgDirection (D2)."""

    INPUT = "Input"
    OUTPUT = "Output"
    INOUT = "InOut"
    OUTPUT_EXISTING = "OutputExisting"
    NO_DEP = "NoDep"
    SCALAR = "Scalar"


# H3: when several IR calls map to one source call, show the strongest
ARG_STRENGTH = {ArgDir.INOUT: 5, ArgDir.OUTPUT: 4, ArgDir.OUTPUT_EXISTING: 3, ArgDir.INPUT: 2,
                ArgDir.NO_DEP: 1, ArgDir.SCALAR: 0}


class Kind(enum.Enum):
    """FunctionType (S3)."""

    OPAQUE = "Opaque"
    ORCHESTRATION = "Orchestration"
    INCORE = "InCore"
    AIC = "AIC"
    AIV = "AIV"
    GROUP = "Group"
    SPMD = "Spmd"
    INLINE = "Inline"
    GRAPH = "Graph"

    @property
    def orchestration_like(self) -> bool:
        """Orchestration and Graph functions run on the host side and are treated alike (O1)."""
        return self in (Kind.ORCHESTRATION, Kind.GRAPH)

    @property
    def is_wrapper(self) -> bool:
        return self in (Kind.GROUP, Kind.SPMD)


@dataclass(frozen=True, slots=True)
class Type:
    """What the analysis needs of a type: its class, and shape/dtype text when known."""

    cls: str  # 'tensor' | 'dtensor' | 'tile' | 'scalar' | 'handle' | 'array' | 'tuple' | 'unknown'
    shape: Optional[tuple] = None
    dtype: Optional[str] = None
    elts: tuple["Type", ...] = ()

    @property
    def is_tensor_arg(self) -> bool:
        """S7: Tensor, DistributedTensor and tuples are tensor arguments; the rest is Scalar."""
        return self.cls in ("tensor", "dtensor", "tuple")

    @property
    def is_shaped(self) -> bool:
        """IW3: the parameter types InParamWritten checks."""
        return self.cls in ("tensor", "dtensor", "tile", "array")


UNKNOWN = Type("unknown")
SCALAR = Type("scalar")
HANDLE = Type("handle")  # an opaque handle: a pointer, a communication context, ...
TENSOR = Type("tensor")
TILE = Type("tile")


class Var:
    """One SSA version of a source variable."""

    __slots__ = ("name", "version", "span", "annotation")

    def __init__(self, name: str, version: int, span: Optional[Span], annotation: Optional[Type] = None):
        self.name = name
        self.version = version
        self.span = span  # where this version is bound
        self.annotation = annotation  # `x: T = ...` or a parameter's type

    def __repr__(self) -> str:
        return f"{self.name}#{self.version}"


# -- expressions ---------------------------------------------------------------


@dataclass(eq=False, slots=True)
class Const:
    value: Any
    span: Optional[Span] = None


@dataclass(eq=False, slots=True)
class Ref:
    """A use of a variable version."""

    var: Var
    span: Optional[Span] = None


@dataclass(eq=False, slots=True)
class Sym:
    """A dotted name that is not a variable: `pl.FP32`, `pl.AtomicType.Add`, a module constant..."""

    path: str
    span: Optional[Span] = None


@dataclass(eq=False, slots=True)
class Inlined:
    """One expansion of a call of an inline helper (N1): where the call is written and what it
    passes. A statement copied from the helper's body keeps the expansions it came through,
    outermost first (`inlined`), so that what the call launches can be shown at the call."""

    helper: str  # the helper's name
    owner: str  # the function whose text holds the call
    span: Span  # the call
    args: list  # its argument expressions, in the caller's variables (renamed as the statements are)
    arg_spans: tuple  # where each is written
    serial: int  # tells apart two expansions of one call (pl.unroll's copies, a helper expanded twice)


@dataclass(eq=False, slots=True)
class OpCall:
    """A call of a DSL operator (`pl.store`, `pl.tile.assemble`, ...); `dsl` is its canonical path."""

    dsl: str
    args: list["Expr"]
    kwargs: dict[str, "Expr"]
    span: Span
    name_span: Span
    owner: str = ""  # the function whose text holds this call (differs after inlining, N1)
    inlined: tuple = ()  # the expansions it was copied through, outermost first (Inlined, N1)
    views: dict = field(default_factory=dict, init=False, repr=False, compare=False)  # pipeline/types.resolve_op's
    used: Optional[tuple] = field(default=None, init=False, repr=False, compare=False)  # expr_vars, once made


class CalleeForm(Word):
    """How a user call names its callee."""

    SELF = "self"  # `self.f(...)` in a program class (also `pl.submit(self.f, ...)`)
    NAME = "name"  # `f(...)`: this file's or an imported pl function
    MODULE = "module"  # `mod.f(...)` through an imported module
    FN = "fn"  # a function of the program by its key (the dispatch of an outlined scope)
    HOME = "home"  # a plain name inside an inline helper of another file: resolved in that file (N1)


@dataclass(frozen=True, slots=True)
class CalleeRef:
    """How a user call names its callee: `self.f` (SELF, 'f') or a plain name (NAME, 'f')."""

    how: CalleeForm
    name: str
    module: Optional[str] = None  # for `mod.f(...)` through an imported module


@dataclass(eq=False, slots=True)
class UserCall:
    """A call of a program function: direction-bearing (S4) unless its callee is Inline."""

    callee: CalleeRef
    args: list["Expr"]
    arg_spans: list[Span]  # where each argument starts (for `pl.no_dep(x)`, the marker)
    span: Span
    name_span: Span
    no_dep: frozenset[int] = frozenset()  # S10
    no_dep_spans: dict = field(default_factory=dict)  # index -> span of the pl.no_dep marker
    prefilled: Optional[tuple[ArgDir, ...]] = None  # S11
    prefilled_span: Optional[Span] = None
    submit: Optional[str] = None  # 'submit' | 'spmd_submit' (C12)
    deps: list["Expr"] = field(default_factory=list)
    problems: list[tuple[str, str, Span]] = field(default_factory=list)  # (code, message, span)
    owner: str = ""  # the function whose text holds this call (differs after inlining, N1)
    keywords: dict = field(default_factory=dict)  # name -> (Expr, Span, no_dep marker span or None)
    inlined: tuple = ()  # the expansions it was copied through, outermost first (Inlined, N1)
    used: Optional[tuple] = field(default=None, init=False, repr=False, compare=False)  # expr_vars, once made


@dataclass(eq=False, slots=True)
class TupleExpr:
    elts: list["Expr"]
    span: Optional[Span] = None
    used: Optional[tuple] = field(default=None, init=False, repr=False, compare=False)  # expr_vars, once made


@dataclass(eq=False, slots=True)
class TupleGet:
    """Element `index` of a tuple-valued version (unpacking `a, b = ...`)."""

    var: Var
    index: int
    span: Optional[Span] = None


@dataclass(eq=False, slots=True)
class Subscript:
    """`value[index]`: a slice or an element read, decided by the types (N5)."""

    value: "Expr"
    index: list["Expr"]
    has_slice: bool
    span: Span
    used: Optional[tuple] = field(default=None, init=False, repr=False, compare=False)  # expr_vars, once made


@dataclass(eq=False, slots=True)
class Arith:
    """Arithmetic, comparison, boolean and other scalar expressions (foldable when constant)."""

    op: str
    operands: list["Expr"]
    span: Optional[Span] = None
    used: Optional[tuple] = field(default=None, init=False, repr=False, compare=False)  # expr_vars, once made


@dataclass(eq=False, slots=True)
class Other:
    """An expression the analysis does not model; its parts are still uses (conservative)."""

    parts: list["Expr"]
    span: Optional[Span] = None
    what: str = ""
    used: Optional[tuple] = field(default=None, init=False, repr=False, compare=False)  # expr_vars, once made


Expr = Union[Const, Ref, Sym, OpCall, UserCall, TupleExpr, TupleGet, Subscript, Arith, Other]

# -- statements ------------------------------------------------------------------


@dataclass(eq=False, slots=True)
class Assign:
    """`var = value` (var None: an expression statement). Calls appear only here (N4)."""

    var: Optional[Var]
    value: Expr
    span: Span
    hoisted: bool = False  # a temporary made by flattening
    owner: str = ""  # the function whose text holds it (differs after inlining, N1)


@dataclass(eq=False, slots=True)
class Phi:
    var: Var
    then_value: Optional[Var]
    else_value: Optional[Var]


@dataclass(eq=False, slots=True)
class If:
    cond: Expr
    then: list["Stmt"]
    orelse: list["Stmt"]
    phis: list[Phi]
    span: Span
    owner: str = ""  # the function whose text holds it (differs after inlining, N1)


@dataclass(eq=False, slots=True)
class Carry:
    """A loop-carried value: `iter_var` in the body starts as `init`; `result` after the loop."""

    iter_var: Var
    init: Optional[Var]
    yield_value: Optional[Var]
    result: Var


class LoopKind(Word):
    RANGE = "range"  # pl.range, or Python's range
    PARALLEL = "parallel"
    PIPELINE = "pipeline"
    WHILE = "while"  # pl.while_, or a Python while
    PYTHON = "python"  # a for over anything else


@dataclass(eq=False, slots=True)
class Loop:
    """A loop of some `LoopKind`."""

    kind: LoopKind
    loop_var: Optional[Var]
    bounds: list[Expr]  # start, stop, step (range-like loops), or the condition (while)
    carries: list[Carry]
    body: list["Stmt"]
    span: Span  # the header line
    explicit: bool = False  # init_values= / pl.yield_ form
    header_uses: list = field(default_factory=list)  # other header expressions (stage=, ...)
    owner: str = ""  # the function whose text holds the header (differs after inlining, N1)
    inlined: tuple = ()  # the expansions it was copied through, outermost first (Inlined, N1)

    @property
    def sequential(self) -> bool:
        """C2: every loop but a parallel one counts for R-seq."""
        return self.kind != LoopKind.PARALLEL


class ScopeKind(Word):
    INCORE = "incore"  # pl.at(level=CORE_GROUP): outlined (§5)
    HIERARCHY = "hierarchy"  # pl.at(another level): outlined
    CLUSTER = "cluster"  # outlined
    SPMD = "spmd"  # `with pl.spmd(n)`: outlined
    SPMD_FOR = "spmd_for"  # `for i in pl.spmd(n)`: outlined
    SPLIT_AIV = "split_aiv"  # outlined
    RUNTIME = "runtime"  # pl.scope, pl.manual_scope: transparent
    PYTHON = "python"  # any other context manager: transparent


@dataclass(eq=False, slots=True)
class Scope:
    """A `with`/`for` scope of some `ScopeKind`."""

    kind: ScopeKind
    body: list["Stmt"]
    span: Span  # the header line
    attrs: dict[str, Any] = field(default_factory=dict)  # level, role, name_hint, core_num, ...
    deps: list[Expr] = field(default_factory=list)
    no_dep_args: list[tuple[str, Span]] = field(default_factory=list)  # S12, as written
    tid: Optional[Var] = None  # `as tid`
    submit: bool = False  # O2: a Submit (as tid, deps=, allow_early_resolve, predicate)
    loop_var: Optional[Var] = None  # `for i in pl.spmd(n)`
    uses: list[Expr] = field(default_factory=list)  # expressions in the header (core counts...)
    owner: str = ""
    inlined: tuple = ()  # the expansions it was copied through, outermost first (Inlined, N1)

    @property
    def outlined(self) -> bool:
        return self.kind not in (ScopeKind.RUNTIME, ScopeKind.PYTHON)


@dataclass(eq=False, slots=True)
class Return:
    values: list[Expr]
    span: Span


@dataclass(eq=False, slots=True)
class OpaqueStmt:
    """A statement the analysis does not model; its uses still count as reads."""

    uses: list[Expr]
    span: Span
    what: str = ""
    owner: str = ""  # the function whose text holds it (differs after inlining, N1)


Stmt = Union[Assign, If, Loop, Scope, Return, OpaqueStmt]


@dataclass(slots=True)
class Param:
    name: str
    decl: Dir
    type: Type
    span: Span  # the parameter's name
    var: Var  # version 0
    annotation_span: Optional[Span] = None


@dataclass(slots=True)
class Function:
    """One pl function as written (declared directions, source kind)."""

    name: str
    kind: Kind
    params: list[Param]
    returns: list[Type]
    body: list[Stmt]
    span: Span  # the name in `def name(`
    header_span: Span  # the whole `def` line
    jit: bool = False
    level: Optional[str] = None
    role: Optional[str] = None
    problems: list[tuple[str, str, Span]] = field(default_factory=list)  # declaration errors
    returns_span: Optional[Span] = None
    digest: str = field(default="", compare=False)  # what it was lowered from (workspace/document.py)
    # an inline helper's body as other files expand it, by (its file, its owner there): made once per
    # lowering (workspace._homed), which the caches keep while the text is unchanged
    homed: dict = field(default_factory=dict, compare=False, repr=False)

    def param_index(self, name: str) -> Optional[int]:
        for i, p in enumerate(self.params):
            if p.name == name:
                return i
        return None


def walk_stmts(body: list[Stmt]) -> Iterator[Stmt]:
    """Every statement, nested ones included, in source order. (One generator over a stack of the
    blocks under way: nested generators passed each statement up through every level.)"""
    stack = [iter(body)]
    while stack:
        for stmt in stack[-1]:
            yield stmt
            kind = type(stmt)
            if kind is If:
                stack.append(iter(stmt.orelse))
                stack.append(iter(stmt.then))
                break
            if kind is Loop or kind is Scope:
                stack.append(iter(stmt.body))
                break
        else:
            stack.pop()


def expr_vars(expr: Any) -> list[Var]:
    """Every variable version an expression uses, in order (a list: walks are hot, issue 8)."""
    out: list[Var] = []
    _collect_vars(expr, out)
    return out


# the expressions that keep their uses (expr_uses): the stages ask about each of them six or seven
# times per analysis (U2, O3-O5, N1's renames), and an expression is never changed once lowered or
# copied (a renaming makes a new one)
COMPOUND = frozenset({OpCall, UserCall, TupleExpr, Subscript, Arith, Other})


def expr_uses(expr: Any) -> tuple:
    """A compound expression's uses (expr_vars), kept on it once made."""
    used = expr.used
    if used is None:
        found: list = []
        _walk_vars(expr, found)
        used = expr.used = tuple(found)
    return used


def _collect_vars(expr: Any, out: list) -> None:
    kind = type(expr)
    if kind is Ref or kind is TupleGet:
        out.append(expr.var)
    elif kind in COMPOUND:
        out.extend(expr_uses(expr))


def _walk_vars(expr: Any, out: list) -> None:
    kind = type(expr)
    if kind is Ref or kind is TupleGet:
        out.append(expr.var)
    elif kind is Const or kind is Sym or expr is None:
        return
    elif kind is OpCall:
        _collect_each(expr.args, out)
        _collect_each(expr.kwargs.values(), out)
    elif kind is UserCall:
        _collect_each(expr.args, out)
        _collect_each(expr.deps, out)
        for a, _, _ in expr.keywords.values():  # left unbound when the callee is unknown
            _walk_vars(a, out)
    elif kind is TupleExpr:
        _collect_each(expr.elts, out)
    elif kind is Subscript:
        _walk_vars(expr.value, out)
        _collect_each(expr.index, out)
    elif kind is Arith:
        _collect_each(expr.operands, out)
    elif kind is Other:
        _collect_each(expr.parts, out)


def _collect_each(exprs, out: list) -> None:
    """_walk_vars of each expression, the plain uses and constants without a call (most of them)."""
    for a in exprs:
        kind = type(a)
        if kind is Ref or kind is TupleGet:
            out.append(a.var)
        elif kind is not Const and kind is not Sym and a is not None:
            _walk_vars(a, out)
