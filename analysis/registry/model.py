"""What PyPTO's operator registry declares about each operator (spec §14.1).

One question, one answer: `OpInfo.effect(i, kwargs)` says whether a call of
the op reads, writes or reads-and-writes its argument i.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Mapping, Optional


class Effect(enum.Enum):
    READ = "Read"
    WRITE = "Write"
    READ_WRITE = "ReadWrite"

    @property
    def reads(self) -> bool:
        return self is not Effect.WRITE

    @property
    def writes(self) -> bool:
        return self is not Effect.READ


@dataclass(frozen=True)
class Location:
    """Where a declaration was made: a file (as given) and a zero-based line."""

    path: str
    line: int


@dataclass(frozen=True)
class Condition:
    """One test on a call's keyword argument.

    `kwarg` is compared with `value` (an enum member or string, normalised by
    `normalise_kwarg_value`): 'eq' holds when the kwarg equals value, 'ne' when
    it differs. `absent_matches` says whether an omitted kwarg satisfies it.
    """

    kwarg: str
    test: str  # 'eq' | 'ne'
    value: str
    absent_matches: bool


@dataclass(frozen=True)
class KwargRule:
    """An effect chosen by the call's kwargs: `if_all` when every condition holds, else `otherwise`."""

    conditions: tuple[Condition, ...]
    if_all: Effect
    otherwise: Effect
    text: str = ""  # the rule in words, for hovers
    exact: bool = True  # False: a resolver nobody could read; the rule is a conservative stand-in

    @property
    def kwargs(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(c.kwarg for c in self.conditions))

    def evaluate(self, kwargs: Mapping[str, Optional[str]]) -> Effect:
        """`kwargs` maps a kwarg name to its normalised value, or None when not a literal."""
        for condition in self.conditions:
            if condition.kwarg not in kwargs:
                holds = condition.absent_matches
            else:
                value = kwargs[condition.kwarg]
                if value is None:  # not knowable from the source: assume the stronger effect
                    return _stronger(self.if_all, self.otherwise)
                # enum members and strings compare without case: `coalesce="elem"` is Coalesce::kElem
                holds = (value.lower() == condition.value.lower()) == (condition.test == "eq")
            if not holds:
                return self.otherwise
        return self.if_all


def _stronger(a: Effect, b: Effect) -> Effect:
    order = [Effect.READ, Effect.WRITE, Effect.READ_WRITE]
    return max(a, b, key=order.index)


def normalise_kwarg_value(text: str) -> str:
    """`pl.AtomicType.None_`, `AtomicType::kNone` and `'None'` all become `None`."""
    text = text.strip().strip("'\"")
    last = text.replace("::", ".").rsplit(".", 1)[-1]
    if len(last) > 1 and last[0] == "k" and last[1].isupper():
        last = last[1:]
    return last.rstrip("_") or last


@dataclass(frozen=True)
class OpInfo:
    """One registered operator and its declarations."""

    name: str
    num_args: Optional[int] = None
    arg_names: tuple[str, ...] = ()
    fixed_effects: Mapping[int, Effect] = field(default_factory=dict)
    kwarg_effects: Mapping[int, KwargRule] = field(default_factory=dict)
    no_arg_writes: bool = False
    write_channel: Optional[str] = None  # 'Dma' | 'Scalar' | None
    output_reuses_input: Optional[int] = None
    output_memory_inherits_input: bool = False
    inplace_safe: bool = True
    core_affinity: Optional[str] = None
    no_duplicate: bool = False
    location: Optional[Location] = None  # None: the bundled table
    op_category: Optional[str] = None  # set_op_category, e.g. 'TileOp'
    internal_only: bool = False  # set_internal_only: compiler-created, not callable from the DSL
    kwarg_schema: tuple[tuple[str, str], ...] = ()  # set_attr<T>("name"): (name, C++ type T), in order

    @property
    def classified(self) -> bool:
        """HasDeclaredArgEffects(): someone gave a verdict on this op's arguments."""
        return bool(self.fixed_effects or self.kwarg_effects or self.no_arg_writes or self.write_channel)

    @property
    def writes_any_arg(self) -> bool:
        return self.classified and (bool(self.kwarg_effects)
                                    or any(e.writes for e in self.fixed_effects.values()))

    @property
    def is_view(self) -> bool:
        """IsBufferAliasingViewOp (spec §9.5): a zero-copy view of an input."""
        return self.output_memory_inherits_input and self.inplace_safe

    def has_declared_effect(self, index: int) -> bool:
        return self.classified and (self.no_arg_writes or index in self.fixed_effects
                                    or index in self.kwarg_effects)

    def effect(self, index: int, kwargs: Mapping[str, Optional[str]] = {}) -> Effect:
        """The effect on argument `index` under the call's kwargs (resolver wins, default Read)."""
        rule = self.kwarg_effects.get(index)
        if rule is not None:
            return rule.evaluate(kwargs)
        return self.fixed_effects.get(index, Effect.READ)

