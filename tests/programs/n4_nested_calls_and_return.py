# Rules: N4 (a call nested in another call's arguments is hoisted before it,
# inner first; a call written directly in `return` is an ordinary call
# statement), B5 (an inner call's result is rooted at its Out argument), C9/C7
# (in `return`, the hoisted inner call is the first writer of `spare`; the outer
# call then writes the inner result, i.e. `spare` again: InOut). Hints are in
# argument-position order, so an outer slot holding a nested call comes before
# the nested call's own slots.
# verified with the oracle (--pipeline)
import pypto.language as pl


@pl.program
class Nested:
    @pl.function(type=pl.FunctionType.InCore)
    def twice(
        self,
        src: pl.Tensor[[64, 64], pl.FP32],
        dst: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        t = pl.load(src, [0, 0], [64, 64])
        dst = pl.store(pl.add(t, t), [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.InCore)
    def join(
        self,
        a: pl.Tensor[[64, 64], pl.FP32],
        b: pl.Tensor[[64, 64], pl.FP32],
        dst: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        ta = pl.load(a, [0, 0], [64, 64])
        tb = pl.load(b, [0, 0], [64, 64])
        dst = pl.store(pl.sub(ta, tb), [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[64, 64], pl.FP32]) -> pl.Tensor[[64, 64], pl.FP32]:
        keep = pl.create_tensor([64, 64], dtype=pl.FP32)
        out = pl.create_tensor([64, 64], dtype=pl.FP32)
        out = self.join(self.twice(x, keep), x, out)  # expect: Input, Input, OutputExisting, Input, OutputExisting
        spare = pl.create_tensor([64, 64], dtype=pl.FP32)
        return self.twice(out, self.twice(x, spare))  # expect: Input, InOut, Input, OutputExisting
