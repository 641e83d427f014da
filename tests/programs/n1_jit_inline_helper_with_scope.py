# Rules: N1 (a @pl.jit.inline helper is expanded at each call; the pl.at scope
# inside it is outlined once per expansion and its header names the helper's own
# variables), O5 (the store target is Out, the other capture In), H3 (the header
# shows the strongest of the expansions: the second expansion writes `mid`,
# which the first expansion's scope already wrote, so InOut by C7), C9 (the
# first expansion is the first writer of `mid`), S5 (the helper calls themselves
# carry no directions).
# verified with the oracle (--pipeline)
import pypto.language as pl

N = 256


@pl.jit.inline
def square_into(src: pl.Tensor[[N], pl.FP32], dst: pl.Tensor[[N], pl.FP32]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="sq"):  # expect: src=Input, dst=InOut
        t = pl.load(src, [0], [N])
        pl.store(pl.mul(t, t), [0], dst)
    return dst


@pl.jit
def fourth_power(x: pl.Tensor[[N], pl.FP32], y: pl.Out[pl.Tensor[[N], pl.FP32]]):
    mid = pl.create_tensor([N], dtype=pl.FP32)
    mid = square_into(x, mid)  # expect: none
    mid = square_into(x, mid)  # expect: none
    y = square_into(mid, y)  # expect: none
    return y
