# Rules: S7/S8, O3 - a scope passes the scalars it uses by value (Scalar, no
# hint): values computed in Python from scalars (pl.min of an int and a
# parameter, pl.cast of a read element), arithmetic with a module constant we
# cannot evaluate, the block index and a tensor dimension. Only the buffers get
# directions.
# verified with the oracle (--pipeline): a=Input, out=OutputExisting, the rest Scalar
import pypto.language as pl


class _Sizes:
    rows = 16


SIZES = _Sizes()
ROWS = SIZES.rows


@pl.program
class ScalarCaptures:
    @pl.function(type=pl.FunctionType.Orchestration)
    def run(
        self,
        a: pl.Tensor[[64, 128], pl.FP32],
        idx: pl.Tensor[[4], pl.INT32],
        n: pl.Scalar[pl.INDEX],
        out: pl.Out[pl.Tensor[[64, 128], pl.FP32]],
    ) -> pl.Tensor[[64, 128], pl.FP32]:
        valid = pl.min(16, n)
        first = pl.cast(pl.tensor.read(idx, [0]), pl.INDEX)
        offset = n * ROWS
        rows = pl.tensor.dim(a, 0) // 4
        with pl.at(level=pl.Level.CORE_GROUP):  # expect: a=Input, out=OutputExisting
            s1 = pl.slice(a, [16, 128], [0, 0], valid_shape=[valid, 128])
            s2 = pl.slice(a, [16, 128], [first, 0], valid_shape=[rows, 128])
            s3 = pl.slice(a, [16, 128], [offset, 0])
            out = pl.assemble(out, s1, [0, 0])
            out = pl.assemble(out, s2, [16, 0])
            out = pl.assemble(out, s3, [32, 0])
        return out
