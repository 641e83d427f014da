"""Stage PW (§10): is a call the first writer of a buffer in its scope?

Loops and ifs are opaque writer units scanned with a copy of what was written
before them (PW2); sequences and runtime scopes are transparent. Roots use the
first-output policy. For each call we also keep the earlier writer of each
root, so a hover can point at it.
"""
from __future__ import annotations

from ..ir import nodes as ir
from .model import Dispatch, Evidence
from .roots import Roots
from .state import ProgramState


class PriorWriters:
    def __init__(self, state: ProgramState, fn, roots: Roots):
        self.state = state
        self.fn = fn
        self.roots = roots
        self.first: dict = {}  # call -> roots it writes first
        self.earlier: dict = {}  # (call, root) -> Evidence of the writer unit seen before
        self._written: dict = {}  # id(call) -> _writes(call)
        self._firsts: dict = {}  # id(statement) -> {root: the first call inside it that writes it}
        self._scan(fn.body, {})

    def is_first(self, call, root) -> bool:
        return root in self.first.get(call, ())

    def _writes(self, call) -> list:
        """(root, is Out slot) for every Out/InOut slot of a call that has a root."""
        key = id(call)
        found = self._written.get(key)
        if found is None:
            found = self._written[key] = self._slots_written(call)
        return found

    def _slots_written(self, call) -> list:
        callee = self.state.callee(call)
        if callee is None:
            return []
        out = []
        for i in range(min(len(call.args), len(callee.dirs))):
            d = callee.dirs[i]
            if d.writes and i not in callee.removed:
                root = self.roots.root(call.args[i])
                if root is not None:
                    out.append((root, d.value == "Out"))
        for hidden in self.roots.hidden.get(call, ()):
            out.append((hidden, True))
        return out

    def _first_writers(self, stmt) -> dict:
        """PW1: the roots written by every call inside a statement, each with the first call (in
        source order) that writes it. Made once per statement from its children's: nested loops
        do not walk their bodies again at each level."""
        key = id(stmt)
        found = self._firsts.get(key)
        if found is not None:
            return found
        found = {}
        call = _call_of(stmt)
        if call is not None:
            for root, _ in self._writes(call):
                found.setdefault(root, call)
        else:
            inner = stmt.then + stmt.orelse if isinstance(stmt, ir.If) else \
                stmt.body if isinstance(stmt, (ir.Loop, ir.Scope)) else []
            for s in inner:
                for root, first in self._first_writers(s).items():
                    found.setdefault(root, first)
        self._firsts[key] = found
        return found

    def _scan(self, body: list, seen: dict) -> None:
        """PW2; `seen` maps each root already written to the writer unit that wrote it."""
        for stmt in body:
            call = _call_of(stmt)
            if call is not None:
                writes = self._writes(call)
                for root, is_out in writes:
                    if root in seen:
                        self.earlier[(call, root)] = seen[root]
                    elif is_out:
                        self.first.setdefault(call, set()).add(root)
                here = Evidence("earlier writer", call.owner or self.fn.owner, call.span,
                                self._callee_name(call))
                for root, _ in writes:
                    seen.setdefault(root, here)
            elif isinstance(stmt, ir.If):
                self._scan(stmt.then, dict(seen))
                self._scan(stmt.orelse, dict(seen))
                self._merge(seen, stmt.then + stmt.orelse, "the if")
            elif isinstance(stmt, ir.Loop):
                self._scan(stmt.body, dict(seen))
                self._merge(seen, stmt.body, "the loop")
            elif isinstance(stmt, ir.Scope):
                self._scan(stmt.body, seen)  # runtime scopes are transparent

    def _merge(self, seen: dict, body: list, what: str) -> None:
        """A loop or an if is one writer unit: what it writes was written by the first call inside it that writes it."""
        for s in body:
            for root, call in self._first_writers(s).items():
                if root not in seen:
                    seen[root] = Evidence("earlier writer", call.owner or self.fn.owner, call.span,
                                          f"{self._callee_name(call)}, inside {what}")

    def _callee_name(self, call) -> str:
        callee = self.state.callee(call)
        return callee.name if callee is not None else "?"


def _call_of(stmt):
    if isinstance(stmt, ir.Assign) and isinstance(stmt.value, ir.UserCall):
        return stmt.value
    if isinstance(stmt, Dispatch):
        return stmt.call
    return None
