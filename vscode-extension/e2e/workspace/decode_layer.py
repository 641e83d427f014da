"""One decode step of a small transformer layer: RMSNorm, Q/K/V projections by column tiles, RoPE,
the KV-cache update, attention over the cache blocks, the output projection with the residual, and a
SiLU MLP; a draft head reads the normed state too. A fixture of PyPTO Lens' e2e (its task graph
beside the source); the sizes are small so that every offset is a constant. PyPTO e2d0f78 accepts
it (the oracle, --pipeline) and derives the directions PyPTO Lens shows on its 14 calls."""
import pypto.language as pl

BATCH = 16
HIDDEN = 128
TILE = 32
N_TILES = HIDDEN // TILE
HEAD_DIM = 32
KV_BLOCKS = 4
BLOCK = 32
INTER = 64
EPS = 1e-6


@pl.program
class DecodeLayer:
    @pl.function(type=pl.FunctionType.InCore)
    def rms_norm(
        self,
        x: pl.Tensor[[BATCH, HIDDEN], pl.FP32],
        gamma: pl.Tensor[[1, HIDDEN], pl.FP32],
        out: pl.Out[pl.Tensor[[BATCH, HIDDEN], pl.FP32]],
    ) -> pl.Tensor[[BATCH, HIDDEN], pl.FP32]:
        t = pl.load(x, [0, 0], [BATCH, HIDDEN])
        g = pl.load(gamma, [0, 0], [1, HIDDEN])
        out = pl.store(pl.col_expand_mul(pl.mul(t, t), g), [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def project(
        self,
        a: pl.Tensor[[BATCH, HIDDEN], pl.FP32],
        w: pl.Tensor[[HIDDEN, TILE], pl.FP32],
        out: pl.Out[pl.Tensor[[BATCH, TILE], pl.FP32]],
    ) -> pl.Tensor[[BATCH, TILE], pl.FP32]:
        x = pl.load(a, [0, 0], [BATCH, HIDDEN])
        k = pl.load(w, [0, 0], [HIDDEN, TILE])
        out = pl.store(pl.matmul(x, k), [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def rope(
        self,
        q: pl.InOut[pl.Tensor[[BATCH, TILE], pl.FP32]],
        cos: pl.Tensor[[BATCH, TILE], pl.FP32],
        sin: pl.Tensor[[BATCH, TILE], pl.FP32],
    ) -> pl.Tensor[[BATCH, TILE], pl.FP32]:
        x = pl.load(q, [0, 0], [BATCH, TILE])
        c = pl.load(cos, [0, 0], [BATCH, TILE])
        s = pl.load(sin, [0, 0], [BATCH, TILE])
        q = pl.store(pl.add(pl.mul(x, c), pl.mul(x, s)), [0, 0], q)
        return q

    @pl.function(type=pl.FunctionType.InCore)
    def cache_write(
        self,
        src: pl.Tensor[[BATCH, TILE], pl.FP32],
        cache: pl.Out[pl.Tensor[[KV_BLOCKS * BLOCK, HEAD_DIM], pl.FP32]],
    ) -> pl.Tensor[[KV_BLOCKS * BLOCK, HEAD_DIM], pl.FP32]:
        t = pl.load(src, [0, 0], [BATCH, TILE])
        cache = pl.store(t, [0, 0], cache)
        return cache

    @pl.function(type=pl.FunctionType.InCore)
    def attend(
        self,
        q: pl.Tensor[[BATCH, TILE], pl.FP32],
        k: pl.Tensor[[BLOCK, HEAD_DIM], pl.FP32],
        v: pl.Tensor[[BLOCK, HEAD_DIM], pl.FP32],
        acc: pl.InOut[pl.Tensor[[BATCH, TILE], pl.FP32]],
    ) -> pl.Tensor[[BATCH, TILE], pl.FP32]:
        qt = pl.load(q, [0, 0], [BATCH, TILE])
        kt = pl.load(k, [0, 0], [BLOCK, HEAD_DIM])
        vt = pl.load(v, [0, 0], [BLOCK, HEAD_DIM])
        a = pl.load(acc, [0, 0], [BATCH, TILE])
        p = pl.exp(pl.matmul(qt, pl.transpose(kt, 0, 1)))
        acc = pl.store(pl.add(a, pl.matmul(p, vt)), [0, 0], acc)
        return acc

    @pl.function(type=pl.FunctionType.InCore)
    def out_proj(
        self,
        attn: pl.Tensor[[BATCH, TILE], pl.FP32],
        w: pl.Tensor[[TILE, HIDDEN], pl.FP32],
        residual: pl.Tensor[[BATCH, HIDDEN], pl.FP32],
        out: pl.Out[pl.Tensor[[BATCH, HIDDEN], pl.FP32]],
    ) -> pl.Tensor[[BATCH, HIDDEN], pl.FP32]:
        a = pl.load(attn, [0, 0], [BATCH, TILE])
        k = pl.load(w, [0, 0], [TILE, HIDDEN])
        r = pl.load(residual, [0, 0], [BATCH, HIDDEN])
        out = pl.store(pl.add(r, pl.matmul(a, k)), [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def gate_up(
        self,
        a: pl.Tensor[[BATCH, HIDDEN], pl.FP32],
        w_gate: pl.Tensor[[HIDDEN, INTER], pl.FP32],
        w_up: pl.Tensor[[HIDDEN, INTER], pl.FP32],
        out: pl.Out[pl.Tensor[[BATCH, INTER], pl.FP32]],
    ) -> pl.Tensor[[BATCH, INTER], pl.FP32]:
        x = pl.load(a, [0, 0], [BATCH, HIDDEN])
        g = pl.matmul(x, pl.load(w_gate, [0, 0], [HIDDEN, INTER]))
        u = pl.matmul(x, pl.load(w_up, [0, 0], [HIDDEN, INTER]))
        out = pl.store(pl.mul(pl.mul(g, pl.recip(pl.add(pl.exp(pl.neg(g)), 1.0))), u), [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def down(
        self,
        h: pl.Tensor[[BATCH, INTER], pl.FP32],
        w: pl.Tensor[[INTER, HIDDEN], pl.FP32],
        residual: pl.Tensor[[BATCH, HIDDEN], pl.FP32],
        out: pl.Out[pl.Tensor[[BATCH, HIDDEN], pl.FP32]],
    ) -> pl.Tensor[[BATCH, HIDDEN], pl.FP32]:
        x = pl.load(h, [0, 0], [BATCH, INTER])
        k = pl.load(w, [0, 0], [INTER, HIDDEN])
        r = pl.load(residual, [0, 0], [BATCH, HIDDEN])
        out = pl.store(pl.add(r, pl.matmul(x, k)), [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def decode_layer(
        self,
        hidden: pl.Tensor[[BATCH, HIDDEN], pl.FP32],
        input_gamma: pl.Tensor[[1, HIDDEN], pl.FP32],
        post_gamma: pl.Tensor[[1, HIDDEN], pl.FP32],
        wq: pl.Tensor[[HIDDEN, HIDDEN], pl.FP32],
        wk: pl.Tensor[[HIDDEN, TILE], pl.FP32],
        wv: pl.Tensor[[HIDDEN, TILE], pl.FP32],
        wo: pl.Tensor[[HIDDEN, HIDDEN], pl.FP32],
        w_gate: pl.Tensor[[HIDDEN, INTER], pl.FP32],
        w_up: pl.Tensor[[HIDDEN, INTER], pl.FP32],
        w_down: pl.Tensor[[INTER, HIDDEN], pl.FP32],
        w_draft: pl.Tensor[[HIDDEN, TILE], pl.FP32],
        rope_cos: pl.Tensor[[BATCH, TILE], pl.FP32],
        rope_sin: pl.Tensor[[BATCH, TILE], pl.FP32],
        k_cache: pl.InOut[pl.Tensor[[KV_BLOCKS * BLOCK, HEAD_DIM], pl.FP32]],
        v_cache: pl.InOut[pl.Tensor[[KV_BLOCKS * BLOCK, HEAD_DIM], pl.FP32]],
        draft: pl.Out[pl.Tensor[[BATCH, TILE], pl.FP32]],
        out: pl.Out[pl.Tensor[[BATCH, HIDDEN], pl.FP32]],
    ) -> pl.Tensor[[BATCH, HIDDEN], pl.FP32]:
        normed = pl.create_tensor([BATCH, HIDDEN], dtype=pl.FP32)
        normed = self.rms_norm(hidden, input_gamma, normed)

        q = pl.create_tensor([BATCH, HIDDEN], dtype=pl.FP32)
        for t in pl.range(N_TILES):
            q_tile = q[:, t * TILE:(t + 1) * TILE]
            q_tile = self.project(normed, wq[:, t * TILE:(t + 1) * TILE], q_tile)
            q_tile = self.rope(q_tile, rope_cos, rope_sin)
        k = pl.create_tensor([BATCH, TILE], dtype=pl.FP32)
        k = self.project(normed, wk, k)
        k = self.rope(k, rope_cos, rope_sin)
        v = pl.create_tensor([BATCH, TILE], dtype=pl.FP32)
        v = self.project(normed, wv, v)
        k_cache = self.cache_write(k, k_cache)
        v_cache = self.cache_write(v, v_cache)
        # the draft head's logits: an output of the layer that nothing below reads
        draft = self.project(normed, w_draft, draft)

        attn = pl.create_tensor([BATCH, HIDDEN], dtype=pl.FP32)
        for t in pl.parallel(N_TILES):
            acc = attn[:, t * TILE:(t + 1) * TILE]
            for b in pl.range(KV_BLOCKS):
                acc = self.attend(q[:, t * TILE:(t + 1) * TILE], k_cache[b * BLOCK:(b + 1) * BLOCK, :],
                                  v_cache[b * BLOCK:(b + 1) * BLOCK, :], acc)

        h1 = pl.create_tensor([BATCH, HIDDEN], dtype=pl.FP32)
        h1 = self.out_proj(attn[:, 0:TILE], wo[0:TILE, :], hidden, h1)

        # the MLP's norm reuses the attention norm's buffer: every reader of `normed` above is ordered
        # before it through its outputs, except the draft head
        normed = self.rms_norm(h1, post_gamma, normed)
        mid = pl.create_tensor([BATCH, INTER], dtype=pl.FP32)
        mid = self.gate_up(normed, w_gate, w_up, mid)
        out = self.down(mid, w_down, h1, out)
        return out
