# Rules: C11 (idempotence: deriving again over derived vectors changes
# nothing) through C3 (a pre-filled arg_directions vector is kept as written).
# `derive` has calls without vectors; `rederive` is the same body with the
# vectors `derive` gets written back as pre-filled attrs: every line shows the
# same directions (the second write of `acc` stays InOut, the loop call stays
# InOut, the first writer stays OutputExisting). PyPTO accepts the program:
# the CallDirectionsResolved verifier finds every written-back vector legal
# (D3), including on the call of `grp`, a Group that declares its `o` pl.Out
# and whose inner call agrees with it (nothing left to materialise, W6).
# Reproduces, in our own words, upstream test_derive_call_directions.py cases
# test_idempotent, test_verify_succeeds_after_derive and
# test_materialized_group_directions_accepted.
# verified with the oracle (--pipeline)
import pypto.language as pl


@pl.program
class WrittenBack:
    @pl.function(type=pl.FunctionType.InCore)
    def scale(
        self,
        src: pl.Tensor[[64, 64], pl.FP32],
        dst: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        t = pl.load(src, [0, 0], [64, 64])
        dst = pl.store(pl.mul(t, 3.0), [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Group)
    def grp(
        self,
        src: pl.Tensor[[64, 64], pl.FP32],
        o: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        r = self.scale(src, o, attrs={"arg_directions": [pl.adir.input, pl.adir.output_existing]})  # expect: src=Input, dst=OutputExisting
        return r

    @pl.function(type=pl.FunctionType.Orchestration)
    def derive(self, src: pl.Tensor[[64, 64], pl.FP32]) -> pl.Tensor[[64, 64], pl.FP32]:
        acc = pl.create_tensor([64, 64], dtype=pl.FP32)
        acc = self.scale(src, acc)  # expect: src=Input, dst=OutputExisting
        acc = self.scale(src, acc)  # expect: src=Input, dst=InOut
        for i in pl.range(2):
            acc = self.scale(src, acc)  # expect: src=Input, dst=InOut
        out = pl.create_tensor([64, 64], dtype=pl.FP32)
        out = self.grp(acc, out)  # expect: src=Input, o=OutputExisting
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def rederive(self, src: pl.Tensor[[64, 64], pl.FP32]) -> pl.Tensor[[64, 64], pl.FP32]:
        acc = pl.create_tensor([64, 64], dtype=pl.FP32)
        acc = self.scale(src, acc, attrs={"arg_directions": [pl.adir.input, pl.adir.output_existing]})  # expect: src=Input, dst=OutputExisting
        acc = self.scale(src, acc, attrs={"arg_directions": [pl.adir.input, pl.adir.inout]})  # expect: src=Input, dst=InOut
        for i in pl.range(2):
            acc = self.scale(src, acc, attrs={"arg_directions": [pl.adir.input, pl.adir.inout]})  # expect: src=Input, dst=InOut
        out = pl.create_tensor([64, 64], dtype=pl.FP32)
        out = self.grp(acc, out, attrs={"arg_directions": [pl.adir.input, pl.adir.output_existing]})  # expect: src=Input, o=OutputExisting
        return out
