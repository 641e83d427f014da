"""The program tests/nvim/e2e.lua opens in Neovim (a copy of it, in a temporary folder).

Its directions follow the PyPTO rules shown in examples/01 and examples/05:
the first write of a fresh buffer is OutputExisting (C9), a later write of the
same buffer is InOut (C7), a plain parameter that the kernel loads and stores
is upgraded to InOut, and a Scalar argument gets no hint. `bump` writes its
plain parameter `acc`: the InParamWritten warning.

e2e.lua finds the call lines by their text, so keep each call on one line and
every call text unique; update e2e.lua when the expectations change.
"""

import pypto.language as pl


@pl.program
class Pipeline:
    @pl.function(type=pl.FunctionType.InCore)
    def scale(
        self,
        src: pl.Tensor[[16, 64], pl.FP32],
        factor: pl.Scalar[pl.FP32],
        dst: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 64])
        dst = pl.store(pl.mul(t, factor), [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.InCore)
    def bump(
        self,
        src: pl.Tensor[[16, 64], pl.FP32],
        acc: pl.Tensor[[16, 64], pl.FP32],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        a = pl.load(acc, [0, 0], [16, 64])
        t = pl.load(src, [0, 0], [16, 64])
        acc = pl.store(pl.add(a, t), [0, 0], acc)  # expect-warning: InParamWritten
        return acc

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[16, 64], pl.FP32]) -> pl.Tensor[[16, 64], pl.FP32]:
        y = pl.create_tensor([16, 64], dtype=pl.FP32)
        y = self.scale(x, 2.0, y)  # expect: src=Input, dst=OutputExisting
        y = self.scale(x, 3.0, y)  # expect: src=Input, dst=InOut
        y = self.bump(x, y)  # expect: src=Input, acc=InOut
        return y
