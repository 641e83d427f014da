"""Directions that travel: wrappers, helpers, clusters and hierarchy levels.

A parameter's direction is not always what its annotation says. PyPTO fixes
them up before it looks at any call:
  * a helper that passes its parameter to a kernel's pl.Out slot writes it, so
    the helper's parameter becomes Out for *its* callers (propagation);
  * a Group / Spmd wrapper takes the directions of the calls inside it;
  * a `with pl.cluster()` block becomes a Group whose parameters are inferred
    from what the block does with each captured buffer;
  * a `with pl.at(level=pl.Level.HOST, ...)` block becomes a function at that
    level, again with inferred parameters.
"""

import pypto.language as pl


@pl.program
class Travel:
    @pl.function(type=pl.FunctionType.InCore)
    def produce(
        self,
        src: pl.Tensor[[16, 256], pl.FP32],
        dst: pl.Out[pl.Tensor[[16, 256], pl.FP32]],
    ) -> pl.Tensor[[16, 256], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 256])
        dst = pl.store(pl.exp(t), [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.InCore)
    def inspect(
        self,
        src: pl.Tensor[[16, 256], pl.FP32],
        log: pl.Out[pl.Tensor[[16, 256], pl.FP32]],
    ) -> pl.Tensor[[16, 256], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 256])
        log = pl.store(pl.abs(t), [0, 0], log)
        return log

    # A hand-written Group wrapper. `out` is written plain (In), but the
    # kernel inside writes it, so the wrapper's `out` is Out for its callers.
    @pl.function(type=pl.FunctionType.Group)
    def pair(
        self,
        a: pl.Tensor[[16, 256], pl.FP32],
        out: pl.Tensor[[16, 256], pl.FP32],
    ) -> pl.Tensor[[16, 256], pl.FP32]:
        out = self.produce(a, out)  # expect: Input, OutputExisting
        return out

    # A sub-orchestrator that forwards `buf` to a kernel's Out slot: `buf`
    # becomes Out, and callers of `stage` see OutputExisting, not Input.
    @pl.function(type=pl.FunctionType.Orchestration)
    def stage(
        self,
        src: pl.Tensor[[16, 256], pl.FP32],
        buf: pl.Tensor[[16, 256], pl.FP32],
    ) -> pl.Tensor[[16, 256], pl.FP32]:
        buf = self.produce(src, buf)  # expect: Input, OutputExisting
        return buf

    @pl.function
    def main(
        self,
        x: pl.Tensor[[16, 256], pl.FP32],
        log: pl.Out[pl.Tensor[[16, 256], pl.FP32]],
        res: pl.Out[pl.Tensor[[16, 256], pl.FP32]],
    ) -> pl.Tensor[[16, 256], pl.FP32]:
        shared = pl.create_tensor([16, 256], dtype=pl.FP32)
        # Inside the cluster, `shared` is first read (by inspect) and then
        # written (by produce): the cluster's task reads and writes it, so it
        # is InOut. (This is the "two flags" rule of the spec; PyPTO 2026-08
        # still answers OutputExisting here, newer PyPTO answers InOut.)
        # `log` is only written: OutputExisting. The calls inside the cluster
        # are tasks of the Group and are derived there; since the Group's
        # `shared` is InOut, produce's write of it is InOut too.
        with pl.cluster():  # expect: shared=InOut, log=OutputExisting, x=Input
            log = self.inspect(shared, log)  # expect: Input, OutputExisting
            shared = self.produce(x, shared)  # expect: Input, InOut

        # The hierarchy block runs at host level; inside it, `stage` writes
        # `res` (propagated Out), and the wrapper `pair` writes it again.
        with pl.at(level=pl.Level.HOST, role=pl.Role.Orchestrator):  # expect: shared=Input, res=OutputExisting
            res = self.stage(shared, res)  # expect: Input, OutputExisting
            res = self.pair(shared, res)  # expect: Input, InOut
        return res
