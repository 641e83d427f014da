# Rules: S13 (deps=, allow_early_resolve=, pl.create_tensor(..., manual_dep=True),
# pl.manual_scope() and pl.scope(...) change no direction: every call below is
# derived exactly as it would be without them), C12 (Submits are derived like
# calls), C7 (the prior-writer scan sees through runtime scopes: the call in the
# second manual scope is not the first writer of `stage_buf`).
# verified with the oracle (--pipeline)
import pypto.language as pl


@pl.program
class TaskControls:
    @pl.function(type=pl.FunctionType.InCore)
    def produce(
        self,
        src: pl.Tensor[[16, 256], pl.BF16],
        dst: pl.Out[pl.Tensor[[16, 256], pl.BF16]],
    ) -> pl.Tensor[[16, 256], pl.BF16]:
        t = pl.load(src, [0, 0], [16, 256])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration, auto_scope=False)
    def run(
        self,
        src: pl.Tensor[[16, 256], pl.BF16],
        out: pl.Out[pl.Tensor[[16, 256], pl.BF16]],
    ) -> pl.Tensor[[16, 256], pl.BF16]:
        stage_buf = pl.create_tensor([16, 256], dtype=pl.BF16, manual_dep=True)
        with pl.manual_scope():
            stage_buf, t1 = pl.submit(self.produce, src, stage_buf, allow_early_resolve=True)  # expect: Input, OutputExisting
            out, t2 = pl.submit(self.produce, stage_buf, out, deps=[t1])  # expect: Input, OutputExisting
        with pl.manual_scope():
            stage_buf, t3 = pl.submit(self.produce, out, stage_buf, deps=[t2])  # expect: Input, InOut
        with pl.scope(mode=pl.ScopeMode.AUTO):
            out = self.produce(stage_buf, out)  # expect: Input, InOut
        return out
