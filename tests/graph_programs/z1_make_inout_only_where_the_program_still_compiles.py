# Rules: Z1's second remedy, declaring the reader's parameter InOut, is offered as a fix only where
# the program still compiles with it. A variable passed to an InOut slot must not be read again
# (PyPTO's use discipline), and the later writer of the pair usually passes the very variable the
# reader was given: then there is no fix. A reader given a slice (a new value, read by nobody else)
# can be made InOut: the later InOut write then finds its entry (G5) and waits.
# verified with the oracle (--pipeline), PyPTO e2d0f78: it accepts the program and derives the
# directions PyPTO Lens shows, call by call.
import pypto.language as pl

R = 16
C = 64


@pl.program
class MakeInOut:
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
    def peek(
        self,
        src: pl.Tensor[[R, C], pl.FP32],
        dst: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    ) -> pl.Tensor[[R, C], pl.FP32]:
        t = pl.load(src, [0, 0], [R, C])
        dst = pl.store(pl.mul(t, t), [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.InCore)
    def bump(self, acc: pl.InOut[pl.Tensor[[R, C], pl.FP32]]) -> pl.Tensor[[R, C], pl.FP32]:
        t = pl.load(acc, [0, 0], [R, C])
        acc = pl.store(pl.add(t, t), [0, 0], acc)
        return acc

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(  # expect-graph: tasks=6 edges=5 hazards=2
        self,
        x: pl.Tensor[[R, C], pl.FP32],
        out: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    ) -> pl.Tensor[[R, C], pl.FP32]:
        buf = pl.create_tensor([R, C], dtype=pl.FP32)
        buf = self.fill(x, buf)  # task: w0
        y = pl.create_tensor([R, C], dtype=pl.FP32)
        y = self.peek(pl.slice(buf, [R, C], [0, 0]), y)  # task: sliced ; expect-edge: w0 G4 raw buf
        buf = self.bump(buf)  # task: w1 ; expect-edge: w0 G5 raw buf ; expect-hazard: UnorderedWriteAfterRead sliced buf warning fix=make-inout
        z = pl.create_tensor([R, C], dtype=pl.FP32)
        z = self.fill(buf, z)  # task: named ; expect-edge: w1 G4 raw buf
        buf = self.bump(buf)  # task: w2 ; expect-edge: w1 G5 raw buf ; expect-hazard: UnorderedWriteAfterRead named buf warning fix=none
        out = self.fill(buf, out)  # expect-edge: w2 G4 raw buf
        return out
