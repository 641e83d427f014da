"""The syntax layer: the lark grammar, the lexer, the Pratt ordering of operators, the chunker."""
from __future__ import annotations

import ast

import pytest

from lark import Token

from pypto_lens.syntax import chunker, parser
from pypto_lens.syntax import nodes as n
from pypto_lens.syntax.parser import parse_unit


def parse_ok(text: str) -> list:
    stmts, problem = parse_unit(text)
    assert problem is None, problem
    return stmts


def expr(text: str) -> n.Expr:
    (stmt,) = parse_ok(f"x = {text}\n")
    return stmt.value


def show(e) -> str:
    """A fully parenthesised rendering, to check precedence."""
    if isinstance(e, n.BinOp):
        return f"({show(e.left)} {e.op} {show(e.right)})"
    if isinstance(e, n.UnaryOp):
        return f"({e.op} {show(e.operand)})"
    if isinstance(e, n.BoolOp):
        return "(" + f" {e.op} ".join(show(v) for v in e.values) + ")"
    if isinstance(e, n.Compare):
        parts = [show(e.left)]
        for op, c in zip(e.ops, e.comparators):
            parts += [op, show(c)]
        return "(" + " ".join(parts) + ")"
    if isinstance(e, n.Name):
        return e.id
    if isinstance(e, n.Constant):
        return repr(e.value)
    return type(e).__name__


@pytest.mark.parametrize("source, expected", [
    ("a + b * c", "(a + (b * c))"),
    ("a * b + c", "((a * b) + c)"),
    ("a - b - c", "((a - b) - c)"),
    ("-a ** 2", "(- (a ** 2))"),
    ("a ** -b", "(a ** (- b))"),
    ("a ** b ** c", "(a ** (b ** c))"),
    ("a // b % c", "((a // b) % c)"),
    ("a | b & c ^ d", "(a | ((b & c) ^ d))"),
    ("a << 1 + 2", "(a << (1 + 2))"),
    ("not a == b", "(not (a == b))"),
    ("not a and b or c", "(((not a) and b) or c)"),
    ("a < b < c", "(a < b < c)"),
    ("a not in b and c is not None", "((a not in b) and (c is not None))"),
])
def test_operator_precedence_matches_python(source, expected):
    assert show(expr(source)) == expected


def test_spans_are_zero_based_code_points_relative_to_the_unit():
    (stmt,) = parse_ok("    y = self.fill('é💡', buf)\n")
    call = stmt.value
    assert isinstance(call, n.Call)
    assert (call.span.line, call.span.col) == (0, 8)
    arg = call.args[1]
    assert (arg.span.col, arg.span.end_col) == (24, 27)  # 'é💡' is 4 code points with its quotes
    assert call.span.end_col == 28  # just after ')'


def test_an_indented_method_parses_on_its_own():
    text = ("    @pl.function(type=pl.FunctionType.InCore)\n"
            "    def k(self, a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:\n"
            "        return a\n")
    (fdef,) = parse_ok(text)
    assert isinstance(fdef, n.FunctionDef) and fdef.name == "k"
    assert [p.name for p in fdef.params] == ["self", "a"]
    assert isinstance(fdef.decorators[0], n.Call)


@pytest.mark.parametrize("source", [
    "a, *b = c\n",
    "with (open(x) as f, open(y) as g):\n    pass\n",
    "for i, (acc,) in pl.parallel(4, init_values=(q,)):\n    acc = pl.yield_(acc)\n",
    "x = [i for i in range(3) if i] + {k: v for k, v in d.items()}\n",
    "f = lambda a, *rest, **kw: a\n",
    "s = '''multi\nline''' + f\"{x!r}\" + rb'\\x00'\n",
    "def g(a, /, b=1, *, c: int = 2, **kw) -> None: ...\n",
    "try:\n    pass\nexcept ValueError as e:\n    raise e from None\nfinally:\n    pass\n",
    "x = y if c else z\nassert x, 'msg'\ndel x\nglobal q\n",
    "@a.b(c)\nclass K(Base, metaclass=M):\n    '''doc'''\n    x: int = 1\n",
    "\"stage\"; tail = finish(out, tail)\n",
    "while (n := n - 1) > 0:\n    continue\n",
    "async def h():\n    await g()\n    async for x in y:\n        pass\n",
    "from ...pkg.mod import (a as b, c,)\nfrom . import x\nimport a.b as c, d\n",
    "x = 0x1F + 0o7 + 0b1 + 1_000 + 1.5e-3 + 2j + .5\n",
    "result = \\\n    1\n",
    "if a:\n    if b:\n        c = 1\n   ",  # a last line of blanks, deeper than the block it ends
    "if a:\n    b = 1\n  # a last comment, at no level\n",
])
def test_python_the_corpus_uses_parses(source):
    ast.parse(source)
    parse_ok(source)


@pytest.mark.parametrize("source, line", [
    ("def f(:\n    pass\n", 0),
    ("x = (1,\n", 0),
    ("x = 'unterminated\n", 0),
    ("if a\n    b = 1\n", 0),
    ("def f():\n        a = 1\n    b = 2\n", 2),
    ("x = 1 $ 2\n", 0),
])
def test_a_syntax_error_is_reported_never_raised(source, line):
    stmts, problem = parse_unit(source)
    assert stmts == [] and problem is not None
    assert problem.line == line
    assert problem.message


def test_a_bracket_left_open_says_so_though_a_comment_ends_the_text():
    for text in ("def f():\n    return g(a, b", "def f():\n    return g(a, b  # c\n", "def f():\n    return g(a,\n\n"):
        stmts, problem = parse_unit(text)
        assert stmts == [] and problem.message.startswith("unexpected end"), text
        assert "indentation" not in problem.message


def test_garbage_never_raises():
    for text in ["\x00\x01", "((((((", "'''", "\\", "def", "@", ")))", "\u2028x = 1", "\x0cx = 1\n", "é = 1\n"]:
        stmts, problem = parse_unit(text)
        assert isinstance(stmts, list)


def test_deeply_nested_expressions_parse():
    depth = 1000
    stmts, problem = parse_unit("x = " + "(" * depth + "1" + ")" * depth + "\n")
    assert problem is None


# -- the chunker ---------------------------------------------------------------------------

SOURCE = '''import pypto.language as pl
"""A module docstring
def not_a_unit():
"""
N = dict(
a=1,
)


@pl.program
class P:
    """doc"""

    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        return a

    @pl.function
    def main(self, a: pl.Tensor[[64], pl.FP32]):
        b = self.k(a
        return b

    def tail(self):
        pass
# a trailing comment


@pl.jit
def entry(x):
    if x:
        pass
    else:
        pass
'''


def test_chunker_units():
    units = chunker.split(SOURCE)
    described = [(u.kind, u.start, u.end, u.text.split("\n")[0].strip()) for u in units]
    assert described == [
        ("statement", 0, 1, "import pypto.language as pl"),
        ("statement", 1, 4, '"""A module docstring'),
        ("statement", 4, 7, "N = dict("),
        ("class", 9, 11, "@pl.program"),
        ("member", 11, 12, '"""doc"""'),
        ("member", 13, 16, "@pl.function(type=pl.FunctionType.InCore)"),
        ("member", 17, 21, "@pl.function"),  # an unclosed bracket stays inside its own method...
        ("member", 22, 24, "def tail(self):"),  # ...and does not swallow the next one
        ("statement", 27, 33, "@pl.jit"),
    ]
    assert all(u.parent == 3 for u in units if u.kind == "member")


def test_chunker_units_cover_the_text_they_name():
    lines = SOURCE.split("\n")
    for unit in chunker.split(SOURCE):
        assert unit.text == "\n".join(lines[unit.start:unit.end])


# -- parser._Driver runs lark's tables as lark's own loop does ---------------------------------

def _tree(x):
    """Everything a parse gives: node types, spans, fields, tokens with their positions."""
    if isinstance(x, n.Node):
        fields = tuple(_tree(getattr(x, name)) for name in x._fields)
        return type(x).__name__, x.span, fields, _tree(getattr(x, "decorators", None))
    if isinstance(x, Token):
        return "token", x.type, str(x), x.line, x.column, x.end_line, x.end_column, x.start_pos, x.end_pos
    if isinstance(x, (list, tuple)):
        return type(x).__name__, tuple(_tree(item) for item in x)
    return type(x).__name__, repr(x)


def _by_lark(text: str):
    """parse_unit with lark's own LALR loop (neither the driver nor the fast path of plain Python)."""
    driver = parser._local.__dict__.get("driver")
    parser._local.driver = parser._parser()  # Lark.parse(text), as the driver's parse(text)
    try:
        return parser.parse_unit_with_lark(text)
    finally:
        parser._local.driver = driver


def test_the_driver_parses_as_lark_does_also_broken_text():
    texts = [SOURCE, "x = 1", "", "\n\n# only a comment", "    def m(self):\n        return 1\n"]
    for text in list(texts[:1]):
        texts += [text[:k] for k in range(len(text))]  # every prefix: open brackets, missing blocks
        texts += [text[:k] + text[k + 1:] for k in range(len(text))]  # every character dropped
    for text in texts:
        stmts, problem = parse_unit(text)
        expected_stmts, expected_problem = _by_lark(text)
        assert (_tree(stmts), problem) == (_tree(expected_stmts), expected_problem), text



def test_a_lark_whose_tables_the_driver_cannot_read_parses_with_lark(monkeypatch):
    def unreadable(lark):
        raise AttributeError("no parse_table here")  # (another lark version's insides)
    expected = parse_unit(SOURCE)
    monkeypatch.setattr(parser, "_Driver", unreadable)
    monkeypatch.setattr(parser._local, "driver", None)
    stmts, problem = parse_unit(SOURCE)
    assert parser._local.driver is parser._parser()  # lark's own loop
    assert (_tree(stmts), problem) == (_tree(expected[0]), expected[1])


# -- the incremental splitter equals a full split ----------------------------------------

from hypothesis import example, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_PIECES = ["\n", "(", ")", "'''", '"', "#", "@pl.jit\n", "else:\n", "class Q:\n", "    def m(self):\n",
           "        x = 1\n", "def f():\n", "    pass\n", ")\n", "    ", "x = [\n", "]\n", "\\\n", "é💡"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 1), st.integers(0, 30), st.lists(st.sampled_from(_PIECES), max_size=3)),
                min_size=1, max_size=8))
# found by this test: `@pl.program` cut to `@pl.progr(` makes the class a decorator statement, which
# takes the statement after the re-cut region (a `:` line that began a unit before)
@example([(0.5, 3, []), (0.5, 0, ["\n", ")\n"]), (0.203125, 3, ["("])])
def test_the_incremental_splitter_equals_a_full_split(edits):
    splitter = chunker.Splitter()
    text = SOURCE
    splitter.split(text)
    for where, span, pieces in edits:
        a = int(where * len(text))
        text = text[:a] + "".join(pieces) + text[a + span:]
        assert splitter.split(text) == chunker.split(text)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 1), st.integers(0, 30), st.lists(st.sampled_from(_PIECES), max_size=3)),
                min_size=1, max_size=6))
def test_the_incremental_splitter_equals_a_full_split_in_a_long_text(edits):
    """Past the 4,096-character chunks it compares the old and the new text by (chunker._common_prefix)."""
    splitter = chunker.Splitter()
    text = SOURCE * 30
    assert len(text) > 3 * 4096
    splitter.split(text)
    for where, span, pieces in edits:
        a = int(where * len(text))
        text = text[:a] + "".join(pieces) + text[a + span:]
        assert splitter.split(text) == chunker.split(text)


@given(st.text("ab\n", max_size=40), st.text("ab\n", max_size=9000), st.text("ab\n", max_size=9000),
       st.text("ab\n", max_size=40))
def test_common_prefix_and_suffix_are_the_longest(head, x_middle, y_middle, tail):
    x, y = head + x_middle + tail, head + y_middle + tail
    prefix = chunker._common_prefix(x, y)
    limit = min(len(x), len(y)) - prefix
    suffix = chunker._common_suffix(x, y, limit)
    assert x[:prefix] == y[:prefix] and (prefix == min(len(x), len(y)) or x[prefix] != y[prefix])
    assert suffix <= limit and x[len(x) - suffix:] == y[len(y) - suffix:]
    assert suffix == limit or x[len(x) - suffix - 1] != y[len(y) - suffix - 1]
