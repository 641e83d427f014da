# Rules: N1 (an inline helper's parameters are replaced by the caller's
# arguments, at their uses and at their definitions, before outlining; the jit
# specializer first renames a rebinding at the helper's top level, which then
# stays in the helper), O5 (inside the scope that holds the call, a parameter the
# helper only writes is the captured variable itself: step 1b sees the write and
# nothing reads it first, so Out; a top-level rebinding returned and assigned to
# the caller's variable is a copy, which reads it: InOut), O3 (a loop in the
# helper carries the caller's variable: its header comes first), N3 (a helper
# that writes its parameter in both branches of an `if` inside its own scope
# gives the caller's variable an if-result when the caller reads it after the
# call, and O5 counts the branch values as reads: InOut; when nothing reads it
# after, there is no if-result: Out), C9.
# verified with the oracle (--pipeline)
import pypto.language as pl

T = 16
N = 64
R = 4


@pl.jit.inline
def gather_rows(
    src: pl.Tensor[[T, N], pl.FP32],
    index: pl.Tensor[[R], pl.INT32],
    dst: pl.Tensor[[T, N], pl.FP32],
    first: pl.Scalar[pl.INT32],
):
    for seg in pl.range(R):
        row = index[seg]
        t = src[row:row + 1, 0:N]
        dst[first + seg:first + seg + 1, 0:N] = t
    return dst


@pl.jit.inline
def double_row(dst: pl.Tensor[[T, N], pl.FP32], src: pl.Tensor[[T, N], pl.FP32], row: pl.Scalar[pl.INDEX]):
    t = pl.slice(src, [1, N], [row, 0])
    dst = pl.assemble(dst, pl.add(t, t), [row, 0])
    return dst


@pl.jit.inline
def square_all(dst: pl.Tensor[[T, N], pl.FP32], src: pl.Tensor[[T, N], pl.FP32]):
    t = pl.slice(src, [T, N], [0, 0])
    dst[0:T, :] = pl.mul(t, t)


@pl.jit
def gather_then_square(
    x: pl.Tensor[[T, N], pl.FP32],
    idx: pl.Tensor[[R], pl.INT32],
    out: pl.Out[pl.Tensor[[T, N], pl.FP32]],
):
    a = pl.create_tensor([T, N], dtype=pl.FP32)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="gather_a"):  # expect: OutputExisting, Input, Input
        gather_rows(x, idx, a, pl.cast(0, pl.INT32))
    b = pl.create_tensor([T, N], dtype=pl.FP32)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="gather_b"):  # expect: b=OutputExisting, idx=Input, a=Input
        b = gather_rows(a, idx, b, pl.cast(2, pl.INT32))
    c = pl.create_tensor([T, N], dtype=pl.FP32)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="double_c"):  # expect: b=Input, c=InOut
        c = double_row(c, b, 0)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="square_out"):  # expect: c=Input, out=OutputExisting
        square_all(out, c)
    return out


@pl.jit.inline
def reduce_rows(
    sh: pl.Tensor[[T, N], pl.BF16],
    extra: pl.Tensor[[T, N], pl.BF16],
    ffn_out: pl.Tensor[[T, N], pl.BF16],
    n: pl.Scalar[pl.INDEX],
):
    with pl.spmd(T, name_hint="reduce_rows"):  # expect: sh=Input, extra=Input, ffn_out=InOut
        t = pl.tile.get_block_idx()
        if t < n:
            acc = pl.cast(sh[t:t + 1, :], target_type=pl.FP32)
            acc = pl.add(acc, pl.cast(extra[t:t + 1, :], target_type=pl.FP32))
            ffn_out[t:t + 1, :] = pl.cast(acc, target_type=pl.BF16, mode="rint")
        else:
            ffn_out[t:t + 1, :] = sh[t:t + 1, :]


@pl.jit
def reduce_then_read(
    a: pl.Tensor[[T, N], pl.BF16],
    b: pl.Tensor[[T, N], pl.BF16],
    out: pl.Out[pl.Tensor[[T, N], pl.BF16]],
):
    n = pl.cast(8, pl.INDEX)
    f = pl.create_tensor([T, N], dtype=pl.BF16)
    reduce_rows(a, b, f, n)  # expect: none
    with pl.at(level=pl.Level.CORE_GROUP):  # expect: f=Input, out=OutputExisting
        u = pl.slice(f, [T, N], [0, 0])
        out[0:T, :] = u
    return out


@pl.jit
def reduce_unread(
    a: pl.Tensor[[T, N], pl.BF16],
    b: pl.Tensor[[T, N], pl.BF16],
    out: pl.Out[pl.Tensor[[T, N], pl.BF16]],
):
    n = pl.cast(8, pl.INDEX)
    g = pl.create_tensor([T, N], dtype=pl.BF16)
    reduce_rows(b, a, g, n)  # expect: none
    with pl.at(level=pl.Level.CORE_GROUP):  # expect: a=Input, out=OutputExisting
        u = pl.slice(a, [T, N], [0, 0])
        out[0:T, :] = u
    return out
