"""A fast path for units that are plain Python: CPython's own parser gives the tree, made into this
package's nodes with exactly the spans and shapes our lark grammar gives (parser.py's callbacks).

`ast.parse` only reads the text (it compiles nothing, runs nothing) and is about six times faster
than our LALR loop in Python; most units of a model are whole, valid functions, so a cold open
parses most of its text this way (issue 20: parsing was about 40% of the biggest models' cold
opens). Everything else is lark's, as before: a unit Python rejects (a half-typed function, which
lark recovers from), text that is not ASCII (ast counts columns in UTF-8 bytes, our spans in code
points) or holds a tab or a form feed (indentation Python counts its own way), and any construct
outside what is converted here (`_Decline`: `del`, `global`, async, `:=`, `yield`, ...).
An indented text (a method, one statement of a long function: syntax/pieces.py) is parsed without
the indentation all its lines begin with, which is put back in the columns. So a unit gets lark's
tree or this one, which equals it node for node and span for span (tests/test_fast_parse.py, and
test_syntax's comparison with lark over every prefix and every deleted character of a model).

The spans follow the callbacks, not ast's positions: ast's compound nodes start at a parenthesised
operand's bracket, ours at the operand (`(a + b) * c` starts at `a`), so only tokens' positions are
read from ast (names, literals, a call's `)`, a subscript's `]`, an attribute's name, a unary
operator, `*`, a keyword's name, a parameter's name) and the rest is made from the children.
"""
from __future__ import annotations

import ast
import re
import warnings
from typing import Optional

from . import nodes as n
from .lexer import brackets, number_value, string_lexemes
from .nodes import NO_SPAN, span

_DEF_NAME = re.compile(r"def[ \t]+")
_CLASS_NAME = re.compile(r"class[ \t]+")

_BINARY = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.MatMult: "@", ast.Div: "/", ast.FloorDiv: "//",
           ast.Mod: "%", ast.Pow: "**", ast.LShift: "<<", ast.RShift: ">>", ast.BitOr: "|", ast.BitXor: "^",
           ast.BitAnd: "&"}
_UNARY = {ast.USub: "-", ast.UAdd: "+", ast.Invert: "~", ast.Not: "not"}
_COMPARE = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
            ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in"}


_PLACELESS = {ast.Pass: n.Pass, ast.Break: n.Break, ast.Continue: n.Continue}  # (no place: the callbacks' too)
_OWN_METHOD = {ast.With: "with_", ast.FunctionDef: "function", ast.ClassDef: "class_"}
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)


class _Decline(Exception):
    """A construct this module does not convert: the unit is lark's."""


def parse_clean(text: str) -> Optional[list]:
    """The unit's statements, if Python parses it and every construct in it converts; else None.
    An indented text (a method, a statement of a long function after the newlines that place it) is
    parsed without its indentation, which every line with code must begin with, and put back in the
    columns: its string literals are read from the text as it is."""
    if not text.isascii() or "\f" in text or "\t" in text:
        return None
    lines = text.split("\n")
    code = text.lstrip("\n")
    indent = len(code) - len(code.lstrip(" "))
    plain = text
    if indent:
        prefix = code[:indent]
        # (each line with code begins with the prefix: counted in C, a line at a time took 8% of a parse)
        if text.count("\n" + prefix) + text.startswith(prefix) != len(lines) - lines.count(""):
            return None
        plain = text.replace("\n" + prefix, "\n").removeprefix(prefix)
    try:
        with warnings.catch_warnings():  # (`"\d"` is a SyntaxWarning on stderr from Python 3.12 on: not ours to say)
            warnings.simplefilter("ignore")
            tree = ast.parse(plain)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    try:
        return _Converter(lines, plain.split("\n") if indent else lines, indent).block(tree.body)
    except (_Decline, RecursionError):
        return None


def _cover(items: list) -> n.Span:
    return items[0].span.to(items[-1].span) if items else NO_SPAN


class _Converter:
    def __init__(self, lines: list[str], plain: list[str], indent: int):
        self.lines = lines  # the text's own lines
        self.plain = plain  # the lines ast read: without the indentation `indent` they all begin with
        self.indent = indent

    # -- statements ---------------------------------------------------------------
    def block(self, body: list) -> list:
        return [self.stmt(st) for st in body]

    def stmt(self, st):
        kind = type(st)
        if kind is ast.Expr:
            value = self.expr(st.value)
            return n.ExprStmt(value, value.span)
        if kind is ast.Assign:
            targets = [self.expr(t) for t in st.targets]
            value = self.expr(st.value)
            return n.Assign(targets, value, targets[0].span.to(value.span))
        if kind is ast.AnnAssign:
            target, annotation = self.expr(st.target), self.expr(st.annotation)
            value = self.expr(st.value) if st.value is not None else None
            return n.AnnAssign(target, annotation, value, target.span.to((value or annotation).span))
        if kind is ast.AugAssign:
            target, value = self.expr(st.target), self.expr(st.value)
            return n.AugAssign(target, _BINARY[type(st.op)], value, target.span.to(value.span))
        if kind is ast.Return:
            value = self.expr(st.value) if st.value is not None else None
            return n.Return(value, value.span if value is not None else NO_SPAN)
        placeless = _PLACELESS.get(kind)
        if placeless is not None:
            return placeless(NO_SPAN)
        if kind is ast.If:
            test = self.expr(st.test)  # (an elif is an If alone in the orelse, as the callbacks make it)
            return n.If(test, self.block(st.body), self.block(st.orelse), test.span)
        if kind is ast.While:
            test = self.expr(st.test)
            return n.While(test, self.block(st.body), self.block(st.orelse), test.span)
        if kind is ast.For:
            target, iterable = self.expr(st.target), self.expr(st.iter)
            return n.For(target, iterable, self.block(st.body), self.block(st.orelse), target.span.to(iterable.span))
        own = _OWN_METHOD.get(kind)
        if own is not None:
            return getattr(self, own)(st)
        if kind is ast.Import:
            return n.Import([(alias.name, alias.asname) for alias in st.names], NO_SPAN)
        if kind is ast.ImportFrom:
            return n.ImportFrom(st.module, st.level, [(alias.name, alias.asname) for alias in st.names], NO_SPAN)
        if kind is ast.Raise:
            exprs = [self.expr(e) for e in (st.exc, st.cause) if e is not None]
            return n.Other("raise", exprs, [], _cover(exprs))
        if kind is ast.Assert:
            exprs = [self.expr(e) for e in (st.test, st.msg) if e is not None]
            return n.Other("assert", exprs, [], _cover(exprs))
        if kind is ast.Try:
            bodies = [self.block(st.body)] + [self.block(h.body) for h in st.handlers]
            bodies += [self.block(b) for b in (st.orelse, st.finalbody) if b]
            return n.Other("try", [], bodies, NO_SPAN)
        raise _Decline(kind.__name__)  # (global, nonlocal, del, async, match, ...)

    def with_(self, st: ast.With):
        after = st.col_offset + len("with")
        line = self.plain[st.lineno - 1]
        if line[after:].lstrip()[:1] == "(":  # `with (a as b, ...)`: the callbacks' own reading of it
            raise _Decline("parenthesised with")
        items = []
        for item in st.items:
            context = self.expr(item.context_expr)
            target = self.expr(item.optional_vars) if item.optional_vars is not None else None
            items.append(n.WithItem(context, target, context.span.to((target or context).span)))
        return n.With(items, self.block(st.body), items[0].span.to(items[-1].span))

    def _name_span(self, st, pattern: re.Pattern, name: str) -> n.Span:
        """Where a def's or a class's name is (ast gives the statement's start only)."""
        line = self.plain[st.lineno - 1]
        found = pattern.match(line, st.col_offset)
        if found is None or not line.startswith(name, found.end()):
            raise _Decline("name")
        col = found.end() + self.indent
        return span(st.lineno - 1, col, st.lineno - 1, col + len(name))

    def function(self, st: ast.FunctionDef):
        if getattr(st, "type_params", None):
            raise _Decline("type parameters")
        name_span = self._name_span(st, _DEF_NAME, st.name)
        decorators = [self.expr(d) for d in st.decorator_list]
        params = self.params(st.args)
        returns = self.expr(st.returns) if st.returns is not None else None
        return n.FunctionDef(st.name, name_span, params, returns, self.block(st.body), decorators, name_span)

    def params(self, a: ast.arguments, lambda_: bool = False) -> list:
        """In the order written, `/` and a bare `*` as parameters of their own."""
        out = []
        positional = a.posonlyargs + a.args
        defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
        for k, arg in enumerate(positional):
            out.append(self.param(arg, defaults[k], "", lambda_))
            if a.posonlyargs and k == len(a.posonlyargs) - 1:
                out.append(n.Param("/", None, None, "/", NO_SPAN))
        if a.vararg is not None:
            out.append(self.param(a.vararg, None, "*", lambda_))
        elif a.kwonlyargs:
            out.append(n.Param("*", None, None, "*", NO_SPAN))
        for arg, default in zip(a.kwonlyargs, a.kw_defaults):
            out.append(self.param(arg, default, "", lambda_))
        if a.kwarg is not None:
            out.append(self.param(a.kwarg, None, "**", lambda_))
        return out

    def param(self, arg: ast.arg, default, kind: str, lambda_: bool):
        """A def's parameter spans its name to its default or annotation; a lambda's, its name."""
        annotation = self.expr(arg.annotation) if arg.annotation is not None else None
        value = self.expr(default) if default is not None else None
        line, col = arg.lineno - 1, arg.col_offset + self.indent
        last = None if lambda_ else value or annotation
        end = (last.span.end_line, last.span.end_col) if last is not None else (line, col + len(arg.arg))
        return n.Param(arg.arg, annotation, value, kind, span(line, col, end[0], end[1]))

    def class_(self, st: ast.ClassDef):
        if getattr(st, "type_params", None):
            raise _Decline("type parameters")
        name_span = self._name_span(st, _CLASS_NAME, st.name)
        decorators = [self.expr(d) for d in st.decorator_list]
        bases = ([self.expr(b) for b in st.bases], [self.keyword(k) for k in st.keywords])
        return n.ClassDef(st.name, name_span, bases, self.block(st.body), decorators, name_span)

    # -- expressions --------------------------------------------------------------
    def expr(self, e):
        kind = type(e)
        if kind is ast.Name:
            return n.Name(e.id, self.token(e))
        if kind is ast.Attribute:
            value = self.expr(e.value)
            return n.Attribute(value, e.attr, self.until(value, e))
        if kind is ast.Call:
            func = self.expr(e.func)
            args = [self.expr(a) for a in e.args]
            return n.Call(func, args, [self.keyword(k) for k in e.keywords], self.until(func, e))
        if kind is ast.Constant:
            return self.constant(e)
        if kind is ast.Subscript:
            value = self.expr(e.value)
            index = e.slice
            if type(index) is ast.Tuple and not self.wrapped(index):  # `x[a, b]`: the index tuple (lark's own)
                elts = [self.subscript(i) for i in index.elts]
                converted = n.Tuple(elts, False, _cover(elts))
            else:
                converted = self.subscript(index)
            return n.Subscript(value, converted, self.until(value, e))
        if kind is ast.BinOp:
            left, right = self.expr(e.left), self.expr(e.right)
            return n.BinOp(left, _BINARY[type(e.op)], right, left.span.to(right.span))
        if kind is ast.UnaryOp:
            operand = self.expr(e.operand)
            start = e.col_offset + self.indent  # (the operator's)
            return n.UnaryOp(_UNARY[type(e.op)], operand,
                             span(e.lineno - 1, start, operand.span.end_line, operand.span.end_col))
        if kind is ast.Tuple:
            elts = [self.expr(x) for x in e.elts]
            if not elts:
                return n.Tuple([], True, NO_SPAN)
            return n.Tuple(elts, self.wrapped(e), _cover(elts))
        if kind is ast.List:
            elts = [self.expr(x) for x in e.elts]
            return n.List(elts, _cover(elts))
        if kind is ast.Compare:
            left = self.expr(e.left)
            comparators = [self.expr(c) for c in e.comparators]
            return n.Compare(left, [_COMPARE[type(op)] for op in e.ops], comparators,
                             left.span.to(comparators[-1].span))
        if kind is ast.BoolOp:  # `a and b and c` is ((a and b) and c), as the callbacks order it
            op = "and" if type(e.op) is ast.And else "or"
            values = [self.expr(v) for v in e.values]
            left = values[0]
            for right in values[1:]:
                left = n.BoolOp(op, [left, right], left.span.to(right.span))
            return left
        if kind is ast.Starred:
            value = self.expr(e.value)
            return n.Starred(value, False, span(e.lineno - 1, e.col_offset + self.indent, value.span.end_line,
                                                value.span.end_col))
        if kind is ast.JoinedStr:
            return self.string(e)
        if kind is ast.IfExp:
            body, test, orelse = self.expr(e.body), self.expr(e.test), self.expr(e.orelse)
            return n.IfExp(test, body, orelse, body.span.to(orelse.span))
        if kind is ast.Dict:
            items = [(self.expr(k) if k is not None else None, self.expr(v)) for k, v in zip(e.keys, e.values)]
            return n.Dict(items, _cover([v for _, v in items]))
        if kind is ast.Set:
            elts = [self.expr(x) for x in e.elts]
            return n.Set(elts, _cover(elts))
        if kind in _COMPREHENSIONS:  # every expression in it, in the order written (the callbacks' `parts`)
            parts = [self.expr(e.key), self.expr(e.value)] if kind is ast.DictComp else [self.expr(e.elt)]
            for loop in e.generators:
                if loop.is_async:
                    raise _Decline("async comprehension")
                parts += [self.expr(loop.target), self.expr(loop.iter)] + [self.expr(c) for c in loop.ifs]
            return n.Comprehension("dictcomp" if kind is ast.DictComp else "comp", parts, _cover(parts))
        if kind is ast.Lambda:
            body = self.expr(e.body)
            return n.Lambda(self.params(e.args, lambda_=True), body, body.span)
        raise _Decline(kind.__name__)  # (:=, yield, await, a slice out of [])

    def subscript(self, e):
        if type(e) is ast.Starred:  # (`a[*b]` is one Starred to lark, a tuple of it to ast)
            raise _Decline("starred index")
        if type(e) is ast.Slice:
            parts = [self.expr(x) if x is not None else None for x in (e.lower, e.upper, e.step)]
            return n.Slice(parts[0], parts[1], parts[2], _cover([p for p in parts if p is not None]))
        return self.expr(e)

    def keyword(self, k: ast.keyword):
        value = self.expr(k.value)
        if k.arg is None:  # `**kwargs`
            return n.Keyword(None, value, value.span)
        return n.Keyword(k.arg, value, span(k.lineno - 1, k.col_offset + self.indent, value.span.end_line,
                                            value.span.end_col))

    def constant(self, e: ast.Constant):
        value = e.value
        if value is None or value is True or value is False:
            return n.Constant(value, NO_SPAN)
        if value is Ellipsis:
            return n.Constant(Ellipsis, self.token(e))
        if isinstance(value, (str, bytes)):
            return self.string(e)
        if e.lineno != e.end_lineno:
            raise _Decline("number")
        return n.Constant(number_value(self.plain[e.lineno - 1][e.col_offset:e.end_col_offset]), self.token(e))

    def string(self, e):
        """The literal's text, quotes and prefixes included, its pieces joined (`"a" "b"` is `"a""b"`)."""
        pieces = string_lexemes(self.segment(e))
        if not pieces:
            raise _Decline("string")
        return n.Str("".join(pieces), self.token(e))

    # -- places -------------------------------------------------------------------
    def token(self, e) -> n.Span:
        return span(e.lineno - 1, e.col_offset + self.indent, e.end_lineno - 1, e.end_col_offset + self.indent)

    def until(self, first: n.Node, e) -> n.Span:
        """From `first`'s start to `e`'s end (a call's `)`, a subscript's `]`, an attribute's name)."""
        return span(first.span.line, first.span.col, e.end_lineno - 1, e.end_col_offset + self.indent)

    def segment(self, e) -> str:
        """`e`'s text as it is written (a long string's inner lines with their own indentation)."""
        lines = self.lines[e.lineno - 1:e.end_lineno]
        start, end = e.col_offset + self.indent, e.end_col_offset + self.indent
        if len(lines) == 1:
            return lines[0][start:end]
        return "\n".join([lines[0][start:]] + lines[1:-1] + [lines[-1][:end]])

    def wrapped(self, e: ast.Tuple) -> bool:
        """Is the tuple written in brackets of its own? ast's tuple starts at its `(` then, but also
        at its first item's own bracket (`(a), b`): the `(` must close at the tuple's end."""
        text = self.segment(e)
        if not (text.startswith("(") and text.endswith(")")):
            return False
        depth = 0
        for k, ch in brackets(text):
            depth += 1 if ch in "([{" else -1
            if depth == 0:
                return k == len(text) - 1
        raise _Decline("brackets")

