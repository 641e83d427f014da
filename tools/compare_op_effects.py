#!/usr/bin/env python3
"""Compare the bundled operator table with a reference extraction, field by field.

    python tools/compare_op_effects.py REFERENCE.json [--table OUR.json] [-v]

REFERENCE.json is in the format of the spec's op_effects.json (in the team's
shared folder: ../shared/spec/op_effects.json, not part of this repository; a list of ops
with `arg_effects`, `kwarg_dependent_kwargs`, `write_channel: "none"`, ...).
Our table (default: the bundled one) is converted to that shape and every
field is compared; kwarg-dependent slots are compared by which kwargs they
depend on (the reference describes the rule in prose, shown with -v).
Exits 1 when anything differs.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from pypto_lens.registry.generate import load_json
from pypto_lens.registry.model import OpInfo
from pypto_lens.registry.validate import op_violations

# Reference field -> how to read it from one of our ops.
FIELDS = {
    "source_file": lambda op: op.location.path if op.location else None,
    "num_args": lambda op: op.num_args,
    "arg_names": lambda op: list(op.arg_names),
    "arg_effects": lambda op: _arg_effects(op),
    "kwarg_dependent_kwargs": lambda op: {str(i): list(r.kwargs) for i, r in sorted(op.kwarg_effects.items())},
    "effects_classified": lambda op: op.classified,
    "writes_any_arg": lambda op: op.writes_any_arg,
    "write_channel": lambda op: op.write_channel or "none",
    "output_reuses_input": lambda op: op.output_reuses_input,
    "no_arg_writes": lambda op: op.no_arg_writes,
    "core_affinity": lambda op: op.core_affinity,
    "no_duplicate": lambda op: op.no_duplicate,
    "output_memory_inherits_input": lambda op: op.output_memory_inherits_input,
    "inplace_safe": lambda op: op.inplace_safe,
    "buffer_aliasing_view": lambda op: op.is_view,
    "internal_only": lambda op: op.internal_only,
    "op_category": lambda op: op.op_category,
    "kwarg_schema": lambda op: [{"name": n, "type": t} for n, t in op.kwarg_schema],
    "validate_arg_effects": lambda op: op_violations(op) or ["ok"],
}

SUMMARY = {
    "ops": lambda ops: len(ops),
    "ops_with_write_effect": lambda ops: sum(o.writes_any_arg for o in ops),
    "ops_with_kwarg_dependent_effect": lambda ops: sum(bool(o.kwarg_effects) for o in ops),
    "ops_no_arg_writes": lambda ops: sum(o.no_arg_writes for o in ops),
    "ops_with_write_channel": lambda ops: sum(o.write_channel is not None for o in ops),
    "ops_with_output_reuses_input": lambda ops: sum(o.output_reuses_input is not None for o in ops),
    "ops_effects_unclassified": lambda ops: sum(not o.classified for o in ops),
    "ops_no_duplicate": lambda ops: sum(o.no_duplicate for o in ops),
    "ops_with_core_affinity": lambda ops: sum(o.core_affinity is not None for o in ops),
    "ops_buffer_aliasing_view": lambda ops: sum(o.is_view for o in ops),
    "ops_failing_validate_arg_effects": lambda ops: sorted(o.name for o in ops if op_violations(o)),
}


def _arg_effects(op: OpInfo) -> dict[str, str]:
    """Fixed effects, with a kwarg-dependent slot shown as the marker the reference uses."""
    out = {str(i): e.value for i, e in op.fixed_effects.items()}
    for i in op.kwarg_effects:
        out[str(i)] = "kwarg-dependent"
    return dict(sorted(out.items(), key=lambda kv: int(kv[0])))


def _reference_arg_effects(value: dict[str, str]) -> dict[str, str]:
    return {i: ("kwarg-dependent" if e.startswith("kwarg-dependent") else e) for i, e in value.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("reference", type=Path)
    parser.add_argument("--table", type=Path, help="our table (default: the bundled one)")
    parser.add_argument("-v", "--verbose", action="store_true", help="show kwarg rules side by side")
    args = parser.parse_args(argv)

    reference = json.loads(args.reference.read_text(encoding="utf-8"))
    if args.table:
        ours = load_json(json.loads(args.table.read_text(encoding="utf-8")))
    else:
        from pypto_lens.registry.bundled import bundled_table
        ours = load_json(bundled_table())
    theirs = {entry["op"]: entry for entry in reference["ops"]}

    differences = 0
    for name in sorted(set(theirs) - set(ours)):
        print(f"{name}: only in the reference")
        differences += 1
    for name in sorted(set(ours) - set(theirs)):
        print(f"{name}: only in our table")
        differences += 1
    for name in sorted(set(ours) & set(theirs)):
        op, entry = ours[name], theirs[name]
        for field, read in FIELDS.items():
            if field not in entry:
                continue
            mine, expected = read(op), entry[field]
            if field == "arg_effects":
                expected = _reference_arg_effects(expected)
            if mine != expected:
                print(f"{name}: {field}: ours {mine!r} reference {expected!r}")
                differences += 1
        if args.verbose:
            for index, rule in sorted(op.kwarg_effects.items()):
                print(f"{name}[{index}]\n  ours:      {rule.text}"
                      f"\n  reference: {entry.get('arg_effects', {}).get(str(index), '-')}")
    compared_fields = sorted({f for e in theirs.values() for f in e} & set(FIELDS))
    ignored = sorted({f for e in theirs.values() for f in e} - set(FIELDS) - {"op"})

    summary = reference.get("summary", {})
    all_ops = list(ours.values())
    for key, count in SUMMARY.items():
        if key in summary and count(all_ops) != summary[key]:
            print(f"summary {key}: ours {count(all_ops)!r} reference {summary[key]!r}")
            differences += 1

    print(f"compared {len(set(ours) & set(theirs))} ops on {len(compared_fields)} fields"
          + (f" (not compared: {', '.join(ignored)})" if ignored else "")
          + f"; {differences} difference(s)")
    return 1 if differences else 0


if __name__ == "__main__":
    raise SystemExit(main())
