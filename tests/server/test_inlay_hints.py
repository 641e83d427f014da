"""textDocument/inlayHint and inlayHint/resolve, under UTF-16, UTF-8 and UTF-32."""
from __future__ import annotations

import re

import pytest
from lsprotocol import types

from lens_client import DIRECTIONS, direction_of, label_text, pos
from lens_programs import (DEMO, DEMO_CALLS, EMOJI_ARG_CHARACTERS, EMOJI_CALL, LEAK_ANNOTATION, LEAKY,
                           RW_ANNOTATION, SCOPE_HEADER, SCOPE_HINTS, argument_positions, header_end)

pytestmark = pytest.mark.asyncio(loop_scope="session")


def expected_call_hints(encoding: str, *, scalar: bool = False):
    """(position, parameter, argument, direction) of every argument hint DEMO should get."""
    out = []
    for call, occurrence, args in DEMO_CALLS:
        for position, (param, arg, direction) in zip(argument_positions(DEMO, call, occurrence, encoding), args):
            if direction != "Scalar" or scalar:
                out.append((position, param, arg, direction))
    return out


def by_position(hints):
    return [(h.position.line, h.position.character, label_text(h)) for h in hints]


async def test_one_hint_per_argument_just_before_it(client):
    uri = client.open_new(DEMO)
    hints = [h for h in await client.hints(uri) if h.kind == types.InlayHintKind.Parameter]
    scope_line = pos(DEMO, SCOPE_HEADER, client.encoding).line
    call_hints = [h for h in hints if h.position.line != scope_line]
    expected = expected_call_hints(client.encoding)
    assert [(h.position, ) for h in call_hints] == [(e[0], ) for e in expected]
    for hint, (position, param, arg, direction) in zip(call_hints, expected):
        text = label_text(hint)
        assert direction_of(hint) == direction, text
        assert text.count(direction) == 1
        assert text.startswith(param), text  # the callee parameter's name
        if arg is not None:
            assert f"({arg})" in text
        assert isinstance(hint.label, list) and hint.label[0].value == param
        assert hint.padding_right and not hint.padding_left  # the hint reads `dst: InOut␣out`


async def test_exact_characters_after_non_ascii_and_astral_text(client):
    uri = client.open_new(DEMO)
    line = pos(DEMO, EMOJI_CALL, client.encoding).line
    hints = await client.hints(uri, (line, 0), (line, 200))
    assert [(h.position.line, h.position.character) for h in hints] == [
        (line, c) for c in EMOJI_ARG_CHARACTERS[client.encoding]]
    assert [direction_of(h) for h in hints] == ["Input", "OutputExisting"]


async def test_label_part_links_to_the_callee_parameter(client):
    uri = client.open_new(DEMO)
    line = pos(DEMO, EMOJI_CALL, client.encoding).line
    src, dst = await client.hints(uri, (line, 0), (line, 10_000))
    src_decl = pos(DEMO, "src: pl.Tensor", client.encoding)
    dst_decl = pos(DEMO, "dst: pl.Out", client.encoding)
    assert src.label[0].location.uri == uri
    assert src.label[0].location.range.start == src_decl
    assert dst.label[0].location.range.start == dst_decl


async def test_scope_header_gets_one_hint_per_captured_buffer(client):
    uri = client.open_new(DEMO)
    end = header_end(DEMO, SCOPE_HEADER, client.encoding)
    hints = await client.hints(uri, (end.line, 0), (end.line, end.character))
    assert [h.position for h in hints] == [end] * len(SCOPE_HINTS)  # after the header's code, before its comment
    assert [(h.label[0].value, direction_of(h)) for h in hints] == SCOPE_HINTS
    assert all(h.padding_left for h in hints)


async def test_scope_header_after_astral_text_on_the_line(client):
    source = DEMO.replace("        with pl.at(level=pl.Level.CORE_GROUP):",
                          '        s = "💡é"\n        with pl.at(level=pl.Level.CORE_GROUP, name_hint="中💡"):')
    uri = client.open_new(source)
    header = 'with pl.at(level=pl.Level.CORE_GROUP, name_hint="中💡"):'
    end = header_end(source, header, client.encoding)
    hints = await client.hints(uri, (end.line, 0), (end.line + 1, 0))
    assert [h.position for h in hints] == [end, end]
    assert [direction_of(h) for h in hints] == ["Input", "InOut"]


async def test_the_requested_range_is_honoured(client):
    uri = client.open_new(DEMO)
    everything = by_position(await client.hints(uri))
    c7 = argument_positions(DEMO, "self.fill(a, out)", 1, client.encoding)[0].line
    # one line, not starting at line 0
    assert by_position(await client.hints(uri, (c7, 0), (c7 + 1, 0))) == [h for h in everything if h[0] == c7]
    # whole lines in the middle of the file, the way editors ask for the visible lines
    first, last = c7 - 1, c7 + 4
    window = by_position(await client.hints(uri, (first, 0), (last + 1, 0)))
    assert window == [h for h in everything if first <= h[0] <= last]
    assert {h[0] for h in window} == {c7 - 1, c7, c7 + 1, c7 + 3, c7 + 4}
    # a range that starts and ends inside lines: positions, not just lines, are compared (ends included)
    second_arg = argument_positions(DEMO, "self.fill(a, out)", 0, client.encoding)[1]
    end_arg = argument_positions(DEMO, "self.fill(a, out)", 1, client.encoding)[0]
    inner = by_position(await client.hints(uri, (second_arg.line, second_arg.character),
                                           (end_arg.line, end_arg.character)))
    assert inner == [h for h in everything
                     if (second_arg.line, second_arg.character) <= h[:2] <= (end_arg.line, end_arg.character)]
    assert len(inner) == 2
    # a range before any call: nothing
    assert await client.hints(uri, (0, 0), (3, 0)) == []


async def test_scalar_hints_are_off_by_default(client):
    uri = client.open_new(DEMO)
    hints = await client.hints(uri)
    assert hints
    assert not [h for h in hints if "Scalar" in label_text(h)]
    scale = argument_positions(DEMO, "self.scale(pl.no_dep(a), 2.0, out)", 0, client.encoding)
    on_line = [h for h in hints if h.position.line == scale[0].line]
    assert [h.position for h in on_line] == [scale[0], scale[2]]


async def test_signature_hints_show_effective_directions(client):
    uri = client.open_new(LEAKY)
    hints = [h for h in await client.hints(uri) if h.kind == types.InlayHintKind.Type]
    leak = pos(LEAKY, LEAK_ANNOTATION, client.encoding)
    rw = pos(LEAKY, RW_ANNOTATION, client.encoding)
    on = {h.position.line: label_text(h) for h in hints}
    assert on[leak.line] == "effective Out"  # declared In, upgraded (U4)
    assert on[rw.line] == "effective InOut"
    for hint in hints:
        assert hint.position.character > (leak if hint.position.line == leak.line else rw).character
        resolved = await client.resolve(hint)
        assert isinstance(resolved.tooltip, types.MarkupContent)
        assert "declared **In**" in resolved.tooltip.value
        assert "U4" in resolved.tooltip.value or "P3" in resolved.tooltip.value


async def test_signature_hint_sits_right_after_the_whole_annotation(client):
    uri = client.open_new(LEAKY)
    hints = [h for h in await client.hints(uri) if h.kind == types.InlayHintKind.Type]
    leak_end = pos(LEAKY, LEAK_ANNOTATION, client.encoding, after=True)
    rw_end = pos(LEAKY, RW_ANNOTATION, client.encoding, after=True)
    positions = {(h.position.line, h.position.character) for h in hints}
    assert (leak_end.line, leak_end.character) in positions
    assert (rw_end.line, rw_end.character) in positions


async def test_resolve_fills_the_tooltip_with_the_derivation(client):
    uri = client.open_new(DEMO)
    hints = await client.hints(uri)
    rules = {"OutputExisting": "C9", "NoDep": "C10"}
    seen_rules = set()
    for hint in hints:
        assert hint.tooltip is None  # lazy: only resolve fills it
        resolved = await client.resolve(hint)
        assert isinstance(resolved.tooltip, types.MarkupContent)
        assert resolved.tooltip.kind == types.MarkupKind.Markdown
        tooltip = resolved.tooltip.value
        assert f"**{direction_of(hint)}**" in tooltip
        assert hint.label[0].value in tooltip
        if direction_of(hint) in rules:
            assert rules[direction_of(hint)] in tooltip
        for rule in ("C5", "C7", "C9", "C10"):
            if f"{rule}:" in tooltip:
                seen_rules.add(rule)
        assert resolved.position == hint.position and label_text(resolved) == label_text(hint)
    assert seen_rules == {"C5", "C7", "C9", "C10"}


async def test_c7_tooltip_links_to_the_earlier_writer(client):
    uri = client.open_new(DEMO)
    c7 = argument_positions(DEMO, "self.fill(a, out)", 1, client.encoding)
    first_writer_line = argument_positions(DEMO, "self.fill(a, out)", 0, client.encoding)[0].line
    hints = await client.hints(uri, (c7[0].line, 0), (c7[0].line, 100))
    dst = (await client.resolve(hints[1])).tooltip.value
    assert "C7" in dst
    assert f"[line {first_writer_line + 1}]({uri}#L{first_writer_line + 1}" in dst


async def test_resolve_of_a_foreign_or_stale_hint_returns_it_unchanged(client):
    uri = client.open_new(DEMO)
    foreign = types.InlayHint(position=types.Position(0, 0), label="x: Input", data={"what": "not ours"})
    assert label_text(await client.resolve(foreign)) == "x: Input"
    stale = types.InlayHint(position=types.Position(0, 0), label="x: Input",
                            data={"uri": uri, "line": 999, "col": 0, "index": 0, "param": "x"})
    assert (await client.resolve(stale)).tooltip is None
    unknown = types.InlayHint(position=types.Position(0, 0), label="x: Input",
                              data={"uri": "file:///nowhere/else.py", "line": 1, "col": 0, "index": 0})
    assert (await client.resolve(unknown)).tooltip is None


async def test_hints_follow_an_edit_before_the_arguments(client):
    uri = client.open_new(DEMO)
    line = pos(DEMO, EMOJI_CALL, client.encoding).line
    # insert another astral string at the start of the emoji line: the arguments move right
    client.edit(uri, 2, (line, 8), (line, 8), '𝔵 = "🎉"; ')
    new = DEMO.replace(EMOJI_CALL, '𝔵 = "🎉"; ' + EMOJI_CALL)
    hints = await client.hints(uri, (line, 0), (line, 10_000))
    assert [h.position for h in hints] == argument_positions(new, "self.fill(a, out)", 0, client.encoding)


async def test_labels_have_the_h5_form(client):
    """`param: Direction` or `param (arg): Direction`, the direction one of the six ArgDirections."""
    uri = client.open_new(DEMO)
    form = re.compile(r"^\S+( \(\S+\))?: (" + "|".join(DIRECTIONS) + r")$")
    labels = [label_text(h) for h in await client.hints(uri) if h.kind == types.InlayHintKind.Parameter]
    assert labels and all(form.match(label) for label in labels), labels
