"""Parse one unit of Python source with lark (LALR) into the syntax tree of `nodes`.

The parser is built once per thread (lark parsers are not thread-safe) from a
cached grammar. Parsing never raises: it returns the statements or a
`SyntaxProblem` at the first error.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Optional

from lark import Lark, Token, Transformer
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.parse_tree_builder import ChildFilter, ChildFilterLALR, ChildFilterLALR_NoPlaceholders, ExpandSingleChild

from ..lark_cache import cache_file
from . import nodes as n
from .fast_parse import parse_clean
from .lexer import LexError, PythonLexer, number_value
from .nodes import NO_SPAN, Span

GRAMMAR = Path(__file__).with_name("python_subset.lark")

_OPEN = {"(", "[", "{"}
_CLOSE = {")", "]", "}"}


@dataclass(frozen=True)
class SyntaxProblem:
    """The first syntax error of a unit, with a message fit for a diagnostic."""

    message: str
    line: int  # relative to the unit, zero-based
    col: int


class IndentationProblem(Exception):
    def __init__(self, message: str, line: int, col: int):
        super().__init__(message)
        self.line, self.col = line, col


def _indent_width(whitespace: str) -> int:
    width = 0
    for ch in whitespace:
        width = (width // 8 + 1) * 8 if ch == "\t" else width + 1
    return width


class Indenter:
    """Turns newlines into _NEWLINE/_INDENT/_DEDENT tokens (Python's layout rule).

    State lives in the generator, so one instance serves every parse. The
    indentation of the unit's first token is its base level: a method can be
    parsed on its own without re-indenting it.
    """

    always_accept = ("_NEWLINE",)

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        levels: list[int] = []
        depth = 0
        last = None
        for token in stream:
            kind = token.type
            if not levels:
                if kind == "_NEWLINE":
                    continue  # blank lines and comments before the first statement
                levels.append(token.column - 1)
            last = token
            if kind == "_NEWLINE":
                if depth:
                    continue
                yield token
                if "\n" not in token.value:
                    continue  # a comment at the very end of the text
                # never below the unit's base: a unit ends where its text ends
                indent = max(_indent_width(token.value.rsplit("\n", 1)[-1]), levels[0])
                if indent > levels[-1]:
                    levels.append(indent)
                    yield Token.new_borrow_pos("_INDENT", "", token)
                else:
                    while indent < levels[-1]:
                        levels.pop()
                        yield Token.new_borrow_pos("_DEDENT", "", token)
                    if indent != levels[-1]:
                        raise IndentationProblem(
                            "unindent does not match any outer indentation level",
                            (token.end_line or token.line) - 1, 0)
                continue
            value = token.value
            if value in _OPEN:
                depth += 1
            elif value in _CLOSE and depth:
                depth -= 1
            yield token
        if last is not None:
            if last.type != "_NEWLINE":
                yield Token.new_borrow_pos("_NEWLINE", "\n", last)
            # inside an open bracket the text ends mid-statement: closing the blocks would make it
            # an indentation problem, and only where the text's last token was a comment
            while len(levels) > 1 and not depth:
                levels.pop()
                yield Token.new_borrow_pos("_DEDENT", "", last)


def _start(x) -> tuple[int, int]:
    if isinstance(x, Token):
        return x.line - 1, x.column - 1
    return x.span.line, x.span.col


def _end(x) -> tuple[int, int]:
    if isinstance(x, Token):
        return x.end_line - 1, x.end_column - 1
    return x.span.end_line, x.span.end_col


def _span(first, last) -> Span:
    a, b = _start(first), _end(last)
    return n.span(a[0], a[1], b[0], b[1])


def _tokspan(tok: Token) -> Span:
    return n.span(tok.line - 1, tok.column - 1, tok.end_line - 1, tok.end_column - 1)


def _last_node(items):
    for item in reversed(items):
        if item is not None:
            return item
    return None


class _ToTree(Transformer):
    """Callbacks run while LALR reduces, building `nodes` directly (no lark Tree)."""

    # -- module and statements ------------------------------------------------
    def file_input(self, items):
        return _flatten(items)

    def simple_stmt(self, items):
        return [i for i in items if i is not None]

    def suite(self, items):
        return _flatten(items)

    def expr_stmt(self, items):
        return n.ExprStmt(items[0], items[0].span)

    def assign_stmt(self, items):
        return n.Assign(items[:-1], items[-1], items[0].span.to(items[-1].span))

    def annassign_stmt(self, items):
        target, annotation = items[0], items[1]
        value = items[2] if len(items) > 2 else None
        return n.AnnAssign(target, annotation, value, target.span.to((value or annotation).span))

    def augassign_stmt(self, items):
        target, op, value = items
        return n.AugAssign(target, op.value[:-1], value, target.span.to(value.span))

    def return_stmt(self, items):
        (value,) = items
        return n.Return(value, _kwspan(self, value, "return"))

    def pass_stmt(self, items):
        return n.Pass(NO_SPAN)

    def break_stmt(self, items):
        return n.Break(NO_SPAN)

    def continue_stmt(self, items):
        return n.Continue(NO_SPAN)

    def raise_stmt(self, items):
        exprs = [i for i in items if i is not None]
        return n.Other("raise", exprs, [], _cover(exprs))

    def global_stmt(self, items):
        return n.Other("global", [], [], _span(items[0], items[-1]))

    def nonlocal_stmt(self, items):
        return n.Other("nonlocal", [], [], _span(items[0], items[-1]))

    def del_stmt(self, items):
        return n.Other("del", items, [], items[0].span)

    def assert_stmt(self, items):
        exprs = [i for i in items if i is not None]
        return n.Other("assert", exprs, [], _cover(exprs))

    def import_name(self, items):
        return n.Import(items, NO_SPAN)

    def dotted_as_name(self, items):
        return (items[0], items[1].value if items[1] is not None else None)

    def dotted_name(self, items):
        return "".join(t.value for t in items)

    def import_from(self, items):
        level = 0
        module = None
        names = items[-1]
        for item in items[:-1]:
            if isinstance(item, Token) and item.type in ("DOT", "ELLIPSIS"):
                level += len(item.value)
            elif isinstance(item, str):
                module = item
        return n.ImportFrom(module, level, names, NO_SPAN)

    def import_star(self, items):
        return [("*", None)]

    def import_as_names(self, items):
        return items

    def import_as_name(self, items):
        return (items[0].value, items[1].value if items[1] is not None else None)

    def if_stmt(self, items):
        test, body = items[0], items[1]
        rest = items[2:]
        orelse = rest[-1] if rest and rest[-1] is not None and rest[-1][0] == "else" else None
        elifs = [r for r in rest if r is not None and r[0] == "elif"]
        tail = orelse[1] if orelse else []
        for _, etest, ebody in reversed(elifs):
            tail = [n.If(etest, ebody, tail, etest.span)]
        return n.If(test, body, tail, test.span)

    def elif_clause(self, items):
        return ("elif", items[0], items[1])

    def else_clause(self, items):
        return ("else", items[0])

    def while_stmt(self, items):
        test, body, orelse = items
        return n.While(test, body, orelse[1] if orelse else [], test.span)

    def for_stmt(self, items):
        target, _, iterable, body, orelse = items
        return n.For(target, iterable, body, orelse[1] if orelse else [], target.span.to(iterable.span))

    def try_stmt(self, items):
        bodies = [items[0]]
        for item in items[1:]:
            if item is None:
                continue
            bodies.append(item[1] if isinstance(item, tuple) else item)
        return n.Other("try", [], bodies, NO_SPAN)

    def except_clause(self, items):
        return ("except", items[-1])

    def finally_clause(self, items):
        return ("finally", items[0])

    def yield_stmt(self, items):
        return n.ExprStmt(items[0], items[0].span)

    def as_item(self, items):
        context, target = items
        return n.WithItem(context, target, context.span.to(target.span))

    def with_stmt(self, items):
        body = items[-1]
        with_items = items[:-1]
        if len(with_items) == 1 and with_items[0].target is None:
            # `with (a as b, c as d):` arrives as one parenthesized tuple of items
            context = with_items[0].context
            parts = context.elts if isinstance(context, n.Tuple) and context.parenthesized else [context]
            if any(isinstance(p, n.WithItem) for p in parts):
                with_items = [p if isinstance(p, n.WithItem) else n.WithItem(p, None, p.span) for p in parts]
        return n.With(with_items, body, with_items[0].span.to(with_items[-1].span))

    def with_item(self, items):
        context, target = items
        return n.WithItem(context, target, context.span.to((target or context).span))

    def async_stmt(self, items):
        return items[0]

    def async_funcdef(self, items):
        return items[0]

    def decorated(self, items):
        definition = items[-1]
        definition.decorators = items[:-1]
        return definition

    def decorator(self, items):
        return items[1]

    def funcdef(self, items):
        name, params, returns, body = items
        return n.FunctionDef(name.value, _tokspan(name), params or [], returns, body, [], _tokspan(name))

    def classdef(self, items):
        name, arguments, body = items
        return n.ClassDef(name.value, _tokspan(name), arguments or ([], []), body, [], _tokspan(name))

    def parameters(self, items):
        return items

    def paramvalue(self, items):
        name, annotation, default = items
        return n.Param(name.value, annotation, default, "", _span(name, _last_node(items)))

    def star_param(self, items):
        _, name, annotation = items
        return n.Param(name.value, annotation, None, "*", _span(name, _last_node(items)))

    def kw_param(self, items):
        _, name, annotation = items
        return n.Param(name.value, annotation, None, "**", _span(name, _last_node(items)))

    def slash_param(self, items):
        return n.Param("/", None, None, "/", NO_SPAN)

    def bare_star(self, items):
        return n.Param("*", None, None, "*", NO_SPAN)

    # -- expressions ----------------------------------------------------------
    def name(self, items):
        tok = items[0]
        return n.Name(tok.value, _tokspan(tok))

    def number(self, items):
        tok = items[0]
        return n.Constant(number_value(tok.value), _tokspan(tok))

    def string(self, items):
        return n.Str("".join(t.value for t in items), _span(items[0], items[-1]))

    def ellipsis(self, items):
        return n.Constant(Ellipsis, _tokspan(items[0]))

    def const_none(self, items):
        return n.Constant(None, NO_SPAN)

    def const_true(self, items):
        return n.Constant(True, NO_SPAN)

    def const_false(self, items):
        return n.Constant(False, NO_SPAN)

    def empty_tuple(self, items):
        return n.Tuple([], True, NO_SPAN)

    def paren(self, items):
        return items[0]

    def paren_tuple(self, items):
        return n.Tuple(items, True, _cover(items))

    def tuple(self, items):
        return n.Tuple(items, False, _cover(items))

    def genexp(self, items):
        return items[0]

    def empty_list(self, items):
        return n.List([], NO_SPAN)

    def list_(self, items):
        return n.List(items, _cover(items))

    def listcomp(self, items):
        return items[0]

    def empty_dict(self, items):
        return n.Dict([], NO_SPAN)

    def dict_(self, items):
        return n.Dict(items, _cover([v for _, v in items]))

    def kv(self, items):
        return (items[0], items[1])

    def kv_star(self, items):
        return (None, items[1])

    def dictcomp(self, items):
        return items[0]

    def set_(self, items):
        return n.Set(items, _cover(items))

    def setcomp(self, items):
        return items[0]

    def star_expr(self, items):
        return n.Starred(items[1], False, _span(items[0], items[1]))

    def star_target(self, items):
        return n.Starred(items[1], False, _span(items[0], items[1]))

    def comprehension(self, items):
        parts = _flatten_exprs(items)
        return n.Comprehension("comp", parts, _cover(parts))

    def dict_comprehension(self, items):
        parts = _flatten_exprs(items)
        return n.Comprehension("dictcomp", parts, _cover(parts))

    def comp_for(self, items):
        return _flatten_exprs(i for i in items if not isinstance(i, Token))

    def comp_if(self, items):
        return items[0]

    def index_tuple(self, items):
        return n.Tuple(items, False, _cover(items))

    def slice(self, items):
        lower, upper, step = items
        present = [x for x in items if x is not None]
        return n.Slice(lower, upper, step, _cover(present) if present else NO_SPAN)

    def namedexpr(self, items):
        target, _, value = items
        return n.NamedExpr(n.Name(target.value, _tokspan(target)), value, _span(target, value))

    def ifexp(self, items):
        body, test, orelse = items
        return n.IfExp(test, body, orelse, body.span.to(orelse.span))

    def lambdef(self, items):
        params, body = items
        return n.Lambda(params or [], body, body.span)

    def lambda_params(self, items):
        return items

    def lambda_paramvalue(self, items):
        name, default = items
        return n.Param(name.value, None, default, "", _tokspan(name))

    def lambda_star(self, items):
        return n.Param(items[1].value, None, None, "*", _tokspan(items[1]))

    def lambda_kw(self, items):
        return n.Param(items[1].value, None, None, "**", _tokspan(items[1]))

    def opseq(self, items):
        return _Pratt(items).parse()

    def call(self, items):
        func, _, arguments, rpar = items
        args, keywords = arguments if arguments is not None else ([], [])
        return n.Call(func, args, keywords, _span(func, rpar))

    def getitem(self, items):
        value, _, index, rsqb = items
        return n.Subscript(value, index, _span(value, rsqb))

    def getattr(self, items):
        value, _, name = items
        return n.Attribute(value, name.value, _span(value, name))

    def arguments(self, items):
        args, keywords = [], []
        for item in items:
            if isinstance(item, n.Keyword):
                keywords.append(item)
            elif item is not None:
                args.append(item)
        return args, keywords

    def kwarg(self, items):
        name, value = items
        return n.Keyword(name.value, value, _span(name, value))

    def star_arg(self, items):
        return n.Starred(items[1], False, _span(items[0], items[1]))

    def kwstar_arg(self, items):
        return n.Keyword(None, items[1], items[1].span)

    def yield_expr(self, items):
        value = items[0] if items else None
        return n.Yield(value, False, value.span if value is not None else NO_SPAN)

    def yield_from(self, items):
        return n.Yield(items[0], True, items[0].span)


def _kwspan(_, value, _keyword):
    return value.span if value is not None else NO_SPAN


def _cover(items) -> Span:
    present = [i for i in items if isinstance(i, n.Node)]
    if not present:
        return NO_SPAN
    return present[0].span.to(present[-1].span)


def _flatten(items) -> list:
    out = []
    for item in items:
        if item is None:
            continue
        if isinstance(item, list):
            out.extend(item)
        else:
            out.append(item)
    return out


def _flatten_exprs(items) -> list:
    out = []
    for item in items:
        if isinstance(item, list):
            out.extend(_flatten_exprs(item))
        elif isinstance(item, n.Node):
            out.append(item)
    return out


_COMPARISONS = {"COMP", "IN", "NOT_IN", "IS", "IS_NOT"}
# (left binding power, right binding power) of infix operators; higher binds tighter
_INFIX_POWER = {"or": (2, 3), "and": (4, 5)}
_INFIX_POWER.update({op: (8, 9) for op in ("<", ">", "<=", ">=", "==", "!=", "in", "not in", "is", "is not")})
_INFIX_POWER.update({"|": (10, 11), "^": (12, 13), "&": (14, 15), "<<": (16, 17), ">>": (16, 17),
                     "+": (18, 19), "-": (18, 19), "*": (20, 21), "@": (20, 21), "/": (20, 21),
                     "//": (20, 21), "%": (20, 21), "**": (26, 25)})
_PREFIX_POWER = {"not": 7, "+": 23, "-": 23, "~": 23, "await": 27}


class _Pratt:
    """Orders a flat [prefix..., operand, infix, prefix..., operand, ...] by precedence."""

    __slots__ = ("items", "pos")

    def __init__(self, items) -> None:
        self.items = items
        self.pos = 0

    def parse(self, min_power: int = 0):
        item = self.items[self.pos]
        self.pos += 1
        if isinstance(item, Token):  # a prefix operator
            op = " ".join(item.value.split())
            operand = self.parse(_PREFIX_POWER[op])
            if op == "await":
                left = n.Await(operand, Span(item.line - 1, item.column - 1, operand.span.end_line, operand.span.end_col))
            else:
                left = n.UnaryOp(op, operand, Span(item.line - 1, item.column - 1,
                                                   operand.span.end_line, operand.span.end_col))
        else:
            left = item
        items = self.items
        chain = None  # the comparison this loop built, which `a < b < c` extends
        while self.pos < len(items):
            token = items[self.pos]
            op = " ".join(token.value.split())
            left_power, right_power = _INFIX_POWER[op]
            if left_power < min_power:
                break
            self.pos += 1
            right = self.parse(right_power)
            if token.type in _COMPARISONS:
                if left is chain:
                    left.ops.append(op)
                    left.comparators.append(right)
                    left.span = left.span.to(right.span)
                else:
                    left = chain = n.Compare(left, [op], [right], left.span.to(right.span))
            elif op in ("and", "or"):
                left = n.BoolOp(op, [left, right], left.span.to(right.span))
            else:
                left = n.BinOp(left, op, right, left.span.to(right.span))
        return left


class _Driver:
    """lark's LALR loop over lark's own tables and reductions, with what each action needs looked
    up once: lark's loop hashes and compares a rule at every reduce to find its callback and
    length (the units of prefill_cp_csa.py's cold analysis: 295 -> 235 ms)."""

    def __init__(self, lark: Lark) -> None:
        from lark.parsers.lalr_analysis import Shift  # (lark's insides: see _driver)

        inner = lark.parser.parser.parser  # the parsing frontend's LALR parser's loop
        table, callbacks = inner.parse_table, inner.callbacks
        if any(isinstance(key, str) for key in callbacks):
            raise ValueError("terminal callbacks are not supported")
        transformer = lark.options.transformer
        # per state: token or rule name -> the next state (shift, goto) or (length, callback, name)
        self.states = {
            state: {name: arg if action is Shift else _reduction(arg, callbacks[arg], transformer)
                    for name, (action, arg) in actions.items()}
            for state, actions in table.states.items()}
        self.start = table.start_states["file_input"]
        self.end = table.end_states["file_input"]
        self.lexer = PythonLexer(lark.lexer_conf)
        self.indenter = lark.lexer_conf.postlex

    def parse(self, text: str) -> list:
        states, end = self.states, self.end
        stack = [self.start]
        values: list = []
        state = self.start
        for token in _ended(self.indenter.process(self.lexer.lex(text))):
            while True:
                action = states[state].get(token.type)
                if action is None:
                    raise UnexpectedToken(token, {name for name in states[state] if name.isupper()})
                if type(action) is int:  # shift
                    stack.append(action)
                    values.append(token)
                    state = action
                    break
                size, callback, name = action  # reduce, then go to the rule's state
                if callback is None:  # a `?rule` of one symbol: its value is its child's
                    stack.pop()
                else:
                    if size:
                        children = values[-size:]
                        del stack[-size:]
                        del values[-size:]
                    else:
                        children = []
                    values.append(callback(children))
                state = states[stack[-1]][name]
                if state == end:  # only the whole file_input, before $END, reaches it
                    return values[-1]
                stack.append(state)
        raise AssertionError("the parse did not end")


def _reduction(rule, callback, transformer) -> tuple:
    """(length, callback, rule name); the callback None where it would return its one child (a
    `?rule` of one symbol reduces that way most often: 53,000 of the 167,000 reductions of
    prefill_cp_csa.py's pieces)."""
    size = len(rule.expansion)
    if size == 1 and type(callback) is ExpandSingleChild:
        return 1, None, rule.origin.name
    return size, _without_trees(rule, callback, transformer), rule.origin.name


def _without_trees(rule, callback, transformer):
    """lark's callback of `rule`, except that an inlined `_rule` (no method of ours: lark makes it a
    Tree, which its parent's child filter opens) is the list of its children, which the parent's
    filter (ours then) takes in. 39,000 of the reductions of prefill_cp_csa.py's units built a Tree
    through four calls, only to be opened: 8% of their parse."""
    name = rule.alias or rule.origin.name
    inlined = name.startswith("_") and getattr(transformer, name, None) is None
    filtered = type(callback) in (ChildFilterLALR, ChildFilterLALR_NoPlaceholders)
    if isinstance(callback, ChildFilter) and not filtered:
        raise ValueError(f"{type(callback).__name__} is not supported")
    if inlined and type(callback.node_builder if filtered else callback) is ExpandSingleChild:
        raise ValueError(f"an inlined ?{name} is not supported")
    if not filtered:
        return _as_is if inlined else callback
    if type(callback) is ChildFilterLALR:
        to_include, append_none = callback.to_include, callback.append_none
    else:  # (a rule without optional parts: no Nones to place)
        to_include, append_none = [(i, to_expand, 0) for i, to_expand in callback.to_include], 0
    return _child_filter(to_include, append_none, None if inlined else callback.node_builder)


def _as_is(children: list) -> list:
    return children


def _child_filter(to_include, append_none: int, builder):
    """lark's ChildFilterLALR (the kept children, a None for each empty optional, an inlined rule's
    children in its place), where an inlined rule's value is its children's list (_without_trees)."""
    def run(children: list):
        filtered: list = []
        for i, to_expand, add_none in to_include:
            if add_none:
                filtered += [None] * add_none
            if to_expand:
                if filtered:
                    filtered += children[i]
                else:  # (left recursion: the list grows in place)
                    filtered = children[i]
            else:
                filtered.append(children[i])
        if append_none:
            filtered += [None] * append_none
        return filtered if builder is None else builder(filtered)
    return run


def _ended(tokens: Iterator[Token]) -> Iterator[Token]:
    """The tokens, then lark's $END token (at the last token, as lark places it)."""
    token = None
    for token in tokens:
        yield token
    yield Token.new_borrow_pos("$END", "", token) if token else Token("$END", "", 0, 1, 1)


_local = threading.local()


def _driver():
    """Our loop over lark's tables, or lark itself if its insides are not what the loop reads (the
    tables' layout is not lark's public API: another lark version parses slower, never otherwise)."""
    driver = getattr(_local, "driver", None)
    if driver is None:
        try:
            driver = _Driver(_parser())
        except (AttributeError, KeyError, TypeError, ValueError, ImportError):
            driver = _parser()
        _local.driver = driver
    return driver


def _parser() -> Lark:
    parser = getattr(_local, "parser", None)
    if parser is None:
        parser = Lark(
            GRAMMAR.read_text(encoding="utf-8"),
            parser="lalr",
            lexer=PythonLexer,
            postlex=Indenter(),
            start="file_input",
            transformer=_ToTree(),
            maybe_placeholders=True,
            cache=_cache_path(),
        )
        _local.parser = parser
    return parser


def _cache_path():
    return cache_file("grammar", GRAMMAR.read_text(encoding="utf-8"))


def parse_unit(text: str) -> tuple[list[n.Stmt], Optional[SyntaxProblem]]:
    """Parse `text` (one or more statements, possibly indented as a whole): by Python's own parser
    when it is plain Python that fast_parse.py converts (the same tree), else by lark."""
    clean = parse_clean(text)
    if clean is not None:
        return clean, None
    return parse_unit_with_lark(text)


def parse_unit_with_lark(text: str) -> tuple[list[n.Stmt], Optional[SyntaxProblem]]:
    """`parse_unit` by lark alone: what recovers from a syntax error, and what the fast path equals."""
    try:
        return _driver().parse(text), None
    except (IndentationProblem, LexError) as exc:
        return [], SyntaxProblem(str(exc), exc.line, exc.col)
    except UnexpectedInput as exc:
        return [], _describe(exc, text)
    except (LarkError, RecursionError, ValueError, AssertionError) as exc:
        return [], SyntaxProblem(f"cannot parse: {type(exc).__name__}", 0, 0)


def _describe(exc: UnexpectedInput, text: str) -> SyntaxProblem:
    line = max((exc.line or 1) - 1, 0) if getattr(exc, "line", -1) not in (None, -1) else 0
    col = max((exc.column or 1) - 1, 0) if getattr(exc, "column", -1) not in (None, -1) else 0
    if isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken) and exc.token.type == "$END"):
        lines = text.split("\n")
        while len(lines) > 1 and not lines[-1].strip():
            lines.pop()
        return SyntaxProblem("unexpected end of statement (an unclosed bracket or a missing block?)",
                             len(lines) - 1, len(lines[-1]))
    if isinstance(exc, UnexpectedCharacters):
        ch = text[exc.pos_in_stream] if 0 <= exc.pos_in_stream < len(text) else "?"
        return SyntaxProblem(f"unexpected character {ch!r}", line, col)
    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        if tok.type == "_NEWLINE":
            return SyntaxProblem("unexpected end of line", line, col)
        if tok.type in ("_INDENT", "_DEDENT"):  # they borrow the newline's position: report the next line
            return SyntaxProblem("unexpected indentation", max(tok.end_line - 1, 0), max(tok.end_column - 1, 0))
        shown = tok.value if len(tok.value) <= 20 else tok.value[:20] + "..."
        return SyntaxProblem(f"unexpected {shown!r}", line, col)
    return SyntaxProblem("invalid syntax", line, col)
