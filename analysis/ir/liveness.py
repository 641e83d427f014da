"""N3: is a name read after a statement, before it is assigned again?

The compiler's SSA conversion asks this for a name first bound inside a loop
(carried only when the code after the loop reads it) and for a name an `if`
assigns (an if-result only when something reads it afterwards). Names that
existed before a loop are always carried; lower.py decides that part.

The answers are conservative where control flow is unknown: a loop may run
zero times, a branch may not be taken, so only an unconditional assignment
ends a name's life.
"""
from __future__ import annotations

from typing import Optional

from ..syntax import nodes as s


def reads(node: Optional[s.Node], name: str) -> bool:
    if node is None:
        return False
    return any(isinstance(n, s.Name) and n.id == name for n in s.walk(node))


def exposed(stmts: list, name: str) -> Optional[bool]:
    """When `stmts` run: True if `name` may be read before it is assigned, False if it is
    assigned first on every path, None if the statements neither read nor surely assign it."""
    for st in stmts:
        verdict = _statement(st, name)
        if verdict is not None:
            return verdict
    return None


def _binds(target: s.Node, name: str) -> bool:
    return isinstance(target, s.Name) and target.id == name or \
        isinstance(target, (s.Tuple, s.List)) and any(_binds(t, name) for t in target.elts) or \
        isinstance(target, s.Starred) and _binds(target.value, name)


def _target_reads(target: s.Node, name: str) -> bool:
    """A target that reads: `x[i] = v` reads x and i, `a.b = v` reads a."""
    if isinstance(target, (s.Subscript, s.Attribute)):
        return reads(target, name)
    if isinstance(target, (s.Tuple, s.List)):
        return any(_target_reads(t, name) for t in target.elts)
    if isinstance(target, s.Starred):
        return _target_reads(target.value, name)
    return False


def _statement(st: s.Stmt, name: str) -> Optional[bool]:
    if isinstance(st, s.Assign):
        if reads(st.value, name) or any(_target_reads(t, name) for t in st.targets):
            return True
        return False if any(_binds(t, name) for t in st.targets) else None
    if isinstance(st, s.AnnAssign):
        if reads(st.value, name) or _target_reads(st.target, name):
            return True
        return False if st.value is not None and _binds(st.target, name) else None
    if isinstance(st, s.AugAssign):
        return True if reads(st.target, name) or reads(st.value, name) else None
    if isinstance(st, s.If):
        if reads(st.test, name):
            return True
        then, orelse = exposed(st.body, name), exposed(st.orelse, name)
        if then or orelse:
            return True
        return False if then is False and orelse is False else None
    if isinstance(st, s.For):
        if reads(st.iter, name):
            return True
        body = None if _binds(st.target, name) else exposed(st.body, name)
        return True if body or exposed(st.orelse, name) else None  # it may run zero times
    if isinstance(st, s.While):
        return True if reads(st.test, name) or exposed(st.body, name) or exposed(st.orelse, name) else None
    if isinstance(st, s.With):
        for item in st.items:
            if reads(item.context, name):
                return True
            if item.target is not None and _binds(item.target, name):
                return False
        return exposed(st.body, name)
    if isinstance(st, s.Other):
        if any(reads(e, name) for e in st.exprs) or any(exposed(b, name) for b in st.bodies):
            return True
        return None
    if isinstance(st, (s.ExprStmt, s.Return, s.FunctionDef, s.ClassDef)):
        return True if reads(st, name) else None
    return None


class Places:
    """Where each statement of a function sits: its statement list, index and enclosing statement."""

    def __init__(self, body: list):
        self._where: dict[int, tuple[list, int, Optional[s.Stmt]]] = {}
        self._index(body, None)

    def _index(self, block: list, owner: Optional[s.Stmt]) -> None:
        for i, st in enumerate(block):
            self._where[id(st)] = (block, i, owner)
            for inner in _blocks(st):
                self._index(inner, st)

    def live_after(self, st: s.Stmt, name: str) -> bool:
        """May `name` be read after `st` ends, before it is assigned again?"""
        current = st
        while id(current) in self._where:
            block, i, owner = self._where[id(current)]
            verdict = exposed(block[i + 1:], name)
            if verdict is not None:
                return verdict
            if owner is None:
                return False  # the end of the function
            if isinstance(owner, (s.For, s.While)):  # the enclosing loop's next iteration
                if isinstance(owner, s.While) and reads(owner.test, name) or exposed(owner.body, name):
                    return True
            current = owner
        return True  # a statement we do not know: assume the worst


def _blocks(st: s.Stmt) -> list:
    if isinstance(st, (s.If, s.For, s.While)):
        return [st.body, st.orelse]
    if isinstance(st, s.With):
        return [st.body]
    if isinstance(st, s.Other):
        return list(st.bodies)
    return []
