"""The syntax tree: a small Python AST with spans, built by the lark parser.

Spans are relative to the unit that was parsed (line 0 is the unit's first
line) so that a parse result can be cached by the unit's text alone; columns
are code points of the line. The layers above add the unit's line offset.
"""
from __future__ import annotations

from typing import Any, Iterator, NamedTuple, Optional


class Span(NamedTuple):
    """Zero-based (line, code-point column) start and end; the end is exclusive.

    A named tuple, not a frozen dataclass: a cold open makes tens of thousands of spans and hashes
    them to share them (`span`), and a tuple is made, hashed and compared in C (prefill_cp_fwd_draft.py:
    7% of its cold open went to the dataclass's __init__, __hash__ and the table)."""

    line: int
    col: int
    end_line: int
    end_col: int

    def to(self, other: "Span") -> "Span":
        return span(self.line, self.col, other.end_line, other.end_col)


NO_SPAN = Span(0, 0, 0, 0)  # what the parser gives a node without a place (pass, None, an import): moved_down keeps it

# Spans are relative to their unit, so the same few thousand values recur in every parse: one
# shared object per value (genpl 50000 held 193,000 spans of 5,167 values, 12 MB). Spans are
# frozen. The table is cleared when full: the values it drops are made again, and those that recur
# come back first. An entry (the span as its own key, and a slot) weighs about 110 bytes, so 20,000 hold under 2.5 MB
# (issue 13). A real model's spans mostly do not recur: with 100,000, pypto-lib's dspark folder
# kept 71,290 values, 5.8 MB more than no table at all, and each edit's new columns added more.
_SPANS: dict = {}
_MAX_SPANS = 20_000


def span(line: int, col: int, end_line: int, end_col: int) -> Span:
    # (made, then looked up once as its own key: a cold open's spans are mostly new, 49,150 of
    # prefill_cp_fwd_draft.py's 53,328, and a lookup by a plain tuple first cost a second hash)
    made = _new_tuple(Span, (line, col, end_line, end_col))
    if len(_SPANS) >= _MAX_SPANS:
        _SPANS.clear()
    return _SPANS.setdefault(made, made)


_new_tuple = tuple.__new__


class Node:
    __slots__ = ("span",)
    span: Span

    def children(self) -> Iterator["Node"]:
        """Sub-nodes, in source order."""
        for name in self._fields:
            value = getattr(self, name)
            if isinstance(value, Node):
                yield value
            elif isinstance(value, (list, tuple)):
                yield from _nodes_in(value)

    _fields: tuple[str, ...] = ()

    def __repr__(self) -> str:
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__name__}({inner})"


def _nodes_in(items: Any) -> Iterator["Node"]:
    for item in items:
        if isinstance(item, Node):
            yield item
        elif isinstance(item, (list, tuple)):
            yield from _nodes_in(item)


def _node(name: str, fields: tuple[str, ...], base: type = Node) -> type:
    """Make a slotted node class with a positional constructor (fields..., span)."""

    cls = type(name, (base,), {"__slots__": fields, "_fields": fields, "__init__": _positional_init(fields)})
    return cls


def _positional_init(fields: tuple[str, ...]):
    """`__init__(self, <fields>, span)` assigning each slot by name, where a loop of setattr over
    zip took 6% of the parse (23,700 nodes in prefill_cp_csa.py's cold open). Made from this
    module's field names only."""
    params = ", ".join(fields + ("span",))
    body = "".join(f"    self.{field} = {field}\n" for field in fields + ("span",))
    namespace: dict = {}
    exec(f"def __init__(self, {params}):\n{body}", namespace)  # noqa: S102 (our own field names)
    return namespace["__init__"]


class Expr(Node):
    __slots__ = ()


class Stmt(Node):
    __slots__ = ()


# -- expressions -------------------------------------------------------------
Name = _node("Name", ("id",), Expr)
Constant = _node("Constant", ("value",), Expr)  # int, float, complex, bool, None, Ellipsis
Str = _node("Str", ("value",), Expr)  # the literal's text, quotes included
Attribute = _node("Attribute", ("value", "attr"), Expr)
Keyword = _node("Keyword", ("name", "value"), Node)  # name None for **kwargs
Starred = _node("Starred", ("value", "double"), Expr)
Call = _node("Call", ("func", "args", "keywords"), Expr)  # args: list[Expr] (Starred allowed)
Subscript = _node("Subscript", ("value", "index"), Expr)  # index: Expr or Tuple of indices
Slice = _node("Slice", ("lower", "upper", "step"), Expr)
Tuple = _node("Tuple", ("elts", "parenthesized"), Expr)
List = _node("List", ("elts",), Expr)
Dict = _node("Dict", ("items",), Expr)  # list of (key or None, value)
Set = _node("Set", ("elts",), Expr)
BinOp = _node("BinOp", ("left", "op", "right"), Expr)
UnaryOp = _node("UnaryOp", ("op", "operand"), Expr)
BoolOp = _node("BoolOp", ("op", "values"), Expr)
Compare = _node("Compare", ("left", "ops", "comparators"), Expr)
IfExp = _node("IfExp", ("test", "body", "orelse"), Expr)
Lambda = _node("Lambda", ("params", "body"), Expr)
NamedExpr = _node("NamedExpr", ("target", "value"), Expr)
Comprehension = _node("Comprehension", ("kind", "parts"), Expr)  # parts: every sub-expression
Yield = _node("Yield", ("value", "from_"), Expr)
Await = _node("Await", ("value",), Expr)

# -- statements --------------------------------------------------------------
Param = _node("Param", ("name", "annotation", "default", "kind"), Node)  # kind: '', '*', '**', '/'
ExprStmt = _node("ExprStmt", ("value",), Stmt)
Assign = _node("Assign", ("targets", "value"), Stmt)
AnnAssign = _node("AnnAssign", ("target", "annotation", "value"), Stmt)
AugAssign = _node("AugAssign", ("target", "op", "value"), Stmt)
Return = _node("Return", ("value",), Stmt)
Pass = _node("Pass", (), Stmt)
Break = _node("Break", (), Stmt)
Continue = _node("Continue", (), Stmt)
If = _node("If", ("test", "body", "orelse"), Stmt)
For = _node("For", ("target", "iter", "body", "orelse"), Stmt)
While = _node("While", ("test", "body", "orelse"), Stmt)
WithItem = _node("WithItem", ("context", "target"), Node)
With = _node("With", ("items", "body"), Stmt)
FunctionDef = _node("FunctionDef", ("name", "name_span", "params", "returns", "body", "decorators"), Stmt)
ClassDef = _node("ClassDef", ("name", "name_span", "bases", "body", "decorators"), Stmt)
Import = _node("Import", ("names",), Stmt)  # names: list of (dotted, asname)
ImportFrom = _node("ImportFrom", ("module", "level", "names"), Stmt)  # names: (name, asname); '*' for star
Other = _node("Other", ("keyword", "exprs", "bodies"), Stmt)  # raise/assert/del/global/try/...


def moved_down(value: Any, lines: int) -> Any:
    """A copy of a parse result (nodes, lists and tuples of them, spans) `lines` lines further down
    (up, if negative): the same text parsed there gives it, when none of it was or is at line 0 (a
    statement's parse is kept by its text, and moved to where the statement now stands:
    syntax/pieces.py). A start or end at (0, 0) is the parser's mark of no position: it stays."""
    kind = type(value)
    if kind is Span:
        line, end_line = value.line, value.end_line
        if line or value.col:
            line += lines
        if end_line or value.end_col:
            end_line += lines
        return span(line, value.col, end_line, value.end_col)
    if kind is list:
        return [moved_down(item, lines) for item in value]
    if kind is tuple:
        return tuple(moved_down(item, lines) for item in value)
    if isinstance(value, Node):
        return kind(*[moved_down(getattr(value, name), lines) for name in value._fields],
                    moved_down(value.span, lines))
    return value


def walk(node: Node) -> Iterator[Node]:
    """Every node under `node` (itself first), depth first, in source order."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(list(current.children())))


def dotted_name(expr: Optional[Node]) -> Optional[str]:
    """`a.b.c` for a chain of attributes on a name, else None."""
    parts = []
    while isinstance(expr, Attribute):
        parts.append(expr.attr)
        expr = expr.value
    if isinstance(expr, Name):
        parts.append(expr.id)
        return ".".join(reversed(parts))
    return None
