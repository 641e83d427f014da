# Realistic (pypto-lib @pl.program style): one decode step. An Opaque
# orchestrator projects the query with a matmul in a CORE_GROUP scope, appends
# the new key to a KV cache through an InCore kernel with a pl.InOut cache
# parameter, scores every head in a `for h in pl.spmd(...)` loop, and runs a
# per-block softmax in a manual scope over a pl.parallel loop of submits.
# Rules: O1 (scopes outlined, the orchestrator promoted), O5 (q written only:
# Out; the cache is InOut in the kernel's signature, and only read by the
# spmd body: In), C4 (InOut slot), C9 (scores first written by the spmd; probs,
# the orchestrator's pl.Out parameter, first written by the block tasks in a
# pl.parallel loop: no C5), H3 (the matmul scope is a mixed kernel that PyPTO
# splits into AIC + AIV under a Group with an extra pipe buffer: the header
# shows the parent's dispatch and no hint for the IR-only buffer; the spmd loop
# form: the parent's dispatch is on the `for` line), S13 (manual scope, deps).
# Non-ASCII and an emoji before the arguments of the submit line.
# verified with the oracle (--pipeline)
import pypto.language as pl

H = 4
HD = 64
S = 128
BLK = 32


@pl.program
class DecodeStep:
    @pl.function(type=pl.FunctionType.InCore)
    def append_kv(
        self,
        k_new: pl.Tensor[[1, HD], pl.FP32],
        cache: pl.InOut[pl.Tensor[[S, HD], pl.FP32]],
        pos: pl.Scalar[pl.INDEX],
    ) -> pl.Tensor[[S, HD], pl.FP32]:
        t = pl.load(k_new, [0, 0], [1, HD])
        cache = pl.store(t, [pos, 0], cache)
        return cache

    @pl.function(type=pl.FunctionType.InCore)
    def softmax_block(
        self,
        scores: pl.Tensor[[H, S], pl.FP32],
        probs: pl.Out[pl.Tensor[[H, S], pl.FP32]],
        b: pl.Scalar[pl.INDEX],
    ) -> pl.Tensor[[H, S], pl.FP32]:
        t = pl.load(scores, [0, b * BLK], [H, BLK])
        probs = pl.store(pl.exp(t), [0, b * BLK], probs)
        return probs

    @pl.function
    def decode(
        self,
        x: pl.Tensor[[1, HD], pl.FP32],
        wq: pl.Tensor[[HD, HD], pl.FP32],
        k_cache: pl.InOut[pl.Tensor[[S, HD], pl.FP32]],
        probs: pl.Out[pl.Tensor[[H, S], pl.FP32]],
        pos: pl.Scalar[pl.INDEX],
    ) -> pl.Tensor[[H, S], pl.FP32]:
        q = pl.create_tensor([1, HD], dtype=pl.FP32)
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="q_proj") as q_tid:  # expect: x=Input, wq=Input, q=OutputExisting
            xa = pl.load(x, [0, 0], [1, HD], target_memory=pl.MemorySpace.Mat)
            wa = pl.load(wq, [0, 0], [HD, HD], target_memory=pl.MemorySpace.Mat)
            xl = pl.move(xa, target_memory=pl.MemorySpace.Left)
            wr = pl.move(wa, target_memory=pl.MemorySpace.Right)
            acc = pl.matmul(xl, wr)
            q = pl.store(pl.mul(acc, 0.125), [0, 0], q)
        k_cache = self.append_kv(x, k_cache, pos)  # expect: Input, InOut
        scores = pl.create_tensor([H, S], dtype=pl.FP32)
        for h in pl.spmd(H, name_hint="score"):  # expect: q=Input, k_cache=Input, scores=OutputExisting
            qa = pl.load(q, [0, 0], [1, HD])
            ka = pl.load(k_cache, [0, 0], [1, HD])
            scores = pl.store(pl.mul(qa, ka), [h, 0], scores)
        with pl.manual_scope():
            for b in pl.parallel(S // BLK):
                "块 ✅"; probs, done = pl.submit(self.softmax_block, scores, probs, b, deps=[q_tid])  # expect: Input, OutputExisting
        return probs
