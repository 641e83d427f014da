# Rules: IW3 (a DistributedTensor parameter declared In is a candidate), IW4
# with registry effects: pld.tensor.put writes its destination window (Write),
# pld.system.notify writes its signal slot whether op is AtomicAdd (ReadWrite)
# or Set (Write); pld.system.wait only reads its signal (declared no writes):
# not reported; a signal declared pl.InOut is never reported.
# spec §13 (no oracle); the program parses (oracle --pass-only).
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Mailbox:
    @pl.function(type=pl.FunctionType.InCore)
    def push(
        self,
        window: pld.DistributedTensor[[4, 64], pl.FP32],
        ready: pld.DistributedTensor[[4, 1], pl.INT32],
        src: pl.Tensor[[4, 64], pl.FP32],
        peer: pl.Scalar[pl.INT32],
    ):
        pld.tensor.put(window, peer, src)  # expect-warning: InParamWritten
        pld.system.notify(ready, peer, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)  # expect-warning: InParamWritten

    @pl.function(type=pl.FunctionType.InCore)
    def pull(
        self,
        ready: pld.DistributedTensor[[4, 1], pl.INT32],
        ack: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32]],
        peer: pl.Scalar[pl.INT32],
    ):
        pld.system.wait(ready, [0, 0], 1, cmp=pld.WaitCmp.Ge)
        pld.system.notify(ack, peer, [0, 0], 1, op=pld.NotifyOp.Set)
