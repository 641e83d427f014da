"""Which units of a document are worth a parse: a cheap textual pre-filter before any parsing."""
from __future__ import annotations

import re
from typing import Callable

from ..ir.module import build_context
from ..syntax import chunker
from .caches import Caches, parse

_IMPORT = re.compile(r"(?:from|import)\b")
_ASSIGNMENT = re.compile(r"[A-Za-z_]\w*\s*(?::[^=]*)?=(?!=)")


def relevance(caches: Caches, units: list[chunker.Unit]) -> tuple[Callable[[chunker.Unit], bool], bool]:
    """Which units need a parse (imports, module constants, and units that mention the DSL's
    names), and whether the file uses pl at all. A file without pl code still gives its
    imports and constants (a pl file may import its sizes from a plain config module)."""
    names = set()
    for unit in units:
        if unit.kind == "statement" and _IMPORT.match(unit.code) and "pypto" in unit.code:
            ctx = build_context([parse(caches, unit).stmts])
            names.update(ctx.aliases)

    def module_level(unit: chunker.Unit) -> bool:
        return unit.kind == "statement" and bool(_IMPORT.match(unit.code) or _ASSIGNMENT.match(unit.code))
    if not names:
        return module_level, False
    mention = re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, names))) + r")\b")
    return (lambda unit: module_level(unit) or mention.search(unit.code) is not None), True
