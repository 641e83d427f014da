"""Stage N (§4): expand Inline callees into their callers (N1), drop zero-trip loops (D7) and
lift the body of a one-trip loop into its parent (C5: PyPTO's Simplify removes the loop).

`pl.unroll` (N2), SSA (N3) and flattening (N4) already happened in lowering.
An expanded call keeps the spans and owner of the helper's text, so its
directions are shown on the helper's lines (H3).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable, Optional

from .. import preempt
from ..ir import nodes as ir
from ..ir.nodes import LoopKind
from ..sharing import shared
from .expansion_memo import ExpansionMemo, Record, Recorder, helper_answer, same_helper
from .walk import iter_uses, kept

# resolves a call to an Inline function: (its params, its body, whether its parameters keep their
# own names, as in @pl.jit.inline helpers) or None
InlineLookup = Callable[[ir.UserCall], Optional[tuple[list, list, bool]]]

_MAX_DEPTH = 8
_NOT_RENAMED = object()


def const_trip_count(loop: ir.Loop) -> Optional[int]:
    """B7: the iteration count of a range-like loop whose bounds are integer constants."""
    if loop.kind not in (LoopKind.RANGE, LoopKind.PARALLEL, LoopKind.PIPELINE):
        return None
    values = []
    for bound in loop.bounds:
        if not isinstance(bound, ir.Const) or not isinstance(bound.value, int) or isinstance(bound.value, bool):
            return None
        values.append(bound.value)
    if not values or len(values) > 3:
        return None
    start, stop, step = (0, values[0], 1) if len(values) == 1 else (values + [1])[:3]
    if step == 0:
        return None
    return len(range(start, stop, step))


def proven_trips(loop: ir.Loop) -> Optional[int]:
    """0 or 1 when PyPTO's Simplify can prove that a plain sequential loop runs that many times
    (`stop <= start`, or `start < stop <= start + step`): constant bounds, or `pl.range(s, s + c)`.
    Other loop kinds (parallel, pipeline, while) are never folded."""
    if loop.kind is not LoopKind.RANGE:
        return None
    trips = const_trip_count(loop)
    if trips is not None:
        return trips if trips in (0, 1) else None
    if len(loop.bounds) not in (2, 3):
        return None
    start, stop = loop.bounds[0], loop.bounds[1]
    step = 1 if len(loop.bounds) == 2 else loop.bounds[2].value if _is_int(loop.bounds[2]) else None
    if step is None or step < 1 or not isinstance(stop, ir.Arith) or stop.op != "+" or len(stop.operands) != 2:
        return None
    left, right = stop.operands
    offset = right if _same(left, start) else left if _same(right, start) else None
    if offset is None or not _is_int(offset):
        return None
    return 0 if offset.value <= 0 else 1 if offset.value <= step else None


def _is_int(expr) -> bool:
    return isinstance(expr, ir.Const) and isinstance(expr.value, int) and not isinstance(expr.value, bool)


def _same(a, b) -> bool:
    return isinstance(a, ir.Ref) and isinstance(b, ir.Ref) and a.var is b.var


class _Pending:
    """What the expansions leave for the whole function, applied once by the outermost call."""

    def __init__(self, memo: Optional[ExpansionMemo] = None):
        self.recorder = Recorder(memo) if memo is not None else None  # (expansion_memo.py)
        self.renames: dict = {}  # a version that is another one everywhere (lifted loop results, N1 results)
        self.after: dict = {}  # id(statement) -> {old: new}: uses after that statement read the new version
        self.phis: set = set()  # if-results of an expansion that exist only when the caller reads them
        self.temps: set = set()  # N4 temporaries of argument expressions that the scopes now compute themselves
        self.expressions: dict = {}  # such a temporary -> (its expression, helper parameter, caller, argument span)
        self.frames: list = []  # the expansions (ir.Inlined), whose arguments are renamed as the body is
        self.chain: tuple = ()  # the expansions under way, outermost first (what a copy made now came through)
        self.asked: tuple = ()  # with a memo: the program's own inline_of and params_of (not recording)
        self.top: Optional[list] = None  # with a memo: the function's body, whose statements' outputs are
        self.groups: list = []  # (its record or None, where its output starts and ends), in order

    # what the expansions write and read of the state, through these (recorded with a memo)
    def rename(self, old, new) -> None:
        self.renames[old] = new
        if self.recorder is not None:
            self.recorder.wrote("rename", old, new)

    def mark_after(self, key: int, renames: dict) -> None:
        self.after.setdefault(key, {}).update(renames)
        if self.recorder is not None:
            self.recorder.wrote("after", key, dict(renames))

    def add_phis(self, phis: list) -> None:
        self.phis.update(phis)
        if self.recorder is not None and phis:
            self.recorder.wrote("phis", None, tuple(phis))

    def add_temps(self, temps) -> None:
        self.temps.update(temps)
        if self.recorder is not None:
            self.recorder.wrote("temps", None, tuple(temps))

    def set_expression(self, key, value) -> None:
        self.expressions[key] = value
        if self.recorder is not None:
            self.recorder.wrote("expression", key, value)

    def expression(self, key):
        value = self.expressions.get(key)
        if self.recorder is not None:
            self.recorder.read(key, value)
        return value

    def add_frame(self, frame: ir.Inlined) -> None:
        frame.serial = len(self.frames)
        self.frames.append(frame)
        if self.recorder is not None:
            self.recorder.wrote("frame", frame, frame.args)

    def replay(self, entry: Record, out: list, inline_of, params_of) -> bool:
        """Take a kept statement's output if what it read is the same now (expansion_memo.py)."""
        if entry.hoisted is not None and entry.hoisted != _hoisted_ids(out):
            return False
        expressions = self.expressions
        reads, asked = entry.reads or {}, entry.asked or ()
        if any(expressions.get(key) is not value for key, value in reads.items()):
            return False
        for question, call, answer in asked:
            if question == "helper":
                if not same_helper(answer, helper_answer(inline_of(call))):
                    return False
            elif params_of(call) != answer:
                return False
        recorder = self.recorder
        for key, value in reads.items():
            recorder.read(key, value)
        for question, call, answer in asked:
            recorder.asked(question, call, answer)
        for what, key, value in entry.writes or ():
            if what == "rename":
                self.renames[key] = value
            elif what == "after":
                self.after.setdefault(key, {}).update(value)
            elif what == "phis":
                self.phis.update(value)
            elif what == "temps":
                self.temps.update(value)
            elif what == "expression":
                expressions[key] = value
            else:  # a frame, its arguments as made (the last N1's end renamed them in place), its serial now
                key.args = value
                key.serial = len(self.frames)
                self.frames.append(key)
            recorder.wrote(what, key, value)
        out.extend(entry.output)
        return True

    def finish(self, body: list) -> list:
        if self.after or self.renames:
            # one walk: the renames after each marked statement, then the function-wide ones
            framed: set = set()
            if self.groups:
                body = _rename_groups(body, self.groups, self.after, framed, self.renames)
            else:
                body = _rename_after(body, self.after, {}, framed, self.renames)
            if self.renames:
                renamer = _Renamer(self.renames)
                for frame in self.frames:
                    if frame not in framed:
                        frame.args = [renamer.expr(a) for a in frame.args]
        if self.phis or self.temps:
            used = set(iter_uses(body))
            phis, temps = self.phis - used, self.temps - used
            if phis or temps:  # (one walk for both: most expansions leave neither)
                body = _drop_unused(body, phis, temps)
        return body


def normalise(body: list, inline_of: InlineLookup, depth: int = 0, params_of=lambda call: None,
              pending: Optional[_Pending] = None, memo: Optional[ExpansionMemo] = None) -> list:
    """`params_of(call)` gives the callee's parameter names (to place keyword arguments). `memo`:
    what the function's last N1 made of its statements, used again where it still holds and
    filled with this one's (expansion_memo.py)."""
    if pending is None:
        pending = _Pending(memo)
        if memo is None:
            return pending.finish(normalise(body, inline_of, depth, params_of, pending))
        memo.start()
        recorder = pending.recorder

        def asking_helper(call):
            found = inline_of(call)
            recorder.asked("helper", call, helper_answer(found))
            return found

        def asking_params(call):
            names = params_of(call)
            recorder.asked("params", call, names)
            return names
        pending.asked = (inline_of, params_of)  # (a kept statement's questions are asked again unrecorded)
        pending.top = body
        out = pending.finish(normalise(body, asking_helper, depth, asking_params, pending))
        memo.done()
        return out
    out: list = []
    recorder = pending.recorder if depth == 0 else None
    groups = pending.groups if recorder is not None and body is pending.top else None
    for stmt in body:
        if recorder is None:
            _one(stmt, out, inline_of, depth, params_of, pending)
            continue
        memo = recorder.memo
        entry = memo.entries.get(id(stmt))
        start = len(out)
        if entry is not None and entry.stmt is stmt and pending.replay(entry, out, *pending.asked):
            memo.touched[id(stmt)] = entry
            memo.hits += 1
            if groups is not None:
                groups.append((entry, start, len(out)))
            continue
        expands = isinstance(stmt, ir.Assign) and isinstance(stmt.value, ir.UserCall)
        record = Record(stmt, _hoisted_ids(out) if expands else None)
        recorder.active.append(record)
        try:
            _one(stmt, out, inline_of, depth, params_of, pending)
        finally:
            recorder.active.pop()
        record.output = tuple(out[start:])
        if record.worth_keeping:
            memo.touched[id(stmt)] = record
            if groups is not None:
                groups.append((record, start, len(out)))
        elif groups is not None:
            groups.append((None, start, len(out)))
        memo.made += 1
    return out


def _one(stmt, out: list, inline_of: InlineLookup, depth: int, params_of, pending: _Pending) -> None:
    """N1 of one statement, what it makes added to `out` (its block's statements so far)."""
    if isinstance(stmt, ir.Assign) and isinstance(stmt.value, ir.UserCall):
        if stmt.value.keywords:
            stmt = replace(stmt, value=bind_keywords(stmt.value, params_of(stmt.value)))
        helper = inline_of(stmt.value) if depth < _MAX_DEPTH and not stmt.value.submit else None
        if helper is not None:
            out.extend(_expand(stmt, helper, inline_of, depth, params_of, pending, _hoisted_before(out)))
            return
    if isinstance(stmt, ir.If):  # (an `if` over constants was decided in lowering)
        then = normalise(stmt.then, inline_of, depth, params_of, pending)
        orelse = normalise(stmt.orelse, inline_of, depth, params_of, pending)
        if not (kept(then, stmt.then) and kept(orelse, stmt.orelse)):
            stmt = replace(stmt, then=then, orelse=orelse)
    elif isinstance(stmt, ir.Loop):
        trips = proven_trips(stmt)
        if trips == 0:  # D7: Simplify deletes the loop; results are the inits
            out.extend(ir.Assign(c.result, ir.Ref(c.init, stmt.span), stmt.span, owner=stmt.owner)
                       for c in stmt.carries if c.init is not None)
            return
        if trips == 1:
            out.extend(_lift_one_trip(stmt, normalise(stmt.body, inline_of, depth, params_of, pending), pending))
            return
        body = normalise(stmt.body, inline_of, depth, params_of, pending)
        if not kept(body, stmt.body):
            stmt = replace(stmt, body=body)
    elif isinstance(stmt, ir.Scope):
        body = normalise(stmt.body, inline_of, depth, params_of, pending)
        if not kept(body, stmt.body):
            stmt = replace(stmt, body=body)
    out.append(stmt)


def _lift_one_trip(loop: ir.Loop, body: list, pending: _Pending) -> list:
    """PyPTO's Simplify replaces a plain sequential loop of exactly one iteration by its body: the
    loop variable becomes the start value, each iter-arg its initial value, and every later use of
    a loop result the value the body yields (a substitution, not an assignment). With no loop
    left, C5 does not apply to the calls of the body; C7 still does."""
    start = loop.bounds[0] if len(loop.bounds) > 1 else ir.Const(0)
    mapping = {c.iter_var: c.init for c in loop.carries if c.init is not None}
    out: list = []
    if loop.loop_var is not None:
        out.append(ir.Assign(loop.loop_var, start, loop.span, hoisted=True, owner=loop.owner))
    out.extend(_Renamer(mapping).block(body) if mapping else body)
    for c in loop.carries:
        value = c.yield_value if c.yield_value is not None else c.iter_var
        pending.rename(c.result, mapping.get(value, value))
    return out


def bind_keywords(call: ir.UserCall, params: Optional[list[str]]) -> ir.UserCall:
    """Keyword arguments of a jit call go to their positional slots, in parameter order."""
    if not params:
        return call
    args, spans = list(call.args), list(call.arg_spans)
    no_dep, no_dep_spans = set(call.no_dep), dict(call.no_dep_spans)
    for name in params[len(args):]:
        if name not in call.keywords:
            break
        value, span, marker = call.keywords[name]
        if marker is not None:
            no_dep.add(len(args))
            no_dep_spans[len(args)] = marker
        args.append(value)
        spans.append(span)
    return replace(call, args=args, arg_spans=spans, no_dep=shared(frozenset(no_dep)), no_dep_spans=no_dep_spans,
                   keywords={})


def _hoisted_ids(out: list) -> tuple:
    """Which statements `_hoisted_before` finds (what an expansion reads of its block: by identity)."""
    return tuple(map(id, _hoisted_before(out).values()))


def _hoisted_before(out: list) -> dict:
    """The N4 temporaries lowering placed just before the statement being expanded (its nested
    calls and expressions), each with its assignment."""
    found = {}
    for st in reversed(out):
        if not (isinstance(st, ir.Assign) and st.hoisted and st.var is not None):
            break
        found[st.var] = st
    return found


def _expand(stmt: ir.Assign, helper: tuple[list, list, bool], inline_of: InlineLookup, depth: int,
            params_of, pending: _Pending, hoisted: Optional[dict] = None) -> list:
    """N1, as PyPTO's InlineFunctions does it: a fresh copy of the helper's body in which every
    parameter is the caller's argument, at its uses and at its definitions. So a write to a
    parameter inside a scope is a write to the caller's captured variable (O5 step 1b sees it,
    nothing reads it first), and a rebinding of a parameter rebinds the caller's variable: the
    caller's later uses read the helper's last version. A @pl.jit.inline helper is first
    alpha-renamed by the jit specializer: a rebinding at its top level (outside any for, while,
    if or with) gets a new name and stays in the helper (its result reaches the caller only
    through `return`)."""
    preempt.check()
    params, body, jit = helper
    call: ir.UserCall = stmt.value
    out: list = []
    mapping: dict[ir.Var, ir.Var] = {}
    values: dict[ir.Var, object] = {}
    hoisted = hoisted or {}
    expressions: dict[ir.Var, object] = {}  # a variable standing for an argument expression -> it
    for k, (param, arg) in enumerate(zip(params, call.args)):
        span = call.arg_spans[k] if k < len(call.arg_spans) else call.span
        if isinstance(arg, ir.Ref):
            mapping[param.var] = arg.var
            outer_expression = pending.expression(arg.var)
            if outer_expression is not None:  # an outer helper's parameter standing for an expression
                expressions[arg.var] = outer_expression[0]
            elif arg.var in hoisted and isinstance(hoisted[arg.var].value, (ir.OpCall, ir.Arith)):
                expressions[arg.var] = _own_copy(hoisted[arg.var].value)
                pending.set_expression(arg.var, (expressions[arg.var], param.name, call.owner, span))
        elif isinstance(arg, (ir.Const, ir.Sym)):
            values[param.var] = arg  # a literal is substituted where it is used
        else:  # (lowering already hoisted nested calls and subscripts into variables, N4)
            temp = ir.Var(param.name, 0, call.span)
            _mark(arg, pending.chain)  # (in the caller's copy: the expansions around this one)
            out.append(ir.Assign(temp, arg, call.span, hoisted=True, owner=call.owner))
            mapping[param.var] = temp
            expressions[temp] = _own_copy(arg)
            pending.set_expression(temp, (expressions[temp], param.name, call.owner, span))
    # the versions of a parameter that reach the caller are versions of the caller's variable
    rebound = _rebound_at_top(body) if jit else ()
    reach = {param.name: arg.var.name for param, arg in zip(params, call.args)
             if isinstance(arg, ir.Ref) and param.name not in rebound}
    # (its serial is given once the expansions inside it have theirs, as they are made first)
    frame = ir.Inlined(call.callee.name, call.owner, call.span, list(call.args), tuple(call.arg_spans), -1)
    # what is copied now came through the expansions under way and this one (a failure abandons them all)
    outer = pending.chain
    chain = pending.chain = outer + (frame,)
    cloner = _Cloner(mapping, values, reach, chain)
    for param, arg in zip(params, call.args):
        if isinstance(arg, ir.Ref):
            cloner.display[arg.var] = param.name
    copied = cloner.block(body)
    if expressions:
        copied = _expressions_into_scopes(copied, expressions, pending.expressions, chain)
        pending.add_temps(expressions)  # (dropped if nothing outside a scope uses them)
    result = None
    if copied and isinstance(copied[-1], ir.Return):
        ret = copied.pop()
        if len(ret.values) == 1:
            result = ret.values[0]
        elif ret.values:
            result = ir.TupleExpr(ret.values, ret.span)
    reaching = {}  # caller variable -> the helper's last version of the parameter bound to it
    lasts = _last_versions(copied, {v: name for name, versions in cloner.versions.items() for v in versions})
    for param, arg in zip(params, call.args):
        if isinstance(arg, ir.Ref) and param.name in reach and param.name in lasts:
            reaching[arg.var] = lasts[param.name]
    pending.add_phis(cloner.if_results)
    expanded = normalise(copied, inline_of, depth + 1, params_of, pending)
    pending.chain = outer
    pending.add_frame(frame)
    out.extend(expanded)
    if stmt.var is not None:
        same = isinstance(result, ir.Ref) and any(
            old.name == stmt.var.name and result.var is reaching.get(old, old) for old in (mapping.values()))
        if same:  # `x = helper(x)` returning x's last version: PyPTO drops the no-op `x = x`
            pending.rename(stmt.var, result.var)
        else:
            _mark(result, outer)  # (the caller's statement: the expansions around this one)
            out.append(ir.Assign(stmt.var, result if result is not None else ir.Const(None), stmt.span,
                                 owner=stmt.owner))
    if reaching and out:
        pending.mark_after(id(out[-1]), reaching)
    return out


def _own_copy(expr):
    """The expansion's own copy of a caller's argument expression, to compute in the helper's scopes:
    `_mark` marks what stands in them, and the caller's statements are lowering's, which the
    caches keep for the next analysis of the same text (marked there, a call gathered the frames of
    every analysis). Its operands are shared: nothing marks or changes them."""
    kind = type(expr)
    if kind is ir.OpCall:
        return ir.OpCall(expr.dsl, expr.args, expr.kwargs, expr.span, expr.name_span, expr.owner, expr.inlined)
    if kind is ir.UserCall:
        return replace(expr)
    return expr


def _mark(value, chain: tuple) -> None:
    """A statement's value made by this stage (a fresh object) came through the expansions of `chain`:
    marked so if it becomes a task or a barrier (a call, an operator), as `_Cloner.stmt` marks a copy."""
    if chain and (type(value) is ir.OpCall or type(value) is ir.UserCall):
        value.inlined = _within(value.inlined, chain)


def _within(inlined: tuple, chain: tuple) -> tuple:
    """What a node came through, once it stands within `chain` (outermost first): the expansions it
    was marked with, a start of `chain` (an outer one's copy used again inside), are all of it now."""
    k, most = 0, min(len(inlined), len(chain))
    while k < most and inlined[k] is chain[k]:
        k += 1
    return chain + inlined[k:]


def _frames_of(st) -> tuple:
    node = st if isinstance(st, (ir.Scope, ir.Loop)) else \
        st.value if isinstance(st, ir.Assign) and isinstance(st.value, (ir.UserCall, ir.OpCall)) else None
    return node.inlined if node is not None else ()


def _expressions_into_scopes(body: list, expressions: dict, origins: dict, chain: tuple) -> list:
    """N1 substitutes an argument expression (`head_rows(pl.read(lens, [0]), ...)`) into every use
    in the helper's body, and N4 then computes it just before each statement using it: inside an
    outlined scope, that scope reads the expression's operands (it captures `lens`, a tensor slot,
    where it is first used) rather than a value computed before it. The scope remembers which
    captures come from which caller's expression (`from_caller`: the helper's header names them so).
    What is computed there came through the expansions of `chain` (`_mark`)."""
    out = []
    for st in body:
        if isinstance(st, ir.Scope) and st.outlined:
            used = set(iter_uses(st.body))
            found = {v: origins[t][1:] for t in expressions if t in used and t in origins
                     for v in ir.expr_vars(expressions[t])}
            attrs = dict(st.attrs, from_caller={**found, **st.attrs.get("from_caller", {})}) if found else st.attrs
            st = replace(st, body=_computed_at_uses(st.body, expressions, chain), attrs=attrs)
        elif isinstance(st, (ir.Scope, ir.Loop)):
            st = replace(st, body=_expressions_into_scopes(st.body, expressions, origins, chain))
        elif isinstance(st, ir.If):
            st = replace(st, then=_expressions_into_scopes(st.then, expressions, origins, chain),
                         orelse=_expressions_into_scopes(st.orelse, expressions, origins, chain))
        out.append(st)
    return out


def _computed_at_uses(body: list, expressions: dict, chain: tuple) -> list:
    """Each statement that uses one of the variables gets its own copy of its expression, computed
    just before it (in its own block, as N4 places it)."""
    out = []
    for st in body:
        if isinstance(st, ir.If):
            own = set(iter_uses([replace(st, then=[], orelse=[], phis=[])]))
            st = replace(st, then=_computed_at_uses(st.then, expressions, chain),
                         orelse=_computed_at_uses(st.orelse, expressions, chain))
        elif isinstance(st, (ir.Loop, ir.Scope)):
            own = set(iter_uses([replace(st, body=[])]))
            st = replace(st, body=_computed_at_uses(st.body, expressions, chain))
        else:
            own = set(iter_uses([st]))
        fresh = {v: ir.Var(v.name, v.version, v.span) for v in expressions if v in own}
        if fresh:
            for v in fresh:  # (one copy may stand in several statements, of several expansions)
                _mark(expressions[v], chain)
            out.extend(ir.Assign(fresh[v], expressions[v], getattr(st, "span", None), hoisted=True,
                                 owner=getattr(st, "owner", "")) for v in fresh)
            renamer = _Renamer(fresh)
            st = renamer.head(st) if isinstance(st, (ir.If, ir.Loop)) else \
                replace(st, uses=renamer._exprs(st.uses), deps=renamer._exprs(st.deps)) \
                if isinstance(st, ir.Scope) else renamer.stmt(st)
        out.append(st)
    return out


def _rebound_at_top(body: list) -> set:
    """The names a jit helper rebinds outside any block (what the specializer renames), in one pass
    (asked per parameter, it was the body's length times theirs). A `dst[...] = v` store is no
    rebinding there."""
    return {st.var.name for st in body if isinstance(st, ir.Assign) and st.var is not None and st.var.version > 0
            and not (isinstance(st.value, ir.OpCall) and st.value.dsl == "@setitem")}


def _last_versions(body: list, names: dict) -> dict:
    """For each parameter, which of its versions (`names`: version -> parameter name) is visible
    after `body` (a with-body is no block of its own). One walk for all the parameters: a walk each
    cost a helper with many parameters its body's length times theirs."""
    last: dict = {}
    for st in body:
        kind = type(st)
        if kind is ir.Assign:
            name = names.get(st.var)
            if name is not None:
                last[name] = st.var
        elif kind is ir.If or kind is ir.Loop:
            found: dict = {}  # (the first of an if's phis, or of a loop's results, for each parameter)
            for v in ([p.var for p in st.phis] if kind is ir.If else [c.result for c in st.carries]):
                name = names.get(v)
                if name is not None and name not in found:
                    found[name] = v
            last.update(found)
        elif kind is ir.Scope:
            last.update(_last_versions(st.body, names))
    return last


def _rename_after(body: list, after: dict, active: dict, framed: set, everywhere: dict,
                  met: Optional[list] = None) -> list:
    """Rename uses in program order: once a marked statement has run, its renames hold for
    the rest of its block and, through with-bodies, of the blocks around it. An if or a loop
    keeps them to itself (the caller's SSA has no if-result or carry for them). An expansion's
    arguments (ir.Inlined) are renamed as they stand where its first statement is (`framed`: done).
    Then `everywhere`'s renames, at every use (the same as a second walk with them alone). `met`
    gets the expansions first met here."""
    out = []
    renaming = bool(active)  # (a renamer per block, again once `active` fills: it only grows here)
    renamer = _renamer(active, everywhere)
    for st in body:
        if renaming is not bool(active):
            renaming, renamer = True, _renamer(active, everywhere)
        for frame in _frames_of(st):
            if frame not in framed:
                framed.add(frame)
                if met is not None:
                    met.append(frame)
                if renamer is not None:
                    frame.args = [renamer.expr(a) for a in frame.args]
        if isinstance(st, ir.Scope):
            uses = [renamer.expr(e) for e in st.uses] if renamer else st.uses
            deps = [renamer.expr(e) for e in st.deps] if renamer else st.deps
            attrs = renamer.attrs(st) if renamer else st.attrs  # the header's names follow the versions
            inner = _rename_after(st.body, after, active, framed, everywhere, met)
            new = st if kept(uses, st.uses) and kept(deps, st.deps) and kept(inner, st.body) \
                and attrs is st.attrs else replace(st, uses=uses, deps=deps, body=inner, attrs=attrs)
        elif isinstance(st, ir.If):
            head = renamer.head(st) if renamer else st
            then = _rename_after(st.then, after, dict(active), framed, everywhere, met)
            orelse = _rename_after(st.orelse, after, dict(active), framed, everywhere, met)
            new = st if head is st and kept(then, st.then) and kept(orelse, st.orelse) else \
                replace(head, then=then, orelse=orelse)
        elif isinstance(st, ir.Loop):
            head = renamer.head(st) if renamer else st
            inner = _rename_after(st.body, after, dict(active), framed, everywhere, met)
            new = st if head is st and kept(inner, st.body) else replace(head, body=inner)
        else:
            new = renamer.stmt(st) if renamer else st
        out.append(new)
        if id(st) in after:
            active.update(after[id(st)])
    return out


def _rename_groups(body: list, groups: list, after: dict, framed: set, everywhere: dict) -> list:
    """`_rename_after` of a function's body, the output of each of its kept statements (a group:
    expansion_memo.py) taken as the last N1's end made it where the renames that reach the variables
    it uses are the same as then: what it makes of them depends on nothing else (its own marks were
    replayed). What it did to the renames after it (`active`) and to its expansions' arguments is
    done again; the other groups are renamed anew, and kept groups recorded for the next N1."""
    active: dict = {}
    out: list = []
    for record, start, end in groups:
        chunk = body[start:end]
        done = record.finished if record is not None else None
        if done is not None and done.same_renames(active, everywhere):  # (chunk: the kept output itself)
            out.extend(done.made)
            active.update(done.delta)
            for frame, args in done.frames:
                frame.args = args
                framed.add(frame)
            continue
        if record is None:
            out.extend(_rename_after(chunk, after, active, framed, everywhere))
            continue
        before, met = dict(active), []
        made = _rename_after(chunk, after, active, framed, everywhere, met)
        delta = {k: v for k, v in active.items() if before.get(k, _NOT_RENAMED) is not v}
        record.finished = _Renamed(chunk, before, everywhere, tuple(made), delta,
                                   [(frame, frame.args) for frame in met], done.uses if done is not None else None)
        out.extend(made)
    return out


class _Renamed:
    """What `_rename_groups` made of a kept statement's output, and the renames it was made under.
    Which of them reach it (its uses) is found only when it is asked again: a statement remade at
    every edit never pays for the walk."""

    __slots__ = ("raw", "active", "everywhere", "made", "delta", "frames", "uses", "reaching")

    def __init__(self, raw: list, active: dict, everywhere: dict, made: tuple, delta: dict, frames: list,
                 uses: Optional[frozenset]):
        self.raw, self.active, self.everywhere = raw, active, everywhere  # (the renames as they were: held)
        self.made, self.delta, self.frames = made, delta, frames
        self.uses = uses
        self.reaching: Optional[dict] = None

    def same_renames(self, active: dict, everywhere: dict) -> bool:
        if self.uses is None:
            self.uses = _group_uses(self.raw)
        if self.reaching is None:
            self.reaching = _reaching(self.uses, self.active, self.everywhere)
            self.active = self.everywhere = None
        return _reaching(self.uses, active, everywhere) == self.reaching


def _reaching(uses: frozenset, active: dict, everywhere: dict) -> dict:
    """Each of `uses` that the renames rename, and what it becomes (as _Renamer.var follows them)."""
    found = {}
    for v in uses.intersection(active).union(uses.intersection(everywhere)) if everywhere else \
            uses.intersection(active):
        w = _follow(active, v) if active else v
        w = _follow(everywhere, w) if everywhere else w
        if w is not v:
            found[v] = w
    return found


def _group_uses(body: list) -> frozenset:
    """Every variable a group's statements use, their expansions' arguments and their scopes'
    names of versions among them (what a renaming reads)."""
    found = set(iter_uses(body))
    frames: set = set()
    for st in ir.walk_stmts(body):
        frames.update(_frames_of(st))  # (a statement names every expansion around it: each once here)
        if type(st) is ir.Scope:
            for key in ("names", "from_caller"):
                found.update(k for k in st.attrs.get(key, ()) if type(k) is ir.Var)
    for frame in frames:
        for arg in frame.args:
            found.update(ir.expr_vars(arg))
    return frozenset(found)


def _renamer(active: dict, everywhere: dict):
    return _Renamer(active, everywhere) if active else _Renamer(everywhere) if everywhere else None


def _follow(mapping: dict, v):
    w = mapping.get(v, _NOT_RENAMED)
    if w is _NOT_RENAMED:  # (most uses: nothing to follow)
        return v
    seen = {v}
    while w in mapping and w not in seen:  # a lifted result may name another lifted result
        seen.add(w)
        w = mapping[w]
    return w


def _drop_unused(body: list, phis: set, temps: set) -> list:
    """The body without the if-results in `phis` and the N4 temporaries in `temps` (nothing uses them)."""
    out = []
    for st in body:
        if temps and isinstance(st, ir.Assign) and st.hoisted and st.var in temps:
            continue
        if isinstance(st, ir.If):
            then, orelse = _drop_unused(st.then, phis, temps), _drop_unused(st.orelse, phis, temps)
            kept_phis = [p for p in st.phis if p.var not in phis] if phis else st.phis
            if not (kept(then, st.then) and kept(orelse, st.orelse) and len(kept_phis) == len(st.phis)):
                st = replace(st, then=then, orelse=orelse, phis=kept_phis)
        elif isinstance(st, (ir.Loop, ir.Scope)):
            inner = _drop_unused(st.body, phis, temps)
            if not kept(inner, st.body):
                st = replace(st, body=inner)
        out.append(st)
    return out


class _Cloner:
    """Copies statements with fresh versions for every variable they define."""

    def __init__(self, mapping: dict, values: Optional[dict] = None, names: Optional[dict] = None,
                 chain: tuple = ()):
        """`chain`: the expansions the copy comes through, outermost first (N1), which what becomes a
        task or holds tasks is marked with as it is copied (`inlined`: calls, operators as barriers,
        scopes and loops), and each scope with where the outermost one was written (`inlined_at`)."""
        self.map = mapping
        self.chain = chain
        self.values = values or {}  # variable -> the literal it stands for (N1)
        self.names = names or {}  # a parameter's name -> the caller variable's, for the versions it defines
        self.versions: dict[str, set] = {}  # parameter name -> the fresh versions defined for it
        self.display: dict = {}  # variable -> the name the helper's text gives it (scope headers, S12)
        self.if_results: list = []  # the if-results defined for a parameter's name (versions of it)

    def var(self, v: Optional[ir.Var]) -> Optional[ir.Var]:
        if v is None:
            return None
        return self.map.get(v, v)

    def define(self, v: Optional[ir.Var]) -> Optional[ir.Var]:
        if v is None:
            return None
        fresh = ir.Var(self.names.get(v.name, v.name), v.version, v.span, v.annotation)
        self.map[v] = fresh
        if v.name in self.names:
            self.versions.setdefault(v.name, set()).add(fresh)
            self.display[fresh] = v.name
        return fresh

    def block(self, body: list) -> list:
        return [self.stmt(s) for s in body]

    def stmt(self, st):
        if isinstance(st, ir.Assign):
            value = self.expr(st.value)
            _mark(value, self.chain)
            return ir.Assign(self.define(st.var), value, st.span, st.hoisted, st.owner)
        if isinstance(st, ir.If):
            cond = self.expr(st.cond)
            then, orelse = self.block(st.then), self.block(st.orelse)
            phis = [ir.Phi(self.define(p.var), self.var(p.then_value), self.var(p.else_value)) for p in st.phis]
            if self.names:
                self.if_results.extend(new.var for new, p in zip(phis, st.phis) if p.var.name in self.names)
            return ir.If(cond, then, orelse, phis, st.span, st.owner)
        if isinstance(st, ir.Loop):
            bounds = [self.expr(b) for b in st.bounds]
            inits = [(c, self.var(c.init), self.define(c.iter_var)) for c in st.carries]
            loop_var = self.define(st.loop_var)
            body = self.block(st.body)
            carries = [ir.Carry(iv, init, self.var(c.yield_value), self.define(c.result)) for c, init, iv in inits]
            return replace(st, loop_var=loop_var, bounds=bounds, carries=carries, body=body,
                           header_uses=[self.expr(e) for e in st.header_uses], inlined=self.chain + st.inlined)
        if isinstance(st, ir.Scope):
            uses = [self.expr(e) for e in st.uses]
            deps = [self.expr(e) for e in st.deps]
            loop_var = self.define(st.loop_var)
            body = self.block(st.body)
            names = {self.var(k): name for k, name in st.attrs.get("names", {}).items()}
            attrs = dict(st.attrs, names={**names, **self.display}) if names or self.display else st.attrs
            if attrs.get("from_caller"):
                attrs = dict(attrs, from_caller={self.var(k): v for k, v in attrs["from_caller"].items()})
            if self.chain:  # where the helper was expanded (the outermost call: it runs last)
                attrs = {**attrs, "inlined_at": (self.chain[0].owner, self.chain[0].span)}
            return replace(st, body=body, uses=uses, deps=deps, tid=self.define(st.tid), loop_var=loop_var,
                           attrs=attrs, inlined=self.chain + st.inlined)
        if isinstance(st, ir.Return):
            return ir.Return([self.expr(v) for v in st.values], st.span)
        if isinstance(st, ir.OpaqueStmt):
            return ir.OpaqueStmt([self.expr(u) for u in st.uses], st.span, st.what, st.owner)
        return st

    def expr(self, e):
        # by exact type, constructors called directly: an expansion copies every expression of the
        # helper's body (27,569 calls for one edit of dspark_drafter.py); the IR's classes are final
        kind = type(e)
        if kind is ir.Ref:
            var = e.var
            if var in self.values:
                return self.values[var]
            return ir.Ref(self.map.get(var, var), e.span)
        if kind is ir.Const or kind is ir.Sym or e is None:
            return e
        if kind is ir.OpCall:
            return ir.OpCall(e.dsl, self._each(e.args), {k: self.expr(v) for k, v in e.kwargs.items()} if e.kwargs
                             else {}, e.span, e.name_span, e.owner, e.inlined)
        if kind is ir.Arith:
            return ir.Arith(e.op, self._each(e.operands), e.span)
        if kind is ir.TupleGet:
            return ir.TupleGet(self.var(e.var), e.index, e.span)
        if kind is ir.UserCall:
            return replace(e, args=self._each(e.args), deps=self._each(e.deps),
                           keywords={k: (self.expr(v), span, marker) for k, (v, span, marker) in e.keywords.items()})
        if kind is ir.TupleExpr:
            return ir.TupleExpr(self._each(e.elts), e.span)
        if kind is ir.Subscript:
            return ir.Subscript(self.expr(e.value), self._each(e.index), e.has_slice, e.span)
        if kind is ir.Other:
            return ir.Other(self._each(e.parts), e.span, e.what)
        return e

    def _each(self, items: list) -> list:
        # (a variable or a literal, most operands, without a call of `expr` each)
        out, values, mapping = [], self.values, self.map
        for x in items:
            kind = type(x)
            if kind is ir.Ref:
                var = x.var
                out.append(values[var] if var in values else ir.Ref(mapping.get(var, var), x.span))
            elif kind is ir.Const or kind is ir.Sym or x is None:
                out.append(x)
            else:
                out.append(self.expr(x))
        return out


class _Renamer(_Cloner):
    """Substitutes variables at their uses only: definitions keep their identity, and what holds
    no renamed use is kept as it is (the same objects, not copies). With `then`, a use is renamed
    by `mapping`, and what that gives by `then` (two renamings in one walk)."""

    def __init__(self, mapping: dict, then: Optional[dict] = None):
        super().__init__(mapping)
        self.then = then

    def define(self, v: Optional[ir.Var]) -> Optional[ir.Var]:
        return v

    def var(self, v: Optional[ir.Var]) -> Optional[ir.Var]:
        v = _follow(self.map, v)
        return _follow(self.then, v) if self.then else v

    def _renames_any(self, used: tuple) -> bool:
        then = self.then
        return not self.map.keys().isdisjoint(used) or bool(then) and not then.keys().isdisjoint(used)

    def block(self, body: list) -> list:
        out = [self.stmt(st) for st in body]
        return body if kept(out, body) else out

    def head(self, st):
        """An if's or a loop's own expressions renamed (its blocks left as they are)."""
        if isinstance(st, ir.If):
            cond = self.expr(st.cond)
            phis = self._phis(st.phis)
            return st if cond is st.cond and phis is st.phis else replace(st, cond=cond, phis=phis)
        bounds = self._exprs(st.bounds)
        uses = self._exprs(st.header_uses)
        carries = self._carries(st.carries)
        if bounds is st.bounds and uses is st.header_uses and carries is st.carries:
            return st
        return replace(st, bounds=bounds, header_uses=uses, carries=carries)

    def stmt(self, st):
        kind = type(st)
        if kind is ir.Assign:
            value = self.expr(st.value)
            return st if value is st.value else ir.Assign(st.var, value, st.span, st.hoisted, st.owner)
        if kind is ir.If:
            head = self.head(st)
            then, orelse = self.block(st.then), self.block(st.orelse)
            return st if head is st and then is st.then and orelse is st.orelse else \
                replace(head, then=then, orelse=orelse)
        if kind is ir.Loop:
            head = self.head(st)
            body = self.block(st.body)
            return st if head is st and body is st.body else replace(head, body=body)
        if kind is ir.Scope:
            uses, deps, body = self._exprs(st.uses), self._exprs(st.deps), self.block(st.body)
            attrs = self.attrs(st)
            if uses is st.uses and deps is st.deps and body is st.body and attrs is st.attrs:
                return st
            return replace(st, uses=uses, deps=deps, body=body, attrs=attrs)
        if kind is ir.Return:
            values = self._exprs(st.values)
            return st if values is st.values else ir.Return(values, st.span)
        if kind is ir.OpaqueStmt:
            uses = self._exprs(st.uses)
            return st if uses is st.uses else ir.OpaqueStmt(uses, st.span, st.what, st.owner)
        return st

    def attrs(self, scope: ir.Scope) -> dict:
        """A scope's attributes with the variables its `names` (N1: the helper's own names of its
        captures) are keyed by renamed, or the same dict when none is."""
        attrs = scope.attrs
        for key in ("names", "from_caller"):  # both are keyed by variable versions
            keyed = attrs.get(key)
            if keyed:
                renamed = {self.var(k): v for k, v in keyed.items()}
                if not all(a is b for a, b in zip(renamed, keyed)):
                    attrs = dict(attrs, **{key: renamed})
        return attrs

    def _exprs(self, items: list) -> list:
        out = [self.expr(e) for e in items]
        return items if kept(out, items) else out

    def _phis(self, phis: list) -> list:
        out = [p if self.var(p.then_value) is p.then_value and self.var(p.else_value) is p.else_value
               else ir.Phi(p.var, self.var(p.then_value), self.var(p.else_value)) for p in phis]
        return phis if kept(out, phis) else out

    def _carries(self, carries: list) -> list:
        out = [c if self.var(c.init) is c.init and self.var(c.yield_value) is c.yield_value
               else ir.Carry(c.iter_var, self.var(c.init), self.var(c.yield_value), c.result) for c in carries]
        return carries if kept(out, carries) else out

    def expr(self, e):
        kind = type(e)
        if kind in ir.COMPOUND and not self._renames_any(ir.expr_uses(e)):
            return e  # (most expressions use no renamed version: their kept uses say so without a walk)
        if kind is ir.Ref:
            v = self.var(e.var)
            return e if v is e.var else ir.Ref(v, e.span)
        if kind is ir.Const or kind is ir.Sym or e is None:
            return e
        if kind is ir.TupleGet:
            v = self.var(e.var)
            return e if v is e.var else ir.TupleGet(v, e.index, e.span)
        if kind is ir.OpCall:
            args = self._exprs(e.args)
            kwargs = {k: self.expr(v) for k, v in e.kwargs.items()}
            same = all(kwargs[k] is v for k, v in e.kwargs.items())
            return e if args is e.args and same else replace(e, args=args, kwargs=kwargs if not same else e.kwargs)
        if kind is ir.UserCall:
            args, deps = self._exprs(e.args), self._exprs(e.deps)
            keywords = {k: (self.expr(v), span, marker) for k, (v, span, marker) in e.keywords.items()}
            same = all(keywords[k][0] is v for k, (v, _, _) in e.keywords.items())
            if args is e.args and deps is e.deps and same:
                return e
            return replace(e, args=args, deps=deps, keywords=e.keywords if same else keywords)
        if kind is ir.TupleExpr:
            elts = self._exprs(e.elts)
            return e if elts is e.elts else ir.TupleExpr(elts, e.span)
        if kind is ir.Subscript:
            value, index = self.expr(e.value), self._exprs(e.index)
            return e if value is e.value and index is e.index else ir.Subscript(value, index, e.has_slice, e.span)
        if kind is ir.Arith:
            operands = self._exprs(e.operands)
            return e if operands is e.operands else ir.Arith(e.op, operands, e.span)
        if kind is ir.Other:
            parts = self._exprs(e.parts)
            return e if parts is e.parts else ir.Other(parts, e.span, e.what)
        return e
