# Rules: O5 step 0 - the alias rule follows op results, not loop carries: a
# store into a captured buffer under an `if` inside a sequential loop passes
# the loop's iter-arg on, which is no read, so the capture stays Out
# (OutputExisting). Without the loop, when the code after the scope reads the
# buffer, the if-result yields the store's result, an alias of the capture,
# and that is a read (InOut).
# verified with the oracle (--pipeline)
import pypto.language as pl


@pl.program
class StoreUnderIf:
    @pl.function(type=pl.FunctionType.Orchestration)
    def run(
        self,
        a: pl.Tensor[[64, 128], pl.FP32],
        n: pl.Scalar[pl.INDEX],
        looped: pl.Out[pl.Tensor[[64, 128], pl.FP32]],
        plain: pl.Out[pl.Tensor[[64, 128], pl.FP32]],
        nested: pl.Out[pl.Tensor[[64, 128], pl.FP32]],
    ) -> pl.Tensor[[64, 128], pl.FP32]:
        for c in pl.spmd(2):  # expect: a=Input, looped=OutputExisting
            for w in pl.range(2):
                if w < n:
                    g = pl.load(a, [w * 16, 0], [16, 128])
                    looped = pl.store(g, [w * 16, 0], looped)
        with pl.at(level=pl.Level.CORE_GROUP):  # expect: a=Input, plain=InOut
            if n > 0:
                t = pl.load(a, [0, 0], [16, 128])
                plain = pl.store(t, [0, 0], plain)
        with pl.at(level=pl.Level.CORE_GROUP):  # expect: nested=OutputExisting, plain=Input
            if n > 0:
                for k in pl.range(2):
                    u = pl.load(plain, [k * 16, 0], [16, 128])
                    nested = pl.store(u, [k * 16, 0], nested)
        return nested
