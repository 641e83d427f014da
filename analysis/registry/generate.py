"""Build the operator table of a PyPTO checkout, and store it as JSON.

`build_registry(root)` parses every REGISTER_OP chain under `root/src`
(`*.cpp`, `*.cc`, `*.h`, `*.hpp`) and validates it (V1-V3, duplicates across
files too). `dump_json` / `load_json` convert the table to and from this
schema (version 1):

    {
      "schema": "pypto-lens/op-effects", "version": 1,
      "source": {...},                  # free-form provenance (repository, commit, ...)
      "ops": {
        "<op name>": {
          "file": "src/ir/op/tile_ops/memory.cpp",   # relative to the checkout
          "line": 1089,                  # zero-based line of REGISTER_OP
          "category": "TileOp" | null,   # set_op_category
          "internal_only": false,        # set_internal_only
          "num_args": 4 | null,          # add_argument count; 0 = no_argument(); null = neither
          "arg_names": ["tile", ...],
          "effects": {"2": "Write"},     # fixed set_arg_effect(index, ArgEffect::...) by index
          "kwarg_effects": {             # set_arg_effect(index, <resolver>) by index
            "2": {"when": [{"kwarg": "atomic", "test": "eq" | "ne", "value": "None",
                            "absent_matches": true}],
                  "then": "Write", "else": "ReadWrite",    # then if every `when` holds
                  "text": "...", "exact": true}           # exact=false: unreadable, conservative
          },
          "no_arg_writes": false,
          "write_channel": "Dma" | "Scalar" | null,
          "output_reuses_input": 2 | null,
          "output_memory_inherits_input": false,   # set_output_memory_inherit_input
          "inplace_safe": true,                    # false after not_inplace_safe()
          "view": false,                           # derived: the two above (spec §9.5)
          "core_affinity": "VECTOR" | null,
          "no_duplicate": false,
          "kwargs": [["atomic", "int"], ...]       # set_attr<T>("name"), in order
        }
      }
    }

Effects are "Read", "Write" or "ReadWrite"; absent fields take the defaults
of `OpInfo`. `view` is informative only (recomputed on load).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Optional

from .cpp_chains import parse_chains
from .declarations import interpret_chain
from .model import Condition, Effect, KwargRule, Location, OpInfo
from .validate import RegistryProblem, duplicate_ops, validate_source

SCHEMA = "pypto-lens/op-effects"
VERSION = 1
SOURCE_SUFFIXES = (".cpp", ".cc", ".h", ".hpp")  # where REGISTER_OP chains are read (and checked)


def source_files(root: Path) -> list[Path]:
    """The C++ sources of a PyPTO checkout, in a stable order."""
    return sorted(p for p in (root / "src").rglob("*") if p.suffix in SOURCE_SUFFIXES and p.is_file())


@dataclass
class RegistryStats:
    files_scanned: int = 0
    files_with_chains: int = 0
    chains_parsed: int = 0
    incomplete_chains: int = 0
    ops: int = 0
    ops_with_write_effect: int = 0
    kwarg_dependent_ops: int = 0
    inexact_resolvers: int = 0
    unreadable_declarations: list[str] = field(default_factory=list)
    problems: int = 0


def build_registry(pypto_root: Path) -> tuple[dict[str, OpInfo], list[RegistryProblem], RegistryStats]:
    """Every op registered under `pypto_root/src`, the registration problems, and counts."""
    root = Path(pypto_root)
    stats = RegistryStats()
    ops: dict[str, OpInfo] = {}
    problems: list[RegistryProblem] = []
    first_seen: dict[str, str] = {}
    for path in source_files(root):
        relative = path.relative_to(root).as_posix()
        text = path.read_text(encoding="utf-8", errors="replace")
        stats.files_scanned += 1
        chains = parse_chains(text)
        if not chains:
            continue
        stats.files_with_chains += 1
        stats.chains_parsed += len(chains)
        stats.incomplete_chains += sum(not c.complete for c in chains)
        file_problems = validate_source(text)  # the server's check, as the user sees it
        # Names registered in earlier files are duplicates too (later copies in
        # this file are already reported against the first one here).
        earlier = {}
        for chain in chains:
            if chain.op_name in first_seen and chain.op_name not in earlier:
                earlier[chain.op_name] = chain.head_range
        file_problems.extend(duplicate_ops(earlier.items(), first_seen))
        file_problems.sort(key=lambda p: (p.range.line, p.range.col, p.code))
        problems.extend(_with_path(p, relative) for p in file_problems)
        for chain in chains:
            if chain.op_name is None or chain.op_name in ops:
                continue
            decls = interpret_chain(chain, relative)
            ops[chain.op_name] = decls.op
            first_seen[chain.op_name] = f"{relative}:{chain.head_range.line + 1}"
            stats.unreadable_declarations.extend(
                f"{relative}:{call.range.line + 1} {chain.op_name}.{call.method}: {reason}"
                for call, reason in decls.unreadable)
    stats.ops = len(ops)
    stats.ops_with_write_effect = sum(op.writes_any_arg for op in ops.values())
    stats.kwarg_dependent_ops = sum(bool(op.kwarg_effects) for op in ops.values())
    stats.inexact_resolvers = sum(not r.exact for op in ops.values() for r in op.kwarg_effects.values())
    stats.problems = len(problems)
    return dict(sorted(ops.items())), problems, stats


def _with_path(problem: RegistryProblem, path: str) -> RegistryProblem:
    from dataclasses import replace

    return replace(problem, path=path)


# ---------------------------------------------------------------------------
# JSON


def dump_json(ops: Mapping[str, OpInfo], source: Optional[Mapping[str, Any]] = None) -> dict:
    """The table in the schema above (ops sorted by name)."""
    return {
        "schema": SCHEMA,
        "version": VERSION,
        "source": dict(source or {}),
        "ops": {name: _dump_op(ops[name]) for name in sorted(ops)},
    }


def _dump_op(op: OpInfo) -> dict:
    return {
        "file": op.location.path if op.location else None,
        "line": op.location.line if op.location else None,
        "category": op.op_category,
        "internal_only": op.internal_only,
        "num_args": op.num_args,
        "arg_names": list(op.arg_names),
        "effects": {str(i): op.fixed_effects[i].value for i in sorted(op.fixed_effects)},
        "kwarg_effects": {str(i): _dump_rule(op.kwarg_effects[i]) for i in sorted(op.kwarg_effects)},
        "no_arg_writes": op.no_arg_writes,
        "write_channel": op.write_channel,
        "output_reuses_input": op.output_reuses_input,
        "output_memory_inherits_input": op.output_memory_inherits_input,
        "inplace_safe": op.inplace_safe,
        "view": op.is_view,
        "core_affinity": op.core_affinity,
        "no_duplicate": op.no_duplicate,
        "kwargs": [list(pair) for pair in op.kwarg_schema],
    }


def _dump_rule(rule: KwargRule) -> dict:
    return {
        "when": [{"kwarg": c.kwarg, "test": c.test, "value": c.value, "absent_matches": c.absent_matches}
                 for c in rule.conditions],
        "then": rule.if_all.value,
        "else": rule.otherwise.value,
        "text": rule.text,
        "exact": rule.exact,
    }


def load_json(data: Mapping[str, Any], with_locations: bool = True) -> dict[str, OpInfo]:
    """Ops from a `dump_json` dict; `with_locations=False` leaves `location` None (bundled use)."""
    if data.get("schema") != SCHEMA or data.get("version") != VERSION:
        raise ValueError(f"not a {SCHEMA} v{VERSION} table")
    ops: dict[str, OpInfo] = {}
    for name, entry in data["ops"].items():
        location = None
        if with_locations and entry.get("file") is not None:
            location = Location(entry["file"], int(entry.get("line") or 0))
        ops[name] = OpInfo(
            name=name,
            num_args=entry.get("num_args"),
            arg_names=tuple(entry.get("arg_names", ())),
            fixed_effects={int(i): Effect(e) for i, e in entry.get("effects", {}).items()},
            kwarg_effects={int(i): _load_rule(r) for i, r in entry.get("kwarg_effects", {}).items()},
            no_arg_writes=bool(entry.get("no_arg_writes", False)),
            write_channel=entry.get("write_channel"),
            output_reuses_input=entry.get("output_reuses_input"),
            output_memory_inherits_input=bool(entry.get("output_memory_inherits_input", False)),
            inplace_safe=bool(entry.get("inplace_safe", True)),
            core_affinity=entry.get("core_affinity"),
            no_duplicate=bool(entry.get("no_duplicate", False)),
            location=location,
            op_category=entry.get("category"),
            internal_only=bool(entry.get("internal_only", False)),
            kwarg_schema=tuple((k, t) for k, t in entry.get("kwargs", ())),
        )
    return ops


def _load_rule(entry: Mapping[str, Any]) -> KwargRule:
    conditions = tuple(Condition(c["kwarg"], c["test"], c["value"], bool(c["absent_matches"]))
                       for c in entry.get("when", ()))
    return KwargRule(conditions, Effect(entry["then"]), Effect(entry["else"]),
                     entry.get("text", ""), bool(entry.get("exact", True)))


# ---------------------------------------------------------------------------
# Command line: python -m pypto_lens.registry.generate PYPTO_ROOT [--commit SHA] [-o OUT]


def checkout_commit(root: Path) -> Optional[str]:
    """The checkout's HEAD, when it is a git checkout."""
    import subprocess
    try:
        return subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"],
                              capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def build_table(root: Path, repository: str = "hw-native-sys/pypto",
                commit: Optional[str] = None) -> tuple[dict, list[RegistryProblem], RegistryStats]:
    """The registry of a PyPTO checkout as the bundled table's JSON, with its problems and counts."""
    ops, problems, stats = build_registry(root)
    source = {"repository": repository, "commit": commit or checkout_commit(root),
              "scanned": "src/**/*.{" + ",".join(s[1:] for s in SOURCE_SUFFIXES) + "}"}
    return dump_json(ops, source), problems, stats


def stats_line(stats: RegistryStats) -> str:
    return (f"files scanned {stats.files_scanned}, with chains {stats.files_with_chains}, "
            f"chains {stats.chains_parsed} ({stats.incomplete_chains} incomplete), ops {stats.ops}, "
            f"writing {stats.ops_with_write_effect}, kwarg-dependent {stats.kwarg_dependent_ops}, "
            f"inexact resolvers {stats.inexact_resolvers}, problems {stats.problems}")


def main(argv: Optional[list[str]] = None) -> int:
    import argparse
    import json

    parser = argparse.ArgumentParser(description="Extract PyPTO's operator registry into JSON.")
    parser.add_argument("pypto_root", type=Path)
    parser.add_argument("--commit", help="the checkout's commit (default: asked from git)")
    parser.add_argument("--repository", default="hw-native-sys/pypto")
    parser.add_argument("-o", "--output", type=Path,
                        default=Path(__file__).with_name("data") / "op_effects.json")
    args = parser.parse_args(argv)
    data, problems, stats = build_table(args.pypto_root, args.repository, args.commit)
    for problem in problems:
        print(problem)
    for note in stats.unreadable_declarations:
        print(f"unreadable: {note}")
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(stats_line(stats))
    print(f"wrote {args.output}")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
