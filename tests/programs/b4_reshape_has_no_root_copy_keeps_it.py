# Rules: B4 (a pl.reshape of a buffer has no root: a write through it after the
# buffer was written is not tied to any buffer, so C7 cannot fire and it stays
# OutputExisting; the same reshape written twice is still OutputExisting), C5
# (but inside a sequential loop a rootless argument is InOut all the same), B2
# (a plain copy `alias = buf` keeps the root, so C7 does fire for it).
# verified with the oracle (--pipeline)
import pypto.language as pl


@pl.program
class NoRoot:
    @pl.function(type=pl.FunctionType.InCore)
    def flat_fill(
        self,
        src: pl.Tensor[[512], pl.FP32],
        dst: pl.Out[pl.Tensor[[512], pl.FP32]],
    ) -> pl.Tensor[[512], pl.FP32]:
        t = pl.load(src, [0], [512])
        dst = pl.store(t, [0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, src: pl.Tensor[[512], pl.FP32]) -> pl.Tensor[[512], pl.FP32]:
        buf = pl.create_tensor([512], dtype=pl.FP32)
        buf = self.flat_fill(src, buf)  # expect: Input, OutputExisting
        flat = pl.reshape(buf, [512])
        flat = self.flat_fill(src, flat)  # expect: Input, OutputExisting
        flat = self.flat_fill(src, flat)  # expect: Input, OutputExisting
        for i in pl.range(2):
            flat = self.flat_fill(src, flat)  # expect: Input, InOut
        alias = buf
        alias = self.flat_fill(src, alias)  # expect: Input, InOut
        return alias
