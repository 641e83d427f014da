# Rules: S4 (inside a @pl.program, a bare call `f(...)` of a module-level
# @pl.function is a program call too: PyPTO merges the standalone function into
# the program as an external function), C4/C9/C7, U1/U4 (the standalone kernel
# is InCore and declares `out` pl.Out; `peek` declares `dst` In and stores into
# it, so it is upgraded to Out: OutputExisting).
# Directions verified with the oracle (--pipeline). Warning: spec §13 (no
# oracle) - `peek` is an InCore function writing a parameter declared In.
import pypto.language as pl


@pl.function(type=pl.FunctionType.InCore)
def widen(x: pl.Tensor[[4, 256], pl.FP32], out: pl.Out[pl.Tensor[[4, 256], pl.FP32]]) -> pl.Tensor[[4, 256], pl.FP32]:
    t = pl.load(x, [0, 0], [4, 256])
    out = pl.store(pl.add(t, t), [0, 0], out)
    return out


@pl.function(type=pl.FunctionType.InCore)
def peek(x: pl.Tensor[[4, 256], pl.FP32], dst: pl.Tensor[[4, 256], pl.FP32]) -> pl.Tensor[[4, 256], pl.FP32]:
    t = pl.load(x, [0, 0], [4, 256])
    dst = pl.store(t, [0, 0], dst)  # expect-warning: InParamWritten
    return dst


@pl.program
class UsesStandalone:
    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[4, 256], pl.FP32]) -> pl.Tensor[[4, 256], pl.FP32]:
        a = pl.create_tensor([4, 256], dtype=pl.FP32)
        a = widen(x, a)  # expect: Input, OutputExisting
        a = widen(x, a)  # expect: Input, InOut
        b = pl.create_tensor([4, 256], dtype=pl.FP32)
        b = peek(a, b)  # expect: Input, OutputExisting
        return b
