"""Which units of a document are worth a parse: a cheap textual pre-filter before any parsing."""
from __future__ import annotations

import re
from typing import Callable

from ..ir.module import build_context
from ..syntax import chunker
from .caches import Caches, parse

_IMPORT = re.compile(r"(?:from|import)\b")
_ASSIGNMENT = re.compile(r"[A-Za-z_]\w*\s*(?::[^=]*)?=(?!=)")
_DATACLASS = re.compile(r"^\s*@\s*(?:\w+\.)*dataclass\b", re.M)


def relevance(caches: Caches, units: list[chunker.Unit]) -> tuple[Callable[[chunker.Unit], bool], bool]:
    """Which units need a parse (imports, module constants, and units that mention the DSL's
    names), and whether the file uses pl at all. A file without pl code still gives its
    imports and constants (a pl file may import its sizes from a plain config module)."""
    names = set()
    for unit in units:
        if unit.kind == "statement" and _IMPORT.match(unit.code) and "pypto" in unit.code:
            ctx = build_context([parse(caches, unit).stmts])
            names.update(ctx.aliases)

    # configuration dataclasses (their fields and properties fold into constants) and their members
    configs = {k for k, unit in enumerate(units) if unit.kind == "class" and _DATACLASS.search(unit.code)}

    def module_level(unit: chunker.Unit) -> bool:
        if unit.kind == "class":
            return _DATACLASS.search(unit.code) is not None
        if unit.kind == "member":
            return unit.parent in configs
        return unit.kind == "statement" and bool(_IMPORT.match(unit.code) or _ASSIGNMENT.match(unit.code))
    if not names:
        return module_level, False
    mention = re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, names))) + r")\b")
    return (lambda unit: module_level(unit) or mention.search(unit.code) is not None), True
