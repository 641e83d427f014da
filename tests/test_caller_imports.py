"""The search for an inline helper's callers follows a file's imports (helper_callers._import_statements):
the forms PyPTO programs write, each giving the modules it may name."""
from __future__ import annotations

from pypto_lens.workspace.helper_callers import _import_statements


def test_every_form_of_import_names_its_modules():
    text = """import pypto.language as pl
from blocks import add_into, leak_tile as leak
from . import shapes
from ..common.kernels import (scale_tile, add_into)
import os, pkg.kernels as k
    from inner import helper  # (inside a function: still an import)
x = "from nowhere import nothing"
"""
    assert _import_statements(text) == [
        (0, "pypto.language", []),
        (0, "blocks", ["add_into", "leak_tile"]),
        (1, None, ["shapes"]),
        (2, "common.kernels", ["scale_tile", "add_into"]),
        (0, "os", []), (0, "pkg.kernels", []),
        (0, "inner", ["helper"]),
    ]
