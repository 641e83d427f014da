"""What the editor's status item says about a document: how many tasks its programs submit, as plain data.

The tasks are those of the document's task graphs (spec/runtime.md: one per call or dispatch the
runtime is given, unrolled and inlined copies each); a document without a graph (no
orchestration-like function) counts its direction-bearing calls and scope dispatches as written.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..workspace.results import DocumentAnalysis


@dataclass(frozen=True)
class DocumentStatus:
    tasks: int  # the tasks of the document's task graphs (else its calls and dispatches with directions)
    calls: int  # of them, calls written as calls (submits included)
    scopes: int  # of them, outlined scopes
    without_directions: int  # calls PyPTO Lens could not give directions (S6)

    def as_json(self) -> dict:
        return {"tasks": self.tasks, "calls": self.calls, "scopes": self.scopes,
                "withoutDirections": self.without_directions}


def document_status(analysis: DocumentAnalysis) -> DocumentStatus:
    with_directions = [site for site in analysis.calls if site.hints and not site.skipped]
    scopes = sum(1 for site in with_directions if site.scope)
    tasks = sum(graph.task_count for graph in analysis.graphs) if analysis.graphs else len(with_directions)
    return DocumentStatus(tasks, len(with_directions) - scopes, scopes,
                          sum(1 for site in analysis.calls if site.skipped))
