#!/usr/bin/env python3
"""Generate the bundled DSL table, `analysis/registry/data/dsl_ops.json`, from a PyPTO checkout.

    .venv/bin/python tools/gen_dsl.py PYPTO_CHECKOUT [-o OUT.json] [--commit SHA] [-v]

Which registry op each PyPTO DSL function emits, found by reading PyPTO's Python sources with
`ast` (never importing them); the schema and the method are in tools/dsl_table/__init__.py.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Optional, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))

from dsl_table.generate import dump, generate  # noqa: E402

BUNDLED = Path(__file__).resolve().parent.parent / "analysis" / "registry" / "data" / "dsl_ops.json"


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("checkout", type=Path, help="PyPTO checkout (the directory holding python/pypto)")
    ap.add_argument("-o", "--output", type=Path, default=BUNDLED, help="where to write (default: the bundled table)")
    ap.add_argument("--commit", help="PyPTO commit the checkout is at, recorded in the output")
    ap.add_argument("-v", "--verbose", action="store_true", help="report the heuristics applied per function")
    ns = ap.parse_args(argv)
    data = generate(ns.checkout, ns.commit, ns.verbose)
    ns.output.write_text(dump(data), encoding="utf-8")
    fns = data["functions"]
    n_paths = sum(len(f["paths"]) for f in fns.values())
    n_ir = sum(len(f.get("ir_paths", ())) for f in fns.values())
    print(f"{len(fns)} functions, {n_paths} DSL paths (+{n_ir} IR-builder paths) -> {ns.output}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
