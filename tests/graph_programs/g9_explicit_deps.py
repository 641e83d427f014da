# Rules: G9 (each task id in deps= is an edge, on top of the automatic ones, from pl.submit,
# from a scope's "as tid", through a pl.system.task_dummy barrier, and through a task-id
# array, where the slot read is not known: the edge is drawn as "unknown"), G2 (deps= on a
# None entry or a task id from the caller adds nothing inside this graph).
# A @pl.program class: pl.submit takes its kernel as self.<kernel>, a method of the class,
# and PyPTO accepts it nowhere else (in a @pl.jit function self names nothing).
# out is declared InOut: bump's submit writes it again after the tail scope, and PyPTO Lens
# propagates that to main's parameter (P2/P3, through the scope's result and a Submit) where
# this PyPTO build does not (oracle-differences D2, D3); declared, both make the scope's slot
# InOut, and the graph is the same.
# verified with the oracle (--pipeline), PyPTO e2d0f78: it accepts the program and derives the
# directions PyPTO Lens shows, call by call.
import pypto.language as pl

R = 16
C = 64


@pl.program
class ExplicitDeps:
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
    def main(  # expect-graph: tasks=6 edges=8 hazards=0
        self,
        x: pl.Tensor[[R, C], pl.FP32],
        earlier: pl.Scalar[pl.TASK_ID],
        out: pl.InOut[pl.Tensor[[R, C], pl.FP32]],
    ) -> pl.Tensor[[R, C], pl.FP32]:
        a = pl.create_tensor([R, C], dtype=pl.FP32)
        b = pl.create_tensor([R, C], dtype=pl.FP32)
        c = pl.create_tensor([R, C], dtype=pl.FP32)
        a, ta = pl.submit(self.fill, x, a, deps=[earlier, None])  # task: a ; expect-edge: none
        b, tb = pl.submit(self.fill, x, b, deps=[ta])  # task: b ; expect-edge: a G9 deps
        gate = pl.system.task_dummy(deps=[ta, tb])  # task: gate ; expect-edge: a G9 deps ; b G9 deps
        tids = pl.array.create(1, pl.TASK_ID)
        tids[0] = gate
        c, tc = pl.submit(self.fill, x, c, deps=[tids[0]])  # task: c ; expect-edge: gate G9 deps unknown
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="tail", deps=[tc]) as tail:  # task: tail ; expect-edge: c G9 deps ; c G4 raw c
            t = pl.load(c, [0, 0], [R, C])
            out = pl.store(t, [0, 0], out)
        out, tz = pl.submit(self.bump, out, deps=[tail])  # expect-edge: tail G9 deps ; tail G5 raw out
        return out
