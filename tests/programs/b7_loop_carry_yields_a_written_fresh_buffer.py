# Rules: B7 (a loop result is rooted at the buffers its carried value may hold
# on exit), spec §15 corner case 10, C5, C6, C7. Each loop below starts its
# carried value from `start` but, in every iteration, fills a buffer it has
# just created and yields that buffer:
#  * pl.range with a constant trip count (> 0): the result can only be the
#    buffer yielded by the last iteration, which the loop body wrote; so the
#    call after the loop is not its first writer: C7 (InOut). Inside the loop
#    the call is InOut by C5.
#  * pl.while_ with pl.cond: the result joins `start` (zero iterations) and the
#    yielded buffer: ambiguous, C6 (InOut), whatever C7 says.
#  * a pl.range body that yields one of two freshly filled buffers through an
#    `if`: the result may be either buffer: C6 (InOut).
# Reproduces, in our own words, upstream test_derive_call_directions.py cases
# test_fresh_rebind_for_carry_tracks_yielded_buffer,
# test_fresh_rebind_while_carry_tracks_yielded_buffer and
# test_if_result_rebind_in_loop_is_conservative.
# verified with the oracle (--pipeline)
import pypto.language as pl


@pl.program
class CarriedFresh:
    @pl.function(type=pl.FunctionType.InCore)
    def stamp(
        self,
        src: pl.Tensor[[32, 16], pl.FP16],
        dst: pl.Out[pl.Tensor[[32, 16], pl.FP16]],
    ) -> pl.Tensor[[32, 16], pl.FP16]:
        t = pl.load(src, [0, 0], [32, 16])
        dst = pl.store(pl.neg(t), [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(
        self,
        src: pl.Tensor[[32, 16], pl.FP16],
        more: pl.Scalar[pl.BOOL],
    ) -> pl.Tensor[[32, 16], pl.FP16]:
        start = pl.create_tensor([32, 16], dtype=pl.FP16)
        for k, (held,) in pl.range(0, 3, 1, init_values=(start,)):
            page = pl.create_tensor([32, 16], dtype=pl.FP16)
            page = self.stamp(src, page)  # expect: src=Input, dst=InOut
            (held_out,) = pl.yield_(page)
        tail = self.stamp(src, held_out)  # expect: src=Input, dst=InOut

        first = pl.create_tensor([32, 16], dtype=pl.FP16)
        for (slot,) in pl.while_(init_values=(first,)):
            pl.cond(more)
            sheet = pl.create_tensor([32, 16], dtype=pl.FP16)
            sheet = self.stamp(src, sheet)  # expect: src=Input, dst=InOut
            (slot_out,) = pl.yield_(sheet)
        last = self.stamp(tail, slot_out)  # expect: src=Input, dst=InOut

        base = pl.create_tensor([32, 16], dtype=pl.FP16)
        for j, (pick,) in pl.range(0, 2, 1, init_values=(base,)):
            even = pl.create_tensor([32, 16], dtype=pl.FP16)
            odd = pl.create_tensor([32, 16], dtype=pl.FP16)
            even = self.stamp(src, even)  # expect: src=Input, dst=InOut
            odd = self.stamp(src, odd)  # expect: src=Input, dst=InOut
            if j == 1:
                chosen = pl.yield_(odd)
            else:
                chosen = pl.yield_(even)
            (pick_out,) = pl.yield_(chosen)
        merged = self.stamp(last, pick_out)  # expect: src=Input, dst=InOut
        return merged
