"""Shapes shared by the kernels and the entry of this small package (pypto-lib keeps
them in a `config` module that every model file imports by absolute name)."""

ROWS = 32
COLS = 256
TILE_ROWS = 8
PAGES = 2  # a trip count: `pl.unroll(PAGES)` in unrolled_pages.py must see it
