"""A small draft model in the style of pypto-lib's (deepseek's dspark drafter): a jit entry that
calls an inline layer helper eight times, which calls the blocks of draft_blocks.py; every scope of
those helpers becomes a task of draft_forward (N1), 150 of them. A fixture of PyPTO Lens' e2e.
PyPTO's pipeline (the oracle, --pipeline) accepts it and derives the directions PyPTO Lens shows on
all 142 of its calls and scope dispatches (the other 8 tasks are task_dummy barriers)."""
import pypto.language as pl

from draft_blocks import HIDDEN, INTER, TOKENS, attention_heads, project, residual_add, rms_rows, rope_rows, swiglu_mlp

LAYERS = 8


@pl.jit.inline
def draft_layer(
    x: pl.Tensor[[TOKENS, HIDDEN], pl.FP32],
    layer: pl.Scalar[pl.INT32],
    cos: pl.Tensor[[TOKENS, HIDDEN], pl.FP32],
    sin: pl.Tensor[[TOKENS, HIDDEN], pl.FP32],
    ln_attn: pl.Tensor[[LAYERS, HIDDEN], pl.FP32],
    ln_mlp: pl.Tensor[[LAYERS, HIDDEN], pl.FP32],
    wq: pl.Tensor[[LAYERS * HIDDEN, HIDDEN], pl.FP32],
    wk: pl.Tensor[[LAYERS * HIDDEN, HIDDEN], pl.FP32],
    wv: pl.Tensor[[LAYERS * HIDDEN, HIDDEN], pl.FP32],
    wo: pl.Tensor[[LAYERS * HIDDEN, HIDDEN], pl.FP32],
    w_gate: pl.Tensor[[LAYERS * HIDDEN, INTER], pl.FP32],
    w_up: pl.Tensor[[LAYERS * HIDDEN, INTER], pl.FP32],
    w_down: pl.Tensor[[LAYERS * INTER, HIDDEN], pl.FP32],
    out: pl.Tensor[[TOKENS, HIDDEN], pl.FP32],
):
    layer_ln_attn = pl.slice(ln_attn, [1, HIDDEN], [layer, 0])
    layer_ln_mlp = pl.slice(ln_mlp, [1, HIDDEN], [layer, 0])
    layer_wq = pl.slice(wq, [HIDDEN, HIDDEN], [layer * HIDDEN, 0])
    layer_wk = pl.slice(wk, [HIDDEN, HIDDEN], [layer * HIDDEN, 0])
    layer_wv = pl.slice(wv, [HIDDEN, HIDDEN], [layer * HIDDEN, 0])
    layer_wo = pl.slice(wo, [HIDDEN, HIDDEN], [layer * HIDDEN, 0])
    layer_w_gate = pl.slice(w_gate, [HIDDEN, INTER], [layer * HIDDEN, 0])
    layer_w_up = pl.slice(w_up, [HIDDEN, INTER], [layer * HIDDEN, 0])
    layer_w_down = pl.slice(w_down, [INTER, HIDDEN], [layer * INTER, 0])

    normed = pl.create_tensor([TOKENS, HIDDEN], dtype=pl.FP32)
    q = pl.create_tensor([TOKENS, HIDDEN], dtype=pl.FP32)
    k = pl.create_tensor([TOKENS, HIDDEN], dtype=pl.FP32)
    v = pl.create_tensor([TOKENS, HIDDEN], dtype=pl.FP32)
    attn = pl.create_tensor([TOKENS, HIDDEN], dtype=pl.FP32)
    attn_proj = pl.create_tensor([TOKENS, HIDDEN], dtype=pl.FP32)
    mid = pl.create_tensor([TOKENS, HIDDEN], dtype=pl.FP32)
    mlp_normed = pl.create_tensor([TOKENS, HIDDEN], dtype=pl.FP32)
    mlp = pl.create_tensor([TOKENS, HIDDEN], dtype=pl.FP32)

    normed = rms_rows(x, layer_ln_attn, normed)
    q = project(normed, layer_wq, q)
    k = project(normed, layer_wk, k)
    v = project(normed, layer_wv, v)
    q = rope_rows(q, cos, sin)
    k = rope_rows(k, cos, sin)
    attn = attention_heads(q, k, v, attn)
    attn_proj = project(attn, layer_wo, attn_proj)
    mid = residual_add(x, attn_proj, mid)
    mlp_normed = rms_rows(mid, layer_ln_mlp, mlp_normed)
    mlp = swiglu_mlp(mlp_normed, layer_w_gate, layer_w_up, layer_w_down, mlp)
    out = residual_add(mid, mlp, out)
    return out


@pl.jit
def draft_forward(
    tokens: pl.Tensor[[TOKENS, HIDDEN], pl.FP32],
    embed_gamma: pl.Tensor[[1, HIDDEN], pl.FP32],
    cos: pl.Tensor[[TOKENS, HIDDEN], pl.FP32],
    sin: pl.Tensor[[TOKENS, HIDDEN], pl.FP32],
    ln_attn: pl.Tensor[[LAYERS, HIDDEN], pl.FP32],
    ln_mlp: pl.Tensor[[LAYERS, HIDDEN], pl.FP32],
    wq: pl.Tensor[[LAYERS * HIDDEN, HIDDEN], pl.FP32],
    wk: pl.Tensor[[LAYERS * HIDDEN, HIDDEN], pl.FP32],
    wv: pl.Tensor[[LAYERS * HIDDEN, HIDDEN], pl.FP32],
    wo: pl.Tensor[[LAYERS * HIDDEN, HIDDEN], pl.FP32],
    w_gate: pl.Tensor[[LAYERS * HIDDEN, INTER], pl.FP32],
    w_up: pl.Tensor[[LAYERS * HIDDEN, INTER], pl.FP32],
    w_down: pl.Tensor[[LAYERS * INTER, HIDDEN], pl.FP32],
    final_gamma: pl.Tensor[[1, HIDDEN], pl.FP32],
    w_head: pl.Tensor[[HIDDEN, HIDDEN], pl.FP32],
    hidden: pl.Out[pl.Tensor[[LAYERS, TOKENS, HIDDEN], pl.FP32]],
    logits: pl.Out[pl.Tensor[[TOKENS, HIDDEN], pl.FP32]],
    probs: pl.Out[pl.Tensor[[TOKENS, HIDDEN], pl.FP32]],
    scaled: pl.Out[pl.Tensor[[TOKENS, HIDDEN], pl.FP32]],
):
    embedded = pl.create_tensor([TOKENS, HIDDEN], dtype=pl.FP32)
    embedded = rms_rows(tokens, embed_gamma, embedded)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="scale_embedding"):
        e = pl.load(embedded, [0, 0], [TOKENS, HIDDEN])
        embedded = pl.store(pl.mul(e, 11.3), [0, 0], embedded)

    h_0 = hidden[0]
    h_0 = draft_layer(embedded, 0, cos, sin, ln_attn, ln_mlp, wq, wk, wv, wo, w_gate, w_up, w_down, h_0)
    h_1 = hidden[1]
    h_1 = draft_layer(h_0, 1, cos, sin, ln_attn, ln_mlp, wq, wk, wv, wo, w_gate, w_up, w_down, h_1)
    h_2 = hidden[2]
    h_2 = draft_layer(h_1, 2, cos, sin, ln_attn, ln_mlp, wq, wk, wv, wo, w_gate, w_up, w_down, h_2)
    h_3 = hidden[3]
    h_3 = draft_layer(h_2, 3, cos, sin, ln_attn, ln_mlp, wq, wk, wv, wo, w_gate, w_up, w_down, h_3)
    h_4 = hidden[4]
    h_4 = draft_layer(h_3, 4, cos, sin, ln_attn, ln_mlp, wq, wk, wv, wo, w_gate, w_up, w_down, h_4)
    h_5 = hidden[5]
    h_5 = draft_layer(h_4, 5, cos, sin, ln_attn, ln_mlp, wq, wk, wv, wo, w_gate, w_up, w_down, h_5)
    h_6 = hidden[6]
    h_6 = draft_layer(h_5, 6, cos, sin, ln_attn, ln_mlp, wq, wk, wv, wo, w_gate, w_up, w_down, h_6)
    h_7 = hidden[7]
    h_7 = draft_layer(h_6, 7, cos, sin, ln_attn, ln_mlp, wq, wk, wv, wo, w_gate, w_up, w_down, h_7)

    final = pl.create_tensor([TOKENS, HIDDEN], dtype=pl.FP32)
    final = rms_rows(h_7, final_gamma, final)
    logits = project(final, w_head, logits)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="logit_softmax"):
        lg = pl.load(logits, [0, 0], [TOKENS, HIDDEN])
        probs = pl.store(pl.exp(lg), [0, 0], probs)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="temperature"):
        pr = pl.load(probs, [0, 0], [TOKENS, HIDDEN])
        scaled = pl.store(pl.mul(pr, 0.7), [0, 0], scaled)
    return scaled
