# Rules: S7 - only Tensor, DistributedTensor and tuples of them are tensor
# arguments; an opaque handle such as a communication context (pld.CommCtx) is
# passed by value, so its slot is Scalar (no hint), whether the caller's
# variable is a parameter or comes from pld.get_comm_ctx. D3 - a pre-filled
# vector must give such a slot Scalar: `input` on it is rejected.
# verified with the oracle (--pipeline): the first two calls derive
# [Input, Scalar]; the pre-filled one is rejected by CallDirectionsResolved.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Handles:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def wait_on(self, flag: pld.DistributedTensor[[8], pl.INT32], ctx: pld.CommCtx):
        pld.system.wait(flag, offsets=[0], expected=1, cmp=pld.WaitCmp.Ge)

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def run(self, flag: pl.InOut[pld.DistributedTensor[[8], pl.INT32]], ctx: pld.CommCtx):
        self.wait_on(flag, ctx)  # expect: Input
        own = pld.get_comm_ctx(flag)
        self.wait_on(flag, own)  # expect: Input
        self.wait_on(flag, ctx, attrs={"arg_directions": [pl.adir.input, pl.adir.input]})  # expect: Input, Input  # expect-error: PrefilledDirections
