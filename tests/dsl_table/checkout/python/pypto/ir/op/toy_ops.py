"""The IR builders the wrappers call; each creates one operator call."""
from pypto.core import ir as _core


def copy(src, dst, span=None):
    return _core.create_op_call("toy.copy", [src, dst], {}, span)


def tile_scale(x, factor, span=None):
    return _core.create_op_call("tile.scale", [x], {"factor": factor}, span)


def tensor_scale(x, factor, out, span=None):
    args = [x] if out is None else [x, out]
    return _core.create_op_call("tensor.scale", args, {"factor": factor}, span)


def fill(dst, value, mode, span=None):
    return _core.create_op_call("toy.fill", [dst, value], {"mode": mode}, span)


def fill_hard(dst, value, span=None):
    return _core.create_op_call("toy.fill_hard", [dst], {"value": value}, span)


def blend(parts, options, span=None):
    return _core.create_op_call("toy.blend", parts, options, span)
