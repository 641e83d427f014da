"""A call of an inline helper through the server (N1): the code lens above it says what it launches
(its tasks, the arguments they write and those they only read), and its hover lists the tasks with
links into the helper's file; the task graph's JSON tells which tasks each call expanded into.

The programs are tests/task_places/ (entry.py calls blocks.py's helpers; PyPTO's pipeline derives
norm_block x Input, y InOut; peek_top Input, OutputExisting), with a non-ASCII line before the calls
so that every position encoding is exercised."""
from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from lsprotocol import types

from lens_client import bounded, capabilities, pos

pytestmark = pytest.mark.asyncio(loop_scope="session")

PLACES = Path(__file__).resolve().parents[1] / "task_places"
BLOCKS = (PLACES / "blocks.py").read_text(encoding="utf-8")
ENTRY = (PLACES / "entry.py").read_text(encoding="utf-8").replace(
    "    y = norm_rows(x, y)", '    note = "é中文💡"; y = norm_rows(x, y)')
_folders = itertools.count()


def line_of(source: str, needle: str) -> int:
    return source[:source.index(needle)].count("\n")


def open_pair(client) -> tuple[str, str]:
    folder = client.folder / f"helpers_{next(_folders)}"
    folder.mkdir(parents=True)
    (folder / "blocks.py").write_text(BLOCKS, encoding="utf-8")  # on disk only, as an imported module is
    blocks = (folder / "blocks.py").as_uri()
    return client.open((folder / "entry.py").as_uri(), ENTRY), blocks


async def lenses(client, uri: str) -> list[types.CodeLens]:
    return list(await bounded(client.text_document_code_lens_async(types.CodeLensParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))) or [])


async def test_the_lens_over_a_helper_call_says_what_it_launches(client):
    uri, _ = open_pair(client)
    found = {(lens.range.start.line, lens.range.start.character): lens.command for lens in await lenses(client, uri)}
    norm = pos(ENTRY, "norm_rows(x, y)", client.encoding)
    peek = pos(ENTRY, "peek_rows(y, top)", client.encoding)
    assert found[(norm.line, norm.character)].title == "2 tasks · writes y · reads x"
    assert found[(peek.line, peek.character)].title == "1 task · writes top · reads y"
    command = found[(norm.line, norm.character)]
    assert command.command == "pyptoLens.showTaskGraph"
    assert list(command.arguments) == [{"uri": uri, "function": "entry", "inlined": 0}]
    assert "norm_rows is an inline helper" in command.tooltip
    # a direction-bearing call gets no such lens: its hints say it
    assert not [c for (line, _), c in found.items() if line == line_of(ENTRY, "y = overwrite(s, y)")]


async def test_the_lens_follows_its_setting(start_session, tmp_path):
    (tmp_path / "blocks.py").write_text(BLOCKS, encoding="utf-8")
    async with start_session(capabilities("utf-16"), configuration={"pyptoLens": {"inlayHints": {"helperCalls": False}}}) as c:
        uri = c.open((tmp_path / "entry.py").as_uri(), ENTRY)
        titles = [lens.command.title for lens in await lenses(c, uri)]
        assert titles == ["4 tasks · 3 edges · 1 hazard"], titles  # the graph's lens only


async def test_the_hover_of_a_helper_call_lists_its_tasks_with_links(client):
    uri, blocks = open_pair(client)
    hover = await bounded(client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=pos(ENTRY, "orm_rows(x, y)", client.encoding))))
    text = hover.contents.value
    assert text.startswith("**norm_rows** (inline helper) — expands into `entry`: 2 tasks (N1)")
    assert "- **y** — **written** by #1 norm_block (InOut)" in text
    assert "- **x** — read by #1 norm_block" in text
    barrier = line_of(BLOCKS, "gate = pl.system.task_dummy") + 1
    header = line_of(BLOCKS, 'name_hint="norm_block"') + 1
    assert f"- #0 task_dummy (barrier, [blocks.py:{barrier}]({blocks}#L{barrier}," in text
    assert f"- #1 norm_block (scope, [blocks.py:{header}]({blocks}#L{header}," in text
    call = pos(ENTRY, "norm_rows(x, y)", client.encoding)
    assert hover.range.start == call


async def test_the_graph_json_tells_each_calls_expansion(client):
    uri, blocks = open_pair(client)
    answer = await bounded(client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="pyptoLens.taskGraph", arguments=[{"uri": uri, "function": "entry"}])))
    graph = answer["graph"]
    assert [(e["id"], e["helper"], e["line"], e["uri"], e["parent"], e["tasks"]) for e in graph["inlined"]] == [
        (0, "norm_rows", line_of(ENTRY, "norm_rows(x, y)") + 1, None, None, [0, 1]),
        (1, "peek_rows", line_of(ENTRY, "peek_rows(y, top)") + 1, None, None, [2])]
    assert [(a["text"], a["direction"]) for a in graph["inlined"][0]["args"]] == [("x", "Input"), ("y", "InOut")]
    assert [t["path"] for t in graph["tasks"]] == [["g0"], ["g0", "L0"], ["g1"], []]
