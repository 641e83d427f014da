# Rules: W1-W5 (wrapper materialisation, to a least fixed point).
#  * Group over Group over kernel: `outer_grp` and `inner_grp` declare every
#    parameter bare (In); `inner_grp` forwards `o` to `emit`'s Out slot, so its
#    `o` becomes Out, and then `outer_grp`'s `o` too (W4: the chain is
#    followed to the top). The orchestrator's call of `outer_grp` is Input,
#    OutputExisting.
#  * Mutual recursion: `ping` forwards `buf` to `pong` and then to `emit`'s
#    Out slot; `pong` forwards `buf` back to `ping`. Whatever wrapper is
#    visited first, both end with `buf` Out (W4: least fixed point above the
#    declarations, order independent). Inside `ping`, the call of `pong` is the
#    first writer of `buf` (OutputExisting) and the `emit` call after it is C7
#    (InOut); `pong`'s call of `ping` and the orchestrator's call of `ping` are
#    first writers (OutputExisting).
# Reproduces, in our own words, upstream test_derive_call_directions.py cases
# test_nested_group_chain_propagates_out and
# test_mutually_recursive_wrappers_reach_a_fixed_point.
# verified with the oracle (--pipeline)
import pypto.language as pl


@pl.program
class Wrappers:
    @pl.function(type=pl.FunctionType.InCore)
    def emit(
        self,
        src: pl.Tensor[[2, 512], pl.FP32],
        o: pl.Out[pl.Tensor[[2, 512], pl.FP32]],
    ) -> pl.Tensor[[2, 512], pl.FP32]:
        t = pl.load(src, [0, 0], [2, 512])
        o = pl.store(pl.exp(t), [0, 0], o)
        return o

    @pl.function(type=pl.FunctionType.Group)
    def inner_grp(
        self,
        src: pl.Tensor[[2, 512], pl.FP32],
        o: pl.Tensor[[2, 512], pl.FP32],
    ) -> pl.Tensor[[2, 512], pl.FP32]:
        r = self.emit(src, o)  # expect: src=Input, o=OutputExisting
        return r

    @pl.function(type=pl.FunctionType.Group)
    def outer_grp(
        self,
        src: pl.Tensor[[2, 512], pl.FP32],
        o: pl.Tensor[[2, 512], pl.FP32],
    ) -> pl.Tensor[[2, 512], pl.FP32]:
        r = self.inner_grp(src, o)  # expect: src=Input, o=OutputExisting
        return r

    @pl.function(type=pl.FunctionType.Group)
    def ping(
        self,
        src: pl.Tensor[[2, 512], pl.FP32],
        buf: pl.Tensor[[2, 512], pl.FP32],
    ) -> pl.Tensor[[2, 512], pl.FP32]:
        back = self.pong(src, buf)  # expect: src=Input, buf=OutputExisting
        r = self.emit(src, buf)  # expect: src=Input, o=InOut
        return r

    @pl.function(type=pl.FunctionType.Group)
    def pong(
        self,
        src: pl.Tensor[[2, 512], pl.FP32],
        buf: pl.Tensor[[2, 512], pl.FP32],
    ) -> pl.Tensor[[2, 512], pl.FP32]:
        r = self.ping(src, buf)  # expect: src=Input, buf=OutputExisting
        return r

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(
        self,
        src: pl.Tensor[[2, 512], pl.FP32],
        dst: pl.Out[pl.Tensor[[2, 512], pl.FP32]],
        other: pl.Out[pl.Tensor[[2, 512], pl.FP32]],
    ) -> pl.Tensor[[2, 512], pl.FP32]:
        a = self.outer_grp(src, dst)  # expect: src=Input, o=OutputExisting
        b = self.ping(src, other)  # expect: src=Input, buf=OutputExisting
        return b
