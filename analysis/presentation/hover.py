"""The hover at a position (H7): a call's derivation, else why a parameter's direction changed, else
what the registry declares about an operator."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..workspace.results import DocumentAnalysis, Range
from .explain import LinkMaker, call_markdown, operator_markdown, signature_markdown
from .graph_view import task_line


@dataclass(frozen=True)
class Hover:
    markdown: str
    range: Range  # what the hover is about


def hover_at(analysis: DocumentAnalysis, line: int, col: int, link: LinkMaker,
             information: bool = False) -> Optional[Hover]:
    site = analysis.call_at(line, col)
    if site is not None:
        markdown = call_markdown(site, link)
        waits = task_line(analysis, site.range.line, site.range.col, information)  # a task of the graph
        return Hover(markdown + (f"\n\n{waits}" if waits else ""), site.range)
    change = analysis.signature_at(line, col)
    if change is not None:
        return Hover(signature_markdown(change, link), change.range)
    op = analysis.op_at(line, col)
    if op is not None:
        return Hover(operator_markdown(op), op.range)
    return None
