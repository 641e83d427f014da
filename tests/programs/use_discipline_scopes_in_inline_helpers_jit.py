# Rules: InOutUseDiscipline (oracle-differences, other facts) is verified at
# PyPTO's pipeline input, where neither inline helpers are expanded (N1) nor
# scopes outlined (O): a scope in a loop that writes a buffer the loop does not
# carry (a signal written with pl.write, a subscript store into an Out
# parameter), in the program or in a @pl.jit.inline helper's text, read again
# in the next iteration or after the loop, is no stale read. The shape of
# pypto-lib's wave barriers (deepseek_v4_flash_mtp prefill_cp_fwd_draft.py).
# O2: a scope's name_hint names its outlined function; the Spmd wrapper of the
# kernel outlined from a `with pl.spmd(...)` body reading the block index is
# `<name_hint>_spmd`. O5, C5 (InOut in the loop), C9.
# verified with the oracle (--pipeline): accepted, and these directions
import pypto.language as pl


@pl.jit.inline
def _wave_barrier(
    wave_out: pl.Tensor[[16, 64], pl.FP32],
    stage_done: pl.Tensor[[4, 8], pl.INT32],
    stage_token: pl.Out[pl.Tensor[[1, 8], pl.FP32]],
):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="wave_stage_barrier"):  # expect: Input, InOut, InOut
        _anchor = pl.read(wave_out, [0, 0])
        for peer in pl.range(4):
            pl.write(stage_done, [peer, 0], pl.cast(1, pl.INT32))
        stage_token[0:1, 0:8] = pl.slice(wave_out, [1, 8], [0, 0])
    return stage_token


@pl.jit
def fwd(
    x: pl.Tensor[[16, 64], pl.FP32],
    stage_done: pl.Tensor[[4, 8], pl.INT32],
    completion_anchor: pl.Out[pl.Tensor[[1, 8], pl.FP32]],
):
    stage_token = pl.create_tensor([1, 8], dtype=pl.FP32)
    for wave in pl.range(4):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="wave_signal"):  # expect: stage_done=InOut
            for peer in pl.range(4):
                pl.write(stage_done, [peer, 1], pl.cast(wave, pl.INT32))
        stage_token = _wave_barrier(x, stage_done, stage_token)
    with pl.spmd(1, name_hint="final_completion_anchor"):  # expect: Input, Input, OutputExisting
        _block_idx = pl.tile.get_block_idx()
        _anchor = pl.read(stage_token, [0, 0])
        completion_anchor[0:1, 0:8] = pl.slice(x, [1, 8], [0, 0])
    return completion_anchor
