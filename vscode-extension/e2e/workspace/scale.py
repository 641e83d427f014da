import pypto.language as pl


@pl.program
class Scale:
    @pl.function(type=pl.FunctionType.InCore)
    def scale(
        self,
        src: pl.Tensor[[16, 64], pl.FP32],
        dst: pl.Tensor[[16, 64], pl.FP32],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 64])
        dst = pl.store(pl.mul(t, t), [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.InCore)
    def accumulate(
        self,
        acc: pl.InOut[pl.Tensor[[16, 64], pl.FP32]],
        x: pl.Tensor[[16, 64], pl.FP32],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        a = pl.load(acc, [0, 0], [16, 64])
        b = pl.load(x, [0, 0], [16, 64])
        acc = pl.store(pl.add(a, b), [0, 0], acc)
        return acc

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16, 64], pl.FP32]) -> pl.Tensor[[16, 64], pl.FP32]:
        squares = pl.create_tensor([16, 64], dtype=pl.FP32)
        squares = self.scale(a, squares)
        total = pl.create_tensor([16, 64], dtype=pl.FP32)
        for i in pl.range(4):
            total = self.accumulate(total, squares)
        return total
