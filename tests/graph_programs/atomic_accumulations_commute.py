# Rules: atomic accumulations (runtime.md §4, as PyPTO Lens reads it): two tasks that only
# accumulate into overlapping parts of one buffer (`atomic=pl.AtomicType.Add`) commute, so the
# order the runtime leaves them in does not matter: no hazard, even inside a manual scope where
# nothing orders them (Z4). An atomic write against a plain read is still a hazard: the reader
# may see a partial sum (`peek`: a manual scope orders only through deps=, which it lacks, Z4;
# the whole buffer on both sides, a warning).
# verified with the oracle (--pipeline), PyPTO e2d0f78: it accepts the program and derives the
# directions PyPTO Lens shows, call by call.
import pypto.language as pl

R = 16
C = 64


@pl.jit
def main(  # expect-graph: tasks=2 hazards=1
    x: pl.Tensor[[R, C], pl.FP32],
    acc: pl.InOut[pl.Tensor[[R, C], pl.FP32]],
    out: pl.Out[pl.Tensor[[R, C], pl.FP32]],
):
    with pl.manual_scope():
        for k in pl.range(2):
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="split_k"):  # task: split_k ; expect-hazard: none
                part = pl.slice(x, [R, C], [0, 0])
                acc = pl.assemble(acc, part, [0, 0], atomic=pl.AtomicType.Add)
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="peek"):  # expect-hazard: ManualScopeMissingDep split_k acc warning
            t = pl.slice(acc, [R, C], [0, 0])
            out = pl.assemble(out, pl.add(t, t), [0, 0])
    return out
