"""What a parsed REGISTER_OP chain declares, as an `OpInfo` (spec §14.1).

Calls are applied in order the way OpRegistryEntry applies them; calls that
do not bear on effects, views or placement (descriptions, type deduction,
memory constraints, ...) are ignored. Arguments that cannot be read from the
source (an index that is not a literal, a resolver that is not a readable
lambda) are recorded in `ChainDeclarations.unreadable` so callers can tell a
fact from a guess.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Iterable, Optional, Sequence

from ..bounded import chars_of_tokens, memo_by_size
from .cpp_chains import BuilderCall, Chain, string_value
from .model import Effect, KwargRule, Location, OpInfo, normalise_kwarg_value
from .resolvers import read_resolver

_EFFECTS = {e.value: e for e in Effect}
_INTEGER = re.compile(r"(0[xX][0-9a-fA-F']+|0[bB][01']+|\d[\d']*)[uUlLzZ]*\Z")
_NULL_RESOLVERS = {("nullptr",), ("NULL",), ("{", "}")}


@dataclass(frozen=True)
class EffectDeclaration:
    """One `set_arg_effect(index, ...)`: a fixed effect, a resolver, or a null resolver."""

    index: Optional[int]  # None: not a literal
    kind: str  # 'fixed' | 'resolver' | 'null'
    effect: Optional[Effect] = None
    rule: Optional[KwargRule] = None


@dataclass(frozen=True)
class ChainDeclarations:
    """The op a chain declares plus what could not be read from it.

    `unreadable` holds (call, reason) pairs. `unknown_effect_index` is True
    when some set_arg_effect names a non-literal index, so "no effect on
    index N" cannot be concluded.
    """

    op: OpInfo
    unreadable: tuple[tuple[BuilderCall, str], ...] = ()
    unknown_effect_index: bool = False
    unknown_reuse_index: bool = False


def literal_int(tokens: Sequence[str]) -> Optional[int]:
    """`2`, `2u`, `size_t{2}`, `static_cast<size_t>(2)` -> 2; anything else None."""
    numbers = [t for t in tokens if t[:1].isdigit()]
    if len(numbers) != 1:
        return None
    wrappers = [t for t in tokens if t not in numbers]
    if wrappers and wrappers not in (["size_t", "{", "}"], ["static_cast", "<", "size_t", ">", "(", ")"],
                                     ["static_cast", "<", "int", ">", "(", ")"], ["(", ")"]):
        return None
    m = _INTEGER.match(numbers[0])
    if not m:
        return None
    try:
        return int(m.group(1).replace("'", ""), 0)
    except ValueError:
        return None


def effect_declaration(call: BuilderCall) -> EffectDeclaration:
    """Classify a set_arg_effect call by its second argument."""
    return _effect_declaration([a.tokens for a in call.args])


def _effect_declaration(args: Sequence[Sequence[str]]) -> EffectDeclaration:
    index = literal_int(args[0]) if args else None
    if len(args) < 2:
        return EffectDeclaration(index, "resolver", rule=_cached_resolver(()))
    tokens = tuple(args[1])
    if tokens in _NULL_RESOLVERS or (len(tokens) >= 3 and tokens[-2:] in (("{", "}"), ("(", ")"))
                                     and any("Resolver" in t or t == "function" for t in tokens)):
        return EffectDeclaration(index, "null")
    effect = _effect_constant(tokens)
    if effect is not None:
        return EffectDeclaration(index, "fixed", effect=effect)
    return EffectDeclaration(index, "resolver", rule=_cached_resolver(tokens))


# 100,000 characters of resolver tokens (PyPTO has 4 such resolvers): well under 1 MB
@memo_by_size(100_000, chars_of_tokens)
def _cached_resolver(tokens: tuple[str, ...]) -> KwargRule:
    return read_resolver(tokens)


def _effect_constant(tokens: Sequence[str]) -> Optional[Effect]:
    """`ArgEffect::Write` (or a bare `Write`) -> Effect.WRITE."""
    names = [t for t in tokens if t != "::"]
    if not names or len(names) > 4 or any(not (t[:1].isalpha() or t[:1] == "_") for t in names):
        return None
    if len(names) > 1 and names[-2] != "ArgEffect":
        return None
    return _EFFECTS.get(normalise_kwarg_value(names[-1]))


def _enum_text(args: Sequence[Sequence[str]]) -> Optional[str]:
    """`WriteChannel::Dma` -> 'Dma'; the argument's code when it is not a plain name."""
    if not args:
        return None
    tokens = args[0]
    if all(t == "::" or t[:1].isalpha() or t[:1] == "_" for t in tokens):
        return normalise_kwarg_value("::".join(t for t in tokens if t != "::"))
    return " ".join(tokens)


def _string_arg(args: Sequence[Sequence[str]], index: int = 0) -> Optional[str]:
    """A string-literal argument's value (adjacent literals joined); other code as written."""
    if len(args) <= index:
        return None
    tokens = args[index]
    if tokens and all(t.endswith('"') for t in tokens):
        return "".join(string_value(t) for t in tokens)
    return " ".join(tokens)


def interpret_chain(chain: Chain, path: str = "") -> ChainDeclarations:
    """Everything the chain declares; the op is named '' when REGISTER_OP's name is not a literal."""
    op, unreadable, unknown_effect_index, unknown_reuse_index = _interpret(_signature(chain))
    return ChainDeclarations(
        replace(op, location=Location(path, chain.head_range.line)),
        tuple((chain.calls[i], reason) for i, reason in unreadable),
        unknown_effect_index, unknown_reuse_index)


_Signature = tuple  # (op name, ((method, template args, (argument tokens, ...)), ...))


def _signature(chain: Chain) -> _Signature:
    # What the declarations depend on, without positions: copies of a chain share a cache entry.
    return (chain.op_name, tuple((c.method, c.template_args, tuple(a.tokens for a in c.args))
                                 for c in chain.calls))


# 400,000 characters of signature tokens: under 4 MB (PyPTO's 312 signatures are 172,000, 0.6 MB)
@memo_by_size(400_000, chars_of_tokens)
def _interpret(signature: _Signature) -> tuple[OpInfo, tuple[tuple[int, str], ...], bool, bool]:
    op_name, calls = signature
    fixed: dict[int, Effect] = {}
    rules: dict[int, KwargRule] = {}
    unreadable: list[tuple[int, str]] = []
    names: list[str] = []
    has_arguments = False
    values: dict[str, object] = {}
    kwarg_schema: list[tuple[str, str]] = []
    unknown_effect_index = unknown_reuse_index = False
    for position, (method, template_args, args) in enumerate(calls):
        if method == "set_arg_effect":
            decl = _effect_declaration(args)
            if decl.index is None:
                unknown_effect_index = True
                unreadable.append((position, "the argument index is not an integer literal"))
                continue
            if decl.kind == "fixed":
                fixed[decl.index] = decl.effect  # type: ignore[assignment]
            elif decl.kind == "resolver":
                rules[decl.index] = decl.rule  # type: ignore[assignment]
                if not decl.rule.exact:  # type: ignore[union-attr]
                    unreadable.append((position, decl.rule.text))  # type: ignore[union-attr]
        elif method == "no_arg_writes":
            values["no_arg_writes"] = True
        elif method == "set_write_channel":
            values.setdefault("write_channel", _enum_text(args))
        elif method == "set_output_reuses_input":
            index = literal_int(args[0]) if args else None
            if index is None:
                unknown_reuse_index = True
                unreadable.append((position, "the argument index is not an integer literal"))
            values["output_reuses_input"] = index
        elif method == "set_output_memory_inherit_input":
            values["output_memory_inherits_input"] = True
        elif method == "not_inplace_safe":
            values["inplace_safe"] = False
        elif method == "set_core_affinity":
            values.setdefault("core_affinity", _enum_text(args))
        elif method == "set_no_duplicate":
            values["no_duplicate"] = True
        elif method == "set_internal_only":
            values["internal_only"] = not (args and args[0] == ("false",))
        elif method == "set_op_category":
            values.setdefault("op_category", _string_arg(args))
        elif method == "add_argument":
            has_arguments = True
            names.append(_string_arg(args) or "")
        elif method == "no_argument":
            has_arguments = True
        elif method == "set_attr":
            key = _string_arg(args)
            if key is not None:
                kwarg_schema.append((key, template_args))
    op = OpInfo(
        name=op_name or "",
        num_args=len(names) if has_arguments else None,
        arg_names=tuple(names),
        fixed_effects=fixed,
        kwarg_effects=rules,
        kwarg_schema=tuple(kwarg_schema),
        **values,  # type: ignore[arg-type]
    )
    return op, tuple(unreadable), unknown_effect_index, unknown_reuse_index


def chain_to_op(chain: Chain, path: str = "") -> Optional[OpInfo]:
    """The OpInfo of a chain (location: `path` and the REGISTER_OP line), or None when unnamed."""
    if chain.op_name is None:
        return None
    return interpret_chain(chain, path).op


def chains_to_ops(chains: Iterable[Chain], path: str = "") -> dict[str, OpInfo]:
    """Ops by name; a name registered twice keeps its first registration (the second is V1)."""
    ops: dict[str, OpInfo] = {}
    for chain in chains:
        op = chain_to_op(chain, path)
        if op is not None and op.name not in ops:
            ops[op.name] = op
    return ops
