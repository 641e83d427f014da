"""The registry the analysis asks: which op does a DSL call emit, and what does it do to each argument.

Built from the bundled tables (generated from PyPTO's own registrations) or
from a workspace's PyPTO sources (issue: the workspace's registry wins).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Optional

from .model import Effect, OpInfo

# §9.4 ResultAliasedArgIndex: ops whose result names an argument's buffer without
# declaring set_output_reuses_input (the compiler's own table, newer upstream).
_RESULT_ALIAS = {
    "tensor.write": 0, "tensor.assemble": 0, "tensor.expand_clone": 1,
    "pld.tensor.allgather": 1, "pld.tensor.all_to_all": 1, "pld.tensor.all_to_all_v": 1,
    "pld.tensor.allreduce": 0, "pld.tensor.reduce_scatter": 0, "pld.tensor.barrier": 0,
    "pld.tensor.broadcast": 0,
    "builtin.tensor.allgather": 1, "builtin.tensor.all_to_all": 1, "builtin.tensor.all_to_all_v": 1,
    "builtin.tensor.allreduce": 0, "builtin.tensor.allreduce_ring": 0, "builtin.tensor.reduce_scatter": 0,
    "builtin.tensor.barrier": 0, "builtin.tensor.broadcast": 0,
}

# tensor-level queries that return scalars (S8 rule 3)
SCALAR_RESULT_OPS = frozenset({"tensor.read", "tile.read", "tensor.dim", "tile.get_block_idx",
                               "tile.get_block_num", "tile.get_subblock_idx", "tensor.get_block_idx",
                               "tensor.get_block_num", "tensor.get_subblock_idx", "array.get_element",
                               "system.task_dummy", "system.task_invalid", "system.task_is_valid",
                               "pld.system.rank", "pld.system.nranks", "pld.system.world_size"})
# ops whose result is an opaque handle: passed by value like a scalar (S7)
HANDLE_RESULT_OPS = frozenset({"pld.system.get_comm_ctx"})


# Bound of the resolved-call cache: an entry (a DSL name, its operand kinds, a ResolvedCall) weighs
# about 500 bytes, so at most 2 MB; every DSL name ever typed was kept (issue 13).
RESOLVED_CACHE_ENTRIES = 4096


@dataclass(frozen=True)
class ResolvedCall:
    """A DSL call resolved to the op it emits, with the op index of each DSL argument."""

    op_name: Optional[str]
    op: Optional[OpInfo]
    positional: tuple[Optional[int], ...]  # op argument index of each positional DSL argument
    keyword: Mapping[str, int] = field(default_factory=dict)  # DSL kwarg -> op argument index
    function: Any = None  # the DslFunction, which knows the op's kwargs and their defaults

    def effect(self, index: int, kwargs: Mapping[str, Optional[str]]) -> Effect:
        """Effect on the op argument `index` (an op index, see `positional`)."""
        if self.op is None:
            return Effect.READ
        return self.op.effect(index, kwargs)


class Registry:
    def __init__(self, ops: Mapping[str, OpInfo], dsl: Optional[Mapping] = None, source: str = "bundled"):
        self.ops = dict(ops)
        self.dsl = dict(dsl or {})
        self.source = source
        self._cache: dict[tuple, ResolvedCall] = {}

    def op(self, name: str) -> Optional[OpInfo]:
        return self.ops.get(name)

    def result_alias(self, op_name: Optional[str]) -> Optional[int]:
        """§9.4: the argument whose buffer the op's result names, if any."""
        if op_name is None:
            return None
        info = self.ops.get(op_name)
        if info is not None and info.output_reuses_input is not None:
            return info.output_reuses_input
        return _RESULT_ALIAS.get(op_name)

    def is_view(self, op_name: Optional[str]) -> bool:
        info = self.ops.get(op_name) if op_name else None
        return bool(info and info.is_view)

    def resolve(self, dsl_path: str, arg_kinds: tuple[str, ...], nargs: int, kwarg_names: tuple[str, ...]) -> ResolvedCall:
        """The op a DSL call emits given its operand kinds ('tensor', 'tile', 'scalar', 'unknown')."""
        key = (dsl_path, arg_kinds, nargs, kwarg_names)
        hit = self._cache.get(key)
        if hit is None:
            if len(self._cache) >= RESOLVED_CACHE_ENTRIES:  # the oldest goes (the names typed and gone)
                del self._cache[next(iter(self._cache))]
            hit = self._cache[key] = self._resolve(dsl_path, arg_kinds, nargs, kwarg_names)
        return hit

    def resolve_op(self, op_name: str, positional: tuple[Optional[int], ...]) -> ResolvedCall:
        """The op itself with the given op index of each argument (`dst[...] = src`): one
        resolution per op and indices, as `resolve` keeps one per call shape (so the views of a
        call made from it are found again, not made at every stage)."""
        key = (op_name, positional)  # (resolve's keys have four parts)
        hit = self._cache.get(key)
        if hit is None:
            if len(self._cache) >= RESOLVED_CACHE_ENTRIES:
                del self._cache[next(iter(self._cache))]
            hit = self._cache[key] = ResolvedCall(op_name, self.ops.get(op_name), positional)
        return hit

    def _resolve(self, dsl_path, arg_kinds, nargs, kwarg_names) -> ResolvedCall:
        function = self.dsl.get(dsl_path)
        if function is not None:
            if function.candidate_ops(arg_kinds) == (None,):
                # the DSL computes this in Python for such operands (`pl.min` of scalars, `pl.cast`
                # of a scalar): no op at all, so no guess by name either
                return ResolvedCall(None, None, (None,) * nargs, {}, function)
            op_name = function.op_for(arg_kinds)
            if op_name is not None:
                positional = tuple(function.op_arg_index(op_name, dsl_position=i) for i in range(nargs))
                keyword = {}
                for kw in kwarg_names:
                    index = function.op_arg_index(op_name, dsl_keyword=kw)
                    if index is not None:
                        keyword[kw] = index
                return ResolvedCall(op_name, self.ops.get(op_name), positional, keyword, function)
        op_name = self._guess_op(dsl_path, arg_kinds)
        info = self.ops.get(op_name) if op_name else None
        keyword = {}
        if info is not None:
            for kw in kwarg_names:
                if kw in info.arg_names:
                    keyword[kw] = info.arg_names.index(kw)
        return ResolvedCall(op_name, info, tuple(range(nargs)), keyword)

    def _guess_op(self, dsl_path: str, arg_kinds: tuple[str, ...]) -> Optional[str]:
        """Without a DSL map entry: `pl.tile.x` -> tile.x, `pl.x` by operand kind, `pld.x.y` -> pld.x.y."""
        parts = dsl_path.split(".")
        if parts[0] == "pld":
            name = dsl_path
            return name if name in self.ops else None
        if len(parts) >= 3 and parts[1] in ("tile", "tensor", "system", "array", "prefetch"):
            name = ".".join(parts[1:])
            return name if name in self.ops else None
        short = parts[-1]
        kinds = [k for k in arg_kinds if k in ("tensor", "tile", "dtensor")]
        families = ["tile", "tensor"] if kinds and kinds[0] == "tile" else ["tensor", "tile"]
        for family in families + ["system"]:
            if f"{family}.{short}" in self.ops:
                return f"{family}.{short}"
        return None
