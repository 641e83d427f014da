# Rules: InOutUseDiscipline (oracle-differences, other facts) as PyPTO verifies
# it: once, at the pipeline's input, before scopes are outlined (O). A scope is
# no call there: a `with pl.at(...)` in a loop that writes a buffer the loop
# does not carry (a ready flag, a partial sum), read again by the next
# iteration or after the loop, is accepted, however its dispatch's directions
# come out (O5, C5: InOut in the loop). A call of a function whose parameter is
# declared Out, in a loop, on a buffer the loop does not carry, is rejected:
# the next iteration reads the stale variable (the loop's back edge).
# verified with the oracle (--pipeline): `Ready` is accepted; `Stale` fails the
# InOutUseValid check at the pipeline input (twice: in the next iteration, and
# after the loop), which is why it is its own program
import pypto.language as pl

TOK = 16
K = 64
BLOCKS = 4


@pl.program
class Ready:
    @pl.function(type=pl.FunctionType.Orchestration)
    def reduce_blocks(
        self,
        x: pl.Tensor[[TOK, BLOCKS * K], pl.FP32],
        out: pl.Out[pl.Tensor[[TOK, K], pl.FP32]],
    ) -> pl.Tensor[[TOK, K], pl.FP32]:
        partials = pl.create_tensor([BLOCKS * TOK, K], dtype=pl.FP32)
        ready = pl.create_tensor([BLOCKS], dtype=pl.INT32)
        for kb in pl.range(BLOCKS):
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="partial"):  # expect: x=Input, partials=InOut, ready=InOut
                chunk = pl.slice(x, [TOK, K], [0, kb * K])
                partials = pl.assemble(partials, chunk, [kb * TOK, 0])
                pl.tensor.write(ready, [kb], pl.cast(kb * 0 + 1, target_type=pl.INT32))
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="reduce"):  # expect: partials=Input, ready=Input, out=OutputExisting
            acc = pl.full([TOK, K], dtype=pl.FP32, value=0.0)
            for kb in pl.unroll(BLOCKS):
                part = pl.slice(partials, [TOK, K], [kb * TOK, 0])
                flag = pl.cast(pl.tensor.read(ready, [kb]), target_type=pl.FP32)
                acc = pl.add(acc, pl.mul(part, flag))
            out = pl.assemble(out, acc, [0, 0])
        return out


@pl.program
class Stale:
    @pl.function(type=pl.FunctionType.InCore)
    def fill(
        self,
        src: pl.Tensor[[TOK, K], pl.FP32],
        dst: pl.Out[pl.Tensor[[TOK, K], pl.FP32]],
    ) -> pl.Tensor[[TOK, K], pl.FP32]:
        t = pl.load(src, [0, 0], [TOK, K])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def refill(
        self,
        a: pl.Tensor[[TOK, K], pl.FP32],
        out: pl.Out[pl.Tensor[[TOK, K], pl.FP32]],
    ) -> pl.Tensor[[TOK, K], pl.FP32]:
        mid = pl.create_tensor([TOK, K], dtype=pl.FP32)
        for kb in pl.range(BLOCKS):
            self.fill(a, mid)  # expect: Input, InOut  # expect-error: InOutUseDiscipline
        out = self.fill(mid, out)  # expect: Input, OutputExisting
        return out
