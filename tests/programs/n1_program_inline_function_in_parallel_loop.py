# Rules: N1 (a @pl.function(type=pl.FunctionType.Inline) helper disappears; its
# calls are derived once per expansion in the caller's context and the helper's
# own call line shows the strongest copy, H3), PW2/C7 (the first expansion
# follows a writer of `acc` in the caller: InOut), C9 (the expansion inside the
# parallel loop writes a fresh buffer: no C5 in a parallel loop), S5 (the call
# of the inline helper itself carries no directions).
# verified with the oracle (--pipeline)
import pypto.language as pl


@pl.program
class InlineHelper:
    @pl.function(type=pl.FunctionType.InCore)
    def relu(
        self,
        src: pl.Tensor[[128], pl.FP32],
        dst: pl.Out[pl.Tensor[[128], pl.FP32]],
    ) -> pl.Tensor[[128], pl.FP32]:
        t = pl.load(src, [0], [128])
        dst = pl.store(pl.maximum(t, 0.0), [0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Inline)
    def activate(self, x: pl.Tensor[[128], pl.FP32], y: pl.Tensor[[128], pl.FP32]) -> pl.Tensor[[128], pl.FP32]:
        y = self.relu(x, y)  # expect: Input, InOut
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[128], pl.FP32]) -> pl.Tensor[[128], pl.FP32]:
        acc = pl.create_tensor([128], dtype=pl.FP32)
        acc = self.relu(x, acc)  # expect: Input, OutputExisting
        acc = self.activate(x, acc)  # expect: none
        for i in pl.parallel(4):
            part = pl.create_tensor([128], dtype=pl.FP32)
            part = self.activate(acc, part)  # expect: none
        return acc
