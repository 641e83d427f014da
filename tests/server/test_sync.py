"""Document sync through the real server: incremental edits with form feed, U+2028, NEL, \\r, \\r\\n.

The server's view of the text is observed through the hints: after an edit session the hints of
the edited document must equal those of a fresh document opened with the text a reference
implementation of the LSP rules (lens_client.apply_edit) computes, and the emoji line's hints
must sit where the reference says.
"""
from __future__ import annotations

import random

import pytest
from lsprotocol import types

from lens_client import apply_edit, label_text, line_spans, lsp_position, units
from lens_programs import DEMO

pytestmark = pytest.mark.asyncio(loop_scope="session")

# four comment lines with every line end and the characters Python's splitlines wrongly splits at
SCRATCH = "# one \x0c\n# two \u2028\r\n# three \x85 \u2029 \x0b \x1c\r# four\n"
IMPORT = "import pypto.language as pl\n"


def base(line_end: str) -> str:
    """DEMO with its own line ends replaced by `line_end`, and SCRATCH after the import line."""
    assert DEMO.startswith(IMPORT)
    return IMPORT.replace("\n", line_end) + SCRATCH + DEMO[len(IMPORT):].replace("\n", line_end)
# pieces typed into the comments; every line break is followed by `#`, so each line stays a comment
COMMENT_PIECES = ["\x0c", "\u2028", "\u2029", "\x85", "\x0b", "💡", "é", "中", " ", "x", "\r\n#", "\n#", "\r#"]
# pieces typed inside the emoji line's string literal (no line breaks there)
STRING_PIECES = ["\x0c", "\u2028", "\u2029", "\x85", "\x0b", "💡", "𝔡", "é", "中", " ", "y"]


def expected_emoji_hints(text: str, encoding: str):
    start = text.index("self.fill(a, out)") + len("self.fill(")
    return [lsp_position(text, start, encoding), lsp_position(text, start + len("a, "), encoding)]


async def snapshot(client, uri):
    return [(h.position.line, h.position.character, label_text(h)) for h in await client.hints(uri)]


@pytest.mark.parametrize("line_end", ["\n", "\r\n", "\r"])
async def test_documents_with_any_line_end_and_exotic_characters(client, line_end):
    text = base(line_end).replace('"é中文💡"', '"é\x0c中\u2028文\x85💡"')
    uri = client.open_new(text)
    plain = client.open_new(DEMO)
    hints, plain_hints = await snapshot(client, uri), await snapshot(client, plain)
    emoji = expected_emoji_hints(text, client.encoding)
    # four more lines (form feed, U+2028, NEL, U+2029, \x1c end none of them); the emoji line's string is longer
    assert [h[0] for h in hints] == [h[0] + 4 for h in plain_hints]
    assert [h[2] for h in hints] == [h[2] for h in plain_hints]
    assert [h[:2] for h in hints if h[0] == emoji[0].line] == [(p.line, p.character) for p in emoji]
    assert [h[1] for h in hints if h[0] != emoji[0].line] == [h[1] for h in plain_hints if h[0] + 4 != emoji[0].line]


def scratch_lines(text: str) -> list[int]:
    spans = line_spans(text)
    out = []
    for n in range(1, len(spans)):
        if not text[spans[n][0]:spans[n][1]].startswith("#"):
            break
        out.append(n)
    return out


def random_edit(r: random.Random, text: str, encoding: str):
    """An edit of the scratch comments or of the emoji line's string, in client units."""
    spans = line_spans(text)
    if r.random() < 0.35:  # inside the string literal: after the opening quote, before the closing one
        start = text.index('s = "') + len('s = "')
        end = text.index('"; out = self.fill')
        a = r.randrange(start, end + 1)
        b = a if r.random() < 0.6 else r.randrange(a, end + 1)
        piece = "".join(r.choice(STRING_PIECES) for _ in range(r.randrange(0, 4)))
        return lsp_position(text, a, encoding), lsp_position(text, b, encoding), piece
    lines = scratch_lines(text)
    first = r.choice(lines)
    last = first if r.random() < 0.6 else r.choice([n for n in lines if n >= first])

    def place(n, at_least):
        line = text[spans[n][0]:spans[n][1]]
        width = units(line, encoding)
        character = r.choice([at_least, width, 10**6, r.randrange(at_least, max(width, at_least) + 1)])
        return n, max(character, at_least)
    start = place(first, 1)  # after the `#`: the line stays a comment
    end = place(last, 1 if last != first else start[1])
    if r.random() < 0.2:
        start, end = end, start  # reversed: the same span
    piece = "".join(r.choice(COMMENT_PIECES) for _ in range(r.randrange(0, 4)))
    return types.Position(*start), types.Position(*end), piece


@pytest.mark.parametrize("seed", range(8))
async def test_random_incremental_sessions_match_the_reference(client, seed):
    r = random.Random(seed * 7919 + len(client.encoding))
    text = base(r.choice(["\n", "\r\n", "\r"]))
    uri = client.open_new(text)
    version = 1
    for round_ in range(3):
        for _ in range(6):
            start, end, piece = random_edit(r, text, client.encoding)
            version += 1
            client.edit(uri, version, (start.line, start.character), (end.line, end.character), piece)
            text = apply_edit(text, start, end, piece, client.encoding)
        hints = await snapshot(client, uri)
        fresh = client.open_new(text)
        assert hints == await snapshot(client, fresh), (round_, repr(text[:400]))
        client.close(fresh)
        emoji = [h for h in hints if "OutputExisting" in h[2]][0][0]
        assert [(p.line, p.character) for p in expected_emoji_hints(text, client.encoding)] == [
            h[:2] for h in hints if h[0] == emoji]
    client.close(uri)
