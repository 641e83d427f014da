"""A @pl.jit program: kernels called by name, regions outlined into kernels.

In the @pl.jit style there is no class: the entry (`@pl.jit`) is the
orchestrator, `@pl.jit.incore` functions are kernels called by their plain
name, and `@pl.jit.inline` helpers are pasted into their caller. A `with
pl.at(level=pl.Level.CORE_GROUP)` block, or a `pl.spmd` block, is turned into
a kernel of its own by the compiler; its hint sits at the end of the `with` /
`for` line and lists the variables the block uses, in the order it first uses
them, each with the direction of the task that runs the block.
"""

import pypto.language as pl

ROWS = 64
COLS = 128
BLOCKS = 4


@pl.jit.incore
def normalize(src: pl.Tensor[[ROWS, COLS], pl.FP32], dst: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]]):
    t = pl.load(src, [0, 0], [ROWS, COLS])
    dst = pl.store(pl.mul(t, 0.125), [0, 0], dst)
    return dst


# `dst` is not marked pl.Out, yet the kernel stores into it. PyPTO notices and
# treats it as Out anyway (so the call below is OutputExisting), but the
# declaration is wrong: PyPTO Lens reports InParamWritten. Fix: pl.Out[...].
@pl.jit.incore
def add_bias(src: pl.Tensor[[ROWS, COLS], pl.FP32], bias: pl.Tensor[[ROWS, COLS], pl.FP32], dst: pl.Tensor[[ROWS, COLS], pl.FP32]):
    a = pl.load(src, [0, 0], [ROWS, COLS])
    b = pl.load(bias, [0, 0], [ROWS, COLS])
    dst = pl.store(pl.add(a, b), [0, 0], dst)  # expect-warning: InParamWritten
    return dst


# An inline helper: its body is copied into each caller, so the block inside
# gets one task per call. The hint shows the strongest of those tasks: the
# second call rewrites a buffer the first call wrote, hence InOut.
@pl.jit.inline
def square(src: pl.Tensor[[ROWS, COLS], pl.FP32], dst: pl.Tensor[[ROWS, COLS], pl.FP32]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="square"):  # expect: src=Input, dst=InOut
        t = pl.load(src, [0, 0], [ROWS, COLS])
        pl.store(pl.mul(t, t), [0, 0], dst)
    return dst


@pl.jit
def pipeline(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    bias: pl.Tensor[[ROWS, COLS], pl.FP32],
    out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
):
    # A block that only stores into `stage` makes it an output of the block's
    # task; nobody wrote `stage` before, so OutputExisting.
    stage = pl.create_tensor([ROWS, COLS], dtype=pl.FP32)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="stage1") as first:  # expect: x=Input, stage=OutputExisting
        t = pl.load(x, [0, 0], [ROWS, COLS])
        pl.store(pl.exp(t), [0, 0], stage)

    # `for b in pl.spmd(n)`: n copies of the body run in parallel, one per
    # core; it is one task for the runtime, not a loop.
    rows = pl.create_tensor([ROWS, COLS], dtype=pl.FP32)
    for b in pl.spmd(BLOCKS, name_hint="rows"):  # expect: stage=Input, rows=OutputExisting
        r = pl.load(stage, [b * 16, 0], [16, COLS])
        pl.store(pl.neg(r), [b * 16, 0], rows)

    # pl.unroll repeats the body at compile time: two tasks, the second
    # rewriting what the first wrote (shown: InOut, the stronger of the two).
    norm = pl.create_tensor([ROWS, COLS], dtype=pl.FP32)
    for k in pl.unroll(2):
        norm = normalize(rows, norm)  # expect: Input, InOut

    sq = pl.create_tensor([ROWS, COLS], dtype=pl.FP32)
    sq = square(norm, sq)  # expect: none
    sq = square(norm, sq)  # expect: none

    # no_dep_args: the block's task does not wait for writers of `bias`
    # (we know it is a constant input). deps=[first] adds an explicit edge to
    # the task of the first block; it changes no direction.
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="biased", no_dep_args=[bias], deps=[first]):  # expect: sq=Input, bias=NoDep, out=OutputExisting
        s = pl.load(sq, [0, 0], [ROWS, COLS])
        c = pl.load(bias, [0, 0], [ROWS, COLS])
        pl.store(pl.add(s, c), [0, 0], out)

    # A kernel call written in `return` is a task like any other; it
    # rewrites `out`, which the block above wrote: InOut.
    return add_bias(sq, bias, out)  # expect: Input, Input, InOut
