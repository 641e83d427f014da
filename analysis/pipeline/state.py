"""What every stage of the chain works on: the functions of one program, and how a call finds its callee."""
from __future__ import annotations

from typing import Callable, Optional

from ..ir import nodes as ir
from ..ir.nodes import CalleeForm
from ..registry.registry import Registry
from .model import Fn
from .scope_keys import LocalAnswers


class ProgramState:
    """The functions of one program and how a call finds its callee."""

    def __init__(self, registry: Registry, external: Callable[[ir.CalleeRef], Optional[Fn]], answers=None):
        self.registry = registry
        # the outlined scopes' answers by content (scope_keys.py): the workspace's, kept across analyses,
        # or this chain's own
        self.answers = answers if answers is not None else LocalAnswers()
        self.key_memo = None  # the last analysis's keys by scope body (scope_keys.KeyMemo), if kept
        self.scope_keys: list = []  # the keys this chain asked them by (a cached result holds them: document.py)
        self.fns: dict[str, Fn] = {}
        self.external = external
        self.constant_vars: set = set()  # versions bound to literal numbers (outlining does not pass them)

    def add(self, fn: Fn) -> None:
        self.fns[fn.key] = fn

    def callee(self, call: ir.UserCall) -> Optional[Fn]:
        ref = call.callee
        if ref.how in (CalleeForm.SELF, CalleeForm.NAME, CalleeForm.FN):
            fn = self.fns.get(ref.name)
            if fn is not None:
                return fn
        if ref.how == CalleeForm.FN:
            return None
        return self.external(ref)
