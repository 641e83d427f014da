"""What a user sees with the default settings (issue 9): short labels fitted into the editor's budget for
one line's hint text, scope headers that fit, the tooltips that say the rest, operator notes only where
the workspace holds PyPTO's own operator sources. On the end-to-end test's model-shaped program."""
from __future__ import annotations

import asyncio
from collections import defaultdict
from pathlib import Path

import pytest
from lsprotocol import types

from lens_client import ROOT, bounded, capabilities, label_text, pos

pytestmark = pytest.mark.asyncio(loop_scope="session")

MODEL = (ROOT / "vscode-extension" / "e2e" / "workspace" / "rope_kv_layer.py").read_text(encoding="utf-8")
WRITTEN = ("OutputExisting", "Output", "InOut", "NoDep")
SCOPE_CLOSE = '        name_hint="rope_kv_cache_update",\n    ):'


def per_line(hints) -> dict[int, list[str]]:
    out = defaultdict(list)
    for h in hints:
        out[h.position.line].append(label_text(h))
    return out


async def until(predicate, seconds: float = 10.0):
    async def poll():
        while not predicate():
            await asyncio.sleep(0.02)
    await bounded(poll(), seconds)


async def lenses(client, uri) -> dict[int, str]:
    """The scopes' lenses (the task graph's counts are lenses too, over orchestration functions)."""
    found = await bounded(client.text_document_code_lens_async(types.CodeLensParams(
        text_document=types.TextDocumentIdentifier(uri=uri))))
    return {lens.range.start.line: lens.command.title for lens in found or []
            if lens.command.command == "pyptoLens.explainAt"}


async def test_defaults_fit_every_line_into_43_characters_and_show_every_written_direction(start_session):
    async with start_session(capabilities("utf-16"), labels="default") as client:
        uri = client.open_new(MODEL)
        shown = per_line(await client.hints(uri))
        lens = await lenses(client, uri)
    async with start_session(capabilities("utf-16")) as client:  # the checkers' view: every hint, full names
        uri = client.open_new(MODEL)
        full = per_line(await client.hints(uri))
        assert await lenses(client, uri) == {}  # (their scope hints stay on the headers)
    header = pos(MODEL, SCOPE_CLOSE, "utf-16", after=True).line
    spmd = pos(MODEL, 'with pl.spmd(OUT_CORES, name_hint="attention_output_projection"', "utf-16").line
    assert set(shown) == set(full) - {header, spmd}  # a scope's captures are in a lens above its header
    for line, labels in shown.items():
        assert sum(map(len, labels)) <= 43, labels  # VS Code cuts nothing
        written = [label for label in full[line] if label.rsplit(": ", 1)[-1] in WRITTEN]
        assert len([label for label in labels if label in ("OUT", "INOUT", "NODEP", "NEW")]) == len(written)
    call = pos(MODEL, "q_proj, k_proj, v_proj = qkv_projection(", "utf-16").line
    assert shown[call] == ["in", "in", "in", "in", "OUT", "OUT", "OUT"]
    assert sum(map(len, full[call])) > 43  # what VS Code used to cut
    first = pos(MODEL, "    with pl.at(\n", "utf-16").line
    assert lens == {first: "out k_rotated · inout hidden_out, k_cache, v_cache · in k_proj, q_proj, rope_cos, "
                           "rope_sin, v_proj",
                    spmd: "out attn_out · in hidden_out, k_rotated, wo"}
    for scope in (header, spmd):  # every written capture of the checkers' view is in the lens
        for label in full[scope]:
            name, direction = label.split(": ")
            if direction in WRITTEN:
                assert name in lens[first if scope == header else spmd]


async def test_the_editors_maximum_length_is_the_budget(start_session):
    config = {"editor": {"inlayHints": {"maximumLength": 0}},  # 0: VS Code cuts nothing, nor does the server
              "pyptoLens": {"inlayHints": {"scopeHeaderStyle": "inline"}}}
    async with start_session(capabilities("utf-16"), labels="default", configuration=config) as client:
        await until(lambda: client.configuration_requests > 0)
        uri = client.open_new(MODEL)
        await until(lambda: client.inlay_refreshes > 0)
        header = pos(MODEL, SCOPE_CLOSE, "utf-16", after=True).line
        everything = per_line(await client.hints(uri))[header]
        assert everything == ["OUT k_rotated", "INOUT hidden_out", "k_cache", "v_cache", "in k_proj", "q_proj",
                              "rope_cos", "rope_sin", "v_proj"]
        client.set_configuration({"editor": {"inlayHints": {"maximumLength": 12}},
                                  "pyptoLens": {"inlayHints": {"scopeHeaderStyle": "inline"}}})
        refreshes = client.inlay_refreshes
        client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
        await until(lambda: client.inlay_refreshes > refreshes)
        call = pos(MODEL, "q_proj, k_proj, v_proj = qkv_projection(", "utf-16").line
        now = per_line(await client.hints(uri))
        assert now[call] == ["OUT", "OUT", "OUT"]  # the 4 Inputs no longer fit
        assert now[header] == ["+9"]  # not even one capture's name fits 12 characters: a count, its list in the tooltip


async def test_a_short_hint_resolves_to_the_parameter_the_full_direction_and_the_rule(start_session):
    async with start_session(capabilities("utf-8"), labels="default") as client:
        uri = client.open_new(MODEL)
        line = pos(MODEL, "hidden_out = accumulate_residual(", "utf-8").line
        hints = [h for h in await client.hints(uri) if h.position.line == line]
        assert [label_text(h) for h in hints] == ["in", "in", "INOUT"]
        assert hints[2].label[0].location is not None  # the word links to the callee parameter
        resolved = await client.resolve(hints[2])
        assert "**hidden_out**: **InOut** — C4" in resolved.tooltip.value
        # a scope's lens explains the scope when clicked (the extension's command)
        header = pos(MODEL, 'with pl.spmd(OUT_CORES, name_hint="attention_output_projection"', "utf-8").line
        found = await bounded(client.text_document_code_lens_async(types.CodeLensParams(
            text_document=types.TextDocumentIdentifier(uri=uri))))
        [lens] = [lens for lens in found if lens.range.start.line == header and lens.command.command != "pyptoLens.showTaskGraph"]
        assert lens.command.command == "pyptoLens.explainAt" and list(lens.command.arguments) == [uri, header, 4]


async def test_the_hover_of_a_scope_names_its_name_hint_and_lists_every_capture(start_session):
    async with start_session(capabilities("utf-16"), labels="default") as client:
        uri = client.open_new(MODEL)
        hover = await client.hover(uri, pos(MODEL, 'name_hint="rope_kv_cache_update"', "utf-16"))
        value = hover.contents.value
        assert value.startswith("```python\nrope_kv_cache_update(")
        assert "**rope_kv_cache_update** (InCore) — scope dispatch in `decode_layer`" in value  # (rope_kv_layer.py's entry)
        for capture in ("k_rotated", "hidden_out", "k_cache", "v_cache", "k_proj", "q_proj", "rope_cos", "rope_sin",
                        "v_proj"):
            assert f"- **{capture}**: " in value
        # the whole header, from `with` to its colon, is what the hover is about
        assert hover.range.start == pos(MODEL, "with pl.at(\n", "utf-16")
        assert hover.range.end == pos(MODEL, SCOPE_CLOSE, "utf-16", after=True)


async def test_operator_notes_are_on_where_the_workspace_holds_pyptos_operator_sources(start_session, tmp_path: Path):
    ops = tmp_path / "src" / "ir" / "op"
    ops.mkdir(parents=True)
    (ops / "ops.cpp").write_text('REGISTER_OP("tile.add").add_argument("lhs", "a tile");\n', encoding="utf-8")
    async with start_session(capabilities("utf-16"), labels="default", folder=tmp_path) as client:
        await until(lambda: client.inlay_refreshes > 0)  # the registry read from the workspace's sources
        uri = client.open_new(MODEL)
        notes = [d for d in (await client.pull(uri)).items if d.code in ("UnclassifiedOperator", "UnknownOperator")]
        assert notes and {d.severity for d in notes} == {types.DiagnosticSeverity.Hint}


async def test_the_status_request_counts_the_documents_tasks(start_session):
    async with start_session(capabilities("utf-16"), labels="default") as client:
        uri = client.open_new(MODEL)
        status = await bounded(client.protocol.send_request_async("pyptoLens/status", {"uri": uri}))
        assert (status.tasks, status.calls, status.scopes, status.withoutDirections) == (5, 3, 2, 0)
        plain = client.open_new("x = 1\n", name="plain.py")
        status = await bounded(client.protocol.send_request_async("pyptoLens/status", {"uri": plain}))
        assert status is None or status.tasks == 0
