"""The operator table shipped with PyPTO Lens (data/op_effects.json, see generate.py).

Generated from a PyPTO checkout with
`python -m pypto_lens.registry.generate PYPTO_ROOT --commit SHA` (or `pypto-lens registry`).
"""
from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any, Mapping

from .generate import load_json
from .model import Location, OpInfo

_RESOURCE = "data/op_effects.json"


@functools.lru_cache(maxsize=1)
def bundled_table() -> Mapping[str, Any]:
    """The raw JSON of the bundled table (read once)."""
    text = resources.files(__package__).joinpath(_RESOURCE).read_text(encoding="utf-8")
    return json.loads(text)


@functools.lru_cache(maxsize=1)
def load_bundled_ops() -> dict[str, OpInfo]:
    """The bundled ops by name; `location` is None (the model's mark for the bundled table)."""
    return load_json(bundled_table(), with_locations=False)


@functools.lru_cache(maxsize=1)
def bundled_locations() -> dict[str, Location]:
    """Where each bundled op is registered in PyPTO: repository-relative file, zero-based line."""
    return {name: Location(entry["file"], int(entry["line"]))
            for name, entry in bundled_table()["ops"].items() if entry.get("file") is not None}


def bundled_source() -> Mapping[str, Any]:
    """Provenance of the bundled table (repository, commit)."""
    return bundled_table().get("source", {})
