"""textDocument/hover: the derivation of the call under the cursor, with rule ids and evidence links."""
from __future__ import annotations

import re

import pytest
from lsprotocol import types

from lens_client import capabilities, pos
from lens_programs import DEMO, EMOJI_CALL, LEAK_ANNOTATION, LEAKY, RW_ANNOTATION, SCOPE_HEADER, argument_positions

pytestmark = pytest.mark.asyncio(loop_scope="session")

LINK = re.compile(r"\[line (\d+)\]\(([^)#]+)#L(\d+),(\d+)\)")
LINES = DEMO.split("\n")


def links(markdown: str, uri: str) -> list[int]:
    """The 0-based lines the markdown links to; every link names the document and agrees with its text."""
    out = []
    for shown, target, line, col in LINK.findall(markdown):
        assert target == uri
        assert shown == line
        assert 1 <= int(line) <= len(LINES) and int(col) >= 1
        out.append(int(line) - 1)
    return out


def call_range(call: str, encoding: str, occurrence: int = 0) -> types.Range:
    return types.Range(start=pos(DEMO, call, encoding, occurrence=occurrence),
                       end=pos(DEMO, call, encoding, occurrence=occurrence, after=True))


async def markdown_at(client, uri, position) -> types.Hover:
    hover = await client.hover(uri, position)
    assert hover is not None
    assert isinstance(hover.contents, types.MarkupContent)
    assert hover.contents.kind == types.MarkupKind.Markdown
    return hover


async def test_hover_on_the_callee_name_after_astral_text(client):
    uri = client.open_new(DEMO)
    at = pos(DEMO, EMOJI_CALL.replace("self.fill(a, out)", "self.f"), client.encoding, after=True)
    hover = await markdown_at(client, uri, at)
    value = hover.contents.value
    assert "**fill**" in value
    assert "**src** (`a`): **Input** — C4" in value
    assert "**dst** (`out`): **OutputExisting** — C9" in value
    assert hover.range == call_range("self.fill(a, out)", client.encoding)
    lines = links(value, uri)
    assert pos(DEMO, "def fill", client.encoding).line in lines  # the callee parameters' declaration
    assert pos(DEMO, "def main", client.encoding).line in lines  # the root: parameter `out` of main


async def test_hover_on_any_argument_gives_the_same_call(client):
    uri = client.open_new(DEMO)
    on_name = await markdown_at(client, uri, pos(DEMO, "self.fill(a, out)", client.encoding))
    for position in argument_positions(DEMO, "self.fill(a, out)", 0, client.encoding):
        on_arg = await markdown_at(client, uri, position)
        assert on_arg.contents.value == on_name.contents.value
        assert on_arg.range == on_name.range


async def test_hover_names_the_rule_and_links_the_earlier_writer(client):
    uri = client.open_new(DEMO)
    hover = await markdown_at(client, uri, pos(DEMO, "self.fill(a, out)", client.encoding, occurrence=1))
    value = hover.contents.value
    assert "**dst** (`out`): **InOut** — C7" in value
    first_writer = pos(DEMO, EMOJI_CALL, client.encoding).line
    assert first_writer in links(value, uri)
    assert "earlier writer" in value
    assert hover.range == call_range("self.fill(a, out)", client.encoding, occurrence=1)


async def test_hover_in_a_loop_cites_c5_and_the_loop(client):
    uri = client.open_new(DEMO)
    hover = await markdown_at(client, uri, pos(DEMO, "self.fill(a, out)", client.encoding, occurrence=2))
    value = hover.contents.value
    assert "**InOut** — C5" in value
    assert pos(DEMO, "for i in pl.range(n)", client.encoding).line in links(value, uri)


async def test_hover_on_no_dep_cites_c10_and_no_scalar_while_scalar_hints_are_off(client):
    uri = client.open_new(DEMO)
    hover = await markdown_at(client, uri, pos(DEMO, "pl.no_dep(a)", client.encoding))
    value = hover.contents.value
    assert value.startswith("```python\nscale(x: In, y: Out)\n```")  # the callee's signature first
    assert "**x** (`a`): **NoDep** — C10" in value
    assert "**k**" not in value  # a Scalar only where its hints are shown


async def test_hover_lists_the_scalar_when_scalar_hints_are_on(start_session):
    async with start_session(capabilities("utf-16"), configuration={"pyptoLens": {"inlayHints": {"scalar": True}}}) \
            as client:
        uri = client.open_new(DEMO)
        value = (await markdown_at(client, uri, pos(DEMO, "pl.no_dep(a)", client.encoding))).contents.value
        assert value.startswith("```python\nscale(x: In, k: scalar, y: Out)\n```")
        assert "**k**: **Scalar** — S7" in value


async def test_hover_on_a_scope_header(client):
    uri = client.open_new(DEMO)
    hover = await markdown_at(client, uri, pos(DEMO, "pl.at(level", client.encoding))
    value = hover.contents.value
    assert "scope dispatch" in value
    assert "**a**: **Input**" in value
    assert "**acc**: **InOut**" in value
    header = pos(DEMO, SCOPE_HEADER, client.encoding).line
    assert hover.range.start.line == header
    assert header not in links(value, uri)  # no link back at the hovered header
    assert value.index("**acc**: **InOut**") < value.index("**a**: **Input**")  # written captures first


async def test_hover_on_a_parameter_whose_effective_direction_differs(client):
    """The reason of a signature hint (U4: written in an InCore body) on the parameter itself, after astral text."""
    uri = client.open_new(LEAKY)
    for annotation, name, effective in [(LEAK_ANNOTATION, "dst", "Out"), (RW_ANNOTATION, "𝔞cc", "InOut")]:
        start = pos(LEAKY, annotation, client.encoding)
        end = pos(LEAKY, annotation, client.encoding, after=True)
        for character in (start.character, end.character - 1):
            hover = await markdown_at(client, uri, types.Position(start.line, character))
            value = hover.contents.value
            assert value.startswith(f"**{name}** of `{'leak' if name == 'dst' else 'rw'}` is declared **In**, "
                                    f"effectively **{effective}**")
            assert "U4" in value or "U3" in value
            assert hover.range == types.Range(start=start, end=end)
    # an unchanged parameter has no such hover
    unchanged = pos(LEAKY, "données_𝔡", client.encoding)
    assert await client.hover(uri, unchanged) is None


async def test_no_hover_outside_calls(client):
    uri = client.open_new(DEMO)
    assert await client.hover(uri, types.Position(0, 3)) is None  # the import
    inside_string = pos(DEMO, "中文", client.encoding)
    assert await client.hover(uri, inside_string) is None
    # UTF-16/UTF-8: a character inside the emoji's code units is not a crash, just no call there
    emoji = pos(DEMO, "💡", client.encoding)
    for extra in range(1, 4):
        assert await client.hover(uri, types.Position(emoji.line, emoji.character + extra)) is None


async def test_hover_on_an_unknown_document(client):
    assert await client.hover("file:///nonexistent-pypto-lens/missing.py", types.Position(0, 0)) is None


async def test_hover_on_an_operator_call_after_astral_text(client):
    source = DEMO.replace("        dst = pl.store(t, [0], dst)", '        s = "é中💡"; dst = pl.store(t, [0], dst)')
    uri = client.open_new(source)
    hover = await markdown_at(client, uri, pos(source, "pl.st", client.encoding, after=True))
    value = hover.contents.value
    assert "tile.store" in value and "**Write**" in value and "**Read**" in value
    assert hover.range == types.Range(start=pos(source, "store(t, [0], dst)", client.encoding),
                                      end=pos(source, "pl.store", client.encoding, after=True))


async def test_the_hover_of_an_operator_without_declarations_says_what_its_note_says(start_session):
    """No contradiction: the note says it declares no effects, so the hover lists no declared Read either."""
    config = {"pyptoLens": {"diagnostics": {"unclassifiedOperators": "on"}}}
    async with start_session(capabilities("utf-16"), configuration=config) as client:
        uri = client.open_new(DEMO)
        notes = [d for d in (await client.pull(uri)).items if d.code == "UnclassifiedOperator"]
        load = [d for d in notes if "tile.load" in d.message]
        assert load and "declares no argument effects" in load[0].message
        value = (await markdown_at(client, uri, load[0].range.start)).contents.value
        assert "Declares no argument effects" in value and "read (nothing declared)" in value
        assert "**Read**" not in value and "**Write**" not in value
