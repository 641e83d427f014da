"""The blocks of a small draft model, as inline helpers in the style of pypto-lib's models: each one's
scopes become tasks of the jit entry that calls it (N1). A fixture of PyPTO Lens' e2e: the sizes are
small so that every offset is a constant.
PyPTO's pipeline accepts them, expanded into draft_model.py's entry."""
import pypto.language as pl

TOKENS = 16
HIDDEN = 128
TILE = 32
N_TILES = HIDDEN // TILE
HEADS = 4
HEAD_DIM = 32
INTER = 64
EPS = 1e-6


@pl.jit.inline
def rms_rows(
    x: pl.Tensor[[TOKENS, HIDDEN], pl.FP32],
    gamma: pl.Tensor[[1, HIDDEN], pl.FP32],
    out: pl.Tensor[[TOKENS, HIDDEN], pl.FP32],
):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="rms_rows"):
        t = pl.load(x, [0, 0], [TOKENS, HIDDEN])
        g = pl.load(gamma, [0, 0], [1, HIDDEN])
        out = pl.store(pl.col_expand_mul(pl.mul(t, pl.rsqrt(pl.add(pl.mul(t, t), EPS))), g), [0, 0], out)
    return out


@pl.jit.inline
def project(
    x: pl.Tensor[[TOKENS, HIDDEN], pl.FP32],
    w: pl.Tensor[[HIDDEN, HIDDEN], pl.FP32],
    out: pl.Tensor[[TOKENS, HIDDEN], pl.FP32],
):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="project"):
        a = pl.load(x, [0, 0], [TOKENS, HIDDEN])
        k = pl.load(w, [0, 0], [HIDDEN, HIDDEN])
        out = pl.store(pl.matmul(a, k), [0, 0], out)
    return out


@pl.jit.inline
def rope_rows(
    q: pl.Tensor[[TOKENS, HIDDEN], pl.FP32],
    cos: pl.Tensor[[TOKENS, HIDDEN], pl.FP32],
    sin: pl.Tensor[[TOKENS, HIDDEN], pl.FP32],
):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="rope"):
        x = pl.load(q, [0, 0], [TOKENS, HIDDEN])
        c = pl.load(cos, [0, 0], [TOKENS, HIDDEN])
        s = pl.load(sin, [0, 0], [TOKENS, HIDDEN])
        q = pl.store(pl.add(pl.mul(x, c), pl.mul(x, s)), [0, 0], q)
    return q


@pl.jit.inline
def attention_heads(
    q: pl.Tensor[[TOKENS, HIDDEN], pl.FP32],
    k: pl.Tensor[[TOKENS, HIDDEN], pl.FP32],
    v: pl.Tensor[[TOKENS, HIDDEN], pl.FP32],
    out: pl.Tensor[[TOKENS, HIDDEN], pl.FP32],
):
    scores = pl.create_tensor([HEADS * TOKENS, TOKENS], dtype=pl.FP32)
    probs = pl.create_tensor([HEADS * TOKENS, TOKENS], dtype=pl.FP32)
    start = pl.system.task_dummy(deps=[])
    for h in pl.range(HEADS):
        q_h = pl.slice(q, [TOKENS, HEAD_DIM], [0, h * HEAD_DIM])
        k_h = pl.slice(k, [TOKENS, HEAD_DIM], [0, h * HEAD_DIM])
        v_h = pl.slice(v, [TOKENS, HEAD_DIM], [0, h * HEAD_DIM])
        scores_h = pl.slice(scores, [TOKENS, TOKENS], [h * TOKENS, 0])
        probs_h = pl.slice(probs, [TOKENS, TOKENS], [h * TOKENS, 0])
        out_h = pl.slice(out, [TOKENS, HEAD_DIM], [0, h * HEAD_DIM])
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="scores"):
            qh = pl.load(q_h, [0, 0], [TOKENS, HEAD_DIM])
            kh = pl.load(k_h, [0, 0], [TOKENS, HEAD_DIM])
            scores_h = pl.store(pl.matmul(qh, pl.transpose(kh, 0, 1)), [0, 0], scores_h)
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="softmax"):
            sh = pl.load(scores_h, [0, 0], [TOKENS, TOKENS])
            probs_h = pl.store(pl.exp(pl.mul(sh, 0.17)), [0, 0], probs_h)
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="context"):
            ph = pl.load(probs_h, [0, 0], [TOKENS, TOKENS])
            vh = pl.load(v_h, [0, 0], [TOKENS, HEAD_DIM])
            out_h = pl.store(pl.matmul(ph, vh), [0, 0], out_h)
    return out


@pl.jit.inline
def residual_add(
    x: pl.Tensor[[TOKENS, HIDDEN], pl.FP32],
    delta: pl.Tensor[[TOKENS, HIDDEN], pl.FP32],
    out: pl.Tensor[[TOKENS, HIDDEN], pl.FP32],
):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="residual"):
        a = pl.load(x, [0, 0], [TOKENS, HIDDEN])
        b = pl.load(delta, [0, 0], [TOKENS, HIDDEN])
        out = pl.store(pl.add(a, b), [0, 0], out)
    return out


@pl.jit.inline
def swiglu_mlp(
    x: pl.Tensor[[TOKENS, HIDDEN], pl.FP32],
    w_gate: pl.Tensor[[HIDDEN, INTER], pl.FP32],
    w_up: pl.Tensor[[HIDDEN, INTER], pl.FP32],
    w_down: pl.Tensor[[INTER, HIDDEN], pl.FP32],
    out: pl.Tensor[[TOKENS, HIDDEN], pl.FP32],
):
    gate = pl.create_tensor([TOKENS, INTER], dtype=pl.FP32)
    up = pl.create_tensor([TOKENS, INTER], dtype=pl.FP32)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="gate_proj"):
        a = pl.load(x, [0, 0], [TOKENS, HIDDEN])
        gate = pl.store(pl.matmul(a, pl.load(w_gate, [0, 0], [HIDDEN, INTER])), [0, 0], gate)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="up_proj"):
        b = pl.load(x, [0, 0], [TOKENS, HIDDEN])
        up = pl.store(pl.matmul(b, pl.load(w_up, [0, 0], [HIDDEN, INTER])), [0, 0], up)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="swiglu"):
        g = pl.load(gate, [0, 0], [TOKENS, INTER])
        u = pl.load(up, [0, 0], [TOKENS, INTER])
        gate = pl.store(pl.mul(pl.mul(g, pl.recip(pl.add(pl.exp(pl.neg(g)), 1.0))), u), [0, 0], gate)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="down_proj"):
        h = pl.load(gate, [0, 0], [TOKENS, INTER])
        out = pl.store(pl.matmul(h, pl.load(w_down, [0, 0], [INTER, HIDDEN])), [0, 0], out)
    return out
