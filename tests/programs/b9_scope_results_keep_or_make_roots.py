# Rules: B9 (an outlined scope's dispatch is a user call for buffer roots): a
# captured buffer the scope stores into is returned as the parameter itself, so
# after the scope it is still the same buffer, already written: a kernel
# writing it next is C7 (InOut); a value computed inside the scope and used
# after it is a hidden output (U6), a fresh buffer that the dispatch wrote: a
# kernel writing it next is C7 too; a buffer the scope only reads is not
# written by it: the kernel writing it is its first writer (OutputExisting).
# verified with the oracle (--pipeline)
import pypto.language as pl


@pl.program
class ScopeRoots:
    @pl.function(type=pl.FunctionType.InCore)
    def overwrite(
        self,
        src: pl.Tensor[[8, 128], pl.FP32],
        dst: pl.Out[pl.Tensor[[8, 128], pl.FP32]],
    ) -> pl.Tensor[[8, 128], pl.FP32]:
        t = pl.load(src, [0, 0], [8, 128])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function
    def run(self, x: pl.Tensor[[8, 128], pl.FP32]) -> pl.Tensor[[8, 128], pl.FP32]:
        kept = pl.create_tensor([8, 128], dtype=pl.FP32)
        seen = pl.create_tensor([8, 128], dtype=pl.FP32)
        with pl.at(level=pl.Level.CORE_GROUP):  # expect: x=Input, kept=OutputExisting
            t = pl.load(x, [0, 0], [8, 128])
            kept = pl.store(t, [0, 0], kept)
        with pl.at(level=pl.Level.CORE_GROUP):  # expect: x=Input
            made = pl.add(x, x)
        kept = self.overwrite(x, kept)  # expect: Input, InOut
        made = self.overwrite(x, made)  # expect: Input, InOut
        with pl.at(level=pl.Level.CORE_GROUP):  # expect: seen=Input, made=Input
            u = pl.add(seen, made)
        seen = self.overwrite(u, seen)  # expect: Input, OutputExisting
        return seen
