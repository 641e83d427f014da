"""Small pl programs written for the server tests, with what the server should say about them.

Lines that matter carry non-ASCII and astral characters *before* the
arguments (a string literal `"é中文💡"`, identifiers such as `données_𝔡`), so
every position is different in UTF-16, UTF-8 and UTF-32.
"""
from __future__ import annotations

from lsprotocol import types

from lens_client import pos, units

T = "pl.Tensor[[64], pl.FP32]"

# Calls in `main` (Orchestration), each with the directions spec §11 gives:
#   C9 first writer, C7 earlier writer, callee InOut, C5 loop, C10 no_dep (+ a Scalar), a scope header.
DEMO = f'''\
import pypto.language as pl


@pl.program
class Demo:
    @pl.function(type=pl.FunctionType.InCore)
    def fill(self, src: {T}, dst: pl.Out[{T}]) -> {T}:
        t = pl.load(src, [0], [64])
        dst = pl.store(t, [0], dst)
        return dst

    @pl.function(type=pl.FunctionType.InCore)
    def bump(self, acc: pl.InOut[{T}]) -> {T}:
        t = pl.load(acc, [0], [64])
        acc = pl.store(pl.add(t, t), [0], acc)
        return acc

    @pl.function(type=pl.FunctionType.InCore)
    def scale(self, x: {T}, k: pl.Scalar[pl.FP32], y: pl.Out[{T}]) -> {T}:
        t = pl.load(x, [0], [64])
        y = pl.store(pl.mul(t, k), [0], y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: {T}, out: pl.Out[{T}], acc: pl.InOut[{T}], n: pl.Scalar[pl.INDEX]) -> {T}:
        s = "é中文💡"; out = self.fill(a, out)
        out = self.fill(a, out)
        acc = self.bump(acc)
        for i in pl.range(n):
            out = self.fill(a, out)
        out = self.scale(pl.no_dep(a), 2.0, out)
        with pl.at(level=pl.Level.CORE_GROUP):  # é中文💡 a comment after the header
            t = pl.load(a, [0], [64])
            acc = pl.store(t, [0], acc)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def second(self, a: {T}, out: pl.Out[{T}]) -> {T}:
        out = self.fill(a, out)
        return out
'''

EMOJI_CALL = 's = "é中文💡"; out = self.fill(a, out)'

# (call text, occurrence in DEMO, [(callee parameter, argument variable or None, direction)])
DEMO_CALLS = [
    ("self.fill(a, out)", 0, [("src", "a", "Input"), ("dst", "out", "OutputExisting")]),  # C9
    ("self.fill(a, out)", 1, [("src", "a", "Input"), ("dst", "out", "InOut")]),  # C7
    ("self.bump(acc)", 0, [("acc", None, "InOut")]),  # callee InOut
    ("self.fill(a, out)", 2, [("src", "a", "Input"), ("dst", "out", "InOut")]),  # C5
    ("self.scale(pl.no_dep(a), 2.0, out)", 0, [("x", "a", "NoDep"), ("k", None, "Scalar"),
                                               ("y", "out", "InOut")]),  # C10, Scalar, C7
    ("self.fill(a, out)", 3, [("src", "a", "Input"), ("dst", "out", "OutputExisting")]),  # in `second`
]
SCOPE_HEADER = "with pl.at(level=pl.Level.CORE_GROUP):"
SCOPE_HINTS = [("a", "Input"), ("acc", "InOut")]

# The exact character of the two arguments on the emoji line, per encoding (`s = "é中文💡"; out = self.fill(`
# after 8 spaces: é is 2 UTF-8 bytes, 中 and 文 3 each, 💡 4 UTF-8 bytes and 2 UTF-16 units).
EMOJI_ARG_CHARACTERS = {"utf-32": (36, 39), "utf-16": (37, 40), "utf-8": (44, 47)}


def argument_positions(source: str, call: str, occurrence: int, encoding: str) -> list[types.Position]:
    """Where each argument of the `occurrence`-th `call` in `source` starts, in `encoding`."""
    start = -1
    for _ in range(occurrence + 1):
        start = source.index(call, start + 1)
    open_paren = start + call.index("(") + 1
    offsets, depth = [open_paren], 0
    body = call[call.index("(") + 1:-1]
    for j, ch in enumerate(body):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth == 0:
            k = open_paren + j + 1
            while source[k] == " ":
                k += 1
            offsets.append(k)
    line = source.count("\n", 0, start)
    line_start = source.rfind("\n", 0, start) + 1
    return [types.Position(line, units(source[line_start:o], encoding)) for o in offsets]


def header_end(source: str, header: str, encoding: str) -> types.Position:
    return pos(source, header, encoding, after=True)


# InParamWritten: `leak` writes its In parameter `dst` and never reads it (fix: pl.Out, preferred),
# `rw` reads and writes `acc` (fix: pl.InOut, preferred). The write in `leak` follows an astral string.
LEAKY = f'''\
import pypto.language as pl


@pl.program
class Leaky:
    @pl.function(type=pl.FunctionType.InCore)
    def leak(self, données_𝔡: {T}, dst: {T}):
        t = pl.load(données_𝔡, [0], [64])
        s = "é中文💡"; pl.store(t, [0], dst)

    @pl.function(type=pl.FunctionType.InCore)
    def rw(self, 𝔞cc: {T}):
        t = pl.load(𝔞cc, [0], [64])
        pl.store(t, [0], 𝔞cc)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: {T}, b: {T}, c: {T}):
        self.leak(a, b)
        self.rw(c)
'''
LEAK_WRITE = "pl.store(t, [0], dst)"
RW_WRITE = "pl.store(t, [0], 𝔞cc)"


def written_argument(source: str, call: str, encoding: str) -> types.Range:
    """The range of a write's last argument (where InParamWritten sits): `dst` of `pl.store(t, [0], dst)`."""
    arg = call[call.rindex(", ") + 2:-1]
    start = pos(source, call, encoding)
    start = types.Position(start.line, start.character + units(call[:call.rindex(arg)], encoding))
    return types.Range(start=start, end=types.Position(start.line, start.character + units(arg, encoding)))
LEAK_ANNOTATION = f"dst: {T}"
RW_ANNOTATION = f"𝔞cc: {T}"

# Misuse: pl.no_dep on a scalar (NoDepOnScalar) and a no_dep_args name the scope does not use.
MISUSE = f'''\
import pypto.language as pl


@pl.program
class Misuse:
    @pl.function(type=pl.FunctionType.InCore)
    def scale(self, x: {T}, k: pl.Scalar[pl.FP32], y: pl.Out[{T}]) -> {T}:
        t = pl.load(x, [0], [64])
        y = pl.store(pl.mul(t, k), [0], y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: {T}, b: pl.Out[{T}]) -> {T}:
        s = "é中文💡"; b = self.scale(a, pl.no_dep(3.0), b)
        with pl.at(level=pl.Level.CORE_GROUP, no_dep_args=[zz]):
            t = pl.load(a, [0], [64])
            b = pl.store(t, [0], b)
        return b
'''


# A `second` function whose body is broken, and the rest intact.
def with_broken_second(source: str = DEMO) -> str:
    return source.replace("        out = self.fill(a, out)\n        return out\n",
                          "        out = self.fill(a, out\n        return out ))) :\n", 1)


# Multi-file: a kernel module and a program that imports it by `from kernels import k`.
KERNELS = f'''\
import pypto.language as pl


@pl.jit.incore
def k(x: {T}, y: pl.Out[{T}]):
    t = pl.load(x, [0], [64])
    pl.store(t, [0], y)
'''

USES_KERNEL = f'''\
import pypto.language as pl
from kernels import k


@pl.jit
def main(a: {T}, b: pl.Out[{T}]):
    s = "é中文💡"; k(a, b)
'''

# C++ registrations: V1 (set_arg_effect after no_arg_writes), V2 (write channel, no write),
# V3 (reuse without an effect), and a clean chain; one line starts with an astral comment.
REGISTRATIONS = '''\
#include "pypto/ir/op_registry.h"

namespace pypto::ir {

REGISTER_OP("lens.clean")
    .set_arg_effect(1, ArgEffect::Write)
    .set_output_reuses_input(1);

REGISTER_OP("lens.contradiction")
    .no_arg_writes()
    /* é中文💡 */ .set_arg_effect(0, ArgEffect::Write);

REGISTER_OP("lens.channel")
    .set_arg_effect(0, ArgEffect::Read)
    .set_write_channel(WriteChannel::Dma);

/* 💡 */ REGISTER_OP("lens.reuse").set_arg_effect(1, ArgEffect::Write).set_output_reuses_input(0);

}  // namespace pypto::ir
'''
