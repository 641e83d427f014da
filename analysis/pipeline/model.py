"""What the stages pass along: the functions of a program and the derivation records.

A `Fn` is a function as the compiler sees it at some stage: user-written,
outlined from a scope (§5), or a wrapper. `dirs` is its effective
ParamDirection vector (D6), changed by stages O, U, P and W, each change
recorded with its reason so that a hover never recomputes.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ..ir import nodes as ir
from ..ir.nodes import ArgDir, Dir, Kind
from ..syntax.nodes import Span
from ..vocabulary import Word


@dataclass(frozen=True, slots=True)
class Evidence:
    """A place that explains a derivation: `owner` is the user function whose text holds `span`."""

    label: str  # 'root', 'earlier writer', 'loop', 'declaration', 'join', ...
    owner: str
    span: Span
    note: str = ""


@dataclass(frozen=True, slots=True)
class Derivation:
    rule: str  # spec rule id: 'C5', 'C7', 'U4', 'O5', ...
    text: str
    evidence: tuple[Evidence, ...] = ()


@dataclass(slots=True)
class FnParam:
    name: str
    decl: Dir
    type: ir.Type
    var: ir.Var
    span: Optional[Span]  # the declaration (user functions) or the first use (outlined)


@dataclass(eq=False, slots=True)
class Dispatch:
    """The call that replaces an outlined scope (O2), with the scope's outputs (O4)."""

    call: ir.UserCall
    outputs: list[tuple[ir.Var, Optional[int]]]  # (variable after the scope, captured param it aliases or None)
    scope: ir.Scope
    span: Span
    # the scope's results in the order PyPTO's outliner returns them (outline.returned_order); a
    # captured buffer stored into without an assignment has no variable after the scope here: None
    returned: tuple = ()


class Origin(Word):
    """Where a `Fn` comes from."""

    USER = "user"  # written in the program
    OUTLINED = "outlined"  # made from a scope (§5)
    INLINE = "inline"  # a pl.inline helper: analysed only through its expansions (N1)
    EXTERNAL = "external"  # another program's or file's function, as its callers see it


@dataclass(eq=False, slots=True)
class Fn:
    key: str  # unique within the program
    name: str  # what a user reads
    kind: Kind
    params: list[FnParam]
    body: list
    owner: str  # the user function whose text holds this function's statements
    origin: Origin = Origin.USER
    source: Optional[ir.Function] = None
    scope: Optional[ir.Scope] = None  # for outlined functions
    parent: Optional[str] = None  # outlined: the function it was outlined from
    returns: list[ir.Type] = field(default_factory=list)
    level: Optional[str] = None
    role: Optional[str] = None
    hidden_outputs: int = 0  # U6
    removed: set = field(default_factory=set)  # Out slots OptimizeOrchTensors took out of every call (U6)
    dirs: list[Dir] = field(default_factory=list)
    reasons: dict[int, list[Derivation]] = field(default_factory=dict)  # param -> why dirs != decl
    types: dict = field(default_factory=dict)  # Var -> Type
    home: Optional[tuple] = None  # external: (uri or None for this document, line offset of its text)
    answers: Optional[object] = None  # outlined: its stages' answers as kept by its content (scope_keys.py)
    bases: Optional[dict] = None  # ... and the lines its owners' spans start at in its body

    def __post_init__(self) -> None:
        if not self.dirs:
            self.dirs = [p.decl for p in self.params]

    @property
    def decl(self) -> list[Dir]:
        return [p.decl for p in self.params]

    def promote(self, index: int, to: Dir, why: Derivation) -> bool:
        """Raise parameter `index` to `to` (never lowers it); record why."""
        current = self.dirs[index]
        new = current.merge(to)
        if new is current:
            return False
        self.dirs[index] = new
        self.reasons.setdefault(index, []).append(why)
        return True


def external_copy(fn: "Fn", owner: str, home: tuple) -> "Fn":
    """A function of another program (or file) as its callers see it: its effective signature."""
    from ..ir.nodes import Kind
    params = [FnParam(p.name, p.decl, p.type, p.var, p.span) for p in fn.params]
    return Fn(key=fn.key, name=fn.name, kind=fn.kind, params=params,
              body=fn.body if fn.kind is Kind.INLINE else [], owner=owner, origin=Origin.EXTERNAL, source=fn.source,
              returns=list(fn.returns), hidden_outputs=fn.hidden_outputs, dirs=list(fn.dirs), home=home,
              removed=set(fn.removed))


@dataclass(slots=True)
class CallResult:
    """The ArgDirection vector of one IR call (or none, with the reason, S6/H6)."""

    call: ir.UserCall
    fn: str  # the function the call was derived in
    callee: Optional[str]
    directions: Optional[list[ArgDir]]
    derivations: list[Derivation]
    skipped: Optional[str] = None  # why no vector (S6)
    dispatch: bool = False  # a synthesised dispatch (on a scope header)
    inner: bool = False  # a call inside an outlined wrapper/function of a scope (H2)
    callee_fn: Optional["Fn"] = None  # the callee (also when it lives in another program or file)
