"""IR builders of tile operators; one of them has no DSL wrapper (pl.tile.transpose reaches it directly)."""
from pypto.core import ir as _core


def transpose(t, span=None):
    return _core.create_op_call("tile.transpose", [t], {}, span)


def copy(src, dst, span=None):
    return _core.create_op_call("tile.copy", [src, dst], {}, span)
