"""Diagnostics, pulled (textDocument/diagnostic) and pushed (publishDiagnostics, debounced)."""
from __future__ import annotations

import asyncio

import pytest
from lsprotocol import types

from lens_client import ENCODINGS, capabilities, label_text, pos, units, until
from lens_programs import (DEMO, LEAK_WRITE, LEAKY, MISUSE, RW_WRITE, argument_positions, with_broken_second,
                           written_argument)

pytestmark = pytest.mark.asyncio(loop_scope="session")

SOURCE = "pypto-lens"
UNKNOWN_OP = '''\
import pypto.language as pl


@pl.program
class Ops:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[64], pl.FP32]):
        s = "é中文💡"; t = pl.lens_made_up(x)
'''


def span(source: str, needle: str, encoding: str) -> types.Range:
    return types.Range(start=pos(source, needle, encoding), end=pos(source, needle, encoding, after=True))


def of_code(diagnostics, code):
    return [d for d in diagnostics if d.code == code]


def check_in_param_written(diagnostics, uri, encoding):
    leak, rw = of_code(diagnostics, "InParamWritten")
    assert leak.severity == types.DiagnosticSeverity.Warning and rw.severity == types.DiagnosticSeverity.Warning
    assert leak.source == SOURCE and rw.source == SOURCE
    # the written argument (after `s = "é中文💡"; ` on its line), not the whole call
    assert leak.range == written_argument(LEAKY, LEAK_WRITE, encoding)
    assert rw.range == written_argument(LEAKY, RW_WRITE, encoding)
    assert leak.code_description.href.endswith("diagnostics.md#L" + leak.code_description.href.rsplit("#L", 1)[1])
    assert "'dst'" in leak.message and "pl.Out[...]" in leak.message
    assert "'𝔞cc'" in rw.message and "pl.InOut[...]" in rw.message
    # related information points at the declaration of the parameter
    for diagnostic, name in ((leak, "dst"), (rw, "𝔞cc")):
        [related] = diagnostic.related_information
        assert related.location.uri == uri
        start = pos(LEAKY, f"{name}: pl.Tensor", encoding)
        assert related.location.range == types.Range(
            start=start, end=types.Position(start.line, start.character + units(name, encoding)))


# -- pull ---------------------------------------------------------------------------------------

async def test_pulled_in_param_written(client):
    uri = client.open_new(LEAKY)
    report = await client.pull(uri)
    assert isinstance(report, types.RelatedFullDocumentDiagnosticReport | types.FullDocumentDiagnosticReport)
    check_in_param_written(report.items, uri, client.encoding)
    assert all(d.source == SOURCE and d.code for d in report.items)


async def test_pull_is_unchanged_until_the_document_changes(client):
    uri = client.open_new(LEAKY)
    first = await client.pull(uri)
    again = await client.pull(uri, previous=first.result_id)
    assert again.kind == "unchanged" and again.result_id == first.result_id
    # fix the leak: declare dst pl.Out
    line = pos(LEAKY, "dst: pl.Tensor", client.encoding)
    start = line.character + len("dst: ")
    end = start + len("pl.Tensor[[64], pl.FP32]")
    client.edit(uri, 2, (line.line, start), (line.line, end), "pl.Out[pl.Tensor[[64], pl.FP32]]")
    changed = await client.pull(uri, previous=first.result_id)
    assert changed.kind == "full" and changed.result_id != first.result_id
    assert [d.message for d in of_code(changed.items, "InParamWritten")] == [
        d.message for d in of_code(first.items, "InParamWritten")][1:]


async def test_pull_client_gets_nothing_pushed(client):
    uri = client.open_new(LEAKY)
    await client.pull(uri)
    client.edit(uri, 2, (0, 0), (0, 0), "# edited\n")
    await client.pull(uri)
    await asyncio.sleep(0.4)  # longer than the push debounce: give a wrong push time to arrive
    await client.roundtrip()
    assert [p for p in client.published if p.uri == uri] == []


async def test_misuse_errors(client):
    uri = client.open_new(MISUSE)
    items = (await client.pull(uri)).items
    [scalar] = of_code(items, "NoDepOnScalar")
    assert scalar.severity == types.DiagnosticSeverity.Error and scalar.source == SOURCE
    assert scalar.range == span(MISUSE, "pl.no_dep(3.0)", client.encoding)
    [name] = of_code(items, "NoDepArgNotCaptured")
    assert name.severity == types.DiagnosticSeverity.Error
    assert name.range == span(MISUSE, "zz", client.encoding)
    assert "zz" in name.message


async def test_operator_notes_are_off_in_ordinary_user_code(client):
    uri = client.open_new(UNKNOWN_OP)
    codes = {d.code for d in (await client.pull(uri)).items}
    assert "UnknownOperator" not in codes and "UnclassifiedOperator" not in codes


async def test_operator_notes_when_switched_on_are_hints(start_session):
    config = {"pyptoLens": {"diagnostics": {"unclassifiedOperators": "on"}}}
    for encoding in ENCODINGS:
        async with start_session(capabilities(encoding), configuration=config) as client:
            # the settings are in (the first answers may use the defaults: test_settings.py)
            await until(lambda: client.diagnostic_refresh_count > 0)
            uri = client.open_new(UNKNOWN_OP)
            items = (await client.pull(uri)).items
            [unknown] = of_code(items, "UnknownOperator")
            assert unknown.severity == types.DiagnosticSeverity.Hint and unknown.source == SOURCE
            assert unknown.range == span(UNKNOWN_OP, "lens_made_up", client.encoding)
            assert "pl.lens_made_up" in unknown.message
            assert unknown.code_description.href.split("#L")[0].endswith("/docs/diagnostics.md")


async def test_a_syntax_error_in_one_function_leaves_the_others_hints(client):
    good = client.open_new(DEMO)
    broken_text = with_broken_second()
    broken = client.open_new(broken_text)
    items = (await client.pull(broken)).items
    errors = of_code(items, "SyntaxError")
    assert len(errors) == 1  # one per broken unit
    [error] = errors
    assert error.severity == types.DiagnosticSeverity.Error and error.source == SOURCE
    second = pos(broken_text, "def second", client.encoding).line
    assert second < error.range.start.line <= second + 3
    second_line = pos(broken_text, "def second", client.encoding).line
    good_hints = [(h.position, label_text(h)) for h in await client.hints(good)
                  if h.position.line < second_line]
    broken_hints = [(h.position, label_text(h)) for h in await client.hints(broken)
                    if h.position.line < second_line]
    assert broken_hints == good_hints and len(good_hints) == 11
    assert of_code((await client.pull(good)).items, "SyntaxError") == []


async def test_a_half_typed_call_keeps_the_functions_last_good_hints(client):
    uri = client.open_new(DEMO)
    before = [(h.position, label_text(h)) for h in await client.hints(uri)]
    # start typing a new call on a new line at the end of main's body
    at = pos(DEMO, "        return out\n\n    @pl.function", client.encoding).line
    client.edit(uri, 2, (at, 0), (at, 0), "        out = self.fill(a, \n")
    items = (await client.pull(uri)).items
    assert len(of_code(items, "SyntaxError")) == 1
    during = [(h.position, label_text(h)) for h in await client.hints(uri)]
    main_lines = {p.line for p, _ in before if p.line < at}
    assert [h for h in during if h[0].line in main_lines] == [h for h in before if h[0].line in main_lines]
    # finish the call: a new hint pair appears on it and the syntax error goes
    client.edit(uri, 3, (at, len("        out = self.fill(a, ")), (at, len("        out = self.fill(a, ")), "out)")
    items = (await client.pull(uri)).items
    assert of_code(items, "SyntaxError") == []
    after = await client.hints(uri, (at, 0), (at + 1, 0))
    assert [label_text(h) for h in after] == ["src (a): Input", "dst (out): InOut"]


async def test_no_diagnostics_for_unknown_or_closed_documents(client):
    report = await client.pull("file:///nonexistent-pypto-lens/never-opened.py")
    assert list(report.items) == []
    uri = client.open_new(LEAKY)
    assert (await client.pull(uri)).items
    client.close(uri)
    assert list((await client.pull(uri)).items) == []


# -- push ---------------------------------------------------------------------------------------

async def test_pushed_in_param_written_with_version(push_client):
    uri = push_client.open_new(LEAKY, version=7)
    published = await push_client.published_for(uri, lambda p: bool(p.diagnostics))
    assert published.version == 7
    check_in_param_written(published.diagnostics, uri, push_client.encoding)


async def test_pushed_syntax_error_and_recovery(push_client):
    uri = push_client.open_new(with_broken_second())
    published = await push_client.published_for(uri, lambda p: bool(of_code(p.diagnostics, "SyntaxError")))
    assert published.version == 1
    push_client.replace(uri, 2, DEMO)
    published = await push_client.published_for(uri, lambda p: p.version == 2)
    assert of_code(published.diagnostics, "SyntaxError") == []


async def test_a_fifty_change_burst_publishes_the_final_version(push_client):
    uri = push_client.open_new(LEAKY)
    line = pos(LEAKY, "dst: pl.Tensor", push_client.encoding)
    start = line.character + len("dst: ")
    end = start + len("pl.Tensor[[64], pl.FP32]")
    # 49 keystrokes in a comment on the last line, then the fix of the leak as the 50th change
    last = LEAKY.count("\n")
    push_client.edit(uri, 2, (last, 0), (last, 0), "#")
    for i in range(3, 51):
        push_client.edit(uri, i, (last, i - 2), (last, i - 2), "é" if i % 2 else "💡")
    push_client.edit(uri, 51, (line.line, start), (line.line, end), "pl.Out[pl.Tensor[[64], pl.FP32]]")
    published = await push_client.published_for(uri, lambda p: p.version == 51)
    assert [d.message for d in of_code(published.diagnostics, "InParamWritten")] == [
        "parameter '𝔞cc' of rw is declared In, but tile.store writes it: PyPTO's InCore upgrade (U4) makes it "
        "InOut for its callers (their hints show it), so declare it pl.InOut[...] to say the same"]
    await asyncio.sleep(0.4)
    await push_client.roundtrip()
    mine = [p for p in push_client.published if p.uri == uri]
    assert mine[-1].version == 51
    versions = [p.version for p in mine]
    assert versions == sorted(versions)  # never an older version after a newer one
    # hints answer from the final version too: the leak's call now shows dst as OutputExisting
    hints = await push_client.hints(uri)
    call = argument_positions(LEAKY, "self.leak(a, b)", 0, push_client.encoding)
    assert [label_text(h) for h in hints if h.position in call] == [
        "données_𝔡 (a): Input", "dst (b): OutputExisting"]


async def test_nothing_is_published_after_close(push_client):
    uri = push_client.open_new(LEAKY)
    await push_client.published_for(uri, lambda p: bool(p.diagnostics))
    push_client.edit(uri, 2, (0, 0), (0, 0), "# a change whose diagnostics are still pending\n")
    push_client.close(uri)
    cleared = await push_client.published_for(uri, lambda p: not p.diagnostics)
    count = len([p for p in push_client.published if p.uri == uri])
    await asyncio.sleep(0.5)  # three times the debounce: a pending publish would have come by now
    await push_client.roundtrip()
    mine = [p for p in push_client.published if p.uri == uri]
    assert len(mine) == count and mine[-1] is cleared and not mine[-1].diagnostics
