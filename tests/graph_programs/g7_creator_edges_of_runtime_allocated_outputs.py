# Rules: G7 (a pl.submit that omits a trailing Out parameter gets a buffer the runtime
# allocates; every later use of it, NoDep included, waits on that task, its creator, and
# nothing looks it up in the map), G11/Z4 (inside a manual scope not even the creator edge
# is taken: a read of the output without the submit's task id in deps= is unordered).
# A @pl.program class: pl.submit takes its kernel as self.<kernel>, a method of the class,
# and PyPTO accepts it nowhere else (in a @pl.jit function self names nothing); pl.no_dep at
# a call argument is the @pl.program form too.
# verified with the oracle (--pipeline), PyPTO e2d0f78: it accepts the program and derives the
# directions PyPTO Lens shows, call by call.
import pypto.language as pl

R = 16
C = 64


@pl.program
class RuntimeAllocated:
    @pl.function(type=pl.FunctionType.InCore)
    def fill(
        self,
        src: pl.Tensor[[R, C], pl.FP32],
        dst: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    ) -> pl.Tensor[[R, C], pl.FP32]:
        t = pl.load(src, [0, 0], [R, C])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(  # expect-graph: tasks=5 edges=3 hazards=1
        self,
        x: pl.Tensor[[R, C], pl.FP32],
        out: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    ) -> pl.Tensor[[R, C], pl.FP32]:
        res, made = pl.submit(self.fill, x)  # task: made ; expect-edge: none
        out = self.fill(res, out)  # expect-edge: made G7 creator fill.dst
        y = pl.create_tensor([R, C], dtype=pl.FP32)
        y = self.fill(pl.no_dep(res), y)  # expect-edge: made G7 creator
        z = pl.create_tensor([R, C], dtype=pl.FP32)
        with pl.manual_scope():
            z = self.fill(res, z)  # expect-edge: none ; expect-hazard: ManualScopeMissingDep made warning
            q, tq = pl.submit(self.fill, res, deps=[made])  # expect-edge: made G9 deps
        return out
