"""The workspace's own operator registrations: when it holds a PyPTO checkout (src/ir/op), the
REGISTER_OP chains of its C++ sources replace the bundled table, unsaved edits included.

An edit that changes a declaration gives the workspace a new registry (every pl program's
hints may change); typing elsewhere in a .cpp file changes nothing.
"""
from __future__ import annotations

from typing import Optional

from ..registry.dsl import load_dsl_map
from ..registry.generate import SOURCE_SUFFIXES
from ..registry.workspace_registry import WorkspaceRegistry, find_checkouts
from .documents import uri_to_path
from .workspace import Workspace


# the files an editor watches for the server where the workspace holds a checkout (server/watched_files.py)
REGISTRY_SOURCE_GLOB = "**/*.{" + ",".join(suffix.lstrip(".") for suffix in SOURCE_SUFFIXES) + "}"


def is_registry_source(uri: str) -> bool:
    """A C++ source where REGISTER_OP chains are read and checked."""
    return uri.endswith(SOURCE_SUFFIXES)


class CheckoutRegistry:
    """The registry of the PyPTO checkout in the workspace's roots, if there is one."""

    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace
        self.registry: Optional[WorkspaceRegistry] = None

    def find(self) -> Optional[WorkspaceRegistry]:
        """Read the first checkout in the roots (many files: call it off the event loop)."""
        checkouts = find_checkouts(self.workspace.roots)
        return WorkspaceRegistry(checkouts[0], load_dsl_map()) if checkouts else None

    def adopt(self, registry: WorkspaceRegistry) -> None:
        self.registry = registry
        self.workspace.set_registry(registry.registry())

    def owns(self, uri: str) -> bool:
        """Is this a source of the checkout (whose edits may change the registry)?"""
        path = uri_to_path(uri)
        return self.registry is not None and path is not None and self.registry.owns(path)

    def changed(self, uri: str, text: Optional[str]) -> bool:
        """An owned source's text (None: closed, read it from disk); True when a declaration changed."""
        path = uri_to_path(uri)
        if not self.owns(uri) or not self.registry.update(path, text):
            return False
        self.workspace.set_registry(self.registry.registry())
        return True
