"""A blank or comment line typed in a function's body, through the real server: the whole document's
hints, diagnostics and code lenses are what a new document of the same text shows (its last result
placed again where its lines are now: workspace/moved_lines.py), one line lower after the edit."""
from __future__ import annotations

import pytest
from lsprotocol import types

from lens_client import bounded, label_text, pos
from lens_programs import DEMO, SCOPE_HEADER

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def shown(client, uri: str) -> tuple:
    hints = [(h.position.line, h.position.character, label_text(h)) for h in await client.hints(uri)]
    diagnostics = [(d.range.start.line, d.range.start.character, d.code, d.message)
                   for d in await client.diagnostics_of(uri)]
    lenses = await bounded(client.text_document_code_lens_async(types.CodeLensParams(
        text_document=types.TextDocumentIdentifier(uri=uri))))
    return hints, diagnostics, sorted((lens.range.start.line, lens.command.title if lens.command else "")
                                      for lens in lenses or [])


@pytest.mark.parametrize("typed", ["\n", "        # a note\n"])
async def test_a_line_typed_in_a_body_shows_what_a_new_document_shows(client, typed):
    name = "blank.py" if typed == "\n" else "comment.py"
    uri = client.open_new(DEMO, name=name)
    before = await shown(client, uri)
    await bounded(client.protocol.send_request_async("pyptoLens/settled", None), 30)  # (its analysis whole)
    line = pos(DEMO, SCOPE_HEADER, client.encoding).line  # a line inside the orchestration's body
    client.edit(uri, 2, (line, 0), (line, 0), typed)
    after = await shown(client, uri)
    lines = DEMO.split("\n")
    text = "\n".join(lines[:line] + [typed[:-1]] + lines[line:])
    expected = await shown(client, client.open_new(text, name="new_" + name))
    assert after == expected
    assert [h for h in after[0] if h[0] > line] == [(h[0] + 1,) + h[1:] for h in before[0] if h[0] >= line]
    assert after[0] and after[2]  # (hints and lenses to compare)
