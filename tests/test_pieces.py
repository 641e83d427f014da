"""A long function parsed statement by statement (syntax/pieces.py) is exactly the whole parse.

The same nodes with the same spans and the same first syntax problem, for the
text as written and after random edits (broken brackets, strings, indentation,
decorators, else blocks), and so the same result after recovery. And the
statements are reused: a keystroke in one statement parses that one only.
"""
from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pypto_lens.syntax import chunker, nodes as n
from pypto_lens.syntax import pieces
from pypto_lens.syntax.parser import parse_unit
from pypto_lens.syntax.recovery import parse_recovering

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
from gen_model import write_model  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SNIPPETS = ["x", "(", ")", "[", "]", ":", ",", " ", "\n", "    ", "#", "'", '"', "\\", "pl.", "if a:\n",
            "else:\n", "@pl.function\n", '"""', "\t", "return ", "def f(a):\n", "= self.k(a, b)", "é"]


def dump(x):
    if isinstance(x, n.Node):
        return type(x).__name__, x.span, tuple(dump(getattr(x, f)) for f in x._fields)
    if isinstance(x, (list, tuple)):
        return tuple(dump(i) for i in x)
    return x


def long_units() -> list[str]:
    import tempfile
    texts = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "examples").glob("*.py"))]
    with tempfile.TemporaryDirectory() as tmp:
        for lines, seed in ((300, 2), (600, 5)):
            texts.append(write_model(Path(tmp) / str(seed), lines, seed=seed).read_text(encoding="utf-8"))
    return [u.code for text in texts for u in chunker.split(text) if u.end - u.start >= pieces.MIN_LINES]


def nested_blocks() -> str:
    """A function whose statements are mostly inside long blocks: a with holding a for holding a
    with, a while, and a for with an else (which is parsed whole)."""
    inner = "".join(f"                t{k} = pl.add(t{k - 1}, x)\n" for k in range(1, 25))
    loop = "".join(f"            a{k} = self.k(a, b)  # {k}\n" for k in range(22))
    return ("def f(self, x: pl.Tensor[[8], pl.FP32]):\n"
            "    y = x\n"
            "    with pl.manual_scope():\n"
            "        # the layers\n"
            "        for i in pl.range(4):\n"
            "            with pl.at(\n"
            "                level=pl.Level.CORE_GROUP,\n"
            "            ) as tid:\n"
            "                t0 = x\n" + inner +
            "            z = i\n"
            "        while y:\n" + loop.replace("            ", "            ", 1) +
            "        for j in pl.range(2):\n" + loop +
            "        else:\n"
            "            w = 1\n"
            "    return y\n")


UNITS = long_units() + [nested_blocks()]


def test_there_are_long_functions_to_compare():
    assert len(UNITS) >= 2 and max(u.count("\n") for u in UNITS) > 400


def test_every_long_function_as_written_parses_the_same():
    for text in UNITS:
        cache: dict = {}
        whole, by_statements = parse_unit(text), pieces.parse_by_statements(text, cache)
        assert whole[1] is None and by_statements[1] is None
        assert dump(whole[0]) == dump(by_statements[0])
        if pieces._split(text.split("\n")) is not None:  # a def: it was cut into its header and statements
            assert len(cache) >= 3


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(UNITS) - 1),
       st.lists(st.tuples(st.floats(0, 1), st.integers(0, 6), st.sampled_from(SNIPPETS)), min_size=1, max_size=3))
@example(which=1, edits=[(0.5, 4, "x"), (0.3998931829437561, 1, "\t")])  # a statement indented "   \t": too deep
@example(which=2, edits=[(0.150390625, 2, "\t")])  # the first statement indented " \t " (9 columns, 3 characters)
@example(which=2, edits=[(0.9921875, 0, "#")])  # the last line's bracket left open by a comment
@example(which=4, edits=[(0.984375, 4, "x"), (0.9921875, 5, "x"), (0.9921875, 5, " ")])  # a last line of blanks
@example(which=7, edits=[(0.375, 0, '"""'), (0.375, 1, '"""')])  # `""""` repaired: no empty string then a quote
def test_an_edited_function_parses_the_same_whole_or_by_statements(which, edits):
    text = UNITS[which]
    for where, span, insert in edits:
        a = int(where * len(text))
        text = text[:a] + insert + text[a + span:]
    cache: dict = {}
    whole = parse_unit(text)
    by_statements = pieces.parse_by_statements(text, cache)
    assert whole[1] == by_statements[1]
    assert dump(whole[0]) == dump(by_statements[0])
    recovered = parse_recovering(text, lambda t: pieces.parse_by_statements(t, cache))
    plain = parse_recovering(text)
    assert recovered[1] == plain[1] and dump(recovered[0]) == dump(plain[0])


def parsed_pieces(monkeypatch) -> list:
    """The texts pieces.py parses from now on (what it does not find in its cache)."""
    parsed = []

    def counted(text):
        parsed.append(text.lstrip("\n"))
        return parse_unit(text)
    monkeypatch.setattr(pieces, "parse_unit", counted)
    return parsed


def test_a_keystroke_in_a_long_block_parses_the_statement_around_it_again(monkeypatch):
    text = nested_blocks()
    cache: dict = {}
    assert dump(pieces.parse_by_statements(text, cache)[0]) == dump(parse_unit(text)[0])
    parsed = parsed_pieces(monkeypatch)
    edited = text.replace("t7 = pl.add(t6, x)", "t7 = pl.add(t6, x, x)")
    whole = parse_unit(edited)
    assert dump(pieces.parse_by_statements(edited, cache)[0]) == dump(whole[0]) and whole[1] is None
    assert [piece.strip() for piece in parsed] == ["t7 = pl.add(t6, x, x)"]
    # the for with an else is parsed whole: an edit in it parses all of it again
    head, line, tail = text.rpartition("a3 = self.k(a, b)")  # (the for's copy of the while's statement)
    edited = head + "a3 = self.k(b, a)" + tail
    pieces.parse_by_statements(edited, cache)
    assert any(piece.lstrip().startswith("for j") and "else:" in piece for piece in parsed)


def the_longest_unit_parsed(monkeypatch) -> tuple[dict, list, list[str], int]:
    """The longest unit parsed by statements: (its cache, what pieces.py parses from now on, its lines,
    a call line near its middle)."""
    text = max(UNITS, key=len)
    cache: dict = {}
    pieces.parse_by_statements(text, cache)
    lines = text.split("\n")
    middle = next(i for i in range(len(lines) // 2, len(lines)) if "=" in lines[i] and "(" in lines[i])
    return cache, parsed_pieces(monkeypatch), lines, middle


def test_a_keystroke_parses_one_statement_again(monkeypatch):
    cache, parsed, lines, middle = the_longest_unit_parsed(monkeypatch)
    lines[middle] = lines[middle].replace("(", "( ", 1)
    pieces.parse_by_statements("\n".join(lines), cache)
    assert len(parsed) == 1


def test_a_line_added_moves_the_statements_after_it_without_parsing_them_again(monkeypatch):
    """Their first parse moved down (nodes.moved_down) is their parse where they now stand."""
    cache, parsed, lines, middle = the_longest_unit_parsed(monkeypatch)
    indent = lines[middle][:len(lines[middle]) - len(lines[middle].lstrip())]
    for added in ([indent + "_probe = 0"], [indent + "_other = 1", indent + "_probe = 0"]):
        edited = "\n".join(lines[:middle] + added + lines[middle:])
        by_statements, whole = pieces.parse_by_statements(edited, cache), parse_unit(edited)
        assert dump(by_statements[0]) == dump(whole[0]) and by_statements[1] == whole[1]
        assert parsed[-1] == added[0]  # the new line's statement, parsed; the others moved
    assert parsed == [indent + "_probe = 0", indent + "_other = 1"]


def test_a_file_only_imported_parses_its_long_functions_whole():
    """What importers read of a file (DocumentAnalyzer.light) is made from whole parses: no keystroke
    will parse its statements again there. Its own analysis later reads the same parses, and is what
    an analysis that parsed statement by statement makes."""
    from pypto_lens.registry.default import default_registry
    from pypto_lens.workspace.caches import Caches
    from pypto_lens.workspace.document import DocumentAnalyzer
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        text = write_model(Path(tmp) / "m", 600, seed=5).read_text(encoding="utf-8")
    assert any(u.end - u.start >= pieces.MIN_LINES for u in chunker.split(text))
    imported = DocumentAnalyzer(default_registry, Caches())
    summary = imported.light(text, "file:///m/model.py", "file:///m/caller.py")
    summary.make_whole()  # (its functions are made when first read: here, all of them)
    assert summary.helpers or summary.others
    long_units = [u for u in chunker.split(text) if u.end - u.start >= pieces.MIN_LINES]
    assert all(imported.caches.parses.get((u.kind, u.code)) is not None for u in long_units)
    assert len(imported.caches.statements) == 0
    after, _ = imported.analyse(text, "file:///m/model.py", 1)
    fresh, _ = DocumentAnalyzer(default_registry, Caches()).analyse(text, "file:///m/model.py", 1)
    assert len(fresh.calls) > 10 and after.calls == fresh.calls and after.diagnostics == fresh.diagnostics
