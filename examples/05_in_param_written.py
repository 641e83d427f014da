"""InParamWritten: a parameter declared In (plain) that the function writes.

A wrong In is silent at run time: callers pass the buffer as an input, the
runtime never orders the writer before later readers, and the program races.
PyPTO Lens warns where the write happens. The fix is always the annotation:
pl.Out[...] if the function overwrites the buffer without reading it,
pl.InOut[...] if it reads it too.

Not reported: parameters declared pl.Out / pl.InOut, parameters only read,
scalars, and functions whose parameters are the program's interface
(Orchestration functions, @pl.jit entries, Group/Spmd wrappers).
"""

import pypto.language as pl


@pl.program
class Mistakes:
    @pl.function(type=pl.FunctionType.InCore)
    def copy(
        self,
        src: pl.Tensor[[16, 64], pl.FP32],
        dst: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 64])
        dst = pl.store(t, [0, 0], dst)
        return dst

    # 1. A store into a plain parameter. PyPTO quietly upgrades `acc` to
    #    InOut (it is loaded too), but the declaration should say so.
    @pl.function(type=pl.FunctionType.InCore)
    def running_sum(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        acc: pl.Tensor[[16, 64], pl.FP32],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        a = pl.load(acc, [0, 0], [16, 64])
        t = pl.load(x, [0, 0], [16, 64])
        acc = pl.store(pl.add(a, t), [0, 0], acc)  # expect-warning: InParamWritten
        return acc

    # 2. A write through a view: `part` is a slice of `grid`, so writing
    #    `part` writes `grid`.
    @pl.function(type=pl.FunctionType.InCore)
    def patch(
        self,
        grid: pl.Tensor[[16, 64], pl.FP32],
        val: pl.Tensor[[8, 64], pl.FP32],
    ) -> pl.Tensor[[8, 64], pl.FP32]:
        part = pl.slice(grid, [8, 64], [0, 0])
        part = pl.assemble(part, pl.exp(val), [0, 0])  # expect-warning: InParamWritten
        return part

    # 3. A write through a call: `sink` goes to copy's pl.Out slot.
    @pl.function
    def forward(
        self,
        src: pl.Tensor[[16, 64], pl.FP32],
        sink: pl.Tensor[[16, 64], pl.FP32],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        sink = self.copy(src, sink)  # expect-warning: InParamWritten  # expect: Input, OutputExisting
        return sink

    # Correct declarations: nothing to report.
    @pl.function(type=pl.FunctionType.InCore)
    def well_declared(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        acc: pl.InOut[pl.Tensor[[16, 64], pl.FP32]],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        a = pl.load(acc, [0, 0], [16, 64])
        t = pl.load(x, [0, 0], [16, 64])
        acc = pl.store(pl.add(a, t), [0, 0], acc)
        out = pl.store(t, [0, 0], out)
        return out

    # The orchestrator's parameters are the program's interface: never
    # reported, even `y`, which it writes while declaring it plain.
    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[16, 64], pl.FP32], y: pl.Tensor[[16, 64], pl.FP32]) -> pl.Tensor[[16, 64], pl.FP32]:
        y = self.copy(x, y)  # expect: Input, OutputExisting
        acc = pl.create_tensor([16, 64], dtype=pl.FP32)
        acc = self.running_sum(y, acc)  # expect: Input, InOut
        out = pl.create_tensor([16, 64], dtype=pl.FP32)
        out = self.well_declared(x, acc, out)  # expect: Input, InOut, OutputExisting
        fwd = pl.create_tensor([16, 64], dtype=pl.FP32)
        fwd = self.forward(out, fwd)  # expect: Input, OutputExisting
        half = self.patch(fwd, x[0:8, :])  # expect: Input, Input
        return half
