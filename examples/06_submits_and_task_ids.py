"""Explicit tasks: pl.submit, pl.spmd_submit, TaskIds and manual scopes.

`pl.submit(self.k, ...)` launches kernel k as a task and also returns its
TaskId, which later tasks can name in deps=[...] - an extra ordering edge on
top of what the directions imply. Directions of a submit are derived exactly as
for a plain call. Trailing pl.Out parameters may be left out: the runtime then
allocates them, and they get no hint. Inside `pl.manual_scope()` PyPTO stops
inferring edges from directions and only follows deps; the directions (and the
hints) are the same.
"""

import pypto.language as pl


@pl.program
class Tasks:
    @pl.function(type=pl.FunctionType.InCore)
    def expand(
        self,
        src: pl.Tensor[[64, 32], pl.FP32],
        dst: pl.Out[pl.Tensor[[64, 32], pl.FP32]],
    ) -> pl.Tensor[[64, 32], pl.FP32]:
        t = pl.load(src, [0, 0], [64, 32])
        dst = pl.store(pl.exp(t), [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.InCore)
    def blockwise(
        self,
        src: pl.Tensor[[64, 32], pl.FP32],
        dst: pl.Out[pl.Tensor[[64, 32], pl.FP32]],
    ) -> pl.Tensor[[64, 32], pl.FP32]:
        b = pl.tile.get_block_idx()
        t = pl.load(src, [b * 16, 0], [16, 32])
        dst = pl.store(pl.neg(t), [b * 16, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[64, 32], pl.FP32], out: pl.Out[pl.Tensor[[64, 32], pl.FP32]]) -> pl.Tensor[[64, 32], pl.FP32]:
        with pl.manual_scope():
            # `dst` omitted: the runtime allocates the result buffer.
            e, t1 = pl.submit(self.expand, x)  # expect: Input
            # Four cores run `blockwise`; it waits for t1 explicitly.
            out, t2 = pl.spmd_submit(self.blockwise, e, out, core_num=4, deps=[t1])  # expect: Input, OutputExisting
        # A pl.pipeline loop is a sequential loop: each write is InOut.
        for i in pl.pipeline(4, stage=2):
            out = self.expand(e, out)  # expect: Input, InOut
        # `with pl.spmd(n)` around one kernel call: the header is the task the
        # runtime sees (it writes `out` again: InOut); the call line is the
        # kernel's launch inside that task.
        with pl.spmd(4) as t3:  # expect: e=Input, out=InOut
            out = self.blockwise(e, out)  # expect: Input, OutputExisting
        return out
