# Rules: C2/C5 (R-seq: an Out slot under any sequential loop of the same
# function is InOut, unconditionally):
#  * a plain Python `while` loop counts like pl.while_: the only writer of
#    `ring`, created before the loop, is InOut;
#  * the root does not matter: `result`, the function's own pl.Out parameter
#    (an external buffer, not created here, C8 does not apply to Out), written
#    by nothing else, is InOut inside a pl.range loop;
#  * no "disjoint offsets" exception: `put_row` stores at an offset taken from
#    its scalar parameter and each iteration passes a different row, yet the
#    Out slot is still InOut (the scalar slot is Scalar, not hinted).
# Outside the loops the same kind of call is a first writer (C9): `spare`.
# Reproduces, in our own words, upstream test_derive_call_directions.py cases
# test_while_keeps_inout, test_out_param_external_buffer_in_seq_loop_promoted
# and test_out_param_variable_offset_store_in_seq_loop_promoted.
# verified with the oracle (--pipeline)
import pypto.language as pl


@pl.program
class SeqWrites:
    @pl.function(type=pl.FunctionType.InCore)
    def halve(
        self,
        src: pl.Tensor[[8, 128], pl.FP32],
        dst: pl.Out[pl.Tensor[[8, 128], pl.FP32]],
    ) -> pl.Tensor[[8, 128], pl.FP32]:
        t = pl.load(src, [0, 0], [8, 128])
        dst = pl.store(pl.mul(t, 0.5), [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.InCore)
    def put_row(
        self,
        src: pl.Tensor[[8, 128], pl.FP32],
        row: pl.Scalar[pl.INDEX],
        dst: pl.Out[pl.Tensor[[64, 128], pl.FP32]],
    ) -> pl.Tensor[[64, 128], pl.FP32]:
        t = pl.load(src, [0, 0], [8, 128])
        dst = pl.store(t, [row, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(
        self,
        src: pl.Tensor[[8, 128], pl.FP32],
        limit: pl.Scalar[pl.INDEX],
        result: pl.Out[pl.Tensor[[8, 128], pl.FP32]],
        table: pl.Out[pl.Tensor[[64, 128], pl.FP32]],
    ) -> pl.Tensor[[8, 128], pl.FP32]:
        ring = pl.create_tensor([8, 128], dtype=pl.FP32)
        step = 0
        while step < limit:
            ring = self.halve(src, ring)  # expect: src=Input, dst=InOut
            step = step + 1
        for r in pl.range(3):
            result = self.halve(ring, result)  # expect: src=Input, dst=InOut
        for b in pl.range(8):
            table = self.put_row(src, b * 8, table)  # expect: src=Input, dst=InOut
        spare = pl.create_tensor([8, 128], dtype=pl.FP32)
        spare = self.halve(result, spare)  # expect: src=Input, dst=OutputExisting
        return spare
