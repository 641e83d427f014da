# Rules: C12 (pl.spmd_submit and pl.submit are derived exactly like calls,
# over the arguments they carry), S13 (core_num=, sync_start=, deps= and
# pl.manual_scope() change no direction), C9 (first writers), D4 (a slot the
# submit omits is runtime-allocated: no slot, no hint, never Output).
#  * In a manual scope, two pl.spmd_submit tasks each write a different
#    pl.Out parameter of the orchestrator for the first time: Input,
#    OutputExisting for both, whether the task carries sync_start=True or
#    depends on the other through deps=[...].
#  * `split_pair` has an In slot and two Out slots; the pl.submit carries the
#    first two only, the second being the orchestrator's pl.Out parameter
#    `low`: Input, OutputExisting, and nothing for the omitted third slot.
# Reproduces, in our own words, upstream test_derive_call_directions.py cases
# test_spmd_submit_launch_spec_and_deps_survive_with_derived_directions and
# test_submit_caller_allocated_out_plus_runtime_tail_out (with the Out slot
# given the caller's own parameter, as upstream does).
# verified with the oracle (--pipeline)
import pypto.language as pl


@pl.program
class SpmdTasks:
    @pl.function(type=pl.FunctionType.InCore)
    def shift(
        self,
        src: pl.Tensor[[128], pl.FP32],
        dst: pl.Out[pl.Tensor[[128], pl.FP32]],
    ) -> pl.Tensor[[128], pl.FP32]:
        t = pl.load(src, [0], [128])
        dst = pl.store(pl.add(t, 1.0), [0], dst)
        return dst

    @pl.function(type=pl.FunctionType.InCore)
    def split_pair(
        self,
        src: pl.Tensor[[128], pl.FP32],
        lo: pl.Out[pl.Tensor[[128], pl.FP32]],
        hi: pl.Out[pl.Tensor[[128], pl.FP32]],
    ) -> pl.Tensor[[128], pl.FP32]:
        t = pl.load(src, [0], [128])
        lo = pl.store(t, [0], lo)
        hi = pl.store(pl.neg(t), [0], hi)
        return hi

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(
        self,
        src: pl.Tensor[[128], pl.FP32],
        left: pl.Out[pl.Tensor[[128], pl.FP32]],
        right: pl.Out[pl.Tensor[[128], pl.FP32]],
        low: pl.Out[pl.Tensor[[128], pl.FP32]],
    ) -> pl.Tensor[[128], pl.FP32]:
        with pl.manual_scope():
            l2, ta = pl.spmd_submit(self.shift, src, left, core_num=4, sync_start=True)  # expect: src=Input, dst=OutputExisting
            r2, tb = pl.spmd_submit(self.shift, src, right, core_num=4, deps=[ta])  # expect: src=Input, dst=OutputExisting
        high, tc = pl.submit(self.split_pair, src, low)  # expect: src=Input, lo=OutputExisting
        return r2
