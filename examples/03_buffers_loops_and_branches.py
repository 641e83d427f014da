"""Which buffer does a variable name? Slices, reshapes, results, branches, loops.

"Was this buffer written before?" decides between OutputExisting (no wait) and
InOut (wait for the earlier writer). To answer it PyPTO follows each variable
back to the buffer it names - its root - with a few deliberate limits, shown
here. When a variable may name one of several buffers (after an `if`, or after
a loop that might not run), PyPTO plays safe: InOut.
"""

import pypto.language as pl


@pl.program
class Buffers:
    @pl.function(type=pl.FunctionType.InCore)
    def write_rows(
        self,
        src: pl.Tensor[[8, 128], pl.FP16],
        dst: pl.Out[pl.Tensor[[8, 128], pl.FP16]],
    ) -> pl.Tensor[[8, 128], pl.FP16]:
        t = pl.load(src, [0, 0], [8, 128])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.InCore)
    def split(
        self,
        src: pl.Tensor[[8, 128], pl.FP16],
        lo: pl.Out[pl.Tensor[[8, 128], pl.FP16]],
        hi: pl.Out[pl.Tensor[[8, 128], pl.FP16]],
    ) -> tuple[pl.Tensor[[8, 128], pl.FP16], pl.Tensor[[8, 128], pl.FP16]]:
        t = pl.load(src, [0, 0], [8, 128])
        lo = pl.store(t, [0, 0], lo)
        hi = pl.store(pl.neg(t), [0, 0], hi)
        return lo, hi

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[8, 128], pl.FP16], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[8, 128], pl.FP16]:
        big = pl.create_tensor([16, 128], dtype=pl.FP16)
        # A slice is a buffer of its own for this analysis: writing the top
        # half and then the bottom half are two first writes.
        top = big[0:8, :]
        top = self.write_rows(x, top)  # expect: Input, OutputExisting
        bottom = big[8:16, :]
        bottom = self.write_rows(x, bottom)  # expect: Input, OutputExisting

        # A reshape names no buffer at all: even after `flat` was written,
        # writing through the reshape again is not tied to it (only a loop
        # could make it InOut). The runtime keys writers by base address, so
        # the second OutputExisting write is not ordered after the first (Z2).
        flat = pl.create_tensor([1024], dtype=pl.FP16)
        view = pl.reshape(flat, [8, 128])
        view = self.write_rows(x, view)  # expect: Input, OutputExisting
        view = self.write_rows(x, view)  # expect: Input, OutputExisting  # expect-warning: UnorderedWriteAfterWrite

        # A call's results name the buffers it wrote, in the order of its
        # pl.Out parameters: `a` is `lo_buf`, `b` is `hi_buf`. Writing `a`
        # again waits for `split`.
        lo_buf = pl.create_tensor([8, 128], dtype=pl.FP16)
        hi_buf = pl.create_tensor([8, 128], dtype=pl.FP16)
        a, b = self.split(x, lo_buf, hi_buf)  # expect: Input, OutputExisting, OutputExisting
        a = self.write_rows(b, a)  # expect: Input, InOut

        # After the `if`, `pick` is one of two buffers (neither written yet):
        # PyPTO cannot tell which, so InOut, to be safe.
        p1 = pl.create_tensor([8, 128], dtype=pl.FP16)
        p2 = pl.create_tensor([8, 128], dtype=pl.FP16)
        if n > 4:
            pick = p1
        else:
            pick = p2
        pick = self.write_rows(x, pick)  # expect: Input, InOut

        # A loop that runs a known number of times ends with the buffer made in
        # its last iteration, which nobody wrote yet...
        cur = pl.create_tensor([8, 128], dtype=pl.FP16)
        for i in pl.range(2):
            fresh = pl.create_tensor([8, 128], dtype=pl.FP16)
            cur = fresh
        cur = self.write_rows(x, cur)  # expect: Input, OutputExisting

        # ...but with an unknown count it might not run at all: `maybe` is
        # the old buffer or a new one, so InOut.
        maybe = pl.create_tensor([8, 128], dtype=pl.FP16)
        for j in pl.range(n):
            other = pl.create_tensor([8, 128], dtype=pl.FP16)
            maybe = other
        maybe = self.write_rows(x, maybe)  # expect: Input, InOut
        return maybe
