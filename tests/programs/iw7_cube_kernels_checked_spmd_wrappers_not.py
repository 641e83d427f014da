# Rules: IW7 (which functions are checked: InCore, AIC, AIV and plain Opaque
# functions; Group and Spmd wrappers are skipped, their lag behind the inner
# kernel is legitimate until W materialises them):
#  * `cube_out`, an AIC function, stores the matmul result into `c`, declared
#    In: reported (tile.store's destination is a write, IW4).
#  * `fan_out`, an Spmd wrapper, forwards its bare `dst` to the kernel's Out
#    slot: not reported; W makes it Out, so the orchestrator's call shows
#    OutputExisting.
# Directions: U1 upgrades InCore functions only, so `cube_out.c` stays In and
# its call is Input, Input, Input - the silent missing dependency the warning
# is there for.
# Reproduces, in our own words, the AIC and Spmd applicability rules of spec
# §13 IW7 (iw7_functions_never_checked.py covers Orchestration, promoted
# Opaque, Group and Inline functions, u1_aiv_kernel_is_not_upgraded.py AIV).
# Directions verified with the oracle (--pipeline); the warning is spec §13
# (no oracle).
import pypto.language as pl


@pl.program
class CubeAndSpmd:
    @pl.function(type=pl.FunctionType.AIC)
    def cube_out(
        self,
        a: pl.Tensor[[16, 16], pl.FP16],
        b: pl.Tensor[[16, 16], pl.FP16],
        c: pl.Tensor[[16, 16], pl.FP32],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        ta = pl.load(a, [0, 0], [16, 16], target_memory=pl.Mem.Mat)
        tb = pl.load(b, [0, 0], [16, 16], target_memory=pl.Mem.Mat)
        la = pl.move(ta, target_memory=pl.Mem.Left)
        rb = pl.move(tb, target_memory=pl.Mem.Right)
        acc = pl.matmul(la, rb)
        c = pl.store(acc, [0, 0], c)  # expect-warning: InParamWritten
        return c

    @pl.function(type=pl.FunctionType.InCore)
    def copy_rows(
        self,
        src: pl.Tensor[[16, 16], pl.FP32],
        dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 16])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Spmd)
    def fan_out(
        self,
        src: pl.Tensor[[16, 16], pl.FP32],
        dst: pl.Tensor[[16, 16], pl.FP32],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        r = self.copy_rows(src, dst)  # expect: src=Input, dst=OutputExisting
        return r

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(
        self,
        a: pl.Tensor[[16, 16], pl.FP16],
        b: pl.Tensor[[16, 16], pl.FP16],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        prod = pl.create_tensor([16, 16], dtype=pl.FP32)
        prod = self.cube_out(a, b, prod)  # expect: a=Input, b=Input, c=Input
        spread = pl.create_tensor([16, 16], dtype=pl.FP32)
        spread = self.fan_out(prod, spread)  # expect: src=Input, dst=OutputExisting
        return spread
