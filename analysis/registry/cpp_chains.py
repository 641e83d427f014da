"""Parse PyPTO's `REGISTER_OP("name").method(args)...;` builder chains out of C++ text.

An island parser: `cpp_scan` finds the registration statements cheaply and
only those are parsed, with lark (LALR, cpp_grammar.lark). A statement that
does not parse to its end (half-typed, missing `;`) keeps the calls before
the first error. Nothing here raises on any input.

Positions are 0-based lines and 0-based code-point columns; ranges are end
exclusive. A statement's parse is cached by its text, so re-parsing a file
after an edit only parses the statements that changed.
"""
from __future__ import annotations

import functools
import threading
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterator, NamedTuple, Optional, Sequence

from lark import Lark, Token, Transformer
from lark.exceptions import LarkError, UnexpectedInput, UnexpectedToken
from lark.lexer import Lexer

from ..bounded import memo_by_size
from ..lark_cache import cache_file
from .cpp_scan import CppToken, find_statements, tokenize

GRAMMAR = Path(__file__).with_name("cpp_grammar.lark")


@dataclass(frozen=True)
class Range:
    """A source range: 0-based lines, 0-based code-point columns, end exclusive."""

    line: int
    col: int
    end_line: int
    end_col: int

    def shifted(self, line: int, col: int) -> "Range":
        """The range of a statement-relative position once the statement starts at (line, col)."""
        return Range(self.line + line, self.col + col if self.line == 0 else self.col,
                     self.end_line + line, self.end_col + col if self.end_line == 0 else self.end_col)


@dataclass(frozen=True)
class Argument:
    """One argument of a builder call: its source text and its code tokens (no comments)."""

    text: str
    tokens: tuple[str, ...]
    range: Range

    def shifted(self, line: int, col: int) -> "Argument":
        return Argument(self.text, self.tokens, self.range.shifted(line, col))


@dataclass(frozen=True)
class BuilderCall:
    """`.method<template_args>(args)`; `range` runs from the `.` to just after the `)`."""

    method: str
    template_args: str  # "" when there are none, e.g. "DataType" for set_attr<DataType>
    args: tuple[Argument, ...]
    range: Range
    name_range: Range

    @property
    def arg_texts(self) -> tuple[str, ...]:
        return tuple(a.text for a in self.args)

    def shifted(self, line: int, col: int) -> "BuilderCall":
        return BuilderCall(self.method, self.template_args,
                           tuple(a.shifted(line, col) for a in self.args),
                           self.range.shifted(line, col), self.name_range.shifted(line, col))


@dataclass(frozen=True)
class Chain:
    """One registration statement.

    `op_name` is None when REGISTER_OP's argument is not a string literal
    (`name_text` keeps what was written). `head_range` covers
    `REGISTER_OP(...)`; `range` the whole parsed statement. `complete` is
    False when the statement lacked its `;` or stopped parsing early, in
    which case `calls` holds the calls before the problem. `stopped` is the
    token where the parse stopped (its range and text; at the end of the
    statement: its last token, with text ""), or None when it parsed to its end.
    """

    op_name: Optional[str]
    name_text: str
    head_range: Range
    range: Range
    calls: tuple[BuilderCall, ...]
    complete: bool
    stopped: Optional[tuple[Range, str]] = None

    def shifted(self, line: int, col: int) -> "Chain":
        if line == 0 and col == 0:
            return self
        stopped = (self.stopped[0].shifted(line, col), self.stopped[1]) if self.stopped else None
        return Chain(self.op_name, self.name_text, self.head_range.shifted(line, col),
                     self.range.shifted(line, col),
                     tuple(c.shifted(line, col) for c in self.calls), self.complete, stopped)


class PlacedChain(NamedTuple):
    """A statement-relative chain (shared, cached) and where its statement starts."""

    key: tuple[str, bool]  # (statement text, terminated): the cache key
    chain: Chain
    line: int
    col: int


def parse_chains(text: str) -> list[Chain]:
    """Every REGISTER_OP chain of a C++ source text, in source order."""
    return [p.chain.shifted(p.line, p.col) for p in placed_chains(text)]


def placed_chains(text: str) -> list[PlacedChain]:
    """Like parse_chains, but statement-relative, for callers that cache per statement."""
    return [PlacedChain(key, chain, line, col) for key, chain, line, col in _statements(text) if chain is not None]


def _statements(text: str) -> Iterator[tuple[tuple[str, bool], Optional[Chain], int, int]]:
    """Every registration statement: its cache key, its chain (None: nothing of it parses), and where it starts."""
    line, counted_to = 0, 0
    for statement in find_statements(text):
        line += text.count("\n", counted_to, statement.start)
        counted_to = statement.start
        col = statement.start - (text.rfind("\n", 0, statement.start) + 1)
        key = (text[statement.start:statement.end], statement.terminated)
        yield key, parse_statement(*key), line, col


@dataclass(frozen=True)
class Unparsed:
    """A registration statement read only in part, or not at all: where, and what is lost."""

    range: Range
    message: str
    op: Optional[str]


def unparsed(text: str) -> list[Unparsed]:
    """The REGISTER_OP statements of a C++ text that do not parse to their end (only the calls before
    the first error are read: what the rest declares is missing from the registry), or whose op is no
    string literal (not read at all), or that end without their `;` (read as far as they go: what
    follows is not)."""
    out = []
    for key, chain, line, col in _statements(text):
        if chain is None:
            out.append(Unparsed(Range(line, col, line, col + len("REGISTER_OP")),
                                "this REGISTER_OP statement does not parse: none of it is read", None))
            continue
        chain = chain.shifted(line, col)
        if chain.op_name is None:
            out.append(Unparsed(chain.head_range, f"the op's name `{chain.name_text}` is not a string literal: "
                                                  f"this chain is not read", None))
        elif chain.stopped is not None:
            where, token = chain.stopped
            read = ", ".join(c.method for c in chain.calls) or "none"
            what = f"does not parse from `{token}` on" if token else "ends inside a call"
            out.append(Unparsed(where, f"the chain of `{chain.op_name}` {what}: only the calls before it are "
                                       f"read ({read})", chain.op_name))
        elif not chain.complete:  # (cpp_scan ended it: the next registration, a `}`, or what no chain continues with)
            end = chain.range
            out.append(Unparsed(Range(end.end_line, end.end_col, end.end_line, end.end_col),
                                f"the chain of `{chain.op_name}` has no `;` here: it is read as far as this",
                                chain.op_name))
    return out


# 400,000 characters of statements: about 10 MB at 24 bytes a character (PyPTO's 314 REGISTER_OPs are 166,000)
@memo_by_size(400_000, lambda text, *_: len(text))
def parse_statement(text: str, terminated: bool = True) -> Optional[Chain]:
    """Parse one statement starting at `REGISTER_OP`; positions relative to its start."""
    try:
        tokens = tokenize(text)
        return _parse_tokens(text, tokens, terminated)
    except (LarkError, RecursionError, ValueError, IndexError, TypeError):  # never raise
        return None


def _parse_tokens(text: str, tokens: list[CppToken], terminated: bool) -> Optional[Chain]:
    if not tokens or tokens[0].type != "REGISTER_OP":
        return None
    try:
        tree = _parser().parse(tokens)
        return _build(text, tokens, tree, terminated)
    except UnexpectedInput as exc:
        failed_at = len(tokens)
        if isinstance(exc, UnexpectedToken) and exc.token.type != "$END":
            failed_at = exc.token.start_pos  # the index we stored, see _TokenFeed
    # Keep the calls before the error: cut after the last `)` that closed a call.
    cut = _last_call_end_before(tokens, failed_at)
    if cut is None:
        return None
    try:
        tree = _parser().parse(tokens[:cut])
    except UnexpectedInput:
        return None
    stopped = tokens[min(failed_at, len(tokens) - 1)]
    chain = _build(text, tokens[:cut], tree, False)
    return replace(chain, stopped=(_span(stopped, stopped), stopped.value if failed_at < len(tokens) else ""))


def _last_call_end_before(tokens: Sequence[CppToken], limit: int) -> Optional[int]:
    """Length of the longest prefix ending with a `)` at bracket depth 0."""
    depth, best = 0, None
    for index, token in enumerate(tokens[:limit]):
        kind = token.type
        if kind in ("LPAR", "LBRACE", "LSQB"):
            depth += 1
        elif kind in ("RPAR", "RBRACE", "RSQB"):
            depth -= 1
            if depth == 0 and kind == "RPAR":
                best = index + 1
            elif depth < 0:
                break
    return best


# ---------------------------------------------------------------------------
# lark plumbing


class _TokenFeed(Lexer):
    """Hands lark the tokens cpp_scan made; `start_pos` carries the token's index."""

    __future_interface__ = 0

    def __init__(self, lexer_conf) -> None:
        pass

    def lex(self, tokens: list[CppToken]) -> Iterator[Token]:  # type: ignore[override]
        for index, token in enumerate(tokens):
            yield Token(token.type, token.value, index, token.line + 1, token.col + 1,
                        token.end_line + 1, token.end_col + 1, index + 1)


class _Shape(Transformer):
    """Reduces the parse tree to plain tuples and token-index lists as lark reduces."""

    def group(self, children):
        flat: list = []
        for child in children:
            if isinstance(child, list):
                flat.extend(child)
            else:
                flat.append(child)
        return flat

    targs = group
    arg = group

    def args(self, children):
        return [child for child in children if isinstance(child, list)]

    def call(self, children):
        # DOT NAME [targs] LPAR [args] RPAR
        index, targs = 2, None
        if isinstance(children[index], list):
            targs = children[index]
            index += 1
        index += 1
        args = children[index] if isinstance(children[index], list) else []
        return ("call", children[0], children[1], targs, args, children[-1])

    def head(self, children):
        # REGISTER_OP LPAR [args] RPAR
        args = children[2] if isinstance(children[2], list) else []
        return ("head", children[0], args, children[-1])

    def start(self, children):
        return children


_local = threading.local()


def _parser() -> Lark:
    parser = getattr(_local, "parser", None)
    if parser is None:
        parser = Lark(_grammar_text(), parser="lalr", lexer=_TokenFeed, start="start",
                      transformer=_Shape(), cache=_cache_path())
        _local.parser = parser
    return parser


@functools.lru_cache(maxsize=1)
def _grammar_text() -> str:
    return GRAMMAR.read_text(encoding="utf-8")


def _cache_path():
    return cache_file("cpp-chains", _grammar_text())


# ---------------------------------------------------------------------------
# From the reduced tree to Chain


def _build(text: str, tokens: list[CppToken], tree: list, terminated: bool) -> Optional[Chain]:
    head = tree[0]
    _, register, name_args, head_close = head
    name_text = _arg(text, tokens, name_args[0]).text if len(name_args) == 1 else ""
    op_name = _string_literal([tokens[t.start_pos] for t in name_args[0]]) if len(name_args) == 1 else None
    calls = []
    for item in tree[1:]:
        if not isinstance(item, tuple):
            continue  # the closing SEMI
        _, dot, name, targs, args, close = item
        template = ""
        if targs:
            inner = targs[1:-1]
            if inner:
                template = " ".join(text[tokens[inner[0].start_pos].start:
                                         tokens[inner[-1].start_pos].end].split())
        calls.append(BuilderCall(str(name), template, tuple(_arg(text, tokens, a) for a in args),
                                 _span(tokens[dot.start_pos], tokens[close.start_pos]),
                                 _span(tokens[name.start_pos], tokens[name.start_pos])))
    last = tokens[-1]
    complete = terminated and last.type == "SEMI"
    return Chain(op_name, name_text, _span(tokens[register.start_pos], tokens[head_close.start_pos]),
                 _span(tokens[0], last), tuple(calls), complete)


def _span(first: CppToken, last: CppToken) -> Range:
    return Range(first.line, first.col, last.end_line, last.end_col)


def _arg(text: str, tokens: list[CppToken], items: list[Token]) -> Argument:
    first, last = tokens[items[0].start_pos], tokens[items[-1].start_pos]
    return Argument(text[first.start:last.end], tuple(str(t) for t in items), _span(first, last))


def _string_literal(tokens: list[CppToken]) -> Optional[str]:
    """The value of a string literal (adjacent literals concatenated), or None."""
    if not tokens or any(t.type != "STRING" for t in tokens):
        return None
    return "".join(string_value(t.value) for t in tokens)


def string_value(literal: str) -> str:
    """`"a\\"b"` -> `a"b`, `R"x(...)x"` -> `...`; prefixes (u8, L, u, U) are dropped."""
    quote = literal.index('"')
    prefix, body = literal[:quote], literal[quote:]
    if prefix.endswith("R"):
        open_paren = body.find("(")
        delim = body[1:open_paren]
        end = len(body) - len(delim) - 2 if body.endswith(f"){delim}\"") else len(body)
        return body[open_paren + 1:end]
    inner = body[1:-1] if len(body) > 1 and body.endswith('"') else body[1:]
    if "\\" not in inner:
        return inner
    out, i = [], 0
    simple = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\", '"': '"', "'": "'", "\n": ""}
    while i < len(inner):
        ch = inner[i]
        if ch == "\\" and i + 1 < len(inner):
            out.append(simple.get(inner[i + 1], inner[i + 1]))
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)
