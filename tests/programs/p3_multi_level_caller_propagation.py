# Rules: P1-P4 (caller propagation to a fixpoint over a three-level chain:
# `leaf_write` stores into `dst` (Out) and `leaf_acc` updates `acc` (InOut);
# `middle`, an Opaque function, forwards its own In-declared parameters to those
# slots, so middle.out becomes Out and middle.state becomes InOut; `upper`
# forwards again, so upper's parameters become Out and InOut too; `run` sees
# the final directions), P3 (a parameter passed to an Out slot here and to an
# In slot elsewhere ends Out, not InOut: `upper.out`), C4/C9.
# Directions verified with the oracle (--pipeline). Warnings: spec §13 (no
# oracle): `middle` and `upper` are plain Opaque functions without scopes (not
# promoted), so passing an In-declared parameter to a writing slot is reported
# (IW4, using the declared directions of the callees, IW7: `upper` calls
# `middle`, whose declared directions are all In, so nothing is reported there).
import pypto.language as pl


@pl.program
class Chain:
    @pl.function(type=pl.FunctionType.InCore)
    def leaf_write(
        self,
        src: pl.Tensor[[64, 16], pl.FP32],
        dst: pl.Out[pl.Tensor[[64, 16], pl.FP32]],
    ) -> pl.Tensor[[64, 16], pl.FP32]:
        t = pl.load(src, [0, 0], [64, 16])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.InCore)
    def leaf_acc(
        self,
        src: pl.Tensor[[64, 16], pl.FP32],
        acc: pl.InOut[pl.Tensor[[64, 16], pl.FP32]],
    ) -> pl.Tensor[[64, 16], pl.FP32]:
        a = pl.load(acc, [0, 0], [64, 16])
        t = pl.load(src, [0, 0], [64, 16])
        acc = pl.store(pl.add(a, t), [0, 0], acc)
        return acc

    @pl.function
    def middle(
        self,
        src: pl.Tensor[[64, 16], pl.FP32],
        out: pl.Tensor[[64, 16], pl.FP32],
        state: pl.Tensor[[64, 16], pl.FP32],
    ) -> pl.Tensor[[64, 16], pl.FP32]:
        out = self.leaf_write(src, out)  # expect-warning: InParamWritten  # expect: Input, OutputExisting
        state = self.leaf_acc(out, state)  # expect-warning: InParamWritten  # expect: Input, InOut
        return state

    @pl.function
    def upper(
        self,
        src: pl.Tensor[[64, 16], pl.FP32],
        out: pl.Tensor[[64, 16], pl.FP32],
        state: pl.Tensor[[64, 16], pl.FP32],
    ) -> pl.Tensor[[64, 16], pl.FP32]:
        probe = pl.create_tensor([64, 16], dtype=pl.FP32)
        probe = self.leaf_write(out, probe)  # expect: Input, OutputExisting
        state = self.middle(src, out, state)  # expect: Input, OutputExisting, InOut
        return state

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, src: pl.Tensor[[64, 16], pl.FP32]) -> pl.Tensor[[64, 16], pl.FP32]:
        out = pl.create_tensor([64, 16], dtype=pl.FP32)
        state = pl.create_tensor([64, 16], dtype=pl.FP32)
        state = self.upper(src, out, state)  # expect: Input, OutputExisting, InOut
        return state
