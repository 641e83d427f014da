# Rules: O2 (a scope with `as tid`, with deps= or with allow_early_resolve=True
# is dispatched as a Submit; the others as plain calls; either way the header
# carries the captures' directions), C12 (Submits are derived like calls),
# S13 (the TaskId edges in deps= and pl.system.task_dummy change nothing),
# C9/C7 (the first scope is the first writer of `mid`; the kernel submitted
# after it writes `mid` again).
# verified with the oracle (--pipeline)
import pypto.language as pl


@pl.program
class TaskEdges:
    @pl.function(type=pl.FunctionType.InCore)
    def settle(
        self,
        src: pl.Tensor[[8, 512], pl.FP32],
        dst: pl.Out[pl.Tensor[[8, 512], pl.FP32]],
    ) -> pl.Tensor[[8, 512], pl.FP32]:
        t = pl.load(src, [0, 0], [8, 512])
        dst = pl.store(pl.sqrt(t), [0, 0], dst)
        return dst

    @pl.function
    def run(
        self,
        x: pl.Tensor[[8, 512], pl.FP32],
        out: pl.Out[pl.Tensor[[8, 512], pl.FP32]],
    ) -> pl.Tensor[[8, 512], pl.FP32]:
        mid = pl.create_tensor([8, 512], dtype=pl.FP32)
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="head") as head_tid:  # expect: x=Input, mid=OutputExisting
            t = pl.load(x, [0, 0], [8, 512])
            mid = pl.store(pl.abs(t), [0, 0], mid)
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="tail", deps=[head_tid], allow_early_resolve=True):  # expect: mid=Input, out=OutputExisting
            u = pl.load(mid, [0, 0], [8, 512])
            out = pl.store(u, [0, 0], out)
        gate = pl.system.task_dummy(deps=[head_tid])
        mid, late = pl.submit(self.settle, x, mid, deps=[gate])  # expect: Input, InOut
        return out
