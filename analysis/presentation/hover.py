"""The hover at a position (H7): a call's derivation, else what a call of an inline helper launches,
else why a parameter's direction changed, else what the registry declares about an operator."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

from ..ir.nodes import ArgDir
from ..workspace.results import DocumentAnalysis, Range
from .explain import LinkMaker, call_hover, operator_markdown, signature_markdown
from .expansions import helper_call_at, hover_markdown as helper_markdown
from .graph_view import task_line


@dataclass(frozen=True)
class Hover:
    markdown: str
    range: Range  # what the hover is about


def hover_at(analysis: DocumentAnalysis, line: int, col: int, link: LinkMaker,
             shows: Callable[[ArgDir], bool] = lambda d: True, information: bool = False) -> Optional[Hover]:
    """`shows`: the directions whose hints the user sees (a Scalar is listed only when its hints are);
    `information`: the task line counts information-level hazards too."""
    site = analysis.call_at(line, col)
    if site is not None:
        markdown = call_hover(site, link, shows)
        waits = task_line(analysis, site.range.line, site.range.col, information)  # a task of the graph
        return Hover(markdown + (f"\n\n{waits}" if waits else ""), site.range)
    helper = helper_call_at(analysis, line, col)  # a call of an inline helper: what it launches (N1)
    if helper is not None:
        return Hover(helper_markdown(helper, link), helper.range)
    change = analysis.signature_at(line, col)
    if change is not None:
        return Hover(signature_markdown(change, link), change.range)
    op = analysis.op_at(line, col)
    if op is not None:
        return Hover(operator_markdown(op), op.range)
    return None
