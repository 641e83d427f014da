"""Real editors' capabilities (pytest-lsp's captured profiles): the encoding each negotiates, pull or push.

VS Code 1.65 sends no positionEncodings, no inlayHint and no pull-diagnostic capability: the
server must still give hints (UTF-16) and push diagnostics. Neovim 0.11 prefers UTF-8 and pulls;
Emacs 29.1 prefers UTF-32 and is pushed to.
"""
from __future__ import annotations

import pytest
from pytest_lsp import client_capabilities

from lens_client import label_text, pos
from lens_programs import EMOJI_ARG_CHARACTERS, EMOJI_CALL, LEAK_WRITE, LEAKY, DEMO, written_argument

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest.mark.parametrize("profile, encoding, pulls", [("visual_studio_code@v1.65.2", "utf-16", False),
                                                      ("neovim@v0.11.0", "utf-8", True),
                                                      ("emacs@v29.1", "utf-32", False)])
async def test_editor_profiles(start_session, profile, encoding, pulls):
    async with start_session(client_capabilities(profile), labels="default") as client:
        negotiated = client.init_result.capabilities.position_encoding
        assert (negotiated or "utf-16") == encoding
        client.encoding = encoding
        assert client.pulls == pulls
        uri = client.open_new(DEMO)
        line = pos(DEMO, EMOJI_CALL, encoding).line
        hints = await client.hints(uri, (line, 0), (line + 1, 0))
        assert [h.position.character for h in hints] == list(EMOJI_ARG_CHARACTERS[encoding])
        assert [label_text(h) for h in hints] == ["in", "OUT"]  # the user's default: short words
        leaky = client.open_new(LEAKY)
        diagnostics = await client.diagnostics_of(leaky, lambda items: any(d.code == "InParamWritten" for d in items))
        [leak] = [d for d in diagnostics if d.code == "InParamWritten" and "'dst'" in d.message]
        assert leak.range.start == written_argument(LEAKY, LEAK_WRITE, encoding).start
