"""One decode layer, written in the style of pypto-lib's models for PyPTO Lens' end-to-end test.

Long kernel signatures, calls with many arguments on one line, scopes that capture eight
buffers, multi-line `with pl.at(` headers and a long `pl.spmd(...)` line: what the hints
must fit into VS Code's 43 characters of hint text per line. PyPTO's pipeline accepts it and
derives the directions PyPTO Lens shows (checked with the oracle, --pipeline).
"""
import pypto.language as pl

BATCH = 16
HIDDEN = 64
KV_HIDDEN = 32
KV_ROWS = 1024
K_CHUNK = 16
HIDDEN_BLOCKS = HIDDEN // K_CHUNK
OUT_CORES = 4
OUT_CHUNK = HIDDEN // OUT_CORES


@pl.jit.incore
def rms_norm_rows(
    hidden_states: pl.Tensor[[BATCH, HIDDEN], pl.FP32],
    input_rms_weight: pl.Tensor[[1, HIDDEN], pl.FP32],
    normed_states: pl.Out[pl.Tensor[[BATCH, HIDDEN], pl.FP32]],
):
    rows = pl.load(hidden_states, [0, 0], [BATCH, HIDDEN])
    gamma = pl.load(input_rms_weight, [0, 0], [1, HIDDEN])
    normed_states = pl.store(pl.col_expand_mul(rows, gamma), [0, 0], normed_states)
    return normed_states


@pl.jit.incore
def qkv_projection(
    normed_states: pl.Tensor[[BATCH, HIDDEN], pl.FP32],
    wq: pl.Tensor[[HIDDEN, HIDDEN], pl.FP32],
    wk: pl.Tensor[[HIDDEN, KV_HIDDEN], pl.FP32],
    wv: pl.Tensor[[HIDDEN, KV_HIDDEN], pl.FP32],
    q_proj: pl.Out[pl.Tensor[[BATCH, HIDDEN], pl.FP32]],
    k_proj: pl.Out[pl.Tensor[[BATCH, KV_HIDDEN], pl.FP32]],
    v_proj: pl.Out[pl.Tensor[[BATCH, KV_HIDDEN], pl.FP32]],
):
    x = pl.load(normed_states, [0, 0], [BATCH, HIDDEN])
    q_proj = pl.store(pl.matmul(x, pl.load(wq, [0, 0], [HIDDEN, HIDDEN])), [0, 0], q_proj)
    k_proj = pl.store(pl.matmul(x, pl.load(wk, [0, 0], [HIDDEN, KV_HIDDEN])), [0, 0], k_proj)
    v_proj = pl.store(pl.matmul(x, pl.load(wv, [0, 0], [HIDDEN, KV_HIDDEN])), [0, 0], v_proj)
    return q_proj, k_proj, v_proj


@pl.jit.incore
def accumulate_residual(
    attn_out: pl.Tensor[[BATCH, HIDDEN], pl.FP32],
    residual_scale: pl.Tensor[[1, HIDDEN], pl.FP32],
    hidden_out: pl.InOut[pl.Tensor[[BATCH, HIDDEN], pl.FP32]],
):
    acc = pl.load(hidden_out, [0, 0], [BATCH, HIDDEN])
    scaled = pl.col_expand_mul(pl.load(attn_out, [0, 0], [BATCH, HIDDEN]), pl.load(residual_scale, [0, 0], [1, HIDDEN]))
    hidden_out = pl.store(pl.add(acc, scaled), [0, 0], hidden_out)
    return hidden_out


@pl.jit
def decode_layer(
    hidden_states: pl.Tensor[[BATCH, HIDDEN], pl.FP32],
    input_rms_weight: pl.Tensor[[1, HIDDEN], pl.FP32],
    wq: pl.Tensor[[HIDDEN, HIDDEN], pl.FP32],
    wk: pl.Tensor[[HIDDEN, KV_HIDDEN], pl.FP32],
    wv: pl.Tensor[[HIDDEN, KV_HIDDEN], pl.FP32],
    rope_cos: pl.Tensor[[BATCH, KV_HIDDEN], pl.FP32],
    rope_sin: pl.Tensor[[BATCH, KV_HIDDEN], pl.FP32],
    wo: pl.Tensor[[HIDDEN, HIDDEN], pl.FP32],
    residual_scale: pl.Tensor[[1, HIDDEN], pl.FP32],
    k_cache: pl.InOut[pl.Tensor[[KV_ROWS, KV_HIDDEN], pl.FP32]],
    v_cache: pl.InOut[pl.Tensor[[KV_ROWS, KV_HIDDEN], pl.FP32]],
    hidden_out: pl.InOut[pl.Tensor[[BATCH, HIDDEN], pl.FP32]],
):
    normed_states = pl.create_tensor([BATCH, HIDDEN], dtype=pl.FP32)
    normed_states = rms_norm_rows(hidden_states, input_rms_weight, normed_states)
    q_proj = pl.create_tensor([BATCH, HIDDEN], dtype=pl.FP32)
    k_proj = pl.create_tensor([BATCH, KV_HIDDEN], dtype=pl.FP32)
    v_proj = pl.create_tensor([BATCH, KV_HIDDEN], dtype=pl.FP32)
    q_proj, k_proj, v_proj = qkv_projection(normed_states, wq, wk, wv, q_proj, k_proj, v_proj)

    k_rotated = pl.create_tensor([BATCH, KV_HIDDEN], dtype=pl.FP32)
    with pl.at(
        level=pl.Level.CORE_GROUP,
        name_hint="rope_kv_cache_update",
    ):
        cos = pl.load(rope_cos, [0, 0], [BATCH, KV_HIDDEN])
        sin = pl.load(rope_sin, [0, 0], [BATCH, KV_HIDDEN])
        k_rot = pl.add(pl.mul(pl.load(k_proj, [0, 0], [BATCH, KV_HIDDEN]), cos), sin)
        k_rotated = pl.store(k_rot, [0, 0], k_rotated)
        k_cache = pl.store(k_rot, [0, 0], k_cache)
        v_cache = pl.store(pl.load(v_proj, [0, 0], [BATCH, KV_HIDDEN]), [0, 0], v_cache)
        hidden_out = pl.store(pl.load(q_proj, [0, 0], [BATCH, HIDDEN]), [0, 0], hidden_out)

    attn_out = pl.create_tensor([BATCH, HIDDEN], dtype=pl.FP32)
    with pl.spmd(OUT_CORES, name_hint="attention_output_projection", sync_start=True, allow_early_resolve=True):
        block = pl.tile.get_block_idx()
        o0 = block * OUT_CHUNK
        ctx = pl.slice(hidden_out, [BATCH, HIDDEN], [0, 0])
        bias = pl.slice(k_rotated, [BATCH, OUT_CHUNK], [0, 0])
        proj = pl.matmul(ctx, pl.slice(wo, [HIDDEN, OUT_CHUNK], [0, o0]))
        attn_out = pl.assemble(attn_out, pl.add(proj, bias), [0, o0])

    for step in pl.range(HIDDEN_BLOCKS):
        hidden_out = accumulate_residual(attn_out, residual_scale, hidden_out)
    return hidden_out
