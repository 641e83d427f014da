"""The quick fix of InParamWritten: declare the parameter as the warning says, pl.Out[...] or pl.InOut[...] (IW6).

The direction is the one PyPTO derives for it (its callers' hints show it), else Out when the
parameter is never read, InOut when it is; the other is not offered. The fixes
are made from the diagnostic's data as the client hands it back, and the current text:
both may come from another version of the document, so anything that does not fit
gives no fix.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional

from ..pipeline.in_param_written import FIX_REASONS
from ..vocabulary import Code
from ..workspace.results import Range


@dataclass(frozen=True)
class Fix:
    title: str
    range: Range  # the text to replace
    new_text: str
    preferred: bool
    uri: Optional[str] = None  # the document to edit (None: the diagnostic's own)


def quick_fixes(code: Any, data: Any, line_text: Callable[[int], str]) -> list[Fix]:
    """The fixes of one diagnostic (`code` and `data` as the client sent them back)."""
    if code != Code.IN_PARAM_WRITTEN or not isinstance(data, dict):
        return []
    annotation = data.get("annotation")
    if not isinstance(annotation, dict):
        return []
    try:  # the client hands data back: it may come from another version, or be mangled
        r = Range(*(int(annotation[key]) for key in ("line", "col", "end_line", "end_col")))
    except (KeyError, TypeError, ValueError):
        return []
    if r.line != r.end_line or not 0 <= r.col < r.end_col:
        return []
    current = line_text(r.line)[r.col:r.end_col]
    if not current:
        return []
    alias = data.get("alias") or "pl"
    direction = data.get("suggestion")
    if direction not in FIX_REASONS:
        return []
    param = data.get("param", "the parameter")
    # only the direction the warning names: the other would be wrong (Out on a parameter the body reads
    # drops the read; InOut on one PyPTO makes Out contradicts what the callers pass)
    return [Fix(f"Declare '{param}' as {alias}.{direction}[...] ({FIX_REASONS[direction]})", r,
                f"{alias}.{direction}[{current}]", True)]
