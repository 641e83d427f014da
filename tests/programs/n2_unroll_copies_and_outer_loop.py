# Rules: N2 (pl.unroll(3) becomes three sibling copies of its body, no loop:
# the first copy is the first writer of `ring` (OutputExisting), the next ones
# are C7; the call line shows the strongest copy, InOut, H3), C5 (an unrolled
# body inside a pl.range loop is still inside that sequential loop: InOut), N2
# with a closure constant bound (pl.unroll(COPIES) folds), C9 (a buffer that
# each copy creates afresh is first-written in every copy).
# verified with the oracle (--pipeline)
import pypto.language as pl

COPIES = 2


@pl.program
class Unrolled:
    @pl.function(type=pl.FunctionType.InCore)
    def rotate(
        self,
        src: pl.Tensor[[16, 16], pl.FP32],
        dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 16])
        dst = pl.store(pl.add(t, 1.0), [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        ring = pl.create_tensor([16, 16], dtype=pl.FP32)
        for k in pl.unroll(3):
            ring = self.rotate(x, ring)  # expect: Input, InOut
        for j in pl.unroll(COPIES):
            fresh = pl.create_tensor([16, 16], dtype=pl.FP32)
            fresh = self.rotate(ring, fresh)  # expect: Input, OutputExisting
        for i in pl.range(2):
            for k2 in pl.unroll(2):
                ring = self.rotate(x, ring)  # expect: Input, InOut
        return ring
