"""Registration rules V1-V3 of spec §14.2 over REGISTER_OP chains.

Codes (all errors: the registry refuses to load):

* V1 `ArgEffectContradiction` - `set_arg_effect` after `no_arg_writes()`, or
  `no_arg_writes()` after a `set_arg_effect`; at the offending call.
* V1 `NullResolver` - `set_arg_effect(i, nullptr)` (or an empty resolver); at the call.
* V1 `DuplicateWriteChannel` - a second `set_write_channel`; at the second call.
* V1 `DuplicateCoreAffinity` - a second `set_core_affinity`; at the second call.
* V1 `DuplicateOp` - an op name registered again (in the same file for
  `validate_source`, anywhere for `duplicate_ops`); at the later `REGISTER_OP(...)`.
* V2 `WriteChannelWithoutWrite` - a write channel on an op that writes no
  argument; on `REGISTER_OP(...)`.
* V3 `ReuseWithoutArgEffect` - `set_output_reuses_input(N)` without a declared
  effect on N; on `REGISTER_OP(...)`.

A rejected V1 call is treated as not applied, so each mistake is reported
once. V2 and V3 look at the whole op, so they are skipped for a chain that is
still being typed (no `;` or not parsed to its end), and wherever an index
could not be read from the source.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterable, Optional

from ..bounded import memo_by_size
from ..vocabulary import Code
from .cpp_chains import Chain, Range, parse_statement, placed_chains
from .declarations import effect_declaration, interpret_chain
from .model import OpInfo

RULE_OF = {
    Code.ARG_EFFECT_CONTRADICTION: "V1", Code.NULL_RESOLVER: "V1", Code.DUPLICATE_WRITE_CHANNEL: "V1",
    Code.DUPLICATE_CORE_AFFINITY: "V1", Code.DUPLICATE_OP: "V1",
    Code.WRITE_CHANNEL_WITHOUT_WRITE: "V2", Code.REUSE_WITHOUT_ARG_EFFECT: "V3",
}


@dataclass(frozen=True)
class RegistryProblem:
    """A registration the PyPTO registry would reject, with how to fix it."""

    code: Code
    rule: str  # 'V1' | 'V2' | 'V3'
    message: str
    range: Range
    op: Optional[str]
    path: Optional[str] = None  # set by callers that validate many files
    # the other line a message names (`{line}` in `template`), relative like `range` until shifted
    ref_line: Optional[int] = None
    template: str = field(default="", compare=False, repr=False)

    def __str__(self) -> str:
        where = f"{self.path}:" if self.path else ""
        return (f"{where}{self.range.line + 1}:{self.range.col + 1}: {self.rule} {self.code} "
                f"[{self.op}] {self.message}")

    def shifted(self, line: int, col: int) -> "RegistryProblem":
        """The problem in the file: its range, and the line its message names, moved by the chain's place."""
        if self.ref_line is None:
            return replace(self, range=self.range.shifted(line, col))
        ref = self.ref_line + line
        return replace(self, range=self.range.shifted(line, col), ref_line=ref,
                       message=self.template.replace("{line}", str(ref + 1)))


def _problem(code: str, message: str, where: Range, op: Optional[str],
             ref_line: Optional[int] = None) -> RegistryProblem:
    """`message` may name `{line}`: the 0-based `ref_line`, as a 1-based line of the file once shifted."""
    if ref_line is None:
        return RegistryProblem(code, RULE_OF[code], message, where, op)
    return RegistryProblem(code, RULE_OF[code], message.replace("{line}", str(ref_line + 1)), where, op, ref_line=ref_line,
                           template=message)


def validate_source(text: str) -> list[RegistryProblem]:
    """Every V1-V3 problem of the REGISTER_OP chains in a C++ source text, in source order."""
    problems: list[RegistryProblem] = []
    heads: list[tuple[str, Range]] = []
    for placed in placed_chains(text):
        problems.extend(p.shifted(placed.line, placed.col) for p in _statement_problems(placed.key))
        if placed.chain.op_name is not None:
            heads.append((placed.chain.op_name, placed.chain.head_range.shifted(placed.line, placed.col)))
    problems.extend(duplicate_ops(heads))
    problems.sort(key=lambda p: (p.range.line, p.range.col, p.code))
    return problems


# 400,000 characters of statements: under 3 MB (a statement's problems weigh about 6 bytes a character)
@memo_by_size(400_000, lambda key: len(key[0]))
def _statement_problems(key: tuple[str, bool]) -> tuple[RegistryProblem, ...]:
    # Cached by statement text: problems are statement-relative until shifted.
    chain = parse_statement(*key)
    return tuple(validate_chain(chain)) if chain is not None else ()


def validate_chain(chain: Chain) -> list[RegistryProblem]:
    """V1 (order of calls) and, for a complete chain, V2 and V3."""
    return check_call_order(chain) + (check_op(chain) if chain.complete else [])


def check_call_order(chain: Chain) -> list[RegistryProblem]:
    """V1: contradictions and second declarations, at the offending call."""
    problems: list[RegistryProblem] = []
    op = chain.op_name
    named_args: list[int] = []  # line of the first accepted set_arg_effect, if any
    no_writes_line: Optional[int] = None
    channel_line: Optional[int] = None
    affinity_line: Optional[int] = None
    for call in chain.calls:
        method, where = call.method, call.range
        if method == "set_arg_effect":
            decl = effect_declaration(call)
            index = call.args[0].text if call.args else "?"
            if decl.kind == "null":
                problems.append(_problem(
                    Code.NULL_RESOLVER,
                    f"set_arg_effect({index}, ...) is given a null effect resolver, which the "
                    f"registry rejects; pass ArgEffect::Read/Write/ReadWrite or a lambda that "
                    f"returns one.", where, op))
                continue
            if no_writes_line is not None:
                problems.append(_problem(
                    Code.ARG_EFFECT_CONTRADICTION,
                    f"set_arg_effect({index}, ...) after no_arg_writes() (line {{line}}) "
                    f"is contradictory and rejected at registration; remove .no_arg_writes() if the "
                    f"op writes argument {index}, or drop this call.", where, op, no_writes_line))
                continue
            named_args.append(where.line)
        elif method == "no_arg_writes":
            if named_args:
                problems.append(_problem(
                    Code.ARG_EFFECT_CONTRADICTION,
                    f"no_arg_writes() after set_arg_effect(...) (line {{line}}) is "
                    f"contradictory and rejected at registration; drop .no_arg_writes() if the op "
                    f"writes an argument, or remove the set_arg_effect calls.", where, op, named_args[0]))
                continue
            no_writes_line = where.line
        elif method == "set_write_channel":
            if channel_line is not None:
                problems.append(_problem(
                    Code.DUPLICATE_WRITE_CHANNEL,
                    f"the write channel is already set on line {{line}}; the registry "
                    f"rejects a second set_write_channel, remove one of them.", where, op, channel_line))
                continue
            channel_line = where.line
        elif method == "set_core_affinity":
            if affinity_line is not None:
                problems.append(_problem(
                    Code.DUPLICATE_CORE_AFFINITY,
                    f"the core affinity is already set on line {{line}}; the registry "
                    f"rejects a second set_core_affinity, remove one of them.", where, op, affinity_line))
                continue
            affinity_line = where.line
    return problems


def check_op(chain: Chain) -> list[RegistryProblem]:
    """V2 and V3 (the ValidateArgEffects gates), on the REGISTER_OP(...) head."""
    decls = interpret_chain(chain)
    info = decls.op
    name = chain.op_name or chain.name_text
    problems: list[RegistryProblem] = []
    # an effect or reuse index we could not read may be the missing one: no verdict then
    violations = op_violations(info) if not decls.unknown_effect_index else []
    if Code.WRITE_CHANNEL_WITHOUT_WRITE in violations:
        problems.append(_problem(
            Code.WRITE_CHANNEL_WITHOUT_WRITE,
            f"'{name}' declares set_write_channel({info.write_channel}) but writes through no "
            f"argument; add the .set_arg_effect(<index>, ArgEffect::Write) (or ReadWrite) that "
            f"should accompany it, or drop the .set_write_channel(...).",
            chain.head_range, chain.op_name))
    reused = info.output_reuses_input
    if Code.REUSE_WITHOUT_ARG_EFFECT in violations and not decls.unknown_reuse_index:
        problems.append(_problem(
            Code.REUSE_WITHOUT_ARG_EFFECT,
            f"'{name}' declares set_output_reuses_input({reused}) but no effect on argument "
            f"{reused}, so the in-place write would be read as a pure read; add "
            f".set_arg_effect({reused}, ArgEffect::Write) (ReadWrite if the op accumulates into "
            f"it, Read for a metadata slot) or .no_arg_writes().",
            chain.head_range, chain.op_name))
    return problems


def op_violations(op: OpInfo) -> list[str]:
    """The V2/V3 codes an op (e.g. from the bundled table) would fail, [] when it passes."""
    codes = []
    if op.write_channel is not None and not op.writes_any_arg:
        codes.append(Code.WRITE_CHANNEL_WITHOUT_WRITE)
    if op.output_reuses_input is not None and not op.has_declared_effect(op.output_reuses_input):
        codes.append(Code.REUSE_WITHOUT_ARG_EFFECT)
    return codes


def duplicate_ops(heads: Iterable[tuple[str, Range]],
                  first_seen: Optional[dict[str, str]] = None) -> list[RegistryProblem]:
    """V1 DuplicateOp for every registration of a name seen before (in `heads` order).

    `first_seen` maps names already registered elsewhere to where (for messages).
    """
    seen: dict[str, str] = dict(first_seen or {})
    problems: list[RegistryProblem] = []
    for name, where in heads:
        if name in seen:
            problems.append(_problem(
                Code.DUPLICATE_OP,
                f"'{name}' is already registered ({seen[name]}); the registry rejects a second "
                f"REGISTER_OP of the same name, rename or remove one.", where, name))
        else:
            seen[name] = f"line {where.line + 1}"
    return problems
