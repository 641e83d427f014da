# Rules: Z1 (readers are never recorded, so a later write, InOut or OutputExisting, is not
# ordered after an earlier read unless a path of edges orders it), the fixes the runtime's
# docs give: add the reader's task id to the writer's deps= (when the writer can take deps=
# and the id is in scope), or make the reader InOut (not offered for r2: fill's src InOut would
# make every later read of buf and x a use PyPTO rejects). The last write is unordered with the
# first read too, but that pair is implied by (reader, w1), since w1 is surely ordered
# before it: one missing order, one report.
# A @pl.program class: pl.submit takes its kernel as self.<kernel>, a method of the class,
# and PyPTO accepts it nowhere else (in a @pl.jit function self names nothing).
# verified with the oracle (--pipeline), PyPTO e2d0f78: it accepts the program and derives the
# directions PyPTO Lens shows, call by call.
import pypto.language as pl

R = 16
C = 64


@pl.program
class WriteAfterRead:
    @pl.function(type=pl.FunctionType.InCore)
    def fill(
        self,
        src: pl.Tensor[[R, C], pl.FP32],
        dst: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    ) -> pl.Tensor[[R, C], pl.FP32]:
        t = pl.load(src, [0, 0], [R, C])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.InCore)
    def bump(self, acc: pl.InOut[pl.Tensor[[R, C], pl.FP32]]) -> pl.Tensor[[R, C], pl.FP32]:
        t = pl.load(acc, [0, 0], [R, C])
        acc = pl.store(pl.add(t, t), [0, 0], acc)
        return acc

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(  # expect-graph: tasks=5 edges=4 hazards=2
        self,
        x: pl.Tensor[[R, C], pl.FP32],
        out: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    ) -> pl.Tensor[[R, C], pl.FP32]:
        buf = pl.create_tensor([R, C], dtype=pl.FP32)
        buf = self.fill(x, buf)  # task: w0
        out, seen = pl.submit(self.fill, buf, out)  # task: reader ; expect-edge: w0 G4 raw buf
        buf, later = pl.submit(self.bump, buf)  # task: w1 ; expect-edge: w0 G5 raw buf ; expect-hazard: UnorderedWriteAfterRead reader buf warning fix=add-dep
        y = pl.create_tensor([R, C], dtype=pl.FP32)
        y = self.fill(buf, y)  # task: r2 ; expect-edge: w1 G4 raw buf
        buf = self.fill(x, buf)  # expect-edge: w1 G5 waw buf ; expect-hazard: UnorderedWriteAfterRead r2 buf warning fix=none
        return out
