#!/usr/bin/env python3
"""Time re-validating a ~2,000-line C++ registration file after a one-character edit.

    python tools/bench_registry.py [--lines 2000] [--repeat 20]

The file is synthetic: registration chains written for this benchmark (plain
effects, lambdas, brace lists, comments) between filler C++ functions. It
prints the cold time (empty caches) and the median time after an edit inside
a chain and after an edit in filler code. Figures only; nothing is asserted.
"""
from __future__ import annotations

import argparse
import statistics
import time

from pypto_lens.registry import cpp_chains, declarations, validate

CHAIN = '''\
REGISTER_OP("bench.op{n}")
    .set_op_category("BenchOp")
    .set_description("Synthetic op {n}: copies a region (benchmark only)")
    .add_argument("src", "source tile")
    .add_argument("offsets", "where to write")
    .add_argument("dst", "destination tensor")
    .set_attr<int>("accumulate")
    .set_attr<std::string>("label")
    .set_input_memory(0, {{Space::Vec, Space::Acc}})
    // plain copies overwrite the region, accumulating ones read it first
    .set_arg_effect(2,
                    [](const KwargList& kw) {{
                      return ReadInt(kw, "accumulate", static_cast<int>(Accum::kOff)) ==
                                     static_cast<int>(Accum::kOff)
                                 ? ArgEffect::Write
                                 : ArgEffect::ReadWrite;
                    }})
    .set_write_channel(WriteChannel::Dma)
    .set_output_reuses_input(2)
    .f_deduce_type([](const std::vector<ExprPtr>& args, const KwargList& kw) {{
      return DeduceBench(args, kw, "bench.op{n}");
    }});

'''

FILLER = '''\
// Helper {n}: not a registration; REGISTER_OP("in.a.comment") is skipped.
static int Helper{n}(const std::vector<int>& values) {{
  int total = 0;
  for (int v : values) {{
    if (v > {n}) {{ total += v; }} else {{ total -= 1; }}
  }}
  const char* note = "braces {{ and ( in a string";
  return total;
}}

'''


def build(lines: int) -> str:
    parts, n = [], 0
    while sum(p.count("\n") for p in parts) < lines:
        parts.append(CHAIN.format(n=n))
        parts.append(FILLER.format(n=n))
        n += 1
    return "".join(parts)


def clear_caches() -> None:
    cpp_chains.parse_statement.cache_clear()
    validate._statement_problems.cache_clear()
    declarations._interpret.cache_clear()
    declarations._cached_resolver.cache_clear()


def timed(text: str) -> float:
    start = time.perf_counter()
    validate.validate_source(text)
    return (time.perf_counter() - start) * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args(argv)

    text = build(args.lines)
    chains = len(cpp_chains.parse_chains(text))
    validate.validate_source(text)  # build the lark parser once, outside the timings
    clear_caches()
    cold = timed(text)

    in_chain, in_filler = [], []
    for i in range(args.repeat):
        # a one-character edit inside a chain's description, a different chain each time
        at = text.index(f'"Synthetic op {i}:') + 2
        in_chain.append(timed(text[:at] + "X" + text[at:]))
        at = text.index(f"if (v > {i})") + 4  # and an edit in filler code
        in_filler.append(timed(text[:at] + " " + text[at:]))
    print(f"{text.count(chr(10))} lines, {chains} chains")
    print(f"cold validate (empty caches): {cold:.1f} ms")
    print(f"after a one-character edit in a chain:  median {statistics.median(in_chain):.1f} ms, "
          f"max {max(in_chain):.1f} ms")
    print(f"after a one-character edit in filler:   median {statistics.median(in_filler):.1f} ms, "
          f"max {max(in_filler):.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
