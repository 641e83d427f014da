# Rules: B3 (`v = pl.assemble(t, s, offsets)` and the sugar `t[a:b, :] = s` in
# an orchestrator name t's buffer: the result keeps t's root), PW1 (an operator
# call is not a writer unit: the assemble itself does not make later calls
# non-first), C7 (once a kernel has written `canvas`, a later kernel writing
# the assembled value writes the same root: InOut), C9 (a kernel writing the
# assembled value of a buffer no kernel wrote before is a first writer).
# verified with the oracle (--pipeline)
import pypto.language as pl


@pl.program
class AssembleRoot:
    @pl.function(type=pl.FunctionType.InCore)
    def paint(
        self,
        src: pl.Tensor[[16, 16], pl.FP32],
        dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 16])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, src: pl.Tensor[[16, 16], pl.FP32], patch: pl.Tensor[[4, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        canvas = pl.create_tensor([16, 16], dtype=pl.FP32)
        canvas = self.paint(src, canvas)  # expect: Input, OutputExisting
        framed = pl.assemble(canvas, patch, [0, 0])
        framed = self.paint(src, framed)  # expect: Input, InOut
        blank = pl.create_tensor([16, 16], dtype=pl.FP32)
        blank[4:8, :] = patch
        blank = self.paint(framed, blank)  # expect: Input, OutputExisting
        return blank
