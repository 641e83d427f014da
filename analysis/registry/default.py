"""The registry used when the workspace has no PyPTO sources of its own: the bundled tables."""
from __future__ import annotations

import functools

from .bundled import load_bundled_ops
from .registry import Registry


@functools.lru_cache(maxsize=1)
def default_registry() -> Registry:
    try:
        from .dsl import load_dsl_map
        dsl = load_dsl_map()
    except (ImportError, OSError, ValueError):
        dsl = {}
    return Registry(load_bundled_ops(), dsl, source="bundled")
