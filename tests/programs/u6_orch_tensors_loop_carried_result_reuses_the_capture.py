# Rules: U6 with PyPTO's OptimizeOrchTensors (iter-arg reuse), which runs after
# the InCore upgrade and caller propagation, before the call directions: in a
# loop that carries `v`, an InCore kernel (an outlined scope or a user kernel)
# called at the top level of the loop body with the carried `v` in an In slot,
# whose result becomes the next `v` through a hidden output (U6) or through an
# Out slot fed by a pl.create_tensor of the same loop body, writes its result
# into `v` itself: that slot becomes InOut and the output slot is removed, from
# every call of the kernel (so `step`'s other calls change too, and their `dst`
# carries no direction). O4/B9: a scope's loop or if result is the captured
# buffer only when what it yields is; a value computed in the scope is a hidden
# output. C4, C9.
# verified with the oracle (--pipeline)
import pypto.language as pl

N = 64


@pl.jit
def online_softmax(
    x: pl.Tensor[[16, N], pl.FP32],
    out: pl.Out[pl.Tensor[[16, N], pl.FP32]],
):
    li = pl.full([16, N], dtype=pl.FP32, value=0.0)
    mi = pl.full([16, N], dtype=pl.FP32, value=0.0)
    for sb in pl.range(4):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="step"):  # expect: Input, InOut, InOut
            t = pl.slice(x, [16, N], [0, 0])
            if sb == 0:
                li = t
                mi = t
            else:
                li = pl.add(li, t)
                mi = pl.maximum(mi, t)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="final"):  # expect: Input, Input, OutputExisting
        out[0:16, :] = pl.add(li, mi)
    return out


@pl.jit
def lanes(
    x: pl.Tensor[[16, N], pl.FP32],
    out: pl.Out[pl.Tensor[[16, N], pl.FP32]],
):
    acc = pl.full([16, N], dtype=pl.FP32, value=0.0)
    for sb in pl.range(4):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="lanes"):  # expect: InOut, Input
            for lane in pl.range(2):
                t = pl.slice(x, [16, N], [0, 0])
                if lane == 0:
                    acc = t
                else:
                    acc = pl.add(acc, t)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="lanes_out"):  # expect: acc=Input, out=OutputExisting
        out[0:16, :] = pl.add(acc, acc)
    return out


@pl.program
class Reuse:
    @pl.function(type=pl.FunctionType.InCore)
    def step(
        self,
        acc: pl.Tensor[[16, 64], pl.FP32],
        x: pl.Tensor[[16, 64], pl.FP32],
        dst: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        a = pl.load(acc, [0, 0], [16, 64])
        b = pl.load(x, [0, 0], [16, 64])
        dst = pl.store(pl.add(a, b), [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.InCore)
    def fresh(self, acc: pl.Tensor[[16, 64], pl.FP32], x: pl.Tensor[[16, 64], pl.FP32]) -> pl.Tensor[[16, 64], pl.FP32]:
        a = pl.load(acc, [0, 0], [16, 64])
        b = pl.load(x, [0, 0], [16, 64])
        c = pl.add(a, b)
        return c

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        n: pl.Scalar[pl.INDEX],
        y: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        acc = pl.create_tensor([16, 64], dtype=pl.FP32)
        acc = self.step(x, x, acc)  # expect: InOut, Input
        for i in pl.range(n):
            tmp = pl.create_tensor([16, 64], dtype=pl.FP32)
            acc = self.step(acc, x, tmp)  # expect: InOut, Input
        acc2 = pl.create_tensor([16, 64], dtype=pl.FP32)
        acc2 = self.step(x, x, acc2)  # expect: InOut, Input
        for j in pl.range(n):
            acc2 = self.fresh(acc2, x)  # expect: InOut, Input
        y = self.step(acc, acc2, y)  # expect: InOut, Input
        return y
