# Rules: B7 (an if-result joins the roots of both incoming values): when both
# branches name the same buffer the result is that buffer, not ambiguous, and
# only PW decides (`same` was not written yet: OutputExisting); when they name
# different buffers the result is ambiguous: C6 (InOut) even though neither
# buffer was written; N3 (an `if` without `else` passes the old value through,
# so rebinding in the then-branch only also makes the result ambiguous: C6);
# an if whose both branches write the same buffer with a kernel makes the
# call after it C7.
# verified with the oracle (--pipeline)
import pypto.language as pl


@pl.program
class IfJoins:
    @pl.function(type=pl.FunctionType.InCore)
    def copy(
        self,
        src: pl.Tensor[[32, 8], pl.FP32],
        dst: pl.Out[pl.Tensor[[32, 8], pl.FP32]],
    ) -> pl.Tensor[[32, 8], pl.FP32]:
        t = pl.load(src, [0, 0], [32, 8])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[32, 8], pl.FP32], mode: pl.Scalar[pl.INDEX]) -> pl.Tensor[[32, 8], pl.FP32]:
        one = pl.create_tensor([32, 8], dtype=pl.FP32)
        if mode == 0:
            same = one
        else:
            same = one
        same = self.copy(x, same)  # expect: Input, OutputExisting
        p = pl.create_tensor([32, 8], dtype=pl.FP32)
        q = pl.create_tensor([32, 8], dtype=pl.FP32)
        if mode > 1:
            pick = p
        else:
            pick = q
        pick = self.copy(x, pick)  # expect: Input, InOut
        maybe = pl.create_tensor([32, 8], dtype=pl.FP32)
        if mode > 2:
            maybe = pl.create_tensor([32, 8], dtype=pl.FP32)
        maybe = self.copy(x, maybe)  # expect: Input, InOut
        both = pl.create_tensor([32, 8], dtype=pl.FP32)
        if mode > 3:
            both = self.copy(x, both)  # expect: Input, OutputExisting
        else:
            both = self.copy(pick, both)  # expect: Input, OutputExisting
        both = self.copy(maybe, both)  # expect: Input, InOut
        return both
