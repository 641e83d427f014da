# Rules: O1 (CORE_GROUP scopes in an Opaque function are outlined; the function
# is promoted to Orchestration), O3 (the loop index is a captured scalar: a
# Scalar slot, not hinted), O4/U6 (`tmp`, computed in the first scope and used
# after it, is a hidden output: no hint), O5 (a capture only stored into is Out,
# one loaded and stored is InOut, one only loaded is In), C5 (a dispatch inside
# a pl.range loop writing an Out capture is R-seq), C9 (a dispatch inside a
# pl.parallel loop is the first writer of `rows`: no C5 for parallel loops),
# C7 (the next scope writes `rows` again), C4 (the last scope's `rows` is InOut
# in its signature).
# verified with the oracle (--pipeline)
import pypto.language as pl


@pl.program
class LoopScopes:
    @pl.function
    def run(self, x: pl.Tensor[[32, 64], pl.FP32]) -> pl.Tensor[[32, 64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):  # expect: x=Input
            tmp = pl.mul(x, 2.0)
        hist = pl.create_tensor([32, 64], dtype=pl.FP32)
        for i in pl.range(4):
            with pl.at(level=pl.Level.CORE_GROUP):  # expect: tmp=Input, hist=InOut
                b = pl.load(tmp, [i * 8, 0], [8, 64])
                hist = pl.store(b, [i * 8, 0], hist)
        rows = pl.create_tensor([32, 64], dtype=pl.FP32)
        for j in pl.parallel(4):
            with pl.at(level=pl.Level.CORE_GROUP):  # expect: x=Input, rows=OutputExisting
                t = pl.load(x, [j * 8, 0], [8, 64])
                rows = pl.store(pl.exp(t), [j * 8, 0], rows)
        with pl.at(level=pl.Level.CORE_GROUP):  # expect: hist=Input, rows=InOut
            u = pl.load(hist, [0, 0], [32, 64])
            rows = pl.store(u, [0, 0], rows)
        with pl.at(level=pl.Level.CORE_GROUP):  # expect: rows=InOut
            v = pl.load(rows, [0, 0], [32, 64])
            rows = pl.store(pl.exp(v), [0, 0], rows)
        return rows
