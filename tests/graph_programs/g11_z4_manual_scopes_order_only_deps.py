# Rules: G11 (inside pl.manual_scope() tasks skip the creator edge, the lookup and the
# insert: only deps= orders them), Z4 (so inside, a pair of overlapping accesses without
# deps= is unordered; across the boundary, a task inside does not wait for a writer before
# the scope, and a task after it does not wait for a write made inside), and the shapes
# that are fine: the same pairs with the right deps=.
# A @pl.program class: pl.submit takes its kernel as self.<kernel>, a method of the class,
# and PyPTO accepts it nowhere else (in a @pl.jit function self names nothing).
# verified with the oracle (--pipeline), PyPTO e2d0f78: it accepts the program and derives the
# directions PyPTO Lens shows, call by call.
import pypto.language as pl

R = 16
C = 64


@pl.program
class ManualScopes:
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
    def main(  # expect-graph: tasks=7 edges=4 hazards=3
        self,
        x: pl.Tensor[[R, C], pl.FP32],
        out: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    ) -> pl.Tensor[[R, C], pl.FP32]:
        before = pl.create_tensor([R, C], dtype=pl.FP32)
        before = self.fill(x, before)  # task: before
        a = pl.create_tensor([R, C], dtype=pl.FP32)
        b = pl.create_tensor([R, C], dtype=pl.FP32)
        with pl.manual_scope():
            a, ta = pl.submit(self.fill, before, a)  # task: wa ; expect-edge: none ; expect-hazard: ManualScopeMissingDep before before warning
            b, tb = pl.submit(self.fill, a, b)  # task: rb ; expect-edge: none ; expect-hazard: ManualScopeMissingDep wa a warning fix=add-dep
            a, tc = pl.submit(self.bump, a, deps=[ta, tb])  # task: wc ; expect-edge: wa G9 deps ; rb G9 deps
            y = pl.create_tensor([R, C], dtype=pl.FP32)
            y, ty = pl.submit(self.fill, a, y, deps=[tc])  # expect-edge: wc G9 deps
        out = self.fill(b, out)  # expect-edge: none ; expect-hazard: ManualScopeMissingDep rb b warning
        z = pl.create_tensor([R, C], dtype=pl.FP32)
        z, tz = pl.submit(self.fill, b, z, deps=[tb])  # expect-edge: rb G9 deps
        return out
