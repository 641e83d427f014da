# Rules: Z7 (a manual scope has no per-iteration scopes inside: a loop that submits a
# window's worth of tasks into one, 16,384 by default, stops the run with a scope
# deadlock; only constant trip counts are counted, so a run-time count reports nothing).
# A @pl.program class: pl.submit takes its kernel as self.<kernel>, a method of the class,
# and PyPTO accepts it nowhere else (in a @pl.jit function self names nothing).
# verified with the oracle (--pipeline), PyPTO e2d0f78: it accepts the program and derives the
# directions PyPTO Lens shows, call by call.
import pypto.language as pl

R = 16
C = 64


@pl.program
class TaskWindow:
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
    def main(  # expect-graph: tasks=2 hazards=1
        self,
        x: pl.Tensor[[R, C], pl.FP32],
        n: pl.Scalar[pl.INDEX],
        out: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    ) -> pl.Tensor[[R, C], pl.FP32]:
        with pl.manual_scope():
            for i in pl.range(20000):
                y = pl.create_tensor([R, C], dtype=pl.FP32)
                y, ty = pl.submit(self.fill, x, y)  # expect-hazard: ScopeWindowExceeded self
        with pl.manual_scope():
            for j in pl.range(n):
                z = pl.create_tensor([R, C], dtype=pl.FP32)
                z, tz = pl.submit(self.fill, x, z)  # expect-hazard: none
        return out
