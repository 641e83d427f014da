# Rules: C5 (R-seq counts only loops that still exist when directions are
# derived: PyPTO's Simplify replaces a plain sequential `pl.range` that provably
# runs once, constant bounds or `pl.range(s, s + 1)`, by its body, as D7 does for
# zero trips), C2 (a real loop inside the lifted body still counts; `pl.pipeline`
# and `while` are not lifted), C7 (a buffer written before the lifted loop is
# still written earlier), C9, O5 (scopes inside a lifted loop: a capture the body
# only writes stays Out, so its header shows OutputExisting).
# verified with the oracle (--pipeline)
import pypto.language as pl

BATCH = 16
BATCH_TILE = 16
HIDDEN = 256
K = 64


@pl.program
class OneTrip:
    @pl.function(type=pl.FunctionType.InCore)
    def fill(
        self,
        src: pl.Tensor[[16, 64], pl.FP32],
        dst: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 64])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        n: pl.Scalar[pl.INDEX],
        y: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        acc = pl.create_tensor([16, 64], dtype=pl.FP32)
        for b0 in pl.range(0, BATCH, BATCH_TILE):
            tmp = pl.create_tensor([16, 64], dtype=pl.FP32)
            tmp = self.fill(x, tmp)  # expect: Input, OutputExisting
            acc = self.fill(tmp, acc)  # expect: Input, OutputExisting
            for k in pl.range(4):
                tmp = self.fill(x, tmp)  # expect: Input, InOut
        a1 = pl.create_tensor([16, 64], dtype=pl.FP32)
        for j in pl.range(1):
            a1 = self.fill(acc, a1)  # expect: Input, OutputExisting
        a2 = pl.create_tensor([16, 64], dtype=pl.FP32)
        for q in pl.pipeline(1, stage=1):
            a2 = self.fill(a1, a2)  # expect: Input, InOut
        a3 = pl.create_tensor([16, 64], dtype=pl.FP32)
        for w in pl.range(3, 4):
            a3 = self.fill(a2, a3)  # expect: Input, OutputExisting
        a4 = pl.create_tensor([16, 64], dtype=pl.FP32)
        for v in pl.range(n, n + 1):
            a4 = self.fill(a3, a4)  # expect: Input, OutputExisting
        for v2 in pl.range(n, n + 1):
            a4 = self.fill(a3, a4)  # expect: Input, InOut
        a5 = pl.create_tensor([16, 64], dtype=pl.FP32)
        for u in pl.range(n, n + 2):
            a5 = self.fill(a4, a5)  # expect: Input, InOut
        a6 = pl.create_tensor([16, 64], dtype=pl.FP32)
        i = 0
        while i < 1:
            a6 = self.fill(a5, a6)  # expect: Input, InOut
            i = i + 1
        y = self.fill(a6, y)  # expect: Input, OutputExisting
        return y


@pl.jit
def decode_back(
    hidden: pl.Tensor[[BATCH, HIDDEN], pl.FP32],
    out: pl.Out[pl.Tensor[[BATCH, HIDDEN], pl.FP32]],
):
    total = pl.create_tensor([BATCH_TILE, HIDDEN], dtype=pl.FP32)
    for b0 in pl.range(0, BATCH, BATCH_TILE):
        resid = pl.create_tensor([BATCH_TILE, HIDDEN], dtype=pl.FP32)
        for ob in pl.range(HIDDEN // K):
            o0 = ob * K
            with pl.at(level=pl.Level.CORE_GROUP):  # expect: hidden=Input, resid=InOut
                t = pl.slice(hidden, [BATCH_TILE, K], [b0, o0])
                resid = pl.assemble(resid, pl.add(t, t), [0, o0])
        normed = pl.create_tensor([BATCH_TILE, HIDDEN], dtype=pl.FP32)
        with pl.at(level=pl.Level.CORE_GROUP):  # expect: normed=OutputExisting, resid=Input
            for kb in pl.range(HIDDEN // K):
                k0 = kb * K
                x = pl.slice(resid, [BATCH_TILE, K], [0, k0])
                normed = pl.assemble(normed, pl.mul(x, x), [0, k0])
        with pl.at(level=pl.Level.CORE_GROUP):  # expect: normed=Input, total=OutputExisting
            u = pl.slice(normed, [BATCH_TILE, HIDDEN], [0, 0])
            total = pl.assemble(total, pl.add(u, u), [0, 0])
        with pl.at(level=pl.Level.CORE_GROUP):  # expect: total=Input, out=OutputExisting
            v = pl.slice(total, [BATCH_TILE, HIDDEN], [0, 0])
            out = pl.assemble(out, v, [b0, 0])
    return out


@pl.jit
def lifted_carry(
    x: pl.Tensor[[BATCH, K], pl.FP32],
    out: pl.Out[pl.Tensor[[BATCH, K], pl.FP32]],
):
    # the lifted loop's result is the value its body yields (no copy that would read `buf`),
    # and with no loop header left `x` is the scope's first capture (O3)
    buf = pl.create_tensor([BATCH, K], dtype=pl.FP32)
    with pl.at(level=pl.Level.CORE_GROUP):  # expect: Input, OutputExisting
        for r in pl.range(1):
            t = pl.slice(x, [BATCH, K], [0, 0])
            buf = pl.assemble(buf, pl.add(t, t), [0, 0])
    with pl.at(level=pl.Level.CORE_GROUP):  # expect: buf=Input, out=OutputExisting
        u = pl.slice(buf, [BATCH, K], [0, 0])
        out = pl.assemble(out, u, [0, 0])
    return out
