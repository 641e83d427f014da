# Rules: O1 (pl.at with a level other than CORE_GROUP is a hierarchy scope,
# outlined into an Opaque function that keeps its level/role; the parent stays
# Opaque; a CORE_GROUP scope nested in a hierarchy scope is outlined from that
# hierarchy function, which becomes Orchestration), O2/H1 (each dispatch is
# hinted on its `with` line), O3 (dispatch arguments in order of first use:
# `x` is first used inside the nested scope), O5 step 2 (a capture passed to a
# callee's Out slot is Out), P3 (run's `y`, declared In, becomes Out because the
# chip-level scope writes it; no hint changes, but see the warning), C7 (inside
# the host function the nested scope writes `z` after `copy` did).
# Directions verified with the oracle (--pipeline). The warning is spec §13
# (no oracle): a write inside `with pl.at(...)` belongs to the enclosing,
# non-promoted Opaque function, whose `y` is declared In (IW4, IW7).
import pypto.language as pl


@pl.program
class Levels:
    @pl.function(type=pl.FunctionType.InCore)
    def copy(
        self,
        src: pl.Tensor[[32, 32], pl.FP32],
        dst: pl.Out[pl.Tensor[[32, 32], pl.FP32]],
    ) -> pl.Tensor[[32, 32], pl.FP32]:
        t = pl.load(src, [0, 0], [32, 32])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function
    def run(
        self,
        x: pl.Tensor[[32, 32], pl.FP32],
        y: pl.Tensor[[32, 32], pl.FP32],
        z: pl.Out[pl.Tensor[[32, 32], pl.FP32]],
    ) -> pl.Tensor[[32, 32], pl.FP32]:
        with pl.at(level=pl.Level.CHIP, role=pl.Role.Orchestrator):  # expect: x=Input, y=OutputExisting
            y = self.copy(x, y)  # expect-warning: InParamWritten  # expect: Input, OutputExisting
        with pl.at(level=pl.Level.HOST, role=pl.Role.Orchestrator):  # expect: y=Input, z=OutputExisting, x=Input
            z = self.copy(y, z)  # expect: Input, OutputExisting
            with pl.at(level=pl.Level.CORE_GROUP):  # expect: x=Input, z=InOut
                z[0:8, :] = pl.exp(x[0:8, :])
        return z
