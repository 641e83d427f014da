"""server/text.py's LspText against a small reference of the LSP 3.17 text rules (Hypothesis).

The reference (lens_client.line_spans / offset_of / apply_edit) is written from the spec:
only \\n, \\r\\n and \\r end a line (not form feed, vertical tab, NEL, U+2028, U+2029), a character
past the end of a line means the line's end (the last line too), a line past the end means the end
of the text, and characters are counted in the negotiated encoding. Edits are random, with ranges
that may be reversed, past the end, or inside a character.
"""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lens_client import ENCODINGS, line_spans, offset_of, units
from pypto_lens.server.text import Change, LspText

ALPHABET = ["a", "b", " ", "\n", "\r", "\r\n", "\x0c", "\x0b", "\x85", "\u2028", "\u2029", "é", "中", "💡", "𝔡", "\t"]
texts = st.lists(st.sampled_from(ALPHABET), max_size=24).map("".join)
# what an edit inserts: often only line ends, which may join a \r before the edit to a \n in it
line_ends = st.lists(st.sampled_from(["\n", "\r", "\r\n", "x"]), max_size=4).map("".join)
insertions = st.one_of(texts, line_ends)


def reference_lines(text: str) -> list[str]:
    return [text[a:b] for a, b in line_spans(text)]


@st.composite
def positions(draw, text: str):
    """Mostly places that matter (line starts and ends, next to a line end), sometimes anywhere."""
    lines = reference_lines(text)
    line = draw(st.one_of(st.integers(0, len(lines) - 1), st.integers(0, len(lines) + 1)))
    here = units(lines[line], "utf-8") if line < len(lines) else 0
    longest = max((len(l) for l in lines), default=0) * 4 + 3
    character = draw(st.one_of(st.just(0), st.integers(0, here + 1), st.integers(0, longest), st.just(10**6)))
    return line, character


@st.composite
def sessions(draw):
    encoding = draw(st.sampled_from(ENCODINGS))
    text = draw(st.one_of(texts, line_ends))
    edits = []
    current = text
    for _ in range(draw(st.integers(1, 6))):
        new = draw(insertions)
        if draw(st.integers(0, 9)) == 0:
            edits.append((None, None, new))
            current = new
            continue
        start = draw(positions(current))
        end = draw(positions(current))
        edits.append((start, end, new))
        a = offset_of(current, *start, encoding)
        b = offset_of(current, *end, encoding)
        a, b = min(a, b), max(a, b)
        current = current[:a] + new + current[b:]
    return encoding, text, edits, current


def check_same(doc: LspText, text: str, encoding: str) -> None:
    assert doc.text == text
    lines = reference_lines(text)
    assert doc.line_count == len(lines)
    assert [doc.line(i) for i in range(doc.line_count)] == lines
    assert doc.normalised() == "\n".join(lines)
    assert doc.line(len(lines)) == "" and doc.line(-1) == ""
    for n, line in enumerate(lines):
        for col in range(len(line) + 1):
            assert doc.units(n, col, encoding) == units(line[:col], encoding)
        assert doc.units(n, len(line) + 5, encoding) == units(line, encoding)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sessions())
def test_incremental_edits_follow_the_lsp_rules(session):
    encoding, text, edits, expected = session
    doc = LspText(text, 1)
    check_same(doc, text, encoding)
    for start, end, new in edits:
        doc.apply(Change(new, start, end), encoding)
    check_same(doc, expected, encoding)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(ENCODINGS), st.lists(texts, min_size=2, max_size=10).map("\n".join), st.data())
def test_typing_on_one_line_then_elsewhere_keeps_every_line_after_every_edit(encoding, text, data):
    # (the lines after an edit are shifted lazily while the edits stay on the lines before them)
    doc = LspText(text, 1)
    current, last = text, None
    for _ in range(data.draw(st.integers(1, 15))):
        if last is not None and data.draw(st.integers(0, 3)):  # mostly typing on, at the same line
            line = last[0]
            start = (line, data.draw(st.integers(0, last[1] + 2)))
        else:
            start = data.draw(positions(current))
        end = start if data.draw(st.booleans()) else data.draw(positions(current))
        new = data.draw(insertions)
        a, b = sorted((offset_of(current, *start, encoding), offset_of(current, *end, encoding)))
        current = current[:a] + new + current[b:]
        doc.apply(Change(new, start, end), encoding)
        check_same(doc, current, encoding)
        last = start


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(ENCODINGS), texts, st.data())
def test_positions_clamp_like_the_reference(encoding, text, data):
    doc = LspText(text)
    lines = reference_lines(text)
    for _ in range(5):
        line, character = data.draw(positions(text))
        expected = offset_of(text, line, character, encoding)
        assert doc.offset(line, character, encoding) == expected
        got_line, got_col = doc.clamp(line, character, encoding)
        if line < len(lines):
            assert (got_line, line_spans(text)[got_line][0] + got_col) == (line, expected)
        else:  # past the last line: the end of the text
            assert (got_line, got_col) == (len(lines) - 1, len(lines[-1]))
    assert doc.clamp(-3, 5, encoding) == (0, 0) and doc.offset(-1, 0, encoding) == 0


def test_the_three_pygls_defects_are_absent():
    # 1. form feed and U+2028 are not line ends: deleting "line 1" of "\x0c\n" leaves ""
    doc = LspText("\x0c\n")
    doc.apply(Change("", (0, 0), (1, 0)), "utf-16")
    assert doc.text == ""
    doc = LspText("a\u2028b\nc")
    assert doc.line_count == 2 and doc.line(0) == "a\u2028b"
    # 2. a character past the end of the last line is the line's end, not one short
    doc = LspText("abc\ndef")
    doc.apply(Change("X", (1, 99), (1, 99)), "utf-16")
    assert doc.text == "abc\ndefX"
    assert LspText("abc\ndef").offset(1, 99, "utf-16") == 7
    # 3. converting positions does not touch the caller's values
    start, end = (1, 99), (1, 100)
    change = Change("Y", start, end)
    LspText("abc\ndef").apply(change, "utf-8")
    assert change.start == (1, 99) and change.end == (1, 100)


def test_carriage_return_and_line_feed_joined_and_split_by_edits():
    doc = LspText("a\rb")
    doc.apply(Change("", (0, 1), (1, 0)), "utf-16")  # delete the \r
    assert doc.text == "ab" and doc.line_count == 1
    doc = LspText("a\r")
    doc.apply(Change("\n", (1, 0), (1, 0)), "utf-16")  # a \n after a \r joins it: one line end
    assert doc.text == "a\r\n" and doc.line_count == 2
    doc = LspText("a\r\nb")
    doc.apply(Change("x", (1, 0), (1, 0)), "utf-16")
    assert doc.text == "a\r\nxb" and [doc.line(0), doc.line(1)] == ["a", "xb"]


def test_the_line_index_of_a_big_text_weighs_machine_integers():
    """Each line's start and end are kept as 8-byte integers (issue 41's genpl RSS): as lists of int
    objects the index of 100,000 lines weighed 7.2 MB, now 1.6 MB, and stays so across edits."""
    import tracemalloc

    text = "x = f(a, b)\n" * 100_000
    tracemalloc.start()
    try:
        doc = LspText(text)
        doc.apply(Change("y = 1\n", (50_000, 0), (50_000, 0)), "utf-16")  # (an edit re-indexes and shifts)
        doc.apply(Change("z", (10, 0), (10, 1)), "utf-16")
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    texts = 3 * len(text)  # (the text and its copies an edit makes, at most)
    assert doc.line_count == 100_002 and doc.line(50_000) == "y = 1"
    assert held - texts < 3_000_000
