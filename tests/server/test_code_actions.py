"""textDocument/codeAction: quick fixes for InParamWritten (declare pl.Out[...] or pl.InOut[...])."""
from __future__ import annotations

import pytest
from lsprotocol import types

from lens_client import apply_edit, pos
from lens_programs import LEAK_ANNOTATION, LEAKY, RW_ANNOTATION, T

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def in_param_written(client, uri):
    items = [d for d in (await client.pull(uri)).items if d.code == "InParamWritten"]
    assert len(items) == 2
    return items


def applied(action: types.CodeAction, uri: str, text: str, encoding: str) -> str:
    assert action.edit is not None
    edits = action.edit.changes[uri]
    assert len(edits) == 1
    [edit] = edits
    return apply_edit(text, edit.range.start, edit.range.end, edit.new_text, encoding)


async def test_the_one_fix_declares_what_pyptos_upgrade_makes_it(client):
    """Only the direction the warning names is offered: the InCore upgrade makes the written-only dst Out
    and the read-and-written 𝔞cc InOut (U4), as the callers' hints show; the other would be wrong."""
    uri = client.open_new(LEAKY)
    leak, rw = await in_param_written(client, uri)
    assert "makes it Out for its callers" in leak.message and "makes it InOut for its callers" in rw.message

    (out_fix,) = await client.code_actions(uri, [leak])
    assert out_fix.kind == types.CodeActionKind.QuickFix and out_fix.is_preferred
    assert "pl.Out[...]" in out_fix.title and "'dst'" in out_fix.title
    assert [d.code for d in out_fix.diagnostics] == ["InParamWritten"]
    fixed = applied(out_fix, uri, LEAKY, client.encoding)
    assert fixed == LEAKY.replace(LEAK_ANNOTATION, f"dst: pl.Out[{T}]")

    (inout_fix,) = await client.code_actions(uri, [rw])
    assert inout_fix.is_preferred and "pl.InOut[...]" in inout_fix.title and "'𝔞cc'" in inout_fix.title
    assert applied(inout_fix, uri, LEAKY, client.encoding) == LEAKY.replace(RW_ANNOTATION,
                                                                             f"𝔞cc: pl.InOut[{T}]")


async def test_applying_the_fixes_clears_the_warnings(client):
    uri = client.open_new(LEAKY)
    text, version = LEAKY, 1
    for _ in range(2):
        diagnostic = (await in_param_written(client, uri) if version == 1 else
                      [d for d in (await client.pull(uri)).items if d.code == "InParamWritten"])[0]
        preferred = (await client.code_actions(uri, [diagnostic]))[0]
        [edit] = preferred.edit.changes[uri]
        version += 1
        client.edit(uri, version, (edit.range.start.line, edit.range.start.character),
                    (edit.range.end.line, edit.range.end.character), edit.new_text)
        text = apply_edit(text, edit.range.start, edit.range.end, edit.new_text, client.encoding)
    assert [d for d in (await client.pull(uri)).items if d.code == "InParamWritten"] == []
    assert text == LEAKY.replace(LEAK_ANNOTATION, f"dst: pl.Out[{T}]").replace(RW_ANNOTATION, f"𝔞cc: pl.InOut[{T}]")


async def test_the_edit_replaces_exactly_the_annotation(client):
    uri = client.open_new(LEAKY)
    leak, _ = await in_param_written(client, uri)
    [edit] = (await client.code_actions(uri, [leak]))[0].edit.changes[uri]
    annotation = pos(LEAKY, LEAK_ANNOTATION, client.encoding)
    annotation.character += len("dst: ")
    assert edit.range == types.Range(start=annotation, end=pos(LEAKY, LEAK_ANNOTATION, client.encoding, after=True))
    assert edit.new_text == f"pl.Out[{T}]"


async def test_no_actions_without_our_diagnostics(client):
    uri = client.open_new(LEAKY)
    assert await client.code_actions(uri, []) == []
    other = types.Diagnostic(range=types.Range(start=types.Position(8, 0), end=types.Position(8, 5)),
                             message="from another tool", code="E501", source="flake8")
    assert await client.code_actions(uri, [other]) == []
    # our code but data that is not ours (another server version, a client that drops data)
    for data in (None, "junk", {"annotation": "junk"}, {"annotation": {"line": 1}},
                 {"annotation": {"line": 10**6, "col": 0, "end_line": 10**6, "end_col": 5}}):
        broken = types.Diagnostic(range=other.range, message="x", code="InParamWritten", source="pypto-lens",
                                  data=data)
        assert await client.code_actions(uri, [broken]) == []
    assert await client.code_actions("file:///nonexistent-pypto-lens/nothing.py", [other]) == []
