"""The task graph through the server: workspace/executeCommand pyptoLens.taskGraph (the contract's
JSON), the CodeLens over an orchestration function, the hazard diagnostics with their related
information, settings and quick fixes, and the hover's line about a call's task; in every
position encoding (the lines that matter hold non-ASCII and astral characters before the calls)."""
from __future__ import annotations

import asyncio

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException

from lens_client import apply_edit, bounded, capabilities, pos, units

pytestmark = pytest.mark.asyncio(loop_scope="session")

T = "pl.Tensor[[16, 64], pl.FP32]"
# main: fill, a submit reading données_𝔡 (tid 𝔰een), a submit of bump writing it after an astral string
# (Z1 warning, fix: add 𝔰een to deps=), peek reading a slice then bump (Z1 warning, fix: peek.src InOut),
# a read under an if then bump (Z1 information), a manual scope whose second submit reads the first's
# output without deps= (Z4 warning, fix: add tw to deps=).
RACES = f'''\
import pypto.language as pl


@pl.program
class Races:
    @pl.function(type=pl.FunctionType.InCore)
    def fill(self, src: {T}, dst: pl.Out[{T}]) -> {T}:
        t = pl.load(src, [0, 0], [16, 64])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.InCore)
    def peek(self, src: {T}, dst: pl.Out[{T}]) -> {T}:
        t = pl.load(src, [0, 0], [16, 64])
        dst = pl.store(pl.mul(t, t), [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.InCore)
    def bump(self, acc: pl.InOut[{T}]) -> {T}:
        t = pl.load(acc, [0, 0], [16, 64])
        acc = pl.store(pl.add(t, t), [0, 0], acc)
        return acc

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: {T}, flag: pl.Scalar[pl.INDEX], out: pl.Out[{T}]) -> {T}:
        données_𝔡 = pl.create_tensor([16, 64], dtype=pl.FP32)
        données_𝔡 = self.fill(x, données_𝔡)
        out, 𝔰een = pl.submit(self.fill, données_𝔡, out)
        note = "é中文💡"; données_𝔡, later = pl.submit(self.bump, données_𝔡)
        y = pl.create_tensor([16, 64], dtype=pl.FP32)
        y = self.peek(données_𝔡[0:16, 0:64], y)
        données_𝔡 = self.bump(données_𝔡)
        z = pl.create_tensor([16, 64], dtype=pl.FP32)
        if flag > 0:
            z = self.fill(données_𝔡, z)
        données_𝔡 = self.bump(données_𝔡)
        w = pl.create_tensor([16, 64], dtype=pl.FP32)
        v = pl.create_tensor([16, 64], dtype=pl.FP32)
        with pl.manual_scope():
            w, tw = pl.submit(self.fill, x, w)
            v, tv = pl.submit(self.fill, w, v)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def helper(self, a: {T}) -> {T}:
        return a
'''
ADD_DEP_CALL = "pl.submit(self.bump, données_𝔡)"
MANUAL_CALL = "pl.submit(self.fill, w, v)"
PEEK_PARAM = f"def peek(self, src: {T}"
HAZARDS = ["UnorderedWriteAfterRead", "UnorderedWriteAfterRead", "ManualScopeMissingDep"]  # the warnings


def line_of(source: str, needle: str, occurrence: int = 0) -> int:
    start = -1
    for _ in range(occurrence + 1):
        start = source.index(needle, start + 1)
    return source.count("\n", 0, start)


def col_of(source: str, needle: str, occurrence: int = 0) -> int:
    """The code-point column of the needle (what the contract's `col` counts, 0-based here)."""
    start = -1
    for _ in range(occurrence + 1):
        start = source.index(needle, start + 1)
    return start - source.rfind("\n", 0, start) - 1


async def task_graph(client, *arguments):
    return await bounded(client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="pyptoLens.taskGraph", arguments=list(arguments))))


async def code_lenses(client, uri: str) -> list[types.CodeLens]:
    return list(await bounded(client.text_document_code_lens_async(types.CodeLensParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))) or [])


def hazards(items) -> list[types.Diagnostic]:
    return [d for d in items if d.code in ("UnorderedWriteAfterRead", "ManualScopeMissingDep")]


async def test_the_server_lists_the_graph_command_but_not_the_clients(client):
    commands = client.init_result.capabilities.execute_command_provider.commands
    assert "pyptoLens.taskGraph" in commands
    assert "pyptoLens.showTaskGraph" not in commands  # the VS Code client registers that one itself
    assert client.init_result.capabilities.code_lens_provider is not None


async def test_the_graph_of_the_function_at_a_position(client):
    uri = client.open_new(RACES)
    # a position on the line after the astral string, past the emoji, in the client's units
    at = pos(RACES, "later = pl.submit", client.encoding)
    answer = await task_graph(client, {"uri": uri, "position": {"line": at.line, "character": at.character}})
    assert answer["uri"] == uri and answer["functions"] == ["main"]
    graph = answer["graph"]
    assert graph["function"] == "main" and graph["file"] == uri
    assert graph["line"] == line_of(RACES, "def main") + 1
    assert [t["name"] for t in graph["tasks"]] == ["fill", "fill", "bump", "peek", "bump", "fill", "bump", "fill",
                                                   "fill"]
    assert graph["counts"] == {"tasks": 9, "edges": 6, "hazards": 3}  # warnings only: information is off
    bump = graph["tasks"][2]
    assert bump["kind"] == "submit" and bump["tid"] == "later"
    # the contract's columns are code points, 1-based, whatever the encoding
    assert (bump["line"], bump["col"]) == (line_of(RACES, ADD_DEP_CALL) + 1, col_of(RACES, ADD_DEP_CALL) + 1)
    assert bump["end_col"] == col_of(RACES, ADD_DEP_CALL) + len(ADD_DEP_CALL) + 1
    assert [(e["from"], e["to"], e["kind"]) for e in graph["edges"] if e["to"] == 2] == [(0, 2, "raw")]
    (z1,) = [h for h in graph["hazards"] if h["second"] == 2]
    assert (z1["code"], z1["first"], z1["severity"]) == ("UnorderedWriteAfterRead", 1, "warning")
    assert z1["fix"] == {"title": "Add 𝔰een to deps= of bump", "kind": "add-dep"}
    assert [h["fix"]["title"] for h in graph["hazards"] if h["second"] == 4] == \
        ["Declare peek.src InOut, so that bump waits for this read"]


async def test_by_name_outside_a_graph_and_in_no_pl_document(client):
    uri = client.open_new(RACES)
    by_name = await task_graph(client, {"uri": uri, "function": "main"})
    at = pos(RACES, "return a", client.encoding)
    assert by_name["graph"]["counts"]["tasks"] == 9
    outside = await task_graph(client, {"uri": uri, "position": {"line": at.line, "character": at.character}})
    assert outside == {"uri": uri, "functions": ["main"], "graph": None}
    assert (await task_graph(client, {"uri": uri, "function": "helper"}))["graph"] is None
    plain = client.open_new("print('no pl here')\n")
    assert await task_graph(client, {"uri": plain, "position": {"line": 0, "character": 3}}) == \
        {"uri": plain, "functions": [], "graph": None}


@pytest.mark.parametrize("arguments", [[], [{"position": {"line": 0, "character": 0}}], [{"uri": 3}],
                                       [{"uri": "file:///x.py", "position": {"line": "a"}}], ["file:///x.py"]])
async def test_arguments_that_make_no_sense_are_an_error(client, arguments):
    with pytest.raises(JsonRpcException, match="pyptoLens.taskGraph takes"):
        await task_graph(client, *arguments)


async def test_the_code_lens_over_main_opens_its_graph(client):
    uri = client.open_new(RACES)
    (lens,) = await code_lenses(client, uri)
    name = pos(RACES, "main(self", client.encoding)
    assert lens.range.start == name and lens.range.end.character == name.character + len("main")
    assert lens.command.title == "9 tasks · 6 edges · 3 hazards"
    assert lens.command.command == "pyptoLens.showTaskGraph"
    assert list(lens.command.arguments) == [{"uri": uri, "function": "main"}]
    assert await code_lenses(client, client.open_new("x = 1\n")) == []


async def test_hazard_warnings_with_related_information(client):
    uri = client.open_new(RACES)
    found = hazards((await client.pull(uri)).items)
    assert [d.code for d in found] == HAZARDS
    assert all(d.severity == types.DiagnosticSeverity.Warning and d.source == "pypto-lens" for d in found)
    first = found[0]
    # at the later access: the argument données_𝔡 of the submit after the astral string
    arg = pos(RACES, ADD_DEP_CALL, client.encoding)
    arg.character += units("pl.submit(self.bump, ", client.encoding)
    assert first.range.start == arg
    assert first.range.end.character == arg.character + units("données_𝔡", client.encoding)
    assert "bump (task #2) overwrites données_𝔡" in first.message and "(Z1)" in first.message
    assert first.data["setting"] == "hazards.unorderedWriteAfterRead" and first.data["rule"] == "Z1"
    earlier, root = first.related_information
    assert earlier.message == "earlier access: fill (task #1) reads données_𝔡" and earlier.location.uri == uri
    reader = pos(RACES, "self.fill, données_𝔡, out", client.encoding)
    reader.character += units("self.fill, ", client.encoding)
    assert earlier.location.range.start == reader
    assert root.message.startswith("buffer: données_𝔡") and root.location.range.start.line == \
        line_of(RACES, "données_𝔡 = pl.create_tensor")


async def test_quick_fixes_add_the_dep_and_declare_the_reader_inout(client):
    uri = client.open_new(RACES)
    found = hazards((await client.pull(uri)).items)
    text = RACES
    expected = {
        0: ("Add 𝔰een to deps= of bump", RACES.replace(ADD_DEP_CALL, "pl.submit(self.bump, données_𝔡, deps=[𝔰een])")),
        1: ("Declare peek.src InOut, so that bump waits for this read",
            RACES.replace(PEEK_PARAM, f"def peek(self, src: pl.InOut[{T}]")),
        2: ("Add tw to deps= of fill", RACES.replace(MANUAL_CALL, "pl.submit(self.fill, w, v, deps=[tw])")),
    }
    for k, (title, after) in expected.items():
        (action,) = await client.code_actions(uri, [found[k]])
        assert action.title == title and action.kind == types.CodeActionKind.QuickFix and action.is_preferred
        [edit] = action.edit.changes[uri]
        assert apply_edit(RACES, edit.range.start, edit.range.end, edit.new_text, client.encoding) == after

    # applied one after the other (each asked of the current text), no hazard warning is left
    version = 1
    for _ in range(3):
        diagnostic = hazards((await client.pull(uri)).items)[0]
        (action,) = await client.code_actions(uri, [diagnostic])
        [edit] = action.edit.changes[uri]
        version += 1
        client.edit(uri, version, (edit.range.start.line, edit.range.start.character),
                    (edit.range.end.line, edit.range.end.character), edit.new_text)
        text = apply_edit(text, edit.range.start, edit.range.end, edit.new_text, client.encoding)
    assert hazards((await client.pull(uri)).items) == []
    assert [d for d in (await client.pull(uri)).items if d.severity == types.DiagnosticSeverity.Error] == []
    assert "deps=[𝔰een]" in text and "deps=[tw]" in text and f"def peek(self, src: pl.InOut[{T}]" in text


async def test_a_stale_fix_is_not_offered(client):
    uri = client.open_new(RACES)
    first = hazards((await client.pull(uri)).items)[0]
    fixed = RACES.replace(ADD_DEP_CALL, "pl.submit(self.bump, données_𝔡, deps=[𝔰een])")
    client.replace(uri, 2, fixed)
    assert await client.code_actions(uri, [first]) == []  # the data is of the old text: 𝔰een is there already


async def test_the_hover_of_a_call_says_what_it_waits_for_and_races_with(client):
    uri = client.open_new(RACES)
    second_bump = pos(RACES, "self.bump(données_𝔡)", client.encoding)
    hover = await client.hover(uri, second_bump)
    lines = hover.contents.value.split("\n")
    peek_line = line_of(RACES, "self.peek(") + 1
    later_line = line_of(RACES, ADD_DEP_CALL) + 1
    assert f"Task #4 waits for #2 bump (line {later_line}); races with #3 peek (line {peek_line})" in lines
    first_fill = await client.hover(uri, pos(RACES, "self.fill(x, données_𝔡)", client.encoding))
    assert "Task #0 waits for no earlier task; races with" not in first_fill.contents.value
    assert "Task #0 waits for no earlier task" in first_fill.contents.value.split("\n")
    helper = await client.hover(uri, pos(RACES, "pl.load(src", client.encoding))
    assert helper is None or "Task #" not in helper.contents.value


async def until(predicate, seconds: float = 10.0):
    async def poll():
        while not predicate():
            await asyncio.sleep(0.02)
    await bounded(poll(), seconds)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8"])
async def test_settings_switch_each_group_the_information_and_the_code_lens(start_session, encoding):
    async with start_session(capabilities(encoding)) as client:
        uri = client.open_new(RACES)
        assert [d.code for d in hazards((await client.pull(uri)).items)] == HAZARDS

        async def configure(values: dict) -> list[types.Diagnostic]:
            refreshes = client.inlay_refreshes
            client.set_configuration({"pyptoLens": values})
            client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
            await until(lambda: client.inlay_refreshes > refreshes)
            return hazards((await client.pull(uri)).items)

        assert [d.code for d in await configure({"hazards": {"unorderedWriteAfterRead": False}})] == \
            ["ManualScopeMissingDep"]
        assert [d.code for d in await configure({"hazards": {"manualScope": False}})] == HAZARDS[:2]
        with_information = await configure({"hazards": {"information": True}})
        assert [d.code for d in with_information] == HAZARDS + ["UnorderedWriteAfterRead"]  # (optional ones last)
        information = [d for d in with_information if d.severity == types.DiagnosticSeverity.Information]
        assert len(information) == 1 and information[0].data["setting"] == "hazards.information"
        assert information[0].range.start.line == line_of(RACES, "self.bump(données_𝔡)", 1)
        (lens,) = await code_lenses(client, uri)
        assert lens.command.title == "9 tasks · 6 edges · 4 hazards"  # the information one counts too
        answer = await task_graph(client, {"uri": uri, "function": "main"})
        assert [h["severity"] for h in answer["graph"]["hazards"]].count("information") == 1
        # information only adds to the groups that are on
        assert [d.code for d in await configure({"hazards": {"information": True, "unorderedWriteAfterRead": False}})] \
            == ["ManualScopeMissingDep"]
        # diagnostics.enabled switches the hazards off too; the CodeLens has its own setting
        assert await configure({"diagnostics": {"enabled": False}}) == []
        await configure({"taskGraph": {"codeLens": False}})
        assert await code_lenses(client, uri) == []
