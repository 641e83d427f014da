# Rules: C2/C5 (an Out slot inside any enclosing sequential loop of the same
# function is InOut, unconditionally, even for a buffer created in the body):
# pl.range, pl.pipeline(..., stage=2), pl.while_ with pl.cond, and a
# pl.parallel loop nested in a pl.range loop (the range still counts); a
# pl.range nested in a pl.parallel loop counts too; a pl.parallel loop alone
# does not (C9 for a fresh buffer).
# verified with the oracle (--pipeline)
import pypto.language as pl


@pl.program
class SeqDepth:
    @pl.function(type=pl.FunctionType.InCore)
    def emit(
        self,
        src: pl.Tensor[[256], pl.FP32],
        dst: pl.Out[pl.Tensor[[256], pl.FP32]],
    ) -> pl.Tensor[[256], pl.FP32]:
        t = pl.load(src, [0], [256])
        dst = pl.store(pl.add(t, 2.0), [0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[256], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[256], pl.FP32]:
        for i in pl.pipeline(4, stage=2):
            tmp = pl.create_tensor([256], dtype=pl.FP32)
            tmp = self.emit(x, tmp)  # expect: Input, InOut
        start = pl.create_tensor([256], dtype=pl.FP32)
        for (cur,) in pl.while_(init_values=(start,)):
            pl.cond(n > 8)
            cur = self.emit(x, cur)  # expect: Input, InOut
            cur = pl.yield_(cur)
        for j in pl.range(2):
            for k in pl.parallel(4):
                part = pl.create_tensor([256], dtype=pl.FP32)
                part = self.emit(x, part)  # expect: Input, InOut
        for p in pl.parallel(4):
            for q in pl.range(n):
                piece = pl.create_tensor([256], dtype=pl.FP32)
                piece = self.emit(x, piece)  # expect: Input, InOut
        for r in pl.parallel(4):
            lone = pl.create_tensor([256], dtype=pl.FP32)
            lone = self.emit(cur, lone)  # expect: Input, OutputExisting
        return cur
