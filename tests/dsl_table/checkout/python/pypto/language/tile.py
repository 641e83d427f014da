"""`pl.tile.*`: two of the wrappers again under a namespace (aliases of pl.copy and pl.scale)."""
from .op.ops import copy, scale
