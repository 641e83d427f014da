# Rules: Z1-Z4 report only unordered pairs of overlapping accesses (runtime.md §4), so none
# of these is a hazard: a reader before a writer that waits on the reader's output (ordered
# through a RAW chain, G4), disjoint constant slices of one buffer (G3), different buffers,
# a manual scope with the right deps= (G9), the two arms of one if (never both run), a deps=
# entry that may name the reader (a slot of a task-id array: the edge may exist, so the pair
# may be ordered), and kernels that touch disjoint constant parts of a buffer they are both
# given whole.
# A @pl.program class: pl.submit takes its kernel as self.<kernel>, a method of the class,
# and PyPTO accepts it nowhere else (in a @pl.jit function self names nothing). A deps= entry
# the analysis cannot resolve at all is not here: every task id PyPTO accepts in deps= comes
# from a submit, a scope, task_dummy, a task-id array, a parameter or task_invalid, and PyPTO
# Lens resolves each of them (tests/test_task_graph.py checks that shape on its own).
# verified with the oracle (--pipeline), PyPTO e2d0f78: it accepts the program and derives the
# directions PyPTO Lens shows, call by call.
import pypto.language as pl

R = 16
C = 64


@pl.program
class OrderedOrApart:
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

    @pl.function(type=pl.FunctionType.InCore)
    def merge(
        self,
        src: pl.Tensor[[R, C], pl.FP32],
        dst: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    ) -> pl.Tensor[[R, C], pl.FP32]:
        t = pl.load(src, [0, 0], [R, C])
        dst = pl.store(pl.exp(t), [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.InCore)
    def read_top(
        self,
        src: pl.Tensor[[2 * R, C], pl.FP32],
        dst: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    ) -> pl.Tensor[[R, C], pl.FP32]:
        t = pl.load(src, [0, 0], [R, C])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.InCore)
    def write_bottom(
        self,
        src: pl.Tensor[[R, C], pl.FP32],
        dst: pl.Out[pl.Tensor[[2 * R, C], pl.FP32]],
    ) -> pl.Tensor[[2 * R, C], pl.FP32]:
        t = pl.load(src, [0, 0], [R, C])
        dst = pl.store(t, [R, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(  # expect-graph: hazards=0
        self,
        x: pl.Tensor[[R, C], pl.FP32],
        flag: pl.Scalar[pl.INDEX],
        out: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    ) -> pl.Tensor[[R, C], pl.FP32]:
        buf = pl.create_tensor([R, C], dtype=pl.FP32)
        buf = self.fill(x, buf)  # task: w0
        y = pl.create_tensor([R, C], dtype=pl.FP32)
        y = self.fill(buf, y)  # task: reader ; expect-edge: w0 G4 raw buf
        buf = self.merge(y, buf)  # expect-edge: w0 G5 waw buf ; reader G4 raw y ; expect-hazard: none

        two = pl.create_tensor([2 * R, C], dtype=pl.FP32)
        top = two[0:R, :]
        bottom = two[R:2 * R, :]
        top = self.fill(x, top)
        t1 = pl.create_tensor([R, C], dtype=pl.FP32)
        t1 = self.fill(top, t1)
        bottom = self.fill(x, bottom)  # expect-edge: none ; expect-hazard: none

        a = pl.create_tensor([R, C], dtype=pl.FP32)
        b = pl.create_tensor([R, C], dtype=pl.FP32)
        a = self.fill(x, a)
        b = self.fill(a, b)
        c = pl.create_tensor([R, C], dtype=pl.FP32)
        c = self.fill(x, c)  # expect-hazard: none

        m = pl.create_tensor([R, C], dtype=pl.FP32)
        with pl.manual_scope():
            m, tm = pl.submit(self.fill, x, m)
            n = pl.create_tensor([R, C], dtype=pl.FP32)
            n, tn = pl.submit(self.fill, m, n, deps=[tm])  # expect-hazard: none
            m, tw = pl.submit(self.bump, m, deps=[tn])  # expect-hazard: none

        e = pl.create_tensor([R, C], dtype=pl.FP32)
        e = self.fill(x, e)
        if flag > 0:
            f = pl.create_tensor([R, C], dtype=pl.FP32)
            f = self.fill(e, f)
        else:
            e = self.bump(e)  # expect-hazard: none

        g = pl.create_tensor([R, C], dtype=pl.FP32)
        g = self.fill(x, g)  # task: g0
        h = pl.create_tensor([R, C], dtype=pl.FP32)
        h, th = pl.submit(self.fill, g, h)  # task: slot_reader
        slots = pl.array.create(1, pl.TASK_ID)
        slots[0] = th
        g, tg = pl.submit(self.bump, g, deps=[slots[0]])  # expect-edge: g0 G5 raw g ; slot_reader G9 deps unknown ; expect-hazard: none

        halves = pl.create_tensor([2 * R, C], dtype=pl.FP32)
        upper = self.fill(x, halves[0:R, :])
        o = pl.create_tensor([R, C], dtype=pl.FP32)
        o = self.read_top(halves, o)
        halves = self.write_bottom(x, halves)  # expect-hazard: none
        return out
