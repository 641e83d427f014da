"""Hostile input: the server answers everything, never crashes, never hangs.

Positions past the end of a line or file, character = 10**6, reversed ranges, unknown documents,
binary garbage and NUL characters, a 10,000-line file, a 1,000-deep nested expression, and
$/cancelRequest of an in-flight request and of an unknown id. After each test the server must
still answer a normal request correctly (`still_fine`).
"""
from __future__ import annotations

import asyncio
import random
import uuid

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException

from lens_client import bounded, direction_of, label_text, pos
from lens_programs import DEMO, EMOJI_ARG_CHARACTERS, EMOJI_CALL, LEAKY, T, argument_positions

pytestmark = pytest.mark.asyncio(loop_scope="session")

UNKNOWN = "file:///nonexistent-pypto-lens/unknown.py"


async def still_fine(client):
    uri = client.open_new(DEMO)
    line = pos(DEMO, EMOJI_CALL, client.encoding).line
    hints = await client.hints(uri, (line, 0), (line + 1, 0))
    assert [h.position.character for h in hints] == list(EMOJI_ARG_CHARACTERS[client.encoding])
    client.close(uri)


def rng_range(a, b):
    return types.Range(start=types.Position(*a), end=types.Position(*b))


async def test_positions_past_the_end_of_lines_and_of_the_file(client):
    uri = client.open_new(DEMO)
    last = DEMO.count("\n")
    everything = [label_text(h) for h in await client.hints(uri)]
    assert everything
    # the whole file, past its end, from the end of line 0 (an import) to the end of the last line:
    # every hint; ranges entirely past the end: none
    for (start, end), expected in [(((0, 0), (10**6, 10**6)), everything), (((last + 5, 0), (last + 9, 0)), []),
                                   (((0, 10**6), (last, 10**6)), everything), (((10**6, 0), (10**6, 10**6)), []),
                                   (((2**31 - 1, 2**31 - 1), (2**31 - 1, 2**31 - 1)), [])]:
        assert [label_text(h) for h in await client.hints(uri, start, end)] == expected
    assert await client.hints(uri, (last + 5, 0), (last + 9, 0)) == []
    for position in [(10**6, 10**6), (last, 10**6), (0, 10**6), (2**31 - 1, 0)]:
        await client.hover(uri, types.Position(*position))  # answers (None or a hover), does not fail
    line = pos(DEMO, EMOJI_CALL, client.encoding).line
    hover = await client.hover(uri, types.Position(line, 10**6))  # the end of the emoji line: inside its call
    assert hover is not None and "**fill**" in hover.contents.value
    await still_fine(client)


async def test_an_edit_at_character_one_million_appends_to_the_line(client):
    uri = client.open_new(DEMO)
    line = pos(DEMO, EMOJI_CALL, client.encoding).line
    client.edit(uri, 2, (line, 10**6), (line, 10**6), "  # 💡 appended")
    # and one past the end of the file: appended to the text
    client.edit(uri, 3, (10**6, 10**6), (10**6, 10**6), "\n# the end 💡\n")
    hints = await client.hints(uri, (line, 0), (line + 1, 0))
    assert [h.position.character for h in hints] == list(EMOJI_ARG_CHARACTERS[client.encoding])
    assert [d.code for d in (await client.pull(uri)).items if d.code == "SyntaxError"] == []


async def test_reversed_ranges(client):
    uri = client.open_new(DEMO)
    c7 = argument_positions(DEMO, "self.fill(a, out)", 1, client.encoding)[0].line
    forward = [label_text(h) for h in await client.hints(uri, (c7, 0), (c7 + 1, 0))]
    backward = [label_text(h) for h in await client.hints(uri, (c7 + 1, 0), (c7, 0))]
    assert backward == forward and len(forward) == 2
    # a reversed edit range replaces the same span as the forward one
    emoji = pos(DEMO, '"é中文💡"', client.encoding)
    end = pos(DEMO, '"é中文💡"', client.encoding, after=True)
    client.edit(uri, 2, (end.line, end.character), (emoji.line, emoji.character), '"ok"')
    text = DEMO.replace('"é中文💡"', '"ok"')
    hints = await client.hints(uri, (emoji.line, 0), (emoji.line + 1, 0))
    assert [h.position for h in hints] == argument_positions(text, "self.fill(a, out)", 0, client.encoding)
    # a reversed range in a code action request
    await client.code_actions(uri, [], at=rng_range((5, 3), (1, 0)))


async def test_unknown_documents(client):
    assert await client.hints(UNKNOWN) == []
    assert await client.hover(UNKNOWN, types.Position(0, 0)) is None
    assert list((await client.pull(UNKNOWN)).items) == []
    assert await client.code_actions(UNKNOWN, []) == []
    assert isinstance(await client.explain(UNKNOWN, 0, 0), str)
    hint = types.InlayHint(position=types.Position(0, 0), label="a: Input",
                           data={"uri": UNKNOWN, "line": 0, "col": 0, "index": 0, "param": "a"})
    assert label_text(await client.resolve(hint)) == "a: Input"
    # changes and closes of documents never opened
    client.edit(UNKNOWN, 5, (0, 0), (0, 0), "x")
    client.replace(UNKNOWN, 6, "y")
    client.close(UNKNOWN)
    client.close(UNKNOWN)
    assert await client.hints(UNKNOWN) == []
    await still_fine(client)


def garbage(seed: int, size: int) -> str:
    r = random.Random(seed)
    pool = ["\x00", "\x01", "\x1b", "\x7f", "\x0c", "\x0b", "\x85", "\u2028", "\u2029", "\ufeff", "\ufffd",
            "\r", "\n", "\r\n", "\t", "(", ")", "[", "]", ":", "'", '"', "\\", "#", "@", "é", "中", "💡", "𝔡",
            "pl.", "self.", "def ", "class ", "with ", "    ", "=", ","]
    return "".join(r.choice(pool) if r.random() < 0.7 else chr(r.randrange(0x20, 0x3000)) for _ in range(size))


async def test_binary_garbage_and_nul_characters(client):
    texts = [garbage(seed, 3000) for seed in range(3)]
    texts.append(bytes(range(256)).decode("latin-1") * 4)
    texts.append(DEMO.replace("out = self.fill(a, out)", "out = self.fill(a,\x00 out)"))
    texts.append("\x00" * 1000)
    texts.append(DEMO[:700] + garbage(7, 500) + DEMO[700:])
    for text in texts:
        uri = client.open_new(text)
        await client.hints(uri)
        await client.hover(uri, types.Position(3, 3))
        await client.pull(uri)
        # incremental garbage on top
        client.edit(uri, 2, (1, 1), (4, 2), garbage(11, 200))
        client.edit(uri, 3, (0, 0), (0, 0), "\x00\x00\r")
        await client.hints(uri, (0, 0), (50, 0))
        await client.pull(uri)
        client.close(uri)
    # NUL inside a program's string: the program still gets its hints
    uri = client.open_new(DEMO.replace('"é中文💡"', '"é\x00中文💡"'))
    line = pos(DEMO, EMOJI_CALL, client.encoding).line
    hints = await client.hints(uri, (line, 0), (line + 1, 0))
    assert [direction_of(h) for h in hints] == ["Input", "OutputExisting"]
    await still_fine(client)


async def test_lone_surrogates_from_a_javascript_client(client):
    # a JS string may hold half of a surrogate pair; JSON carries it as "\ud83d"
    text = DEMO.replace('"é中文💡"', '"\ud83d\ude00 \ud83d \udca1"') + "\n# \udca1 trailing\n"
    uri = client.open_new(text)
    await client.hints(uri)
    await client.hover(uri, types.Position(25, 20))
    await client.pull(uri)
    client.edit(uri, 2, (0, 0), (0, 0), "\ud800")
    await client.pull(uri)
    client.close(uri)
    await still_fine(client)


def ten_thousand_lines() -> tuple[str, int]:
    parts = ["import pypto.language as pl\n\n\n@pl.program\nclass Big:\n",
             f"    @pl.function(type=pl.FunctionType.InCore)\n"
             f"    def fill(self, src: {T}, dst: pl.Out[{T}]) -> {T}:\n"
             f"        t = pl.load(src, [0], [64])\n        dst = pl.store(t, [0], dst)\n        return dst\n\n"]
    i = 0
    while sum(p.count("\n") for p in parts) < 10_000:
        parts.append(f"    @pl.function(type=pl.FunctionType.Orchestration)\n"
                     f"    def main_{i}(self, a: {T}, out: pl.Out[{T}]) -> {T}:\n"
                     f"        s = \"é中文💡 {i}\"; out = self.fill(a, out)\n"
                     f"        out = self.fill(a, out)\n"
                     + "".join(f"        # line {j} of main_{i}\n" for j in range(8))
                     + "        return out\n\n")
        i += 1
    return "".join(parts), i


async def test_a_ten_thousand_line_file(client):
    text, functions = ten_thousand_lines()
    assert text.count("\n") >= 10_000
    uri = client.open_new(text)
    last = text.count("\n")
    # the last function's calls, asked for by a range at the end of the file
    tail = await client.hints(uri, (last - 20, 0), (last, 0))
    call = argument_positions(text, "self.fill(a, out)", 2 * (functions - 1), client.encoding)
    assert [h.position for h in tail] == call + argument_positions(text, "self.fill(a, out)", 2 * functions - 1,
                                                                   client.encoding)
    assert [direction_of(h) for h in tail] == ["Input", "OutputExisting", "Input", "InOut"]
    assert len(await client.hints(uri)) == 4 * functions
    # an edit in the middle, then everything again
    middle = last // 2
    client.edit(uri, 2, (middle, 0), (middle, 0), "        # an edit in the middle 💡\n")
    assert len(await client.hints(uri)) == 4 * functions
    hover = await client.hover(uri, types.Position(call[1].line + 1, call[1].character))  # one line down now
    assert hover is not None and "**fill**" in hover.contents.value
    assert [d for d in (await client.pull(uri)).items if d.code == "SyntaxError"] == []
    client.close(uri)


@pytest.mark.parametrize("expression", ["(" * 1000 + "a" + ")" * 1000,
                                        "pl.add(" * 1000 + "a" + ", a)" * 1000,
                                        "[" * 1000 + "]" * 1000,
                                        "-" * 1000 + "a"])
async def test_a_thousand_deep_nested_expression(client, expression):
    text = DEMO.replace("        out = self.fill(a, out)\n        acc = self.bump(acc)\n",
                        f"        out = self.fill(a, out)\n        deep = {expression}\n        acc = self.bump(acc)\n")
    uri = client.open_new(text)
    hints = await client.hints(uri)
    assert len(hints) == 13
    await client.hover(uri, pos(text, "deep", client.encoding))
    await client.pull(uri)
    client.close(uri)
    await still_fine(client)


async def test_cancel_an_in_flight_request_and_an_unknown_id(client):
    text, functions = ten_thousand_lines()
    uri = client.open_new(text)
    outcomes = []
    for _ in range(3):
        msg_id = str(uuid.uuid4())
        request = asyncio.ensure_future(client.protocol.send_request_async(
            types.TEXT_DOCUMENT_INLAY_HINT,
            types.InlayHintParams(text_document=types.TextDocumentIdentifier(uri=uri),
                                  range=rng_range((0, 0), (10**6, 0))), msg_id=msg_id))
        await asyncio.sleep(0)
        client.protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id=msg_id))
        try:
            result = await bounded(request)
            outcomes.append(len(result))  # it finished before the cancel arrived: a whole answer
            assert len(result) == 4 * functions
        except JsonRpcException as error:
            outcomes.append(error.code)
            assert error.code == types.LSPErrorCodes.RequestCancelled
        # the next change makes the old result stale; the server must keep going
        client.edit(uri, 2 + len(outcomes), (0, 0), (0, 0), "#\n")
    # cancel ids nobody sent, of every JSON type an id may have
    for unknown in ("no-such-request", 987654321, str(uuid.uuid4())):
        client.protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id=unknown))
    # a cancel for a request already answered
    done_id = str(uuid.uuid4())
    await bounded(client.protocol.send_request_async(
        types.TEXT_DOCUMENT_HOVER, types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri),
                                                     position=types.Position(0, 0)), msg_id=done_id))
    client.protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id=done_id))
    assert len(await client.hints(uri)) == 4 * functions
    client.close(uri)
    await still_fine(client)


async def test_many_requests_at_once_all_answered(client):
    uri = client.open_new(LEAKY)
    requests = []
    for i in range(40):
        requests.append(client.hints(uri, (i % 20, 0), (10**6, 0)))
        requests.append(client.hover(uri, types.Position(i % 20, i)))
        requests.append(client.pull(uri))
        if i % 10 == 0:
            client.edit(uri, 2 + i, (0, 0), (0, 0), "# burst\n")
    answers = await bounded(asyncio.gather(*requests))
    # every pull answered (none an error), and the last one is what a fresh pull of the final text says
    assert all(hasattr(report, "items") for report in answers[2::3])
    fresh = client.open_new("# burst\n" * 4 + LEAKY)  # the text after the four edits
    where = [(d.code, d.range) for d in (await client.pull(uri)).items]
    assert where and where == [(d.code, d.range) for d in (await client.pull(fresh)).items]
    await still_fine(client)


async def test_resolve_with_data_that_is_not_ours(client):
    uri = client.open_new(DEMO)
    for data in [None, 5, "x", [1, 2], {"uri": 5}, {"uri": uri, "line": "a", "col": None},
                 {"uri": uri, "kind": "signature", "function": None, "param": 3},
                 {"uri": uri, "line": 10**9, "col": -1, "index": "0", "param": {}}]:
        hint = types.InlayHint(position=types.Position(0, 0), label="p: Input", data=data)
        resolved = await client.resolve(hint)
        assert label_text(resolved) == "p: Input"
    await still_fine(client)
