"""N3 liveness: the one-pass dataflow (ir/liveness.py) answers what the direct reading of the rule does.

The direct reading, written here as the reference: a name is live after a
statement when, walking forward from it (out of each enclosing block, through
the next iteration of each enclosing loop), it may be read before something
surely assigns it. A loop may run zero times and a branch may not be taken, so
only an assignment on every path ends its life. Random statement trees over a
few names compare the two on every statement and every name.
"""
from __future__ import annotations

from typing import Optional

from hypothesis import given, settings
from hypothesis import strategies as st

from pypto_lens.ir.liveness import Places
from pypto_lens.syntax import nodes as s
from pypto_lens.syntax.parser import parse_unit

NAMES = ["a", "b", "c", "i"]


# -- the reference: one name at a time, scanning forward -------------------------------------


def _reads(node, name: str) -> bool:
    return node is not None and any(isinstance(n, s.Name) and n.id == name for n in s.walk(node))


def _binds(target, name: str) -> bool:
    if isinstance(target, s.Name):
        return target.id == name
    if isinstance(target, (s.Tuple, s.List)):
        return any(_binds(t, name) for t in target.elts)
    return isinstance(target, s.Starred) and _binds(target.value, name)


def _target_reads(target, name: str) -> bool:
    if isinstance(target, (s.Subscript, s.Attribute)):
        return _reads(target, name)
    if isinstance(target, (s.Tuple, s.List)):
        return any(_target_reads(t, name) for t in target.elts)
    return isinstance(target, s.Starred) and _target_reads(target.value, name)


def _first(stmts: list, name: str) -> Optional[bool]:
    """True: may be read before assigned; False: assigned first on every path; None: neither."""
    for st_ in stmts:
        verdict = _statement(st_, name)
        if verdict is not None:
            return verdict
    return None


def _statement(x, name: str) -> Optional[bool]:
    if isinstance(x, s.Assign):
        if _reads(x.value, name) or any(_target_reads(t, name) for t in x.targets):
            return True
        return False if any(_binds(t, name) for t in x.targets) else None
    if isinstance(x, s.AugAssign):
        return True if _reads(x.target, name) or _reads(x.value, name) else None
    if isinstance(x, s.If):
        if _reads(x.test, name):
            return True
        then, orelse = _first(x.body, name), _first(x.orelse, name)
        if then or orelse:
            return True
        return False if then is False and orelse is False else None
    if isinstance(x, s.For):
        if _reads(x.iter, name):
            return True
        body = None if _binds(x.target, name) else _first(x.body, name)
        return True if body or _first(x.orelse, name) else None
    if isinstance(x, s.While):
        return True if _reads(x.test, name) or _first(x.body, name) or _first(x.orelse, name) else None
    if isinstance(x, s.With):
        for item in x.items:
            if _reads(item.context, name):
                return True
            if item.target is not None and _binds(item.target, name):
                return False
        return _first(x.body, name)
    if isinstance(x, s.Other):
        return True if any(_reads(e, name) for e in x.exprs) or any(_first(b, name) for b in x.bodies) else None
    if isinstance(x, (s.ExprStmt, s.Return)):
        return True if _reads(x, name) else None
    return None


def _blocks(x) -> list:
    if isinstance(x, (s.If, s.For, s.While)):
        return [x.body, x.orelse]
    if isinstance(x, s.With):
        return [x.body]
    return list(x.bodies) if isinstance(x, s.Other) else []


def reference_live_after(body: list, target, name: str) -> bool:
    where = {}

    def index(block, owner):
        for k, x in enumerate(block):
            where[id(x)] = (block, k, owner)
            for inner in _blocks(x):
                index(inner, x)
    index(body, None)
    current = target
    while True:
        block, k, owner = where[id(current)]
        verdict = _first(block[k + 1:], name)
        if verdict is not None:
            return verdict
        if owner is None:
            return False
        if isinstance(owner, s.While) and _reads(owner.test, name) or \
                isinstance(owner, (s.For, s.While)) and _first(owner.body, name):
            return True  # the enclosing loop's next iteration
        current = owner


# -- random statement trees -------------------------------------------------------------------

_name = st.sampled_from(NAMES)
_simple = st.one_of(
    st.builds(lambda t, v: f"{t} = {v} + 1", _name, _name),
    st.builds(lambda t: f"{t} = 0", _name),
    st.builds(lambda t, v: f"{t} += {v}", _name, _name),
    st.builds(lambda t, v, w: f"{t}, {v} = {w}, 1", _name, _name, _name),
    st.builds(lambda t, v: f"{t}[0] = {v}", _name, _name),
    st.builds(lambda v: f"f({v})", _name),
    st.builds(lambda v: f"return {v}", _name),
    st.just("pass"),
)


def _indent(lines: list) -> list:
    return ["    " + ln for ln in lines] or ["    pass"]


def _compound(children):
    block = st.lists(children, min_size=1, max_size=3).map(lambda bs: [ln for b in bs for ln in b])
    return st.one_of(
        st.builds(lambda c, t, e: [f"if {c}:"] + _indent(t) + (["else:"] + _indent(e) if e else []),
                  _name, block, st.one_of(st.just([]), block)),
        st.builds(lambda t, it, b: [f"for {t} in range({it}):"] + _indent(b), _name, _name, block),
        st.builds(lambda c, b: [f"while {c}:"] + _indent(b), _name, block),
        st.builds(lambda c, t, b: [f"with g({c}) as {t}:"] + _indent(b), _name, _name, block),
        st.builds(lambda b, h: ["try:"] + _indent(b) + ["except E:"] + _indent(h), block, block),
    )


_statements = st.recursive(_simple.map(lambda x: [x]), _compound, max_leaves=14)
_bodies = st.lists(_statements, min_size=1, max_size=5).map(lambda bs: [ln for b in bs for ln in b])


@settings(max_examples=300, deadline=None)
@given(_bodies)
def test_the_dataflow_answers_as_the_direct_reading_does(body_lines):
    text = "def fn(a, b, c):\n" + "\n".join(_indent(body_lines)) + "\n"
    tree, problem = parse_unit(text)
    assert problem is None, text
    body = tree[0].body
    places = Places(body)
    for x in s.walk(tree[0]):
        if not isinstance(x, s.Stmt) or x is tree[0]:
            continue
        for name in NAMES:
            assert places.live_after(x, name) == reference_live_after(body, x, name), (text, x.span, name)


def test_a_name_assigned_on_every_path_is_dead_and_a_loop_keeps_what_its_next_iteration_reads():
    text = ("def fn(a, n):\n"
            "    for i in range(n):\n"
            "        if a:\n"
            "            b = 1\n"
            "        c = b\n"
            "        b = 2\n"
            "    if a:\n"
            "        d = 1\n"
            "    else:\n"
            "        d = 2\n"
            "    d = 3\n"
            "    return d\n")
    tree, _ = parse_unit(text)
    loop, first_if, reassign, _ = tree[0].body
    inner_if = loop.body[0]
    places = Places(tree[0].body)
    assert places.live_after(inner_if, "b")  # `c = b` reads it
    assert places.live_after(loop.body[2], "b")  # the next iteration's `c = b` may read this one
    assert not places.live_after(loop, "b")  # nothing after the loop reads it
    assert not places.live_after(first_if, "d")  # `d = 3` assigns it before the return reads it
    assert places.live_after(reassign, "d")
