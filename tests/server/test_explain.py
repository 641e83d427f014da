"""workspace/executeCommand `pyptoLens.explain`: the derivation of the call at a position, as markdown."""
from __future__ import annotations

import pytest
from lsprotocol import types

from lens_client import pos
from lens_programs import DEMO, argument_positions

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_explain_the_call_at_a_position_in_every_argument_form(client):
    uri = client.open_new(DEMO)
    out_arg = argument_positions(DEMO, "self.fill(a, out)", 0, client.encoding)[1]
    line = out_arg.line
    forms = [
        (uri, out_arg.line, out_arg.character),
        (uri, {"line": out_arg.line, "character": out_arg.character}),
        ({"uri": uri, "position": {"line": out_arg.line, "character": out_arg.character}},),
        ([uri, out_arg.line, out_arg.character],),
    ]
    answers = [await client.explain(*form) for form in forms]
    assert len(set(answers)) == 1
    text = answers[0]
    assert text.startswith(f"# Directions at line {line + 1}")
    assert "**fill**" in text and "C9" in text and "**OutputExisting**" in text
    assert f"]({uri}#L" in text  # evidence links


async def test_explain_uses_the_negotiated_encoding(client):
    uri = client.open_new(DEMO)
    # the emoji line's first character of `self` is after astral text: only the right encoding lands on it
    at = pos(DEMO, "self.fill(a, out)", client.encoding)
    text = await client.explain(uri, at.line, at.character)
    assert text.startswith(f"# Directions at line {at.line + 1}") and "C9" in text
    # explain falls back to the line's first call; the hover at the same position does not, so it
    # shows whether the position was read in the right units
    hover = await client.hover(uri, at)
    assert hover is not None and hover.range == types.Range(
        start=at, end=pos(DEMO, "self.fill(a, out)", client.encoding, after=True))


async def test_explain_elsewhere_on_a_line_and_where_there_is_no_call(client):
    uri = client.open_new(DEMO)
    c7 = argument_positions(DEMO, "self.fill(a, out)", 1, client.encoding)[0]
    text = await client.explain(uri, c7.line, 0)  # the indentation before the call: the call of the line
    assert "C7" in text
    text = await client.explain(uri, 0, 0)
    assert text == "No direction-bearing call at line 1."
    lines = DEMO.count("\n") + 1
    assert await client.explain(uri, lines + 10, 0) == \
        f"Line {lines + 11} is past the end of the document ({lines} lines)."


async def test_explain_never_fails(client):
    uri = client.open_new(DEMO)
    for arguments in [(), (None,), (uri,), (uri, "x", "y"), (uri, -5, -5), (uri, 10**6, 10**6),
                      ({"uri": uri},), ({"uri": uri, "position": "nowhere"},), (uri, {"line": "a"}),
                      ("file:///nonexistent-pypto-lens/missing.py", 1, 1), (42, 1, 1)]:
        answer = await client.explain(*arguments)
        assert isinstance(answer, str) and answer, arguments
