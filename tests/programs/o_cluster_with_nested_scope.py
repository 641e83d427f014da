# Rules: O1 (nested scopes: the CORE_GROUP scope inside pl.cluster() is outlined
# first, into an InCore function that the Group made from the cluster calls),
# O3 (the Group's parameters are the cluster body's live-ins in order of first
# use), O5 (the nested scope loads and stores `acc`: InOut there, and through
# step 2 InOut on the Group), H2 (the kernel call and the nested header are
# derived inside the Group: no loop, `prep` is the first writer of `scratch`).
# O5 steps 0 and 2 work on SSA versions: the nested dispatch reads the
# `scratch` that `prep` returned, a new version, not the captured variable, so
# neither the read flag nor the callee-read flag is set for the capture and the
# Group's `scratch` stays Out (OutputExisting on the header). Not the D1 case
# (there the same captured version goes to an In slot and an Out slot).
# verified with the oracle (--pipeline)
import pypto.language as pl


@pl.program
class ClusterNest:
    @pl.function(type=pl.FunctionType.InCore)
    def prep(
        self,
        src: pl.Tensor[[32, 32], pl.FP32],
        scratch: pl.Out[pl.Tensor[[32, 32], pl.FP32]],
    ) -> pl.Tensor[[32, 32], pl.FP32]:
        t = pl.load(src, [0, 0], [32, 32])
        scratch = pl.store(pl.mul(t, t), [0, 0], scratch)
        return scratch

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(
        self,
        x: pl.Tensor[[32, 32], pl.FP32],
        acc: pl.InOut[pl.Tensor[[32, 32], pl.FP32]],
    ) -> pl.Tensor[[32, 32], pl.FP32]:
        scratch = pl.create_tensor([32, 32], dtype=pl.FP32)
        with pl.cluster(name_hint="pair"):  # expect: x=Input, scratch=OutputExisting, acc=InOut
            scratch = self.prep(x, scratch)  # expect: Input, OutputExisting
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="fold"):  # expect: acc=InOut, scratch=Input
                a = pl.load(acc, [0, 0], [32, 32])
                s = pl.load(scratch, [0, 0], [32, 32])
                acc = pl.store(pl.add(a, s), [0, 0], acc)
        return acc
