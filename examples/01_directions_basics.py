"""PyPTO argument directions, the basics (a @pl.program class).

Every call from an orchestrator to a kernel becomes a runtime task, and every
tensor argument of that task carries an ArgDirection. The runtime uses it to
order tasks that share a buffer:

  Input           the task reads the buffer: it waits for the last writer.
  OutputExisting  the task writes into a buffer the caller already owns; it
                  does not wait for earlier writers of that buffer.
  InOut           the task reads and/or writes the buffer and is ordered after
                  every earlier reader and writer of it.
  NoDep           the runtime tracks nothing for this argument (you asked it to).
  Output          the runtime allocates a fresh buffer (only if you say so).
  Scalar          a value passed by copy (numbers, loop indices, tiles): no hint.

PyPTO derives them from the kernels' parameter directions (pl.Out / pl.InOut /
plain = In) and from where the call sits. `pypto-lens check` prints them; in
an editor they appear as inlay hints before each argument. The "expect"
comments below are what PyPTO itself derives (checked against the compiler).
"""

import pypto.language as pl


@pl.program
class Basics:
    # `dst` is pl.Out: the kernel overwrites it without reading it.
    @pl.function(type=pl.FunctionType.InCore)
    def scale(
        self,
        src: pl.Tensor[[32, 64], pl.FP32],
        factor: pl.Scalar[pl.FP32],
        dst: pl.Out[pl.Tensor[[32, 64], pl.FP32]],
    ) -> pl.Tensor[[32, 64], pl.FP32]:
        t = pl.load(src, [0, 0], [32, 64])
        dst = pl.store(pl.mul(t, factor), [0, 0], dst)
        return dst

    # `acc` is pl.InOut: the kernel reads it and writes it back.
    @pl.function(type=pl.FunctionType.InCore)
    def add_into(
        self,
        src: pl.Tensor[[32, 64], pl.FP32],
        acc: pl.InOut[pl.Tensor[[32, 64], pl.FP32]],
    ) -> pl.Tensor[[32, 64], pl.FP32]:
        a = pl.load(acc, [0, 0], [32, 64])
        t = pl.load(src, [0, 0], [32, 64])
        acc = pl.store(pl.add(a, t), [0, 0], acc)
        return acc

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(
        self,
        x: pl.Tensor[[32, 64], pl.FP32],
        total: pl.InOut[pl.Tensor[[32, 64], pl.FP32]],
        steps: pl.Scalar[pl.INDEX],
    ) -> pl.Tensor[[32, 64], pl.FP32]:
        y = pl.create_tensor([32, 64], dtype=pl.FP32)
        # The first task that writes `y`: nothing to wait for (rule C9).
        y = self.scale(x, 2.0, y)  # expect: Input, OutputExisting
        # `y` was written before, so this write must wait for that one (C7).
        y = self.scale(x, 3.0, y)  # expect: Input, InOut
        # An InOut parameter of the kernel is always InOut at the call (C4).
        y = self.add_into(x, y)  # expect: Input, InOut

        # Inside a sequential loop, iteration i+1 must not overtake iteration i:
        # every written argument is InOut, even a buffer made in the loop (C5).
        for i in pl.range(steps):
            part = pl.create_tensor([32, 64], dtype=pl.FP32)
            part = self.scale(y, 0.5, part)  # expect: Input, InOut

        # A pl.parallel loop promises independent iterations: no C5 here, and
        # each `chunk` is written first (OutputExisting).
        for j in pl.parallel(4):
            chunk = pl.create_tensor([32, 64], dtype=pl.FP32)
            chunk = self.scale(y, 0.25, chunk)  # expect: Input, OutputExisting

        # `total` is this function's own pl.InOut parameter: whoever called us
        # may still be using it, so writing it is InOut even the first time (C8).
        total = self.scale(y, 1.0, total)  # expect: Input, InOut

        # pl.no_dep(...) switches tracking off for one argument (C10). Use it
        # only when you order the tasks yourself.
        w = pl.create_tensor([32, 64], dtype=pl.FP32)
        w = self.scale(pl.no_dep(x), 1.0, w)  # expect: NoDep, OutputExisting

        # A hand-written vector is kept exactly as written (S11/C3); `output`
        # asks the runtime to allocate the buffer.
        v = pl.create_tensor([32, 64], dtype=pl.FP32)
        v = self.scale(x, 1.0, v, attrs={"arg_directions": [pl.adir.input, pl.adir.scalar, pl.adir.output]})  # expect: Input, Output
        return total
