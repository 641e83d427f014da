"""Stage HZ (runtime.md §4): overlapping accesses the runtime leaves unordered (Z1-Z4, Z7).

A hazard is a pair of task instances A (earlier) and B (later) touching
overlapping parts of one base allocation, at least one of them writing, with no
path A -> ... -> B among the edges the runtime may create (task_graph.py counts
every possible edge, so a pair that might be ordered is never reported).

Precision over recall (§5): a *warning* only when the overlap is certain (one
base, the whole buffer or regions that intersect for every value of their
offsets' symbols) and both tasks run under the same conditions (no `if` or
may-not-run loop around one of them only, in the iteration each is in). A pair
across the iterations of a loop is such a warning too when the loop runs at
least twice: with a constant trip count of 2 or more, or, said in the message,
when its dynamic count is 2 or more. Every other unordered pair is at most
*information* (off by default). Two atomic accumulations commute: no hazard.
Host-level graphs (G13) get none.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Optional

from .. import preempt
from ..ir.nodes import Dir
from ..syntax.nodes import Span
from . import use_discipline
from .footprints import regions_overlap
from .model import Fn, Origin
from .runtime_buffers import overlap
from .task_graph import Instance, Simulation, TaskGraph, _carried

# code -> (rule, setting that switches it, shown by default)
HAZARD_CODES = {
    "UnorderedWriteAfterRead": ("Z1", "hazards.unorderedWriteAfterRead"),
    "UnorderedWriteAfterWrite": ("Z2", "hazards.unorderedWriteAfterWrite"),
    "InvisibleNoDepWrite": ("Z3", "hazards.noDep"),
    "UnorderedNoDepAccess": ("Z3", "hazards.noDep"),
    "ManualScopeMissingDep": ("Z4", "hazards.manualScope"),
    "ManualDepTensorMissingDep": ("Z4", "hazards.manualScope"),
    "ScopeWindowExceeded": ("Z7", "hazards.scopeWindow"),
}
# hazards whose overlap or co-occurrence is not certain are information, shown only when this is on
INFORMATION_SETTING = "hazards.information"
TASK_WINDOW = 16384  # PTO2_TASK_WINDOW_SIZE: a scope deadlocks at window - 1 tasks


@dataclass(frozen=True)
class Fix:
    """What would order the pair (presentation/graph_view.py words it, hazard_fixes.py edits it)."""

    kind: str  # 'add-dep' | 'make-inout'
    tid: Optional[str] = None  # add-dep: the earlier task's id variable
    callee: Optional[str] = None  # make-inout: the function and parameter to declare InOut
    param: Optional[str] = None
    annotation: Optional[tuple[str, Span]] = None  # make-inout: (owner, span) of that parameter's annotation


@dataclass(frozen=True)
class Hazard:
    code: str
    rule: str
    severity: str  # 'warning' | 'information'
    first: int  # the earlier task
    second: int  # the later task (where the diagnostic goes)
    buffer: str
    carried: bool  # `first` runs in an earlier iteration of a loop around both
    overlap: str  # 'certain' | 'unknown'
    message: str  # '{first}' and '{second}' stand for the tasks (placing fills in their lines)
    fix: Optional[Fix]
    first_arg: int  # index into the tasks' args (-1: none)
    second_arg: int
    first_writes: bool = False  # the earlier access writes (else it only reads)
    root: Optional[tuple[str, Span, str]] = None  # (owner, span, note) of the buffer's allocation
    at: Optional[tuple[str, Span]] = None  # Z7: the scope header instead of the second task


_NONE_SEEN = ((), ())


def find_hazards(graph: TaskGraph, sim: Simulation) -> list[Hazard]:
    if graph.host:
        return []
    found: dict = {}
    # Base -> ([(instance, access)] of earlier instances, [those that write]): a read meets only the
    # writers (two reads never conflict), in the same order (pypto-lib's qwen3_14b: 2.2 million pairs)
    seen_by_base: dict = {}
    anc = sim.ancestors
    for inst in sim.instances:
        preempt.check()  # (a change waits for one instance's pairs at most: preempt.py)
        arms = _arms(inst)
        ancestors = anc[inst.id]
        mine = []
        for access in inst.accesses:
            base = access.base
            if base.wild or inst.wild or not (access.reads or access.writes):
                continue
            every, writers = seen_by_base.get(base, _NONE_SEEN)
            for earlier, prior in every if access.writes else writers:
                if ancestors >> earlier.id & 1:
                    continue
                if earlier.wild or _exclusive(arms, earlier):
                    continue
                if overlap(prior.region, access.region, base.shape) == "none":
                    continue
                a_print, b_print = prior.footprint, access.footprint
                how = regions_overlap(prior.regions(), access.regions(), base.shape)
                if how == "none":
                    continue  # the callees touch different parts of what they are given
                if a_print.atomic and b_print.atomic:
                    continue  # two atomic accumulations commute, in either order
                if access.ambiguous or prior.ambiguous:
                    how = "unknown"
                hazard = _classify(graph, earlier, prior, inst, access, how)
                if hazard is None:
                    continue
                key = (hazard.first, hazard.second, hazard.buffer, hazard.carried)
                old = found.get(key)
                if old is None or (old[0].severity != "warning" and hazard.severity == "warning"):
                    found[key] = (hazard, earlier.id, inst.id)
            mine.append((base, access))
        for base, access in mine:
            every, writers = seen_by_base.setdefault(base, ([], []))
            every.append((inst, access))
            if access.writes:
                writers.append((inst, access))
    out = sorted(_unimplied(found.values(), sim.surely_before), key=lambda h: (h.second, h.first, h.buffer))
    out.extend(_scope_windows(graph, sim))
    return out


_RANK = {"warning": 1, "information": 0}


def _unimplied(found, surely_before: list[int]) -> list[Hazard]:
    """Drop a hazard (A, C) when another one (A, B) on the same buffer is at least as severe and B
    is surely ordered before C: ordering A before B orders it before C too (one fix, one report).
    B and C may be one task in two iterations: the pair within an iteration stands for the pair
    with the next one."""
    items = list(found)
    out = []
    for hazard, first, second in items:
        implied = any(other is not hazard and other.first == hazard.first and other.buffer == hazard.buffer
                      and b != second and _RANK[other.severity] >= _RANK[hazard.severity]
                      and surely_before[second] >> b & 1
                      for other, a, b in items)
        if not implied:
            out.append(hazard)
    return out


def _arms(inst: Instance) -> dict:
    return {(m[1], m[2]): m[3] for m in inst.markers if m[0] == "if"}


def _exclusive(arms: dict, other: Instance) -> bool:
    """Two arms of one evaluation of an if never both run."""
    for m in other.markers:
        if m[0] == "if" and arms.get((m[1], m[2]), m[3]) != m[3]:
            return True
    return False


def _classify(graph: TaskGraph, a_inst: Instance, a, b_inst: Instance, b, how: str) -> Optional[Hazard]:
    A, B = a_inst.task, b_inst.task
    carried = _carried(a_inst, b_inst)
    loop = graph.loops[_carried_loop(a_inst, b_inst)] if carried else None
    certain = how == "certain" and a_inst.markers == b_inst.markers
    severity = "warning" if certain else "information"
    base = a.base
    buf = base.name
    write_b = f"{b.tag} write" if b.writes else f"{b.tag} read"
    if a_inst.manual or b_inst.manual:
        code = "ManualScopeMissingDep"
        where = "inside a manual scope" if a_inst.manual and b_inst.manual else "across a manual scope's boundary"
        text = (f"{{second}} and {{first}} both touch {buf} {where}, and no deps= orders them: a manual scope "
                "orders tasks only through deps= (Z4)")
    elif base.manual_dep:
        code = "ManualDepTensorMissingDep"
        text = (f"{buf} is created with manual_dep=True, so the runtime orders none of its uses; nothing in "
                "deps= orders {second} after {first} (Z4)")
    elif a.tag == "NoDep" and a.writes:
        code = "InvisibleNoDepWrite"
        text = (f"{{first}} writes {buf} through a NoDep slot, which the runtime does not record: {{second}} "
                "does not wait for that write (Z3)")
    elif b.tag == "NoDep":
        code = "UnorderedNoDepAccess"
        text = (f"{{second}} passes {buf} as NoDep, so it does not wait for {{first}}, which "
                f"{'writes' if a.writes else 'reads'} it (Z3)")
    elif b.writes and not a.writes:
        code = "UnorderedWriteAfterRead"
        text = (f"{{second}} overwrites {buf} ({write_b}) while {{first}} may still be reading it: the runtime "
                "never records readers, so nothing orders this write after that read (Z1)")
    elif a.writes and b.writes:
        code = "UnorderedWriteAfterWrite"
        text = (f"{{second}} writes {buf} as {b.tag}, which waits for no earlier writer: it is not ordered "
                "after {first}'s write, and the overlapping bytes end up in either order (Z2)")
    else:
        return None  # a read after a tracked write always finds its writer (G4)
    if carried:
        text += "; across iterations of the loop around both"
        if certain and loop is not None and loop.trips is None:
            count = f"`{loop.count}` is" if loop.count else "the loop's trip count is"
            text += f", when {count} 2 or more"
        if certain and a.base.kind == "create" and not a.writes and b.writes:
            text += f": allocate {buf} inside the loop, or add the reader's task id to deps="
    if how == "unknown":
        text += "; whether the two regions overlap is known only at run time"
    rule = HAZARD_CODES[code][0]
    return Hazard(code, rule, severity, A.id, B.id, buf, carried, how, text,
                  _fix(code, a_inst, a, b_inst, b, carried), a.arg, b.arg, a.writes, _root(base))


def _carried_loop(src: Instance, dst: Instance) -> int:
    """The loop whose iterations the pair spans (the outermost where their copies differ)."""
    for (loop_a, copy_a), (loop_b, copy_b) in zip(src.copies, dst.copies):
        if copy_a != copy_b:
            return loop_a
    raise ValueError("not a carried pair")


def _fix(code: str, a_inst: Instance, a, b_inst: Instance, b, carried: bool) -> Optional[Fix]:
    A, B = a_inst.task, b_inst.task
    visible = A.tid is not None and not carried and a_inst.markers <= b_inst.markers and \
        B.loops[:len(A.loops)] == A.loops
    if visible and B.kind in ("submit", "dispatch") and code != "ScopeWindowExceeded":
        return Fix("add-dep", tid=A.tid)
    if code == "UnorderedWriteAfterRead" and b.tag == "InOut" and a.tag == "Input" and A.kind in ("call", "submit") \
            and A.callee is not None and A.callee.origin == "user":
        param = A.args[a.arg].param
        return Fix("make-inout", callee=A.callee.name, param=param, annotation=_annotation(A.callee, param))
    return None


def _annotation(callee, param: str) -> Optional[tuple[str, Span]]:
    """Where the callee declares the parameter's type (the make-inout edit replaces it)."""
    source = callee.source
    k = source.param_index(param) if source is not None else None
    span = source.params[k].annotation_span if k is not None else None
    return (callee.owner, span) if span is not None else None


def _root(base) -> Optional[tuple[str, Span, str]]:
    if base.span is None:
        return None
    note = {"param": f"parameter {base.name}", "create": f"{base.name} is allocated here",
            "hidden": f"{base.name}: allocated for a result computed inside the callee (U6)",
            "output": f"{base.name}: allocated by the runtime for this submit (G7)"}.get(base.kind, base.name)
    return (base.owner, base.span, note)


def _scope_windows(graph: TaskGraph, sim: Simulation) -> list[Hazard]:
    """Z7: a manual scope (no per-iteration scopes inside it) that submits a window's worth of tasks."""
    out = []
    for scope, owner, count in sim.manual_scopes:
        if count is None or count < TASK_WINDOW - 1:
            continue
        first = next((t for t in graph.tasks if t.manual and t.owner == owner and
                      scope.span.line <= t.span.line), None)
        tid = first.id if first is not None else 0
        out.append(Hazard("ScopeWindowExceeded", "Z7", "warning", tid, tid, "", False, "certain",
                          f"this manual scope submits {count} tasks, at least the runtime's task window "
                          f"({TASK_WINDOW}) less one: the run stops with a scope deadlock (Z7); split the "
                          "loop into several scopes", None, -1, -1, False, None, (owner, scope.span)))
    return out


def graphs_with_hazards(state, results) -> list[TaskGraph]:
    """The task graph of every orchestration-like function of a program, with its hazards."""
    from .task_graph import task_graphs
    out = []
    fixes = _FixCheck(state, results)
    for graph, sim in task_graphs(state, results):
        preempt.check()
        graph.hazards = [fixes.checked(graph, h) for h in find_hazards(graph, sim)]
        if graph.hazards:
            graph.notes.append("the default pipeline: AutoDeriveTaskDependencies (G12), which would add compiler "
                               "edges for these pairs, is off unless switched on")
        out.append(graph)
    return out


def _key(fn: Fn) -> tuple:
    return (fn.key, fn.owner, fn.home)


class _FixCheck:
    """A make-inout fix is kept only if the program still compiles with it: a variable passed to an
    InOut slot must not be read again (use_discipline), and the later access of the pair usually reads
    the very variable the reader was given. Then there is no clear fix (add-dep was not possible).
    Only the functions calling the callee are checked, once per parameter."""

    def __init__(self, state, results):
        self.state = state
        self.results = results
        self.verdicts: dict = {}  # (callee, param) -> does declaring it InOut break a caller?
        self.before: dict = {}  # function key -> its stale uses as the program stands

    def checked(self, graph: TaskGraph, hazard: Hazard) -> Hazard:
        fix = hazard.fix
        if fix is None or fix.kind != "make-inout":
            return hazard
        callee = graph.tasks[hazard.first].callee
        if callee is None or self.breaks(callee, fix.param or ""):
            return replace(hazard, fix=None)
        return hazard

    def breaks(self, callee: Fn, param: str) -> bool:
        key = (_key(callee), param)
        if key not in self.verdicts:
            changed = _WithInOut(self.state, callee, param)
            callers = {r.fn for r in self.results if r.callee_fn is not None and _key(r.callee_fn) == _key(callee)}
            self.verdicts[key] = any(
                len(use_discipline.check(changed, fn)) > self._stale_before(fn)
                for name, fn in self.state.fns.items()
                if name in callers and fn.origin not in (Origin.INLINE, Origin.EXTERNAL))
        return self.verdicts[key]

    def _stale_before(self, fn: Fn) -> int:
        if fn.key not in self.before:
            self.before[fn.key] = len(use_discipline.check(self.state, fn))
        return self.before[fn.key]


class _WithInOut:
    """The program's state as it would be with one parameter of one function declared InOut."""

    def __init__(self, state, fn: Fn, param: str):
        self._state = state
        self._key = _key(fn)
        self._changed = replace(fn, params=[replace(p, decl=Dir.INOUT) if p.name == param else p for p in fn.params],
                                dirs=list(fn.dirs))

    def callee(self, call):
        found = self._state.callee(call)
        return self._changed if found is not None and _key(found) == self._key else found

    def __getattr__(self, name: str):
        return getattr(self._state, name)
