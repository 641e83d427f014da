# Rules: IW5 (lineage through zero-copy views and result aliases): a write into
# a pl.tile.reshape or pl.tile.slice of a Tile parameter declared In writes that
# parameter (both are buffer-aliasing views, §9.5); a write into the result of
# pl.tile.transpose does not (transpose permutes into a fresh buffer: not a
# view); a write into the result of pl.tile.set_validshape (a metadata-only
# op whose result aliases its operand) writes the operand; a parameter that is
# only the source of a view that is never written is not reported.
# spec §13 (no oracle); the program parses (oracle --pass-only: the pipeline
# rejects InCore functions with Tile parameters).
import pypto.language as pl


@pl.program
class ViewLineage:
    @pl.function(type=pl.FunctionType.InCore)
    def through_views(
        self,
        grid: pl.Tile[[16, 16], pl.FP32],
        strip: pl.Tile[[16, 16], pl.FP32],
        turned: pl.Tile[[16, 16], pl.FP32],
        looked: pl.Tile[[16, 16], pl.FP32],
        patch: pl.Tile[[8, 16], pl.FP32],
        flat_patch: pl.Tile[[1, 256], pl.FP32],
    ) -> pl.Tile[[16, 16], pl.FP32]:
        g = pl.tile.reshape(grid, [1, 256])
        g = pl.tile.assemble(g, flat_patch, [0, 0])  # expect-warning: InParamWritten
        s = pl.tile.slice(strip, [8, 16], [8, 0])
        s = pl.tile.assemble(s, patch, [0, 0])  # expect-warning: InParamWritten
        t = pl.tile.transpose(turned, 0, 1)
        t = pl.tile.assemble(t, patch, [0, 0])
        peek = pl.tile.slice(looked, [8, 16], [0, 0])
        total = pl.add(peek, patch)
        return t

    @pl.function(type=pl.FunctionType.InCore)
    def through_alias(
        self,
        box: pl.Tile[[16, 16], pl.FP32],
        patch: pl.Tile[[8, 16], pl.FP32],
    ) -> pl.Tile[[16, 16], pl.FP32]:
        narrowed = pl.tile.set_validshape(box, 8, 16)
        narrowed = pl.tile.assemble(narrowed, patch, [0, 0])  # expect-warning: InParamWritten
        return narrowed
