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
        self._footprints: dict = {}
        self._scan(fn.body, {})

    def is_first(self, call, root) -> bool:
        return root in self.first.get(call, ())

    def _writes(self, call) -> list:
        """(root, is Out slot) for every Out/InOut slot of a call that has a root."""
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

    def _footprint(self, stmt) -> set:
        """PW1: the roots written by every call inside a statement."""
        key = id(stmt)
        cached = self._footprints.get(key)
        if cached is not None:
            return cached
        result: set = set()
        call = _call_of(stmt)
        if call is not None:
            result.update(r for r, _ in self._writes(call))
        elif isinstance(stmt, ir.If):
            for s in stmt.then + stmt.orelse:
                result |= self._footprint(s)
        elif isinstance(stmt, (ir.Loop, ir.Scope)):
            for s in stmt.body:
                result |= self._footprint(s)
        self._footprints[key] = result
        return result

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
                self._merge(seen, stmt, stmt.then + stmt.orelse, "the if")
            elif isinstance(stmt, ir.Loop):
                self._scan(stmt.body, dict(seen))
                self._merge(seen, stmt, stmt.body, "the loop")
            elif isinstance(stmt, ir.Scope):
                self._scan(stmt.body, seen)  # runtime scopes are transparent

    def _merge(self, seen: dict, unit, body: list, what: str) -> None:
        for s in body:
            for root in self._footprint(s):
                if root not in seen:
                    seen[root] = self._unit_evidence(unit, s, root, what)

    def _unit_evidence(self, unit, stmt, root, what) -> Evidence:
        for s in ir.walk_stmts([stmt]):
            call = _call_of(s)
            if call is not None and any(r is root for r, _ in self._writes(call)):
                return Evidence("earlier writer", call.owner or self.fn.owner, call.span,
                                f"{self._callee_name(call)}, inside {what}")
        return Evidence("earlier writer", self.fn.owner, unit.span, what)

    def _callee_name(self, call) -> str:
        callee = self.state.callee(call)
        return callee.name if callee is not None else "?"


def _call_of(stmt):
    if isinstance(stmt, ir.Assign) and isinstance(stmt.value, ir.UserCall):
        return stmt.value
    if isinstance(stmt, Dispatch):
        return stmt.call
    return None
