"""syntax/fast_parse.py: a unit of plain Python parsed by Python's own parser gives lark's tree, node for
node and span for span, or is left to lark (issue 20: parsing was 40% of a big model's cold open)."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_syntax import _tree

from pypto_lens.syntax import chunker, parser, pieces
from pypto_lens.syntax.fast_parse import parse_clean

HERE = Path(__file__).resolve().parent
REPO = HERE.parent


def _lark(text: str):
    return parser.parse_unit_with_lark(text)


def _same_as_lark(text: str) -> bool:
    """Does the fast path take `text`, giving lark's tree?"""
    fast = parse_clean(text)
    stmts, problem = _lark(text)
    assert problem is None, (text, problem)
    return fast is not None and _tree(fast) == _tree(stmts)


TAKEN = [
    # statements
    "x = 1", "x = y = f(a)", "x: int = 1", "x: pl.Tensor[[64, 64], pl.FP32]", "x += 1", "x //= 2", "x **= 2",
    "x >>= 1", "return", "def f():\n    return a, b", "pass", "for i in range(4):\n    break\nelse:\n    continue",
    "if a:\n    x = 1\nelif b:\n    x = 2\nelse:\n    if c:\n        x = 3", "while a < 4:\n    a += 1",
    "with pl.at(level=pl.Level.CORE_GROUP, name_hint='s') as tid, b:\n    pass",
    "for (a, b) in pairs:\n    pass", "for a, b in x, y:\n    pass", "a, *b = c", "*a, b = c",
    "import a.b as c, d", "from . import x", "from ..a.b import (c as d, e)", "from m import *",
    "raise ValueError('x') from err", "raise", "assert a, 'message'",
    "try:\n    x = 1\nexcept (A, B) as e:\n    x = 2\nexcept C:\n    pass\nelse:\n    y = 1\nfinally:\n    z = 1",
    "try:\n    x = 1\nfinally:\n    pass", "a = 1; b = 2;",
    '@pl.jit(auto_scope=False)\n@other\ndef f(a, /, b: pl.Out[T] = 1, *c: int, d, e=2, **f) -> int:\n    """doc"""\n    return a',
    "def g(*, a, b=1):\n    pass", "def h(a, b, /):\n    pass",
    "@dataclass\nclass C(Base, metaclass=M, **kw):\n    x: int = 4\n    def m(self):\n        return self.x",
    "class D:\n    pass",
    # expressions
    "x = (a + b) * c", "x = a * (b + c)", "x = -a ** 2", "x = a ** -b", "x = not a == b",
    "x = a and b and c or d", "x = (a or b) and c", "x = a < b < c", "x = (a < b) < c", "x = a not in b",
    "x = a is not None", "x = ~a | b & c ^ d << 1 >> 2", "x = a @ b // c % d / e",
    "x = f(*a, k=1, **kw)(b)[0].c", "x = (f)(a)", "x = (a).b", "x = a[1:2, ::3, b:]", "x = a[:]",
    "x = a[(1, 2)]", "x = a[(1, 2), 3]", "x = a[1,]", "x = a[..., 0]", "x = (a), b", "x = ((a), b)",
    "x = (a), (b)", "x = ((a), (b))", "x = (a,)", "x = a,", "x = ()", "x = []", "x = [a, *b]", "x = {}",
    "x = {'a': 1, **b}", "x = {a, b}", "x = a if b else c if d else e", "x = 'a' 'b'",
    "x = ('a'\n     'b')", 'x = """long\n  text"""', "x = f'{a}' 'b'", "x = b'\\x00'", "x = r'\\d'",
    "x = 1_000 + 0x1F + 0o17 + 0b101 + 1e-3 + 1.5 + .5 + 2j", "x = ...", "x = None, True, False",
    "x = f(\n    a,\n    b=(c +\n       d),\n)", "x = a \\\n    + b", "x = -(a)", "x = not (a)",
    "print(a, *b, sep='')",
    "x = [i * 2 for i in range(4) if i for j in y]", "x = {k: v for k, (v, w) in y}", "f(a for a in b)",
    "x = sum((a for a in b), 0)", "x = {a for a in b}", "x = [(a, b) for a, b in c]",
    "x = lambda: 0", "x = lambda a, /, b=1, *c, d, **e: a + b", "x = lambda *, a: a",
]

DECLINED = [
    "del x", "global x", "async def f():\n    pass", "x = [a async for a in b]", "x = (y := 1)",
    "def f():\n    yield 1", "x = 'é'", "if a:\n\tx = 1", "with (a as b, c as d):\n    pass", "x = a[*b]",
]


@pytest.mark.parametrize("text", TAKEN)
def test_the_fast_path_takes_plain_python_and_gives_lark_s_tree(text):
    assert _same_as_lark(text), text


@pytest.mark.parametrize("text", TAKEN[:12] + ["def f():\n    return a[1:2], (b, c)"])
def test_an_indented_text_gets_its_columns_back(text):
    """A method, or one statement of a long function (syntax/pieces.py): lines after the newlines that
    place it, every one with the indentation of the first."""
    indented = "\n\n" + "\n".join("        " + line if line else line for line in text.split("\n"))
    assert _same_as_lark(indented), indented


@pytest.mark.parametrize("text", DECLINED + ["x = (", "def f(:\n    pass", "x = 1 +", "    x = 1\n  y = 2"])
def test_what_it_does_not_convert_is_lark_s(text):
    assert parse_clean(text) is None
    assert _tree(parser.parse_unit(text)) == _tree(_lark(text))


def _units(folder: Path):
    for path in sorted(folder.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for unit in chunker.split(text):
            yield unit.code + ("\n    pass" if unit.kind == "class" else ""), unit


def test_every_unit_of_the_examples_and_test_programs_parses_as_lark_parses_it():
    taken = total = 0
    for folder in (REPO / "examples", HERE / "programs", HERE / "graph_programs"):
        for text, unit in _units(folder):
            total += 1
            fast = parse_clean(text)
            if fast is not None:
                taken += 1
                stmts, problem = _lark(text)
                assert problem is None and _tree(fast) == _tree(stmts), text
            if unit.end - unit.start >= pieces.MIN_LINES:  # statement by statement, the pieces indented
                assert _tree(pieces.parse_by_statements(text, {})) == _tree(_lark(text)), text
    assert total > 300 and taken > 0.9 * total, (taken, total)  # (the fast path is what parses them)


# -- random expressions: spans and shapes of every operator, bracket and trailer together ---------------
_ATOMS = st.sampled_from(["a", "b1", "pl.x", "1", "2.5", "None", "'s'", "...", "()", "[]"])
_BINARY = st.sampled_from(["+", "-", "*", "/", "//", "%", "**", "@", "<<", ">>", "&", "|", "^",
                           "<", "<=", "==", "!=", "in", "not in", "is", "is not", "and", "or"])


def _expressions(inner):
    return st.one_of(
        st.tuples(inner, _BINARY, inner).map(lambda t: f"{t[0]} {t[1]} {t[2]}"),
        st.tuples(st.sampled_from(["-", "+", "~", "not "]), inner).map(lambda t: t[0] + t[1]),
        inner.map(lambda e: f"({e})"),
        st.lists(inner, min_size=1, max_size=3).map(lambda es: f"({', '.join(es)},)"),
        st.lists(inner, min_size=2, max_size=3).map(", ".join).map(lambda e: f"[{e}]"),
        st.tuples(inner, st.lists(inner, max_size=2)).map(lambda t: f"{t[0]}({', '.join(t[1])})"),
        st.tuples(inner, inner).map(lambda t: f"f({t[0]}, k={t[1]})"),
        st.tuples(inner, inner).map(lambda t: f"{t[0]}[{t[1]}]"),
        st.tuples(inner, inner, inner).map(lambda t: f"{t[0]}[{t[1]}:{t[2]}, :]"),
        st.tuples(inner, inner, inner).map(lambda t: f"{t[0]} if {t[1]} else {t[2]}"),
        inner.map(lambda e: f"({e}).y"),
        st.tuples(inner, inner, inner).map(lambda t: f"[{t[0]} for a, b in {t[1]} if {t[2]}]"),
        st.tuples(inner, inner).map(lambda t: f"{{a: {t[0]} for a in {t[1]}}}"),
        inner.map(lambda e: f"(lambda a, b=1: {e})"),
    )


@settings(max_examples=300, deadline=None)
@given(st.recursive(_ATOMS, _expressions, max_leaves=8), st.sampled_from(["x = {}", "y = ({}), {}", "f({})"]))
def test_random_expressions_parse_as_lark_parses_them(expression, statement):
    text = statement.format(expression, expression)
    fast = parse_clean(text)
    stmts, problem = _lark(text)
    if problem is not None:  # (Python's grammar is not ours everywhere: lark's problem is the answer)
        assert fast is None or _tree(parser.parse_unit(text)) == _tree(_lark(text))
        return
    if fast is not None:
        assert _tree(fast) == _tree(stmts), text
