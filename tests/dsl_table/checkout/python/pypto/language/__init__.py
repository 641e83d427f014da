"""The made-up DSL: `pl.copy`, `pl.scale`, ..., and the `pl.tile` namespace."""
from . import tile
from .dsl_api import loop
from .op.ops import blend, copy, fill, mark, scale
