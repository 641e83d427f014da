#!/usr/bin/env python3
"""Benchmark the analysis engine (figures, not assertions).

  python tools/bench_analysis.py [--lines 5000] [--file PATH [--edit-line N]] [--edits 40]

Prints: the cold analysis time of a big pl file (generated, or --file), the
re-analysis time after a one-character edit inside one function (median and
p95 over --edits edits), and their ratio. The edited line is the middle
`= self.` call, or --edit-line N (1-based: for jit files, which call by name). The generated file is a chain of
@pl.program classes with InCore kernels and orchestration functions calling
them from straight-line code and loops.
"""
from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from pathlib import Path

from pypto_lens.workspace.documents import OpenTexts
from pypto_lens.workspace.workspace import Workspace


def big_program(lines: int, seed: int = 7) -> str:
    rng = random.Random(seed)
    out = ["import pypto.language as pl", "", "N = 128", ""]
    block = 0
    while len(out) < lines:
        t = "pl.Tensor[[N], pl.FP32]"
        out += ["", "@pl.program", f"class Stage{block}:"]
        out += ["    @pl.function(type=pl.FunctionType.InCore)",
                f"    def produce(self, src: {t}, dst: pl.Out[{t}]) -> {t}:",
                "        t = pl.load(src, [0], [N])",
                "        dst = pl.store(pl.exp(t), [0], dst)",
                "        return dst", ""]
        out += ["    @pl.function(type=pl.FunctionType.InCore)",
                f"    def accumulate(self, acc: pl.InOut[{t}], x: {t}) -> {t}:",
                "        a = pl.load(acc, [0], [N])",
                "        b = pl.load(x, [0], [N])",
                "        acc = pl.store(pl.add(a, b), [0], acc)",
                "        return acc", ""]
        out += ["    @pl.function(type=pl.FunctionType.Orchestration)",
                f"    def run(self, x: {t}, total: pl.InOut[{t}], n: pl.Scalar[pl.INDEX]) -> {t}:"]
        names = []
        for k in range(rng.randint(6, 12)):
            name = f"buf{k}"
            names.append(name)
            out.append(f"        {name} = pl.create_tensor([N], dtype=pl.FP32)")
            shape = rng.random()
            if shape < 0.4:
                out.append(f"        {name} = self.produce(x, {name})")
            elif shape < 0.7:
                out.append("        for i in pl.range(n):")
                out.append(f"            {name} = self.produce({rng.choice(names)}, {name})")
            else:
                out.append("        for j in pl.parallel(4):")
                out.append(f"            total = self.accumulate(total, {name})")
        out.append(f"        return {names[-1]}")
        block += 1
    return "\n".join(out) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, default=5000)
    parser.add_argument("--file")
    parser.add_argument("--edits", type=int, default=40)
    parser.add_argument("--edit-line", type=int, help="the line to edit (1-based; default: the middle `= self.` call)")
    args = parser.parse_args(argv)
    text = Path(args.file).read_text(encoding="utf-8") if args.file else big_program(args.lines)
    lines = text.split("\n")
    texts = OpenTexts()
    workspace = Workspace(open_documents=texts)
    uri = "file:///bench/big.py"
    texts.open(uri, text, 1)
    started = time.perf_counter()
    analysis = workspace.analysis(uri)
    cold = time.perf_counter() - started
    gc.freeze()  # as the server does after a document's first analysis
    calls = [i for i, line in enumerate(lines) if "= self." in line]
    if args.edit_line is None and not calls:
        parser.error("no `= self.` call to edit: give --edit-line")
    target = args.edit_line - 1 if args.edit_line else calls[len(calls) // 2]
    times = []
    for n in range(args.edits):
        lines[target] = lines[target] + ("  # x" if n == 0 else "x")
        texts.change(uri, "\n".join(lines), n + 2)
        started = time.perf_counter()
        workspace.analysis(uri)
        times.append(time.perf_counter() - started)
    median = statistics.median(times)
    p95 = sorted(times)[min(len(times) - 1, int(0.95 * len(times)))]
    print(f"lines={len(lines)} calls={len(analysis.calls)} hints={sum(len(c.hints) for c in analysis.calls)}")
    print(f"cold_ms={cold * 1000:.1f} edit_median_ms={median * 1000:.2f} edit_p95_ms={p95 * 1000:.2f} "
          f"ratio={median / cold:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
