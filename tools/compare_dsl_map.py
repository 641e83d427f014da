"""Compare the bundled DSL -> op map with a reference map.

    python tools/compare_dsl_map.py REFERENCE.json [--ours data/dsl_ops.json]

The reference (the team's ../shared/spec/dsl_to_op.json, not part of this
repository) is a JSON document whose "functions" object maps a DSL path
("pl.add") to an entry with an "emits" list of op names. Prints the paths
only one side knows and every path whose emitted-op sets differ; exits 1
when anything differs.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Optional, Sequence

from pypto_lens.registry.dsl import load_dsl_map


def compare(reference: dict, ours_path: Optional[Path]) -> list[str]:
    ours = load_dsl_map(ours_path)
    ref = reference["functions"]
    lines: list[str] = []
    only_ours = sorted(set(ours) - set(ref))
    only_ref = sorted(set(ref) - set(ours))
    fallback = [p for p in only_ours if p in ours[p].ir_paths]
    only_ours = [p for p in only_ours if p not in fallback]
    if only_ours:
        lines.append(f"only in ours ({len(only_ours)}): " + ", ".join(only_ours))
    if fallback:
        lines.append(f"only in ours, IR-builder fallback paths ({len(fallback)}): " + ", ".join(fallback))
    if only_ref:
        lines.append(f"only in reference ({len(only_ref)}): " + ", ".join(only_ref))
    for path in sorted(set(ours) & set(ref)):
        mine = set(ours[path].ops)
        theirs = set(ref[path].get("emits") or ())
        if mine != theirs:
            extra = sorted(mine - theirs)
            missing = sorted(theirs - mine)
            lines.append(f"{path}: ours adds {extra or '-'}, reference adds {missing or '-'}")
    return lines


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("reference", type=Path)
    ap.add_argument("--ours", type=Path, default=None, help="our JSON (default: the bundled one)")
    ns = ap.parse_args(argv)
    reference = json.loads(ns.reference.read_text(encoding="utf-8"))
    lines = compare(reference, ns.ours)
    common = len(set(load_dsl_map(ns.ours)) & set(reference["functions"]))
    for line in lines:
        print(line)
    print(f"{common} paths in both; {len(lines)} difference line(s)")
    return 1 if lines else 0


if __name__ == "__main__":
    raise SystemExit(main())
