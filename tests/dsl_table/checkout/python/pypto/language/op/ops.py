"""The wrappers: each chooses an IR builder from what it is given."""
from pypto.ir.op import toy_ops as _ir

from ..typing import Tile


def copy(src, dst):
    """Always one operator."""
    return _ir.copy(src.unwrap(), dst.unwrap())


def scale(x, factor, out=None):
    """By type (a Tile or not), then by presence (out given or None)."""
    if isinstance(x, Tile):
        return _ir.tile_scale(x.unwrap(), factor)
    if out is None:
        return _ir.tensor_scale(x.unwrap(), factor, None)
    return _ir.tensor_scale(x.unwrap(), factor, out.unwrap())


def fill(dst, value, mode="soft"):
    """By value: a hard fill is an operator of its own; the others pass their mode on."""
    if mode == "hard":
        return _ir.fill_hard(dst.unwrap(), value)
    if mode not in ("soft", "fast"):
        raise ValueError(mode)
    return _ir.fill(dst.unwrap(), value, mode)


def mark(x):
    """Hands its argument back: no operator."""
    return x


def blend(*parts, **options):
    """Variadic: where the arguments go is only partly known."""
    return _ir.blend(list(parts), options)
