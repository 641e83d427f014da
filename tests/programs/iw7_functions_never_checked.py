# Rules: IW7 (which functions are checked): an Orchestration function's
# parameters are never reported (the host ABI), nor those of an Opaque function
# promoted to Orchestration by an outlined pl.at scope, nor a Group wrapper's,
# nor an Inline function's in its own body (its expansion is checked in the
# caller, here an Orchestration function, so nothing either). Only `plain`, an
# Opaque function with no scope, is checked - one warning in this file.
# Directions verified with the oracle (--pipeline); warnings spec §13 (no oracle).
import pypto.language as pl


@pl.program
class NotChecked:
    @pl.function(type=pl.FunctionType.InCore)
    def fill(
        self,
        src: pl.Tensor[[32], pl.FP32],
        dst: pl.Out[pl.Tensor[[32], pl.FP32]],
    ) -> pl.Tensor[[32], pl.FP32]:
        t = pl.load(src, [0], [32])
        dst = pl.store(t, [0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, a: pl.Tensor[[32], pl.FP32], b: pl.Tensor[[32], pl.FP32]) -> pl.Tensor[[32], pl.FP32]:
        b = self.fill(a, b)  # expect: Input, OutputExisting
        return b

    @pl.function
    def promoted(self, a: pl.Tensor[[32], pl.FP32], b: pl.Tensor[[32], pl.FP32]) -> pl.Tensor[[32], pl.FP32]:
        b = self.fill(a, b)  # expect: Input, OutputExisting
        with pl.at(level=pl.Level.CORE_GROUP):  # expect: a=Input, b=InOut
            t = pl.load(a, [0], [32])
            b = pl.store(t, [0], b)
        return b

    @pl.function(type=pl.FunctionType.Group)
    def wrapper(self, a: pl.Tensor[[32], pl.FP32], b: pl.Tensor[[32], pl.FP32]) -> pl.Tensor[[32], pl.FP32]:
        b = self.fill(a, b)  # expect: Input, OutputExisting
        return b

    @pl.function(type=pl.FunctionType.Inline)
    def helper(self, a: pl.Tensor[[32], pl.FP32], b: pl.Tensor[[32], pl.FP32]) -> pl.Tensor[[32], pl.FP32]:
        b = self.fill(a, b)  # expect: Input, OutputExisting
        return b

    @pl.function
    def plain(self, a: pl.Tensor[[32], pl.FP32], b: pl.Tensor[[32], pl.FP32]) -> pl.Tensor[[32], pl.FP32]:
        b = self.fill(a, b)  # expect-warning: InParamWritten  # expect: Input, OutputExisting
        return b

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, a: pl.Tensor[[32], pl.FP32]) -> pl.Tensor[[32], pl.FP32]:
        b1 = pl.create_tensor([32], dtype=pl.FP32)
        b1 = self.orch(a, b1)  # expect: Input, OutputExisting
        b2 = pl.create_tensor([32], dtype=pl.FP32)
        b2 = self.promoted(a, b2)  # expect: Input, OutputExisting
        b3 = pl.create_tensor([32], dtype=pl.FP32)
        b3 = self.wrapper(a, b3)  # expect: Input, OutputExisting
        b4 = pl.create_tensor([32], dtype=pl.FP32)
        b4 = self.helper(a, b4)  # expect: none
        b5 = pl.create_tensor([32], dtype=pl.FP32)
        b5 = self.plain(a, b5)  # expect: Input, OutputExisting
        return b5
