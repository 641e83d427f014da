# Rules: N3/O1 - `for t in pl.spmd(n)` is a scope written as a loop (PyPTO's
# parser makes it an Spmd scope around an InCore one whose body runs once
# after binding `t`), so liveness sees no next iteration there. In the first
# scope `flat` is rebound under the `if` and nothing after the scope reads it
# (`seq` is returned, not `flat`): no if-result (Simplify drops the dead phi
# that ConvertToSSA made), so the branch's assemble result is no O5 read and
# the capture stays Out (OutputExisting at the dispatch). The second scope is
# the same shape but `seq` is read after it: the if-result is live and its
# branch value counts as a read (InOut). (The shape of pypto-lib's decode
# indexer top-k loop.)
# verified with the oracle (--pipeline)
import pypto.language as pl

T = 16
D = 64


@pl.jit
def fill(
    x: pl.Tensor[[T, D], pl.FP32],
    lens: pl.Tensor[[T], pl.INT32],
    out: pl.Out[pl.Tensor[[T, D], pl.FP32]],
    again: pl.Out[pl.Tensor[[T, D], pl.FP32]],
):
    flat = out
    for t in pl.spmd(T, name_hint="rows"):  # expect: flat=OutputExisting, lens=Input, x=Input
        blank = pl.full([1, D], dtype=pl.FP32, value=0.0)
        flat[t : t + 1, :] = blank
        n = pl.read(lens, [t])
        if n > 0:
            row = pl.exp(x[t : t + 1, :])
            flat[t : t + 1, :] = row
    seq = again
    for u in pl.spmd(T, name_hint="rows_again"):  # expect: seq=InOut, lens=Input, x=Input
        zero = pl.full([1, D], dtype=pl.FP32, value=0.0)
        seq[u : u + 1, :] = zero
        m = pl.read(lens, [u])
        if m > 0:
            val = pl.exp(x[u : u + 1, :])
            seq[u : u + 1, :] = val
    return seq
