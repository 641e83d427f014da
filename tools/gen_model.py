#!/usr/bin/env python3
"""Write a folder shaped like a model of PyPTO's libraries, for benchmarks (issue 8).

  python tools/gen_model.py FOLDER [--lines 3000] [--seed 1]
  python tools/gen_model.py FOLDER --files 500 [--lines 300] [--seed 1]

Real model files hold one `@pl.jit` family: a few `@pl.jit.inline` helpers, one
long inline "core" of hundreds of lines with dozens of `with pl.at(...)` and
`pl.spmd` scopes and nested loops, a `@pl.jit` entry that calls it, and
kernels and helpers imported from sibling files. This writes such a family to
FOLDER/model.py (about LINES lines; the core takes most of them) with its
siblings shapes.py (constants) and blocks.py (imported `@pl.jit.incore`
kernels and `@pl.jit.inline` helpers, one calling another of its own file).
The text is deterministic for a given seed and every line is valid pl code.

With --files N it writes a monorepo's worth of them (issue 42): families of three files
(shapes.py, blocks.py, model.py of --lines lines), each in a folder of its own
(FOLDER/family_000/...), N files in all; the helpers' and kernels' names repeat from one
family to the next, as in a real workspace of models written from one template.
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROW = "pl.Tensor[[TOKENS, HIDDEN], pl.FP32]"

SHAPES = '''"""Shapes of the generated model."""
TOKENS = 256
HIDDEN = 512
ROWS = 32
COLS = 128
BLOCKS = 8
LAYERS = 4
ROW_TILES = TOKENS // ROWS
COL_TILES = HIDDEN // COLS
'''

BLOCKS_FILE = f'''"""Kernels and helpers the generated model imports."""
import pypto.language as pl

from shapes import BLOCKS, COLS, HIDDEN, ROWS, TOKENS


@pl.jit.incore
def scale_tile(
    src: {ROW},
    dst: pl.Out[{ROW}],
):
    t = pl.load(src, [0, 0], [ROWS, COLS])
    dst = pl.store(pl.mul(t, t), [0, 0], dst)
    return dst


@pl.jit.incore
def add_into(src: {ROW}, acc: pl.InOut[{ROW}]):
    a = pl.load(acc, [0, 0], [ROWS, COLS])
    b = pl.load(src, [0, 0], [ROWS, COLS])
    acc = pl.store(pl.add(a, b), [0, 0], acc)
    return acc


@pl.jit.incore
def leak_tile(src: {ROW}, sink: {ROW}):
    t = pl.load(src, [0, 0], [ROWS, COLS])
    sink = pl.store(pl.exp(t), [0, 0], sink)
    return sink


@pl.jit.inline
def rows_exp(src: {ROW}, dst: {ROW}):
    for b in pl.spmd(BLOCKS, name_hint="rows_exp"):
        t = pl.load(src, [b * ROWS, 0], [ROWS, COLS])
        pl.store(pl.exp(t), [b * ROWS, 0], dst)
    return dst


@pl.jit.inline
def norm_then_exp(src: {ROW}, tmp: {ROW}, dst: {ROW}):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="norm"):
        t = pl.load(src, [0, 0], [ROWS, COLS])
        s = pl.row_sum(pl.mul(t, t))
        pl.store(pl.row_expand_mul(t, s), [0, 0], tmp)
    dst = rows_exp(tmp, dst)
    return dst
'''


class Core:
    """The long inline core: stages appended until it has its share of the lines."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.lines: list[str] = []
        self.buffers = ["x", "h0"]  # tensors later stages read
        self.stage = 0

    def emit(self, depth: int, text: str) -> None:
        self.lines.append("    " * depth + text)

    def source(self) -> str:
        return self.rng.choice(self.buffers[-4:])

    def fresh(self) -> str:
        name = f"h{len(self.buffers)}"
        self.emit(1, f"{name} = pl.create_tensor([TOKENS, HIDDEN], dtype=pl.FP32)")
        return name

    def add_stage(self) -> None:
        self.stage += 1
        kind = self.rng.choice([self.at_tiles, self.spmd_rows, self.spmd_call, self.helpers, self.layer_loop,
                                self.at_pipeline])
        self.emit(1, f"# stage {self.stage}")
        kind()

    def at_tiles(self) -> None:
        """A pl.at scope with two nested tile loops and a branch inside."""
        src, dst = self.source(), self.fresh()
        k = self.stage
        self.emit(1, f'with pl.at(level=pl.Level.CORE_GROUP, name_hint="tiles_{k}"):')
        self.emit(2, "for r in pl.range(ROW_TILES):")
        self.emit(3, "for c in pl.range(COL_TILES):")
        self.emit(4, f"t{k} = pl.load({src}, [r * ROWS, c * COLS], [ROWS, COLS])")
        self.emit(4, f"u{k} = pl.mul(t{k}, t{k})")
        self.emit(4, "if c > 0:")
        self.emit(5, f"u{k} = pl.add(u{k}, t{k})")
        self.emit(4, "else:")
        self.emit(5, f"u{k} = pl.exp(u{k})")
        self.emit(4, f"pl.store(u{k}, [r * ROWS, c * COLS], {dst})")
        self.buffers.append(dst)

    def spmd_rows(self) -> None:
        """The loop form of pl.spmd: slices, a setitem assemble, a rebinding under an if."""
        src, dst = self.source(), self.fresh()
        k = self.stage
        self.emit(1, f'for b{k} in pl.spmd(BLOCKS, name_hint="rows_{k}"):')
        self.emit(2, f"lo{k} = b{k} * ROWS")
        self.emit(2, f"row{k} = {src}[lo{k} : lo{k} + ROWS, :]")
        self.emit(2, f"v{k} = pl.load(row{k}, [0, 0], [ROWS, COLS])")
        self.emit(2, f"v{k} = pl.maximum(v{k}, pl.exp(v{k}))")
        self.emit(2, f"{dst}[lo{k} : lo{k} + ROWS, 0:COLS] = v{k}")
        self.emit(2, f"if b{k} > 0:")
        self.emit(3, f"w{k} = pl.mul(v{k}, v{k})")
        self.emit(3, f"{dst}[lo{k} : lo{k} + ROWS, 0:COLS] = w{k}")
        self.buffers.append(dst)

    def spmd_call(self) -> None:
        """The with-form of pl.spmd around one imported kernel, and a parallel loop of calls."""
        src, dst = self.source(), self.fresh()
        k = self.stage
        self.emit(1, f"with pl.spmd(BLOCKS, name_hint=\"call_{k}\") as tid{k}:")
        self.emit(2, f"{dst} = scale_tile({src}, {dst})")
        self.emit(1, "for p in pl.parallel(BLOCKS):")
        self.emit(2, f"{dst} = add_into({src}, {dst})")
        self.buffers.append(dst)

    def helpers(self) -> None:
        """Imported and local inline helpers, each with scopes of its own."""
        src, tmp = self.source(), self.fresh()
        dst = self.fresh()
        self.emit(1, f"{dst} = norm_then_exp({src}, {tmp}, {dst})")
        self.emit(1, f"{tmp} = local_mix({dst}, {tmp})")
        self.buffers += [tmp, dst]

    def layer_loop(self) -> None:
        """A sequential loop over layers around a scope and a kernel call (carried buffers)."""
        src, dst = self.source(), self.fresh()
        k = self.stage
        self.emit(1, "for layer in pl.range(LAYERS):")
        self.emit(2, f'with pl.at(level=pl.Level.CORE_GROUP, name_hint="layer_{k}"):')
        self.emit(3, f"a{k} = pl.load({src}, [layer * ROWS, 0], [ROWS, COLS])")
        self.emit(3, f"b{k} = pl.load({dst}, [layer * ROWS, 0], [ROWS, COLS])")
        self.emit(3, f"pl.store(pl.add(a{k}, b{k}), [layer * ROWS, 0], {dst})")
        self.emit(2, f"{dst} = add_into({src}, {dst})")
        self.emit(2, f"leak_tile({dst}, {src})")
        self.buffers.append(dst)

    def at_pipeline(self) -> None:
        """A pl.at scope with a pipelined loop and a matmul, then a read of the result."""
        src, dst = self.source(), self.fresh()
        k = self.stage
        self.emit(1, f'with pl.at(level=pl.Level.CORE_GROUP, name_hint="mm_{k}"):')
        self.emit(2, f"acc{k} = pl.full([ROWS, COLS], dtype=pl.FP32, value=0.0)")
        self.emit(2, "for kk in pl.pipeline(0, COL_TILES, stage=2):")
        self.emit(3, f"lhs{k} = pl.load({src}, [0, kk * COLS], [ROWS, COLS])")
        self.emit(3, f"rhs{k} = pl.load(w, [kk * COLS, 0], [COLS, COLS])")
        self.emit(3, f"acc{k} = pl.add(acc{k}, pl.matmul(lhs{k}, rhs{k}))")
        self.emit(2, f"pl.store(acc{k}, [0, 0], {dst})")
        self.buffers.append(dst)


def model(lines: int, seed: int) -> str:
    rng = random.Random(seed)
    head = ['"""A generated model family (tools/gen_model.py): one core, its helpers and its entry."""',
            "import pypto.language as pl", "",
            "from blocks import add_into, leak_tile, norm_then_exp, scale_tile",
            "from shapes import BLOCKS, COL_TILES, COLS, HIDDEN, LAYERS, ROW_TILES, ROWS, TOKENS", "", ""]
    kernels = []
    for n in range(3):  # kernels of this file, with multi-line signatures
        kernels += ["@pl.jit.incore", f"def gate_{n}(",
                    f"    src: {ROW},",
                    f"    gate: {ROW},",
                    f"    dst: pl.Out[{ROW}],",
                    "):",
                    "    t = pl.load(src, [0, 0], [ROWS, COLS])",
                    "    g = pl.load(gate, [0, 0], [ROWS, COLS])",
                    "    dst = pl.store(pl.mul(t, pl.exp(g)), [0, 0], dst)",
                    "    return dst", "", ""]
    local = ["@pl.jit.inline",
             f"def local_mix(src: {ROW}, dst: {ROW}):",
             '    with pl.at(level=pl.Level.CORE_GROUP, name_hint="mix"):',
             "        for r in pl.range(ROW_TILES):",
             "            t = pl.load(src, [r * ROWS, 0], [ROWS, COLS])",
             "            pl.store(pl.neg(t), [r * ROWS, 0], dst)",
             "    return dst", "", ""]
    entry = ["@pl.jit",
             "def model_entry(",
             f"    x: {ROW},",
             "    w: pl.Tensor[[HIDDEN, HIDDEN], pl.FP32],",
             f"    gate: {ROW},",
             f"    out: pl.Out[{ROW}],",
             f"    cache: pl.InOut[{ROW}],",
             "):",
             "    h0 = pl.create_tensor([TOKENS, HIDDEN], dtype=pl.FP32)",
             "    h0 = gate_0(x, gate, h0)",
             "    y = model_core(x, w, h0, cache)",
             "    out = gate_1(y, gate, out)",
             "    for b in pl.spmd(BLOCKS, name_hint=\"finish\"):",
             "        t = pl.load(y, [b * ROWS, 0], [ROWS, COLS])",
             "        pl.store(t, [b * ROWS, 0], cache)",
             "    return out, cache", ""]
    core = Core(rng)
    budget = max(40, lines - len(head) - len(kernels) - len(local) - len(entry) - 8)
    while len(core.lines) < budget:
        core.add_stage()
    signature = ["@pl.jit.inline",
                 "def model_core(",
                 f"    x: {ROW},",
                 "    w: pl.Tensor[[HIDDEN, HIDDEN], pl.FP32],",
                 f"    h0: {ROW},",
                 f"    cache: pl.InOut[{ROW}],",
                 "):"]
    tail = [f"    cache = add_into({core.buffers[-1]}, cache)", f"    return {core.buffers[-1]}", "", ""]
    return "\n".join(head + kernels + local + signature + core.lines + tail + entry) + "\n"


def write_model(folder: Path, lines: int, seed: int = 1) -> Path:
    """Write the family and its siblings into `folder`; return the main file's path."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "shapes.py").write_text(SHAPES, encoding="utf-8")
    (folder / "blocks.py").write_text(BLOCKS_FILE, encoding="utf-8")
    main = folder / "model.py"
    main.write_text(model(lines, seed), encoding="utf-8")
    return main


def write_families(folder: Path, files: int, lines: int, seed: int = 1) -> list[Path]:
    """`files` files in families of three (the last one may be smaller), each family in a folder of its own."""
    written: list[Path] = []
    for k in range((files + 2) // 3):
        family = folder / f"family_{k:03}"
        write_model(family, lines, seed + k)
        written += [family / "shapes.py", family / "blocks.py", family / "model.py"]
    for extra in written[files:]:
        extra.unlink()
    return written[:files]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path)
    parser.add_argument("--lines", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--files", type=int, help="a workspace of this many files, in families of three")
    args = parser.parse_args(argv)
    if args.files:
        written = write_families(args.folder, args.files, args.lines, args.seed)
        print(f"{len(written)} files in {args.folder}")
        return 0
    print(write_model(args.folder, args.lines, args.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
