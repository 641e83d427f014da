"""Imports that lead nowhere: a call of a name imported from a module that is not found gets no
directions (S6), and the import says so once (`UnresolvedImport`), with the calls it leaves without
hints as related information. A relative import that is not found is broken (a warning); an
absolute one may name an installed package, which PyPTO Lens does not read (information).
"""
from __future__ import annotations

import re
from typing import Optional

from ..vocabulary import Code, Severity
from .results import Diagnostic, Location, Range, Step

_FROM_IMPORT = re.compile(r"^[ \t]*from[ \t]+(\.*)[ \t]*([\w.]*)[ \t]+import\b")


def unresolved_imports(text: str, missing: dict) -> list[Diagnostic]:
    """One diagnostic per module not found. `missing`: (module, level) -> [(callee, call range), ...]."""
    out = []
    lines = text.split("\n")
    for (module, level), calls in missing.items():
        written = "." * level + (module or "")
        names = sorted({name for name, _ in calls})
        where = _import_range(lines, module, level) or calls[0][1]
        count = f"{len(calls)} call{'s' if len(calls) != 1 else ''}"
        message = (f"`{written}` is not found beside this file or in the workspace: {count} of "
                   f"{', '.join(f'`{n}`' for n in names)} get no directions (S6)")
        related = tuple(Step("call without directions", f"`{name}`", Location(None, at)) for name, at in calls[:20])
        out.append(Diagnostic(Code.UNRESOLVED_IMPORT, Severity.WARNING if level else Severity.INFORMATION,
                              message, where, related, {"module": written}))
    return out


def _import_range(lines: list[str], module: Optional[str], level: int) -> Optional[Range]:
    """Where `from <module> import` names the module (its dots and name), on the first such line."""
    for number, line in enumerate(lines):
        if "import" not in line:
            continue
        match = _FROM_IMPORT.match(line)
        if match and len(match.group(1)) == level and (match.group(2) or None) == module:
            return Range(number, match.start(1), number, match.end(2))
    return None
