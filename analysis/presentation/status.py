"""What the editor's status item says about a document: how many tasks its programs submit, as plain data.

Until the task graph (spec/runtime.md) gives the count, a task is a direction-bearing call or scope
dispatch as written (one per source call, inlined copies and unrolled iterations counted once).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..workspace.results import DocumentAnalysis


@dataclass(frozen=True)
class DocumentStatus:
    tasks: int  # direction-bearing calls and scope dispatches that carry directions
    calls: int  # of them, calls written as calls (submits included)
    scopes: int  # of them, outlined scopes
    without_directions: int  # calls PyPTO Lens could not give directions (S6)

    def as_json(self) -> dict:
        return {"tasks": self.tasks, "calls": self.calls, "scopes": self.scopes,
                "withoutDirections": self.without_directions}


def document_status(analysis: DocumentAnalysis) -> DocumentStatus:
    with_directions = [site for site in analysis.calls if site.hints and not site.skipped]
    scopes = sum(1 for site in with_directions if site.scope)
    return DocumentStatus(len(with_directions), len(with_directions) - scopes, scopes,
                          sum(1 for site in analysis.calls if site.skipped))
