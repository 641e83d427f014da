"""The abstract interpreter: runs a DSL wrapper into the IR builders, forking at tests of its parameters."""
from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any, Optional, Sequence

from .guards import ALL, DSL_TYPES, EXPR_TYPES, IR_TYPE_TYPES, type_sets, f_and, f_not, f_or, kind_atom
from .sources import SourceTree
from .values import (Cond, Const, Dct, Ext, Func, Klass, Method, ModRef, OpRef, Opq, Outcome, Seq, State, add_guard,
                     derived, join, join_env, or_guards, params_of, src_of, value_text)

MAX_DEPTH = 24
MAX_PATHS = 64
MAX_UNROLL = 32


@dataclass(frozen=True)
class Frame:
    module: str
    func: Optional[Func]
    depth: int


class Interp:
    def __init__(self, tree: SourceTree) -> None:
        self.tree = tree
        self.emissions: list[dict] = []
        self._emission_ids: dict[Any, int] = {}
        self.stack: list[ast.AST] = []
        self.entry_params: frozenset[str] = frozenset()
        self.notes: list[str] = []  # recorded in the output: precision was given up
        self.log: list[str] = []  # shown with --verbose: heuristics that were applied

    # -- entry ------------------------------------------------------------

    def run_entry(self, func: Func) -> list[tuple[State, Any]]:
        args = func.node.args
        env: dict[str, Any] = {}
        names = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
        for n in names:
            env[n] = Opq(frozenset((n,)), (n, "dsl"))
        if args.vararg:
            env[args.vararg.arg] = Seq((), True, frozenset((args.vararg.arg,)))
        if args.kwarg:
            env[args.kwarg.arg] = Dct((), True, frozenset((args.kwarg.arg,)))
        self.entry_params = frozenset(names + [a.arg for a in (args.vararg, args.kwarg) if a])
        frame = Frame(func.module, func, 0)
        self.stack = [func.node]
        outs = self.exec_block(func.node.body, frame, env, State())
        return [(o.state, o.value if o.kind == "return" else Const(None))
                for o in outs if o.kind in ("return", "fall")]

    # -- static evaluation of module-level constants ----------------------

    def eval_static(self, node: ast.expr, modname: str) -> Any:
        alts = self.eval(node, Frame(modname, None, 0), {}, State())
        return alts[0][1] if len(alts) == 1 else Opq()

    # -- statements ---------------------------------------------------------

    def exec_block(self, stmts: list[ast.stmt], fr: Frame, env: dict, st: State) -> list[Outcome]:
        paths: list[tuple[dict, State]] = [(env, st)]
        done: list[Outcome] = []
        for stmt in stmts:
            nxt: list[tuple[dict, State]] = []
            for e, s in paths:
                for o in self.exec_stmt(stmt, fr, e, s):
                    if o.kind == "fall":
                        nxt.append((o.env, o.state))
                    else:
                        done.append(o)
            paths = self.merge_paths(nxt)
            if not paths:
                break
        done.extend(Outcome("fall", e, s) for e, s in paths)
        return done

    def merge_paths(self, paths: list[tuple[dict, State]]) -> list[tuple[dict, State]]:
        out: list[list[Any]] = []
        for env, st in paths:
            for slot in out:
                if slot[1].emits == st.emits:
                    j = join_env(slot[0], env, strict=True)
                    if j is not None:
                        slot[0] = j
                        slot[1] = State(or_guards(slot[1].guards, st.guards), st.emits)
                        break
            else:
                out.append([env, st])
        if len(out) > MAX_PATHS:
            self.notes.append(f"path cap hit ({len(out)} paths)")
            forced: list[list[Any]] = []
            for env, st in out:
                for slot in forced:
                    if slot[1].emits == st.emits:
                        slot[0] = join_env(slot[0], env, strict=False)
                        slot[1] = State(or_guards(slot[1].guards, st.guards), st.emits)
                        break
                else:
                    forced.append([env, st])
            out = forced
        return [(e, s) for e, s in out]

    def exec_stmt(self, node: ast.stmt, fr: Frame, env: dict, st: State) -> list[Outcome]:
        if isinstance(node, ast.Expr):
            mutated = self.try_mutation(node.value, fr, env, st)
            if mutated is not None:
                return mutated
            return [Outcome("fall", env, s) for s, _ in self.eval(node.value, fr, env, st)]
        if isinstance(node, ast.Assign):
            out = []
            for s, v in self.eval(node.value, fr, env, st):
                e = dict(env)
                for t in node.targets:
                    e = self.assign(t, v, fr, e, s)
                out.append(Outcome("fall", e, s))
            return out
        if isinstance(node, ast.AnnAssign):
            if node.value is None:
                return [Outcome("fall", env, st)]
            return [Outcome("fall", self.assign(node.target, v, fr, dict(env), s), s)
                    for s, v in self.eval(node.value, fr, env, st)]
        if isinstance(node, ast.AugAssign):
            expr = ast.BinOp(left=_load(node.target), op=node.op, right=node.value)
            return [Outcome("fall", self.assign(node.target, v, fr, dict(env), s), s)
                    for s, v in self.eval(expr, fr, env, st)]
        if isinstance(node, ast.If):
            out = []
            for s, v in self.eval(node.test, fr, env, st):
                f = self.truth(v)
                st_true = add_guard(s, f) if f is not False else None
                st_false = add_guard(s, f_not(f)) if f is not True else None
                if st_true is not None:
                    out.extend(self.exec_block(node.body, fr, env, st_true))
                if st_false is not None:
                    out.extend(self.exec_block(node.orelse, fr, env, st_false))
            return out
        if isinstance(node, (ast.For, ast.AsyncFor)):
            return self.exec_for(node, fr, env, st)
        if isinstance(node, ast.While):
            return self.exec_loop_once(node.body, node.orelse, None, None, fr, env, st)
        if isinstance(node, ast.Return):
            if node.value is None:
                return [Outcome("return", env, st, Const(None))]
            return [Outcome("return", env, s, v) for s, v in self.eval(node.value, fr, env, st)]
        if isinstance(node, ast.Raise):
            return [Outcome("raise", env, st)]
        if isinstance(node, ast.Try):
            out = []
            for o in self.exec_block(node.body, fr, env, st):
                if o.kind == "fall":
                    out.extend(self.exec_block(node.orelse + node.finalbody, fr, o.env, o.state))
                else:
                    out.append(o)
            return out
        if isinstance(node, (ast.With, ast.AsyncWith)):
            e = dict(env)
            for item in node.items:
                alts = self.eval(item.context_expr, fr, e, st)
                st = alts[0][0] if len(alts) == 1 else st
                if item.optional_vars is not None:
                    e = self.assign(item.optional_vars, Opq(), fr, e, st)
            return self.exec_block(node.body, fr, e, st)
        if isinstance(node, ast.Assert):
            out = []
            for s, v in self.eval(node.test, fr, env, st):
                s2 = add_guard(s, self.truth(v))
                out.append(Outcome("fall", env, s2) if s2 is not None else Outcome("raise", env, s))
            return out
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            e = dict(env)
            e[node.name] = Func(fr.module, node, tuple(sorted(env.items(), key=lambda kv: kv[0])))
            return [Outcome("fall", e, st)]
        if isinstance(node, ast.ClassDef):
            e = dict(env)
            e[node.name] = Klass(f"{fr.module}.<local>.{node.name}")
            return [Outcome("fall", e, st)]
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            e = dict(env)
            mod = self.tree.module(fr.module)
            for a in node.names:
                if isinstance(node, ast.Import):
                    name = a.asname or a.name.split(".")[0]
                    target = a.name if a.asname else a.name.split(".")[0]
                    e[name] = ModRef(target) if self.tree.module(target) else Ext(target)
                else:
                    base = mod.resolve_relative(node.module, node.level) if mod else (node.module or "")
                    if self.tree.module(base) is None:
                        e[a.asname or a.name] = Ext(f"{base}.{a.name}")
                    elif self.tree.module(f"{base}.{a.name}") is not None and \
                            a.name not in self.tree.module(base).bindings:  # type: ignore[union-attr]
                        e[a.asname or a.name] = ModRef(f"{base}.{a.name}")
                    else:
                        e[a.asname or a.name] = self.tree.global_value(base, a.name, self)
            return [Outcome("fall", e, st)]
        if isinstance(node, ast.Break):
            return [Outcome("break", env, st)]
        if isinstance(node, ast.Continue):
            return [Outcome("continue", env, st)]
        # pass, global, nonlocal, delete, match, ...: no effect we model
        return [Outcome("fall", env, st)]

    def exec_for(self, node: ast.For, fr: Frame, env: dict, st: State) -> list[Outcome]:
        out: list[Outcome] = []
        for s, it in self.eval(node.iter, fr, env, st):
            items = self.iter_items(it)
            if items is None or len(items) > MAX_UNROLL:
                elem = Opq(src_of(it))
                out.extend(self.exec_loop_once(node.body, node.orelse, node.target, elem, fr, env, s))
                continue
            paths = [(env, s)]
            for item in items:
                nxt = []
                for e, s2 in paths:
                    e2 = self.assign(node.target, item, fr, dict(e), s2)
                    for o in self.exec_block(node.body, fr, e2, s2):
                        if o.kind in ("fall", "continue"):
                            nxt.append((o.env, o.state))
                        elif o.kind == "break":
                            out.append(Outcome("fall", o.env, o.state))
                        else:
                            out.append(o)
                paths = self.merge_paths(nxt)
            for e, s2 in paths:
                out.extend(self.exec_block(node.orelse, fr, e, s2))
        return out

    def exec_loop_once(self, body: list[ast.stmt], orelse: list[ast.stmt], target: Optional[ast.expr],
                       elem: Any, fr: Frame, env: dict, st: State) -> list[Outcome]:
        """A loop with an unknown trip count: the body once, joined with skipping it."""
        e0 = self.assign(target, elem, fr, dict(env), st) if target is not None else env
        out: list[Outcome] = []
        falls = [(env, st)]
        for o in self.exec_block(body, fr, e0, st):
            if o.kind in ("fall", "continue", "break"):
                falls.append((o.env, o.state))
            else:
                out.append(o)
        merged: Optional[list[Any]] = None
        for e, s in falls:
            if merged is None:
                merged = [e, s]
            elif s.emits == merged[1].emits:
                merged[0] = join_env(merged[0], e, strict=False)
                merged[1] = State(or_guards(merged[1].guards, s.guards), s.emits)
            else:
                out.extend(self.exec_block(orelse, fr, e, s))
        if merged is not None:
            out.extend(self.exec_block(orelse, fr, merged[0], merged[1]))
        return out

    def iter_items(self, v: Any) -> Optional[list[Any]]:
        if isinstance(v, Seq) and not v.open:
            return list(v.items)
        if isinstance(v, Const) and isinstance(v.value, (str, tuple)):
            return [Const(x) for x in v.value]
        return None

    def try_mutation(self, call: ast.expr, fr: Frame, env: dict, st: State) -> Optional[list[Outcome]]:
        """`xs.append(v)`, `kw.update(...)`, ... on a local container: rebind it."""
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                and isinstance(call.func.value, ast.Name) and call.func.value.id in env):
            return None
        name, meth = call.func.value.id, call.func.attr
        obj = env[name]
        if not isinstance(obj, (Seq, Dct)):
            return None
        out = []
        for s, args, kwargs in self.eval_args(call, fr, env, st):
            new = self.mutate(obj, meth, args, kwargs)
            if new is None:
                return None
            e = dict(env)
            e[name] = new
            out.append(Outcome("fall", e, s))
        return out

    def mutate(self, obj: Any, meth: str, args: list[Any], kwargs: dict) -> Optional[Any]:
        if isinstance(obj, Seq):
            if meth == "append" and len(args) == 1:
                if obj.open:
                    return Seq(obj.items, True, obj.tail_src | src_of(args[0]))
                return Seq(obj.items + (args[0],))
            if meth == "extend" and len(args) == 1:
                return self.concat(obj, args[0])
            if meth == "insert" and len(args) == 2:
                idx = args[0].value if isinstance(args[0], Const) else None
                if isinstance(idx, int) and not obj.open:
                    items = list(obj.items)
                    items.insert(idx, args[1])
                    return Seq(tuple(items))
                return Seq((), True, src_of(obj) | src_of(args[1]))
            if meth in ("pop", "remove", "clear", "sort", "reverse"):
                return Seq((), True, src_of(obj)) if meth != "clear" else Seq(())
            return None
        if isinstance(obj, Dct):
            if meth in ("update",):
                new = obj
                for a in args:
                    if isinstance(a, Dct):
                        for k, v, o in a.items:
                            new = new.set(k, v) if not o else Dct(new.items + ((k, v, True),), new.open,
                                                                 new.open_src)
                        if a.open:
                            new = Dct(new.items, True, new.open_src | a.open_src)
                    else:
                        new = Dct(new.items, True, new.open_src | src_of(a))
                for k, v in kwargs.items():
                    new = new.set(k, v)
                return new
            if meth == "setdefault" and args and isinstance(args[0], Const):
                if obj.get(args[0].value) is None:
                    return obj.set(args[0].value, args[1] if len(args) > 1 else Const(None))
                return obj
            if meth == "pop" and args and isinstance(args[0], Const):
                return Dct(tuple(i for i in obj.items if i[0] != args[0].value), obj.open, obj.open_src)
            return None
        return None

    def assign(self, target: Optional[ast.expr], v: Any, fr: Frame, env: dict, st: State) -> dict:
        if target is None:
            return env
        if isinstance(target, ast.Name):
            env[target.id] = v
        elif isinstance(target, (ast.Tuple, ast.List)):
            elts = target.elts
            star = next((i for i, t in enumerate(elts) if isinstance(t, ast.Starred)), None)
            if isinstance(v, Seq) and not v.open and star is None and len(v.items) == len(elts):
                for t, item in zip(elts, v.items):
                    env = self.assign(t, item, fr, env, st)
            else:
                for t in elts:
                    t = t.value if isinstance(t, ast.Starred) else t
                    env = self.assign(t, Opq(src_of(v)), fr, env, st)
        elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
            name = target.value.id
            obj = env.get(name)
            alts = self.eval(target.slice, fr, env, st)
            key = alts[0][1] if len(alts) == 1 else Opq()
            if isinstance(obj, Dct):
                if isinstance(key, Const) and isinstance(key.value, str):
                    env[name] = obj.set(key.value, v)
                else:
                    env[name] = Dct(obj.items, True, obj.open_src | src_of(v))
            elif isinstance(obj, Seq):
                if isinstance(key, Const) and isinstance(key.value, int) and not obj.open \
                        and -len(obj.items) <= key.value < len(obj.items):
                    items = list(obj.items)
                    items[key.value] = v
                    env[name] = Seq(tuple(items))
                else:
                    env[name] = Seq((), True, src_of(obj) | src_of(v))
        return env

    # -- expressions ---------------------------------------------------------

    def eval(self, node: ast.expr, fr: Frame, env: dict, st: State) -> list[tuple[State, Any]]:
        """Alternatives (state, value); more than one when the expression branches."""
        method = getattr(self, "eval_" + type(node).__name__, None)
        if method is None:
            return [(st, Opq())]
        return method(node, fr, env, st)

    def eval_all(self, nodes: Sequence[ast.expr], fr: Frame, env: dict,
                 st: State) -> list[tuple[State, list[Any]]]:
        alts: list[tuple[State, list[Any]]] = [(st, [])]
        for n in nodes:
            nxt = []
            for s, vals in alts:
                for s2, v in self.eval(n, fr, env, s):
                    nxt.append((s2, vals + [v]))
            alts = nxt
        return alts

    def eval_Constant(self, node: ast.Constant, fr: Frame, env: dict, st: State) -> list:
        return [(st, Const(node.value))]

    def eval_Name(self, node: ast.Name, fr: Frame, env: dict, st: State) -> list:
        if node.id in env:
            return [(st, env[node.id])]
        if fr.func is not None and fr.func.closure:
            for k, v in fr.func.closure:
                if k == node.id:
                    return [(st, v)]
        return [(st, self.tree.global_value(fr.module, node.id, self))]

    def eval_Attribute(self, node: ast.Attribute, fr: Frame, env: dict, st: State) -> list:
        return [(s, self.attr(v, node.attr)) for s, v in self.eval(node.value, fr, env, st)]

    def attr(self, v: Any, name: str) -> Any:
        if isinstance(v, ModRef):
            return self.tree.global_value(v.name, name, self)
        if isinstance(v, (Ext, Klass)):
            return Ext(f"{v.qual}.{name}")
        if isinstance(v, Opq):
            if name == "type":
                return Opq(typeof=v.ident[0] if v.ident else None)
            if name in ("dtype", "shape", "span", "__class__", "__name__", "kind"):
                return Opq()  # metadata, not the value itself
            return derived(v)
        return Opq(src_of(v))

    def eval_Call(self, node: ast.Call, fr: Frame, env: dict, st: State) -> list:
        out = []
        if isinstance(node.func, ast.Attribute):
            funcs = []
            for s, base in self.eval(node.func.value, fr, env, st):
                if isinstance(base, (Opq, Seq, Dct, Const)):
                    funcs.append((s, Method(base, node.func.attr)))
                else:
                    funcs.append((s, self.attr(base, node.func.attr)))
        else:
            funcs = self.eval(node.func, fr, env, st)
        for s, fv in funcs:
            for s2, args, kwargs in self.eval_args(node, fr, env, s):
                out.extend(self.call(fv, args, kwargs, fr, s2))
        return out

    def eval_args(self, node: ast.Call, fr: Frame, env: dict,
                  st: State) -> list[tuple[State, list[Any], dict[str, Any]]]:
        """Positional values (a trailing open Seq marks `*x` of unknown length) and keywords.

        Unknown `**x` shows up under the key '**'.
        """
        out = []
        nodes = [a.value if isinstance(a, ast.Starred) else a for a in node.args] + \
                [k.value for k in node.keywords]
        for s, vals in self.eval_all(nodes, fr, env, st):
            args: list[Any] = []
            open_src: Optional[frozenset] = None
            for a, v in zip(node.args, vals):
                if isinstance(a, ast.Starred):
                    if open_src is None and isinstance(v, Seq) and not v.open:
                        args.extend(v.items)
                    else:
                        if open_src is None and isinstance(v, Seq):
                            args.extend(v.items)
                        open_src = (open_src or frozenset()) | (v.tail_src if isinstance(v, Seq) else src_of(v))
                elif open_src is None:
                    args.append(v)
                else:
                    open_src |= src_of(v)
            if open_src is not None:
                args.append(Seq((), True, open_src))  # marker: unknown further positionals
            kwargs: dict[str, Any] = {}
            for k, v in zip(node.keywords, vals[len(node.args):]):
                if k.arg is not None:
                    kwargs[k.arg] = v
                elif isinstance(v, Dct):
                    for kk, vv, _ in v.items:
                        kwargs[kk] = vv
                    if v.open:
                        kwargs["**"] = Opq(src_of(kwargs.get("**", Opq())) | v.open_src)
                else:
                    kwargs["**"] = Opq(src_of(kwargs.get("**", Opq())) | src_of(v))
            out.append((s, args, kwargs))
        return out

    def eval_BoolOp(self, node: ast.BoolOp, fr: Frame, env: dict, st: State) -> list:
        out = []
        for s, vals in self.eval_all(node.values, fr, env, st):
            truths = [self.truth(v) for v in vals]
            condlike = all(isinstance(v, (Cond, Const)) or (isinstance(v, Opq) and v.ident) for v in vals)
            if isinstance(node.op, ast.And):
                if condlike:
                    out.append((s, Cond(f_and(*truths))))
                else:
                    out.append((s, vals[-1] if all(t is True for t in truths[:-1]) else
                                Opq(frozenset().union(*(src_of(v) for v in vals)))))
            else:
                if condlike:
                    out.append((s, Cond(f_or(*truths))))
                else:
                    picked = None
                    rest = []
                    for v, t in zip(vals, truths):
                        if t is True and not rest:
                            picked = v
                            break
                        if t is not False:
                            rest.append(v)
                    if picked is None:
                        picked = rest[0] if len(rest) == 1 else (vals[-1] if not rest else None)
                    if picked is None:
                        acc = rest[0]
                        for v in rest[1:]:
                            acc = join(acc, v, strict=False)
                        picked = acc
                    out.append((s, picked))
        return out

    def eval_UnaryOp(self, node: ast.UnaryOp, fr: Frame, env: dict, st: State) -> list:
        out = []
        for s, v in self.eval(node.operand, fr, env, st):
            if isinstance(node.op, ast.Not):
                out.append((s, Cond(f_not(self.truth(v)))))
            elif isinstance(v, Const) and isinstance(v.value, (int, float)):
                out.append((s, Const(-v.value if isinstance(node.op, ast.USub) else
                                     (~v.value if isinstance(node.op, ast.Invert) else v.value))))
            else:
                out.append((s, derived(v)))
        return out

    def eval_BinOp(self, node: ast.BinOp, fr: Frame, env: dict, st: State) -> list:
        out = []
        for s, (a, b) in self.eval_all([node.left, node.right], fr, env, st):
            if isinstance(a, Const) and isinstance(b, Const):
                try:
                    out.append((s, Const(_BINOPS[type(node.op)](a.value, b.value))))
                    continue
                except Exception:  # noqa: BLE001 - any failure: not a constant we can fold
                    pass
            if isinstance(node.op, ast.Add) and isinstance(a, Seq) and isinstance(b, Seq):
                out.append((s, self.concat(a, b)))
            else:
                out.append((s, Opq(src_of(a) | src_of(b))))
        return out

    def concat(self, a: Seq, b: Any) -> Seq:
        if a.open:
            return Seq(a.items, True, a.tail_src | src_of(b))
        if isinstance(b, Seq):
            return Seq(a.items + b.items, b.open, b.tail_src)
        return Seq(a.items, True, src_of(b))

    def eval_Compare(self, node: ast.Compare, fr: Frame, env: dict, st: State) -> list:
        out = []
        for s, vals in self.eval_all([node.left] + node.comparators, fr, env, st):
            parts = [self.compare(op, vals[i], vals[i + 1]) for i, op in enumerate(node.ops)]
            out.append((s, Cond(f_and(*parts))))
        return out

    def compare(self, op: ast.cmpop, a: Any, b: Any) -> Any:
        if isinstance(a, Const) and isinstance(b, Const):
            try:
                return bool(_CMPOPS[type(op)](a.value, b.value))
            except Exception:  # noqa: BLE001
                return None
        if isinstance(op, (ast.Is, ast.IsNot)):
            f = self.is_none(a, b)
            return f if isinstance(op, ast.Is) else f_not(f)
        if isinstance(op, (ast.Eq, ast.NotEq)):
            f = self.equals(a, b)
            return f if isinstance(op, ast.Eq) else f_not(f)
        if isinstance(op, (ast.In, ast.NotIn)):
            f = None
            if isinstance(a, Opq) and a.ident and isinstance(b, Seq) and not b.open:
                texts = [value_text(x) for x in b.items]
                if all(t is not None for t in texts):
                    f = ("in", a.ident[0], tuple(texts))
            return f if isinstance(op, ast.In) else f_not(f)
        return None

    def is_none(self, a: Any, b: Any) -> Any:
        if isinstance(b, Const) and b.value is None:
            a, b = b, a
        if not (isinstance(a, Const) and a.value is None):
            return None
        if isinstance(b, Opq) and b.ident:
            return kind_atom(b.ident[0], "N", "")
        if isinstance(b, (Seq, Dct, Func, Klass, ModRef, Cond)):
            return False
        if isinstance(b, Const):
            return b.value is None
        return None

    def equals(self, a: Any, b: Any) -> Any:
        if isinstance(a, Opq) and a.ident and not isinstance(b, Opq):
            text = value_text(b)
            return ("eq", a.ident[0], text) if text is not None else None
        if isinstance(b, Opq) and b.ident and not isinstance(a, Opq):
            return self.equals(b, a)
        if isinstance(a, Opq) and a.ident and isinstance(b, Opq) and b.text:
            return ("eq", a.ident[0], b.text)
        if isinstance(b, Opq) and b.ident and isinstance(a, Opq) and a.text:
            return ("eq", b.ident[0], a.text)
        return None

    def eval_IfExp(self, node: ast.IfExp, fr: Frame, env: dict, st: State) -> list:
        out = []
        for s, v in self.eval(node.test, fr, env, st):
            f = self.truth(v)
            st_true = add_guard(s, f) if f is not False else None
            st_false = add_guard(s, f_not(f)) if f is not True else None
            if st_true is not None:
                out.extend(self.eval(node.body, fr, env, st_true))
            if st_false is not None:
                out.extend(self.eval(node.orelse, fr, env, st_false))
        return out

    def eval_seq(self, elts: list[ast.expr], fr: Frame, env: dict, st: State) -> list:
        out = []
        nodes = [e.value if isinstance(e, ast.Starred) else e for e in elts]
        for s, vals in self.eval_all(nodes, fr, env, st):
            acc = Seq(())
            for e, v in zip(elts, vals):
                acc = self.concat(acc, v) if isinstance(e, ast.Starred) else self.concat(acc, Seq((v,)))
            out.append((s, acc))
        return out

    eval_List = eval_Tuple = eval_Set = lambda self, node, fr, env, st: self.eval_seq(node.elts, fr, env, st)

    def eval_Dict(self, node: ast.Dict, fr: Frame, env: dict, st: State) -> list:
        out = []
        keys = [k for k in node.keys if k is not None]
        for s, vals in self.eval_all(keys + node.values, fr, env, st):
            kv = dict(zip(keys, vals[: len(keys)]))
            d = Dct(())
            for k, vnode, v in zip(node.keys, node.values, vals[len(keys):]):
                if k is None:
                    if isinstance(v, Dct):
                        for kk, vv, o in v.items:
                            d = Dct(d.items + ((kk, vv, o),), d.open, d.open_src)
                        if v.open:
                            d = Dct(d.items, True, d.open_src | v.open_src)
                    else:
                        d = Dct(d.items, True, d.open_src | src_of(v))
                    continue
                key = kv[k]
                if isinstance(key, Const) and isinstance(key.value, str):
                    d = d.set(key.value, v)
                else:
                    d = Dct(d.items, True, d.open_src | src_of(v))
            out.append((s, d))
        return out

    def eval_Subscript(self, node: ast.Subscript, fr: Frame, env: dict, st: State) -> list:
        out = []
        for s, (base, key) in self.eval_all([node.value, node.slice], fr, env, st):
            out.append((s, self.subscript(base, key)))
        return out

    def subscript(self, base: Any, key: Any) -> Any:
        if isinstance(base, Seq) and isinstance(key, Const) and isinstance(key.value, int):
            n = len(base.items)
            i = key.value
            if 0 <= i < n:
                return base.items[i]
            if i < 0 and not base.open and -n <= i:
                return base.items[i]
            return Opq(src_of(base))
        if isinstance(base, Seq) and isinstance(key, Seq):  # a slice evaluated as Seq: give up
            return Seq((), True, src_of(base))
        if isinstance(base, Dct) and isinstance(key, Const):
            v = base.get(key.value)
            return v if v is not None else Opq(base.open_src)
        if isinstance(base, (Ext, Klass)):
            return Ext(base.qual + "[]")
        return Opq(src_of(base))

    def eval_Slice(self, node: ast.Slice, fr: Frame, env: dict, st: State) -> list:
        return [(st, Seq((), True))]

    def eval_JoinedStr(self, node: ast.JoinedStr, fr: Frame, env: dict, st: State) -> list:
        return [(st, Opq())]

    def eval_Lambda(self, node: ast.Lambda, fr: Frame, env: dict, st: State) -> list:
        return [(st, Opq())]

    def eval_NamedExpr(self, node: ast.NamedExpr, fr: Frame, env: dict, st: State) -> list:
        return self.eval(node.value, fr, env, st)

    def eval_Starred(self, node: ast.Starred, fr: Frame, env: dict, st: State) -> list:
        return self.eval(node.value, fr, env, st)

    def eval_comprehension(self, node: Any, fr: Frame, env: dict, st: State, elt: Any) -> list:
        if len(node.generators) != 1:
            return [(st, Opq())]
        gen = node.generators[0]
        out = []
        for s, it in self.eval(gen.iter, fr, env, st):
            items = self.iter_items(it)
            if items is not None and len(items) <= MAX_UNROLL:
                acc: list[Any] = []
                exact = True
                for item in items:
                    e = self.assign(gen.target, item, fr, dict(env), s)
                    keep = True
                    for cond in gen.ifs:
                        alts = self.eval(cond, fr, e, s)
                        t = self.truth(alts[0][1]) if len(alts) == 1 else None
                        if t is False:
                            keep = False
                        elif t is not True:
                            exact = False
                    if keep:
                        acc.append(self.eval_elt(elt, fr, e, s))
                if exact:
                    out.append((s, Seq(tuple(acc))))
                else:
                    out.append((s, Seq((), True, frozenset().union(*(src_of(a) for a in acc)))))
                continue
            e = self.assign(gen.target, Opq(src_of(it)), fr, dict(env), s)
            v = self.eval_elt(elt, fr, e, s)
            out.append((s, Seq((), True, src_of(v) | src_of(it))))
        return out

    def eval_elt(self, elt: Any, fr: Frame, env: dict, st: State) -> Any:
        if isinstance(elt, tuple):  # dict comprehension: key, value
            return Seq(tuple(self.eval_elt(e, fr, env, st) for e in elt))
        alts = self.eval(elt, fr, env, st)
        acc = alts[0][1]
        for _, v in alts[1:]:
            acc = join(acc, v, strict=False)
        return acc

    def eval_ListComp(self, node: ast.ListComp, fr: Frame, env: dict, st: State) -> list:
        return self.eval_comprehension(node, fr, env, st, node.elt)

    eval_SetComp = eval_GeneratorExp = eval_ListComp

    def eval_DictComp(self, node: ast.DictComp, fr: Frame, env: dict, st: State) -> list:
        out = []
        for s, v in self.eval_comprehension(node, fr, env, st, (node.key, node.value)):
            if isinstance(v, Seq) and not v.open and all(
                    isinstance(p, Seq) and isinstance(p.items[0], Const) for p in v.items):
                out.append((s, Dct(tuple((p.items[0].value, p.items[1], False) for p in v.items))))
            else:
                out.append((s, Dct((), True, src_of(v))))
        return out

    # -- truth ---------------------------------------------------------------

    def truth(self, v: Any) -> Any:
        """The condition `bool(v)` as a guard formula (None: unknown)."""
        if isinstance(v, Cond):
            return v.f
        if isinstance(v, Const):
            return bool(v.value)
        if isinstance(v, Opq) and v.ident:
            return ("truthy", v.ident[0])
        if isinstance(v, Seq) and not v.open:
            return bool(v.items)
        if isinstance(v, Seq) and v.items:
            return True
        if isinstance(v, (Func, Klass, ModRef, Method)):
            return True
        return None

    # -- calls -----------------------------------------------------------------

    def call(self, fv: Any, args: list[Any], kwargs: dict[str, Any], fr: Frame,
             st: State) -> list[tuple[State, Any]]:
        if isinstance(fv, Func):
            return self.call_function(fv, args, kwargs, fr, st)
        if isinstance(fv, Method):
            return [(st, self.call_method(fv, args, kwargs))]
        if isinstance(fv, Ext):
            return self.call_external(fv.qual, args, kwargs, st)
        return [(st, self.opaque_result(args, kwargs))]

    def opaque_result(self, args: list[Any], kwargs: dict[str, Any]) -> Opq:
        """An unmodelled call: the result comes from its first data-carrying argument.

        Builder-style calls (`ConstInt(value, dtype, span)`, `MakeTuple(elems,
        span)`, `int(x)`) take the data first and metadata after it.
        """
        carriers = [v for v in list(args) + list(kwargs.values()) if params_of(src_of(v))]
        if len({params_of(src_of(v)) for v in carriers}) > 1:
            self.log.append("first-argument rule: " + " / ".join(",".join(params_of(src_of(v))) for v in carriers))
        for v in list(args) + list(kwargs.values()):
            src = src_of(v)
            if src:
                return derived(v, src)
        return Opq()

    def call_method(self, m: Method, args: list[Any], kwargs: dict[str, Any]) -> Any:
        obj, name = m.obj, m.name
        if name == "unwrap" and isinstance(obj, Opq):
            ident = obj.ident
            if ident and ident[1] in ("dsl", "mixed"):
                ident = (ident[0], "expr")
            return Opq(obj.src, ident)
        if isinstance(obj, Dct):
            if name == "get" and args and isinstance(args[0], Const):
                v = obj.get(args[0].value)
                if v is not None:
                    return v
                return args[1] if len(args) > 1 else Const(None)
            if name in ("items", "keys", "values") and not obj.open:
                if name == "items":
                    return Seq(tuple(Seq((Const(k), v)) for k, v, _ in obj.items))
                if name == "keys":
                    return Seq(tuple(Const(k) for k, _, _ in obj.items))
                return Seq(tuple(v for _, v, _ in obj.items))
            if name == "copy":
                return obj
            return Opq(src_of(obj))
        if isinstance(obj, Seq) and name == "copy":
            return obj
        if isinstance(obj, Const) and isinstance(obj.value, str):
            return Opq()
        return self.opaque_result([obj] + list(args), kwargs)

    def call_external(self, qual: str, args: list[Any], kwargs: dict[str, Any],
                      st: State) -> list[tuple[State, Any]]:
        short = qual.rsplit(".", 1)[-1]
        if short == "create_op_call" and qual.startswith("pypto."):
            return [self.emit(args, kwargs, st)]
        if qual.startswith("pypto.") and short == "get_op" and args:
            return [(st, OpRef(args[0]))]
        if qual.startswith("pypto.") and short == "Call" and args and isinstance(args[0], OpRef):
            rest = list(args[1:3])
            while len(rest) < 2:
                rest.append(Dct(()))
            return [self.emit([args[0].name] + rest, {}, st)]
        if qual.startswith("builtins."):
            return [(st, self.call_builtin(short, args, kwargs))]
        if qual in ("warnings.warn",):
            return [(st, Const(None))]
        return [(st, self.opaque_result(args, kwargs))]

    def call_builtin(self, name: str, args: list[Any], kwargs: dict[str, Any]) -> Any:
        if name == "isinstance" and len(args) == 2:
            return Cond(self.isinstance_test(args[0], args[1]))
        if name == "hasattr" and len(args) == 2:
            v = args[0]
            if isinstance(v, Opq) and v.ident and isinstance(args[1], Const) and args[1].value == "unwrap":
                level = v.ident[1]
                if level == "dsl":
                    return Cond(kind_atom(v.ident[0], "TLS", "O"))
                if level == "expr":
                    return Cond(kind_atom(v.ident[0], "", "O"))
            return Cond(None)
        if name == "len":
            v = args[0] if args else None
            if isinstance(v, Seq) and not v.open:
                return Const(len(v.items))
            if isinstance(v, Const) and isinstance(v.value, (str, tuple)):
                return Const(len(v.value))
            return Opq()
        if name in ("int", "float", "bool", "str") and len(args) == 1:
            v = args[0]
            if isinstance(v, Const):
                try:
                    return Const({"int": int, "float": float, "bool": bool, "str": str}[name](v.value))
                except Exception:  # noqa: BLE001
                    return Opq()
            if name == "bool":
                return Cond(self.truth(v))
            return derived(v) if name != "str" else Opq()
        if name in ("list", "tuple", "sorted", "reversed", "set", "frozenset"):
            if not args:
                return Seq(())
            v = args[0]
            if isinstance(v, Seq):
                return v if name not in ("sorted", "reversed", "set", "frozenset") or v.open else \
                    Seq(tuple(reversed(v.items))) if name == "reversed" else v
            if isinstance(v, Dct) and not v.open:
                return Seq(tuple(Const(k) for k, _, _ in v.items))
            return Seq((), True, src_of(v))
        if name == "dict":
            d = args[0] if args and isinstance(args[0], Dct) else Dct(())
            for k, v in kwargs.items():
                if k != "**":
                    d = d.set(k, v)
            return d
        if name in ("any", "all") and len(args) == 1 and isinstance(args[0], Seq) and not args[0].open:
            truths = [self.truth(v) for v in args[0].items]
            return Cond(f_or(*truths) if name == "any" else f_and(*truths))
        if name == "range":
            if all(isinstance(a, Const) and isinstance(a.value, int) for a in args) and args:
                r = range(*(a.value for a in args))
                if len(r) <= MAX_UNROLL:
                    return Seq(tuple(Const(i) for i in r))
            return Seq((), True)
        if name in ("enumerate", "zip"):
            seqs = args if name == "zip" else [Seq(tuple(Const(i) for i in range(MAX_UNROLL))), *args[:1]]
            if all(isinstance(s, Seq) and not s.open for s in seqs[1:] if name == "enumerate") and \
                    all(isinstance(s, Seq) for s in seqs):
                if name == "enumerate":
                    inner = seqs[1]
                    if not inner.open:
                        return Seq(tuple(Seq((Const(i), v)) for i, v in enumerate(inner.items)))
                elif all(not s.open for s in seqs):
                    return Seq(tuple(Seq(tuple(t)) for t in zip(*(s.items for s in seqs))))
            return Seq((), True, frozenset().union(*(src_of(a) for a in args)))
        if name in ("getattr",):
            if len(args) >= 2 and isinstance(args[1], Const) and isinstance(args[1].value, str):
                return self.attr(args[0], args[1].value) if not isinstance(args[0], Opq) else Opq()
            return Opq()
        if name in ("min", "max", "abs", "sum", "round"):
            if all(isinstance(a, Const) for a in args):
                try:
                    return Const(__import__("builtins").__dict__[name](*(a.value for a in args)))
                except Exception:  # noqa: BLE001
                    return Opq()
            return Opq(frozenset().union(*(src_of(a) for a in args)))
        return Opq()

    def isinstance_test(self, v: Any, t: Any) -> Any:
        names = self.type_names(t)
        if names is None:
            return None
        if isinstance(v, Opq):
            if v.typeof:
                yes, maybe = type_sets(IR_TYPE_TYPES, names)
                return kind_atom(v.typeof, yes, maybe)
            if v.ident:
                level = v.ident[1]
                if level == "derived":
                    return None
                if level == "mixed":
                    y1, m1 = type_sets(DSL_TYPES, names)
                    y2, m2 = type_sets(EXPR_TYPES, names)
                    yes = "".join(k for k in y1 if k in y2)
                    maybe = "".join(k for k in ALL if k in (y1 + m1 + y2 + m2) and k not in yes)
                    return kind_atom(v.ident[0], yes, maybe)
                yes, maybe = type_sets(DSL_TYPES if level == "dsl" else EXPR_TYPES, names)
                return kind_atom(v.ident[0], yes, maybe)
            return None
        if isinstance(v, Const):
            pytype = type(v.value).__name__
            if pytype == "NoneType":
                return "NoneType" in names
            if pytype == "bool":
                return any(n in ("bool", "int") for n in names) or None
            if any(n == pytype for n in names):
                return True
            return False if all(n in DSL_TYPES for n in names) else None
        if isinstance(v, Seq):
            if any(n in ("list", "tuple", "Sequence", "Iterable") for n in names):
                return True
            return False if all(n in DSL_TYPES for n in names) else None
        return None

    def type_names(self, t: Any) -> Optional[list[str]]:
        if isinstance(t, Seq) and not t.open:
            out: list[str] = []
            for item in t.items:
                sub = self.type_names(item)
                if sub is None:
                    return None
                out.extend(sub)
            return out
        if isinstance(t, (Ext, Klass)):
            name = t.qual.rsplit(".", 1)[-1]
            return ["NoneType" if name == "NoneType" else name]
        if isinstance(t, Const) and t.value is None:
            return ["NoneType"]
        return None

    def emit(self, args: list[Any], kwargs: dict[str, Any], st: State) -> tuple[State, Any]:
        """A registry op call: record what flows into each slot."""
        name = args[0] if args else kwargs.get("op_name", kwargs.get("name"))
        op_args = args[1] if len(args) > 1 else kwargs.get("args")
        op_kwargs = args[2] if len(args) > 2 else kwargs.get("kwargs", Dct(()))
        op = name.value if isinstance(name, Const) and isinstance(name.value, str) else "?"
        if isinstance(op_args, Seq):
            slots: Optional[tuple] = tuple(params_of(src_of(v)) for v in op_args.items)
            open_ = op_args.open
        else:
            slots, open_ = None, False
        kw: Optional[dict[str, tuple]] = None
        if isinstance(op_kwargs, Dct):
            kw = {}
            for k, v, _ in op_kwargs.items:
                srcs = params_of(src_of(v))
                if not srcs and k in self.entry_params:
                    # A constant the wrapper passes under a parameter's name, on
                    # paths chosen by that parameter (`{"mode": "soft"}` once
                    # `mode == "hard"` failed, `high_precision=True` if asked).
                    srcs = (k,)
                if not srcs:
                    text = value_text(v)
                    srcs = (f"={text}",) if text is not None else ()
                kw[k] = srcs
        key = (op, slots, open_, tuple(sorted((kw or {}).items())) if kw is not None else None)
        eid = self._emission_ids.get(key)
        if eid is None:
            eid = self._emission_ids[key] = len(self.emissions)
            self.emissions.append({"op": op, "args": slots, "open": open_, "kw": kw})
        return State(st.guards, st.emits + (eid,)), Opq(frozenset((eid,)))

    def call_function(self, fv: Func, args: list[Any], kwargs: dict[str, Any], fr: Frame,
                      st: State) -> list[tuple[State, Any]]:
        if fv.node in self.stack or fr.depth >= MAX_DEPTH:
            return [(st, self.opaque_result(args, kwargs))]
        env = self.bind(fv, args, kwargs)
        self.stack.append(fv.node)
        try:
            outs = self.exec_block(fv.node.body, Frame(fv.module, fv, fr.depth + 1), env, st)
        finally:
            self.stack.pop()
        rets = [(o.state, o.value if o.kind == "return" else Const(None))
                for o in outs if o.kind in ("return", "fall")]
        return self.collapse(rets, st)

    def bind(self, fv: Func, args: list[Any], kwargs: dict[str, Any]) -> dict[str, Any]:
        a = fv.node.args
        positional = a.posonlyargs + a.args
        env: dict[str, Any] = {}
        open_src: Optional[frozenset] = None
        if args and isinstance(args[-1], Seq) and args[-1].open and not args[-1].items:
            open_src = args[-1].tail_src  # `*x` of unknown length at the call
            args = args[:-1]
        for p, v in zip(positional, args):
            env[p.arg] = v
        extra = args[len(positional):]
        star = kwargs.get("**")
        if a.vararg:
            env[a.vararg.arg] = Seq(tuple(extra), open_src is not None, open_src or frozenset())
        defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
        for p, d in list(zip(positional, defaults)) + list(zip(a.kwonlyargs, a.kw_defaults)):
            if p.arg in env:
                continue
            if p.arg in kwargs:
                env[p.arg] = kwargs[p.arg]
            elif open_src is not None or star is not None:
                unknown = (open_src or frozenset()) | (src_of(star) if star is not None else frozenset())
                dv = self.eval_static(d, fv.module) if d is not None else Opq()
                env[p.arg] = join(dv, Opq(unknown), strict=False)
            elif d is not None:
                env[p.arg] = self.eval_static(d, fv.module)
            else:
                env[p.arg] = Opq()
        if a.kwarg:
            names = {p.arg for p in positional + a.kwonlyargs}
            items = tuple((k, v, False) for k, v in kwargs.items() if k not in names and k != "**")
            env[a.kwarg.arg] = Dct(items, star is not None, src_of(star) if star is not None else frozenset())
        return env

    def collapse(self, rets: list[tuple[State, Any]], entry: State) -> list[tuple[State, Any]]:
        """Merge a callee's outcomes that built the same ops, so callers do not multiply paths."""
        base = len(entry.guards)
        groups: list[list[Any]] = []
        for s, v in rets:
            boolish = isinstance(v, Cond) or (isinstance(v, Const) and isinstance(v.value, bool))
            for g in groups:
                if g[0].emits != s.emits:
                    continue
                if boolish and g[2]:
                    g[3].append((s.guards[base:], self.truth(v)))
                    g[0] = State(or_guards(g[0].guards, s.guards), s.emits)
                    break
                if not boolish and not g[2]:
                    j = join(g[1], v, strict=True)
                    if j is not None:
                        g[1] = j
                        g[0] = State(or_guards(g[0].guards, s.guards), s.emits)
                        break
            else:
                groups.append([s, v, boolish, [(s.guards[base:], self.truth(v))]])
        out = []
        for s, v, boolish, parts in groups:
            if boolish and len(parts) > 1:
                v = Cond(f_or(*(f_and(*g, t) for g, t in parts)))
            out.append((s, v))
        if len(out) > MAX_PATHS // 4:
            merged: dict[tuple, list[Any]] = {}
            for s, v in out:
                slot = merged.get(s.emits)
                if slot is None:
                    merged[s.emits] = [s, v]
                else:
                    slot[0] = State(or_guards(slot[0].guards, s.guards), s.emits)
                    slot[1] = join(slot[1], v, strict=False)
            out = [(s, v) for s, v in merged.values()]
        return out


def _load(target: ast.expr) -> ast.expr:
    """The augmented-assignment target re-read as an expression (`x += 1` reads `x`)."""
    return ast.parse(ast.unparse(target), mode="eval").body


_BINOPS = {
    ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b, ast.FloorDiv: lambda a, b: a // b, ast.Mod: lambda a, b: a % b,
    ast.Pow: lambda a, b: a ** b if abs(b) < 64 else None, ast.LShift: lambda a, b: a << b if b < 64 else None,
    ast.RShift: lambda a, b: a >> b, ast.BitOr: lambda a, b: a | b, ast.BitAnd: lambda a, b: a & b,
    ast.BitXor: lambda a, b: a ^ b,
}
_CMPOPS = {
    ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b, ast.Lt: lambda a, b: a < b,
    ast.LtE: lambda a, b: a <= b, ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b,
    ast.Is: lambda a, b: a is b, ast.IsNot: lambda a, b: a is not b,
    ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b,
}
