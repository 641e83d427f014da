# Rules: PW2 (writer units): each branch of an `if` is scanned with its own copy
# of the writers seen so far, so a call in the else-branch does not see a write
# in the then-branch (OutputExisting), but a call in either branch does see a
# write made before the `if` (C7); after the `if` both branches' writes count
# (C7). In a pl.parallel loop (no C5) a call does not see writes made by a later
# statement of the same body in an earlier iteration (first writer,
# OutputExisting), while a later statement of the body sees the earlier one
# (C7); after the loop its writes count (C7). C8 never fires for a local buffer.
# verified with the oracle (--pipeline)
import pypto.language as pl


@pl.program
class WriterUnits:
    @pl.function(type=pl.FunctionType.InCore)
    def put(
        self,
        src: pl.Tensor[[64, 8], pl.BF16],
        dst: pl.Out[pl.Tensor[[64, 8], pl.BF16]],
    ) -> pl.Tensor[[64, 8], pl.BF16]:
        t = pl.load(src, [0, 0], [64, 8])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[64, 8], pl.BF16], flag: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64, 8], pl.BF16]:
        a = pl.create_tensor([64, 8], dtype=pl.BF16)
        b = pl.create_tensor([64, 8], dtype=pl.BF16)
        a = self.put(x, a)  # expect: Input, OutputExisting
        if flag == 1:
            b = self.put(x, b)  # expect: Input, OutputExisting
            a = self.put(x, a)  # expect: Input, InOut
        else:
            b = self.put(a, b)  # expect: Input, OutputExisting
        b = self.put(x, b)  # expect: Input, InOut
        c = pl.create_tensor([64, 8], dtype=pl.BF16)
        d = pl.create_tensor([64, 8], dtype=pl.BF16)
        for i in pl.parallel(8):
            d = self.put(c, d)  # expect: Input, OutputExisting
            c = self.put(x, c)  # expect: Input, OutputExisting
            d = self.put(c, d)  # expect: Input, InOut
        c = self.put(d, c)  # expect: Input, InOut
        return c
