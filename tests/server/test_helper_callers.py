"""An inline helper's own scope header shows how the workspace's callers in other files expand it (N1, H3):
one vector when they agree, the strongest per capture when they do not, each call's vector in the hover;
callers open or only on disk."""
from __future__ import annotations

import asyncio
import itertools

import pytest
from lsprotocol import types

from lens_client import bounded, capabilities, label_text, pos

pytestmark = pytest.mark.asyncio(loop_scope="session")

_folders = itertools.count()

HELPERS = '''\
import pypto.language as pl

N = 256


@pl.jit.inline
def square_into(src: pl.Tensor[[N], pl.FP32], dst: pl.Tensor[[N], pl.FP32]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="sq"):
        t = pl.load(src, [0], [N])
        pl.store(pl.mul(t, t), [0], dst)
    return dst
'''
HEADER = 'with pl.at(level=pl.Level.CORE_GROUP, name_hint="sq"):'

# O5: dst stored (Out), src read (In); C9: y is the caller's own Out parameter, written first here
ONCE = '''\
import pypto.language as pl
from helpers import N, square_into


@pl.jit
def once(x: pl.Tensor[[N], pl.FP32], y: pl.Out[pl.Tensor[[N], pl.FP32]]):
    y = square_into(x, y)
    return y
'''
ALSO_ONCE = ONCE.replace("def once(", "def also_once(")
# C7: the second expansion writes `mid`, which the first one already wrote: InOut there
TWICE = '''\
import pypto.language as pl
from helpers import N, square_into


@pl.jit
def twice(x: pl.Tensor[[N], pl.FP32], y: pl.Out[pl.Tensor[[N], pl.FP32]]):
    mid = pl.create_tensor([N], dtype=pl.FP32)
    mid = square_into(x, mid)
    mid = square_into(x, mid)
    return y
'''


def project(client):
    folder = client.folder / f"helper_callers_{next(_folders)}"
    folder.mkdir(parents=True)
    return folder


async def header_hints(client, uri) -> list[str]:
    line = pos(HELPERS, HEADER, client.encoding).line
    return sorted(label_text(h) for h in await client.hints(uri, (line, 0), (line + 1, 0)))


async def lent_header_hints(client, uri, expected: list[str]) -> list[str]:
    """The header's hints once the callers' expansions were lent in the background (bounded): the helper's
    own analysis never waits for its callers, its hints are refreshed when they arrive."""
    async def poll():
        while (found := await header_hints(client, uri)) != expected:
            await asyncio.sleep(0.05)
        return found
    try:
        return await bounded(poll(), 20)
    except asyncio.TimeoutError:
        return await bounded(header_hints(client, uri))  # (what it shows instead, for the assertion's message)


async def header_hover(client, uri) -> str:
    hover = await client.hover(uri, pos(HELPERS, "pl.at(", client.encoding))
    assert hover is not None
    return hover.contents.value


async def test_a_helper_without_callers_shows_nothing_on_its_header(client):
    folder = project(client)
    helpers = client.open((folder / "helpers.py").as_uri(), HELPERS)
    assert await header_hints(client, helpers) == []


async def test_callers_on_disk_that_agree_give_one_vector(client):
    folder = project(client)
    (folder / "helpers.py").write_text(HELPERS, encoding="utf-8")
    (folder / "caller_a.py").write_text(ONCE, encoding="utf-8")
    (folder / "caller_b.py").write_text(ALSO_ONCE, encoding="utf-8")
    refreshes = client.inlay_refreshes
    helpers = client.open((folder / "helpers.py").as_uri(), HELPERS)
    assert await lent_header_hints(client, helpers, ["dst: OutputExisting", "src: Input"]) == \
        ["dst: OutputExisting", "src: Input"]
    assert client.inlay_refreshes > refreshes  # the hints were refreshed when the callers' arrived
    text = await header_hover(client, helpers)
    assert "its 2 calls" in text and "disagree" not in text
    assert "caller_a.py:7 (once): src (x): Input, dst (y): OutputExisting" in text
    assert "caller_b.py:7 (also_once): src (x): Input, dst (y): OutputExisting" in text


async def test_callers_that_disagree_give_the_strongest_and_the_hover_lists_each(client):
    folder = project(client)
    helpers = client.open((folder / "helpers.py").as_uri(), HELPERS)
    (folder / "caller_a.py").write_text(ONCE, encoding="utf-8")  # (before the lending starts)
    assert await lent_header_hints(client, helpers, ["dst: OutputExisting", "src: Input"]) == \
        ["dst: OutputExisting", "src: Input"]
    (folder / "caller_b.py").write_text(TWICE, encoding="utf-8")  # a new file on disk, found at the next change
    client.replace(helpers, 2, HELPERS + "# saved\n")
    assert await lent_header_hints(client, helpers, ["dst: InOut", "src: Input"]) == ["dst: InOut", "src: Input"]
    text = await header_hover(client, helpers)
    assert "they disagree: each capture shows the strongest (H3)" in text
    assert "caller_a.py:7 (once): src (x): Input, dst (y): OutputExisting" in text
    assert "caller_b.py:8 (twice): src (x): Input, dst (mid): OutputExisting" in text
    assert "caller_b.py:9 (twice): src (x): Input, dst (mid): InOut" in text
    assert "copies: OutputExisting, OutputExisting, InOut" in text


async def test_an_open_caller_edited_moves_the_helpers_header(client):
    folder = project(client)
    helpers = client.open((folder / "helpers.py").as_uri(), HELPERS)
    caller = client.open((folder / "caller.py").as_uri(), TWICE)  # never saved: the editor's text
    assert await lent_header_hints(client, helpers, ["dst: InOut", "src: Input"]) == ["dst: InOut", "src: Input"]
    client.replace(caller, 2, ONCE)
    assert await lent_header_hints(client, helpers, ["dst: OutputExisting", "src: Input"]) == \
        ["dst: OutputExisting", "src: Input"]
    client.close(caller)  # not on disk: no caller any more (a viewport may first get the last hints, then a refresh)
    assert await lent_header_hints(client, helpers, []) == []


async def test_editing_the_helper_changes_what_its_callers_derive(client):
    folder = project(client)
    (folder / "caller.py").write_text(ONCE, encoding="utf-8")
    helpers = client.open((folder / "helpers.py").as_uri(), HELPERS)
    assert await lent_header_hints(client, helpers, ["dst: OutputExisting", "src: Input"]) == \
        ["dst: OutputExisting", "src: Input"]
    # the scope now reads dst before it stores it: InOut in the caller (O5), so on the header
    client.replace(helpers, 2, HELPERS.replace("pl.store(pl.mul(t, t)", "pl.store(pl.add(pl.load(dst, [0], [N]), t)"))
    assert await lent_header_hints(client, helpers, ["dst: InOut", "src: Input"]) == ["dst: InOut", "src: Input"]


async def test_the_lens_says_the_captures_come_from_the_callers(start_session):
    async with start_session(capabilities("utf-16"), labels="default") as client:
        folder = client.folder
        (folder / "caller_a.py").write_text(ONCE, encoding="utf-8")
        (folder / "caller_b.py").write_text(TWICE, encoding="utf-8")
        helpers = client.open((folder / "helpers.py").as_uri(), HELPERS)
        header = pos(HELPERS, HEADER, "utf-16").line

        async def header_lenses() -> dict:
            found = await client.text_document_code_lens_async(types.CodeLensParams(
                text_document=types.TextDocumentIdentifier(uri=helpers)))
            return {lens.range.start.line: lens.command for lens in found or []
                    if lens.command.command == "pyptoLens.explainAt"}

        async def lent() -> dict:  # (the callers on disk lend in the background; the lens is asked again)
            while (lenses := await header_lenses()).get(header) is None or \
                    lenses[header].title != "inout dst · in src":
                await asyncio.sleep(0.05)
            return lenses
        lenses = await bounded(lent(), 20)
        # the title is the directions alone (a count of the callers would change while they are lent again);
        # the tooltip says whose they are
        assert {line: c.title for line, c in lenses.items()} == {header: "inout dst · in src"}
        tooltip = lenses[header].tooltip
        assert "as its 3 calls expand this inline helper's scope (N1)" in tooltip
        assert "caller_a.py" in tooltip and "caller_b.py" in tooltip


async def test_a_whole_documents_hints_wait_for_the_open_callers(client):
    """A request that cannot be answered again (all of a document's hints, as Neovim and the checkers
    ask) answers with what the open callers lend, at once: for what the editor has open, the same as a
    fresh server's. The callers were opened last, so the helper's own analysis came before theirs."""
    folder = project(client)
    helpers = client.open((folder / "helpers.py").as_uri(), HELPERS)
    client.open((folder / "caller_a.py").as_uri(), ONCE)  # never saved: only the editor has them
    client.open((folder / "caller_b.py").as_uri(), TWICE)
    line = pos(HELPERS, HEADER, client.encoding).line
    whole = await bounded(client.hints(helpers), 30)
    assert sorted(label_text(h) for h in whole if h.position.line == line) == ["dst: InOut", "src: Input"]


async def test_a_whole_documents_hints_do_not_wait_for_callers_on_disk(client):
    """Callers only on disk lend in the background: the whole answer comes with the helper's own hints (its
    header, without callers open, shows nothing), or with the lent ones if the lending was quicker; both
    are refreshed to the lent ones."""
    folder = project(client)
    (folder / "caller.py").write_text(TWICE, encoding="utf-8")
    helpers = client.open((folder / "helpers.py").as_uri(), HELPERS)
    line = pos(HELPERS, HEADER, client.encoding).line
    whole = await bounded(client.hints(helpers), 30)
    assert sorted(label_text(h) for h in whole if h.position.line == line) in ([], ["dst: InOut", "src: Input"])
    assert await lent_header_hints(client, helpers, ["dst: InOut", "src: Input"]) == ["dst: InOut", "src: Input"]


async def test_settled_answers_once_the_lending_is_done(client):
    folder = project(client)
    (folder / "caller.py").write_text(TWICE, encoding="utf-8")
    helpers = client.open((folder / "helpers.py").as_uri(), HELPERS)
    answer = await bounded(client.protocol.send_request_async("pyptoLens/settled", None), 30)
    assert answer.settled is True
    assert await header_hints(client, helpers) == ["dst: InOut", "src: Input"]  # a viewport's, no waiting


# N1 with an argument expression: PyPTO substitutes `pl.read(lens, [0])` where the helper uses `n`, inside
# its scope, so the outlined scope reads `lens` (a tensor slot, where `n` is first used); the header names
# that capture with its caller, the hover with the expression (issue 22)
ROWS = '''\
import pypto.language as pl

N = 256


@pl.jit.inline
def head_rows(n: pl.Scalar[pl.INDEX], src: pl.Tensor[[N], pl.FP32], dst: pl.Tensor[[N], pl.FP32]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="head"):
        t = pl.load(src, [0], [N])
        pl.store(pl.mul(t, n), [0], dst)
    return dst
'''
ROWS_CALLER = '''\
import pypto.language as pl
from rows import N, head_rows


@pl.jit
def main(lens: pl.Tensor[[4], pl.INDEX], a: pl.Tensor[[N], pl.FP32], out: pl.Out[pl.Tensor[[N], pl.FP32]]):
    head_rows(pl.read(lens, [0]), a, out)
    return out
'''


async def test_a_callers_argument_expression_is_a_capture_of_its_own(client):
    folder = project(client)
    (folder / "caller.py").write_text(ROWS_CALLER, encoding="utf-8")
    rows = client.open((folder / "rows.py").as_uri(), ROWS)
    line = pos(ROWS, "with pl.at(", client.encoding).line
    expected = ["dst: OutputExisting", "lens (caller.py:7): Input", "src: Input"]

    async def poll():
        while (found := sorted(label_text(h) for h in await client.hints(rows, (line, 0), (line + 1, 0)))) != expected:
            await asyncio.sleep(0.05)
        return found
    assert await bounded(poll(), 20) == expected
    hover = await client.hover(rows, pos(ROWS, "pl.at(", client.encoding))
    assert "caller.py:7 (main): src (a): Input, lens (read by pl.read(lens, [0]) for n): Input, dst (out): " \
           "OutputExisting" in hover.contents.value


# Nested helpers: the caller names only `outer`, which expands `inner`'s scope; the caller's own helper
# `fill` rebinds `y` first (a later version of it is passed on). The header names each capture as the
# helper's text does (`h`, `out`), never by a caller's buffer (issue 22: lm_head showed x_out, hidden_out...)
NESTED = '''\
import pypto.language as pl

N = 256


@pl.jit.inline
def inner(h: pl.Tensor[[N], pl.FP32], out: pl.Tensor[[N], pl.FP32]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="sq"):
        t = pl.load(h, [0], [N])
        pl.store(pl.mul(t, t), [0], out)
    return out


@pl.jit.inline
def outer(h: pl.Tensor[[N], pl.FP32], out: pl.Tensor[[N], pl.FP32]):
    inner(h, out)
    return out
'''
NESTED_CALLER = '''\
import pypto.language as pl
from nested import N, outer


@pl.jit.inline
def fill(src: pl.Tensor[[N], pl.FP32], dst: pl.Tensor[[N], pl.FP32]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="fill"):
        dst[0:N] = pl.add(src, src)


@pl.jit
def {name}(x: pl.Tensor[[N], pl.FP32], y: pl.Out[pl.Tensor[[N], pl.FP32]], z: pl.Out[pl.Tensor[[N], pl.FP32]]):
    fill(x, y)
    outer(y, z)
    return z
'''


async def test_captures_keep_the_helpers_names_through_nested_helpers(client):
    folder = project(client)
    (folder / "caller_a.py").write_text(NESTED_CALLER.format(name="first"), encoding="utf-8")
    (folder / "caller_b.py").write_text(NESTED_CALLER.format(name="second").replace("outer(y, z)", "outer(x, y)"),
                                        encoding="utf-8")
    nested = client.open((folder / "nested.py").as_uri(), NESTED)
    line = pos(NESTED, "with pl.at(", client.encoding).line
    expected = ["h: Input", "out: InOut"]

    async def poll():
        while (found := sorted(label_text(h) for h in await client.hints(nested, (line, 0), (line + 1, 0)))) != expected:
            await asyncio.sleep(0.05)
        return found
    assert await bounded(poll(), 20) == expected
    hover = (await client.hover(nested, pos(NESTED, "pl.at(", client.encoding))).contents.value
    assert "caller_a.py:14 (first): h (y): Input, out (z): OutputExisting" in hover
    assert "caller_b.py:14 (second): h (x): Input, out (y): InOut" in hover
