# Rules: U3 (the InCore upgrade asks the operator registry which slots an op
# writes, under the call's kwargs), U4, C4/C9.
#  * pl.tile.mscatter writes its destination (registry: slot 2 Write), so the
#    kernel's `table`, declared In, is upgraded to Out: OutputExisting at the
#    call. oracle-differences D4, the seeds win; the oracle (2026-08) uses an
#    op-name table without mscatter and answers Input.
#  * pl.store(..., atomic=pl.AtomicType.Add) accumulates into its destination
#    (registry: slot 2 ReadWrite under `atomic`), so `sums`, declared In, is
#    upgraded to InOut: InOut at the call. oracle-differences D5, the seeds win;
#    the oracle answers OutputExisting (a store destination is always Out there).
#  * A CORE_GROUP scope with the same atomic store into a fresh buffer gives
#    InOut on its header (O5 step 0: an atomic store reads its destination);
#    the oracle agrees.
# Warnings: spec §13 (no oracle) - both kernels write a parameter declared In.
# The `x` and `idx` slots and the scope header verified with the oracle
# (--pipeline).
import pypto.language as pl


@pl.program
class RegistryWriters:
    @pl.function(type=pl.FunctionType.InCore)
    def scatter_rows(
        self,
        vals: pl.Tensor[[8, 32], pl.FP32],
        idx: pl.Tensor[[8, 32], pl.INT32],
        table: pl.Tensor[[4096], pl.FP32],
    ) -> pl.Tensor[[4096], pl.FP32]:
        v = pl.load(vals, [0, 0], [8, 32])
        i = pl.load(idx, [0, 0], [8, 32])
        table = pl.tile.mscatter(v, i, table)  # expect-warning: InParamWritten
        return table

    @pl.function(type=pl.FunctionType.InCore)
    def add_partial(
        self,
        part: pl.Tensor[[8, 32], pl.FP32],
        sums: pl.Tensor[[8, 32], pl.FP32],
    ) -> pl.Tensor[[8, 32], pl.FP32]:
        t = pl.load(part, [0, 0], [8, 32])
        sums = pl.store(t, [0, 0], sums, atomic=pl.AtomicType.Add)  # expect-warning: InParamWritten
        return sums

    @pl.function
    def run(
        self,
        x: pl.Tensor[[8, 32], pl.FP32],
        idx: pl.Tensor[[8, 32], pl.INT32],
    ) -> pl.Tensor[[8, 32], pl.FP32]:
        table = pl.create_tensor([4096], dtype=pl.FP32)
        table = self.scatter_rows(x, idx, table)  # expect: Input, Input, OutputExisting
        sums = pl.create_tensor([8, 32], dtype=pl.FP32)
        sums = self.add_partial(x, sums)  # expect: Input, InOut
        tot = pl.create_tensor([8, 32], dtype=pl.FP32)
        with pl.at(level=pl.Level.CORE_GROUP):  # expect: x=Input, tot=InOut
            t = pl.load(x, [0, 0], [8, 32])
            tot = pl.store(t, [0, 0], tot, atomic=pl.AtomicType.Add)
        return tot
