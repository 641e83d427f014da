"""The DSL surface (every public pl./pld. function), one table entry per function, the table and its JSON."""
from __future__ import annotations

import ast
import json
import sys
from pathlib import Path
from typing import Any, Optional

from pypto_lens.registry.dsl import KIND_LETTERS, eval_guard, guard_params

from .guards import f_and, f_or, simplify, to_json_guard
from .interp import Interp
from .sources import SourceTree
from .values import Func, ModRef, Opq, State, or_guards, src_of

# ---------------------------------------------------------------------------
# Which modules count
# ---------------------------------------------------------------------------

NAMESPACES = (("pl", "pypto.language"), ("pld", "pypto.language.distributed"))
# DSL functions live in these packages; parser, jit and utilities are not DSL calls.
DSL_HOME_PREFIXES = ("pypto.language.", "pypto.ir.op.")
EXCLUDED_PREFIXES = ("pypto.language.parser",)
# The parser resolves `pl.tensor.X` / `pl.tile.X` that has no DSL wrapper to the
# IR builder of that name (printed IR uses such pass-internal ops); those paths
# are kept apart as "ir_paths".
IR_FALLBACKS = (("pl.tensor", "pypto.ir.op.tensor_ops"), ("pl.tile", "pypto.ir.op.tile_ops"))
# Modules whose functions the parser treats as syntax (loops, scopes, submit).
CONSTRUCT_MODULES = ("pypto.language.dsl_api", "pypto.language.scope", "pypto.language.optimizations")


# ---------------------------------------------------------------------------
# The DSL surface
# ---------------------------------------------------------------------------


def dsl_surface(tree: SourceTree, interp: Interp) -> dict[str, Func]:
    """DSL path -> the Python function it names."""
    out: dict[str, Func] = {}

    def visit(prefix: str, modname: str, depth: int) -> None:
        mod = tree.module(modname)
        if mod is None:
            return
        for name in sorted(mod.bindings):
            if name.startswith("_"):
                continue
            v = tree.global_value(modname, name, interp)
            if isinstance(v, ModRef) and depth == 0 and v.name.startswith("pypto.language") \
                    and not v.name.startswith(EXCLUDED_PREFIXES):
                visit(f"{prefix}.{name}", v.name, depth + 1)
            elif isinstance(v, Func) and v.module.startswith(DSL_HOME_PREFIXES) \
                    and not v.module.startswith(EXCLUDED_PREFIXES):
                out[f"{prefix}.{name}"] = v

    for prefix, modname in NAMESPACES:
        visit(prefix, modname, 0)
    return out


def ir_fallback_surface(tree: SourceTree, interp: Interp, ns: dict[str, str]) -> dict[str, Func]:
    """`pl.tensor.X` / `pl.tile.X` paths the parser sends straight to an IR builder."""
    out: dict[str, Func] = {}
    for prefix, irmod in IR_FALLBACKS:
        dsl_mod = tree.module(ns[prefix]) if prefix in ns else None  # a tree without that namespace
        mod = tree.module(irmod)
        if mod is None or dsl_mod is None:
            continue
        for name in sorted(mod.bindings):
            if name.startswith("_") or name in dsl_mod.bindings:
                continue
            v = tree.global_value(irmod, name, interp)
            if isinstance(v, Func) and v.module.startswith("pypto.ir.op."):
                out[f"{prefix}.{name}"] = v
    return out


def namespace_modules(tree: SourceTree, interp: Interp) -> dict[str, str]:
    """DSL prefix ('pl.tile') -> module it names."""
    out = {p: m for p, m in NAMESPACES}
    for prefix, modname in NAMESPACES:
        mod = tree.module(modname)
        for name in (mod.bindings if mod else {}):
            v = tree.global_value(modname, name, interp)
            if isinstance(v, ModRef) and not name.startswith("_"):
                out[f"{prefix}.{name}"] = v.name
    return out


def canonical_order(paths: list[str], func: Func, ns: dict[str, str]) -> list[str]:
    """Canonical first: the path in the defining module's namespace, named like the def."""
    def rank(path: str) -> tuple:
        prefix, name = path.rsplit(".", 1)
        home = ns.get(prefix) == func.module
        return (not home, name != func.node.name, path.count("."), path)
    return sorted(paths, key=rank)


def describe_params(node: ast.FunctionDef) -> list[list[Any]]:
    a = node.args
    out: list[list[Any]] = []
    pos = a.posonlyargs + a.args
    defaults = [None] * (len(pos) - len(a.defaults)) + list(a.defaults)
    for i, (p, d) in enumerate(zip(pos, defaults)):
        out.append([p.arg, "o" if i < len(a.posonlyargs) else "p", ast.unparse(d) if d is not None else None])
    if a.vararg:
        out.append([a.vararg.arg, "v", None])
    for p, d in zip(a.kwonlyargs, a.kw_defaults):
        out.append([p.arg, "k", ast.unparse(d) if d is not None else None])
    if a.kwarg:
        out.append([a.kwarg.arg, "w", None])
    return out


def dispatch_labels(cases: list[dict], params: list[list[Any]]) -> list[str]:
    """How the op is chosen: which kinds of which parameters change the possible ops."""
    if len({c["ret_op"] for c in cases}) <= 1:
        return ["fixed"]
    tested = sorted(set().union(*(guard_params(c["raw"]) for c in cases)))
    labels: set[str] = set()

    def ops_when(p: str, letter: str) -> frozenset:
        # The raw guards: the simplified ones let letters where the wrapper raises join any case.
        return frozenset(c["ret_op"] for c in cases if eval_guard(c["raw"], {p: letter}) is not False)

    for p in tested:
        # Letters no case accepts (the wrapper raises) say nothing about the choice.
        by_letter = {k: v for k in KIND_LETTERS if (v := ops_when(p, k))}

        def differ(a: str, b: str) -> bool:
            return a in by_letter and b in by_letter and by_letter[a] != by_letter[b]

        if differ("T", "L"):
            labels.add("type")
        if any(differ(k, t) and by_letter[k] - {None} for k in "SCIF" for t in "TL"):
            labels.add("scalar")
        if any(differ("N", k) for k in "TLSCIFQO"):
            labels.add("optional")
    if any(_atoms_of(c["guard"], ("eq", "in", "truthy")) for c in cases):
        values = {c["ret_op"] for c in cases if _atoms_of(c["guard"], ("eq", "in", "truthy"))}
        if len({c["ret_op"] for c in cases}) > 1 and (not labels or len(values) > 1):
            labels.add("value")
    return sorted(labels) or ["value"]


def _atoms_of(f: Any, tags: tuple[str, ...]) -> bool:
    if isinstance(f, tuple):
        if f[0] in tags:
            return True
        return f[0] in ("not", "and", "or") and any(_atoms_of(g, tags) for g in f[1:])
    return False


def analyse(func: Func, tree: SourceTree, verbose: bool = False) -> dict[str, Any]:
    interp = Interp(tree)
    rets = interp.run_entry(func)
    params = describe_params(func.node)
    variadic = {p[0] for p in params if p[1] in "vw"}
    # Group paths that build the same ops with the same argument slots; kwargs
    # that only some of them pass (`{"atomic": a} if a else {}`) are merged.
    grouped: list[dict] = []
    for st, value in rets:
        emits = [interp.emissions[e] for e in st.emits]
        returned = [i for i, e in enumerate(st.emits) if e in src_of(value)]
        primary = returned[-1] if returned else (len(emits) - 1 if emits else None)
        key = (tuple((e["op"], e["args"], e["open"]) for e in emits), primary)
        for g in grouped:
            if g["key"] == key:
                g["guards"] = or_guards(g["guards"], st.guards)
                g["kw"] = [_merge_kw(a, e["kw"]) for a, e in zip(g["kw"], emits)]
                break
        else:
            grouped.append({"key": key, "guards": st.guards, "kw": [e["kw"] for e in emits],
                            "ret_op": emits[primary]["op"] if primary is not None else None})
    care = f_or(*(f_and(*g["guards"]) for g in grouped))
    for g in grouped:
        g["raw"] = f_and(*g["guards"])
        g["guard"] = True if len(grouped) == 1 else simplify(g["raw"], care)
    ops: list[str] = []
    order = ["none", "known", "partial", "unknown"]
    mapping = "none"
    cases = []
    for g in grouped:
        shapes, primary = g["key"]
        emit_json = []
        for (op, slots, open_), kw in zip(shapes, g["kw"]):
            if op not in ops:
                ops.append(op)
            item: dict[str, Any] = {"op": op, "args": [list(a) for a in slots] if slots is not None else None}
            if open_:
                item["open"] = True
            item["kw"] = {k: list(v) for k, v in kw.items()} if kw is not None else None
            emit_json.append(item)
            state = "known"
            if slots is None or op == "?":
                state = "unknown"
            elif open_ or any(set(a) & variadic for a in slots):
                state = "partial"
            mapping = max(mapping, state, key=order.index)
        case: dict[str, Any] = {}
        if g["guard"] is not True:
            case["when"] = to_json_guard(g["guard"])
        case["emit"] = emit_json
        if primary is not None:
            case["ret"] = primary
        cases.append(case)
    entry: dict[str, Any] = {
        "file": tree.relpath(tree.module(func.module)),  # type: ignore[arg-type]
        "params": params,
        "ops": ops,
        "dispatch": dispatch_labels(grouped, params) if ops else [],
        "mapping": mapping,
        "cases": cases,
    }
    if not ops:
        entry["nothing"] = nothing_reason(func, rets)
    if interp.notes:
        entry["notes"] = sorted(set(interp.notes))
    if verbose and interp.log:
        print(f"{func.qual}: " + "; ".join(sorted(set(interp.log))), file=sys.stderr)
    return entry


def _merge_kw(a: Optional[dict], b: Optional[dict]) -> Optional[dict]:
    if a is None or b is None:
        return None
    out = dict(a)
    for k, v in b.items():
        out[k] = tuple(dict.fromkeys(out.get(k, ()) + tuple(v)))
    return out


def nothing_reason(func: Func, rets: list[tuple[State, Any]]) -> str:
    if func.module.startswith(CONSTRUCT_MODULES) or not rets:
        return "construct"
    if all(isinstance(v, Opq) and v.ident and v.ident[1] == "dsl" and len(v.src) == 1 for _, v in rets):
        return "marker"  # hands its argument back unchanged
    return "helper"


def generate(checkout: Path, commit: Optional[str] = None, verbose: bool = False) -> dict[str, Any]:
    tree = SourceTree(checkout)
    interp = Interp(tree)
    surface = dsl_surface(tree, interp)
    ns = namespace_modules(tree, interp)
    fallback = ir_fallback_surface(tree, interp, ns)
    by_impl: dict[str, tuple[Func, list[str], list[str]]] = {}
    for path, func in surface.items():
        by_impl.setdefault(func.qual, (func, [], []))[1].append(path)
    for path, func in fallback.items():
        by_impl.setdefault(func.qual, (func, [], []))[2].append(path)
    functions: dict[str, Any] = {}
    for qual in sorted(by_impl):
        func, paths, ir_paths = by_impl[qual]
        head: dict[str, Any] = {"paths": canonical_order(paths, func, ns)}
        if ir_paths:
            head["ir_paths"] = sorted(ir_paths)
        entry = analyse(func, tree, verbose)
        if not paths and not entry["ops"]:
            continue  # an IR-module helper, not an op the parser could build
        functions[qual] = {**head, **entry}
    return {"format": 1, "pypto": {"commit": commit}, "kinds": KIND_LETTERS, "functions": functions}


def dump(data: dict[str, Any]) -> str:
    """Compact JSON with one function per line, so regenerations diff readably."""
    compact = {"separators": (",", ":"), "ensure_ascii": False}
    head = {k: v for k, v in data.items() if k != "functions"}
    lines = [json.dumps(k, **compact) + ":" + json.dumps(v, **compact) for k, v in data["functions"].items()]
    return json.dumps(head, **compact)[:-1] + ',"functions":{\n' + ",\n".join(lines) + "\n}}\n"
