"""The `pyptoLens` settings: workspace/configuration, didChangeConfiguration, initializationOptions."""
from __future__ import annotations

import asyncio

import pytest
from lsprotocol import types

from lens_client import ENCODINGS, bounded, capabilities, direction_of, label_text, with_full_labels
from lens_programs import DEMO, LEAKY

pytestmark = pytest.mark.asyncio(loop_scope="session")


def directions(hints):
    return [direction_of(h) for h in hints if h.kind == types.InlayHintKind.Parameter]


async def until(predicate, seconds: float = 10.0):
    async def poll():
        while not predicate():
            await asyncio.sleep(0.02)
    await bounded(poll(), seconds)


@pytest.mark.parametrize("encoding", ENCODINGS)
async def test_configuration_is_asked_and_a_change_refreshes_the_hints(start_session, encoding):
    config = {"pyptoLens": {"inlayHints": {"input": False}}}
    async with start_session(capabilities(encoding), configuration=config) as client:
        await until(lambda: client.configuration_requests > 0)
        await until(lambda: client.inlay_refreshes > 0)  # the settings differ from the defaults
        uri = client.open_new(DEMO)
        hints = await client.hints(uri)
        assert "Input" not in directions(hints) and "OutputExisting" in directions(hints)
        refreshes, diagnostic_refreshes = client.inlay_refreshes, client.diagnostic_refresh_count

        # turn InOut hints off as well; the server asks for the section again
        client.set_configuration(with_full_labels({"pyptoLens": {"inlayHints": {"input": False, "inout": False}}}))
        client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
        await until(lambda: client.inlay_refreshes > refreshes)
        assert client.diagnostic_refresh_count > diagnostic_refreshes  # pulled diagnostics are refreshed too
        after = directions(await client.hints(uri))
        assert "InOut" not in after and "Input" not in after
        assert set(after) == {"OutputExisting", "NoDep"}

        # typing never refreshes; an unchanged configuration does not either
        refreshes = client.inlay_refreshes
        client.edit(uri, 2, (0, 0), (0, 0), "# typing\n")
        client.edit(uri, 3, (0, 0), (0, 1), "")
        client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
        await client.hints(uri)
        await asyncio.sleep(0.3)
        await client.roundtrip()
        assert client.inlay_refreshes == refreshes


async def test_kinds_scope_headers_signatures_and_scalar(start_session):
    options = {"settings": {"pyptoLens": {"inlayHints": {"scalar": True, "scopeHeaders": False, "labelStyle": "full",
                                                         "signatures": False, "noDep": False}}}}
    async with start_session(capabilities("utf-8", configuration=False),
                             initialization_options=options) as client:
        demo = client.open_new(DEMO)
        hints = await client.hints(demo)
        labels = [label_text(h) for h in hints]
        assert "k: Scalar" in labels  # Scalar hints on
        assert "x (a): NoDep" not in labels
        assert not [h for h in hints if h.padding_left]  # no scope-header hints
        leaky = client.open_new(LEAKY)
        assert [h for h in await client.hints(leaky) if h.kind == types.InlayHintKind.Type] == []

        # a client without workspace/configuration sends the settings with the notification
        client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
            settings={"pyptoLens": {"inlayHints": {"enabled": False}}}))
        await until(lambda: client.inlay_refreshes > 0)
        assert await client.hints(demo) == []


async def test_settings_that_arrive_after_the_first_requests_refresh_hints_and_diagnostics(start_session):
    """An editor slow to answer workspace/configuration: the first answers use the defaults, then
    the server must refresh both hints and pulled diagnostics once the settings are in."""
    config = {"pyptoLens": {"inlayHints": {"input": False}, "diagnostics": {"inParamWritten": False}}}
    async with start_session(capabilities("utf-32"), configuration=config, configuration_delay=0.5) as client:
        uri = client.open_new(LEAKY)
        early_hints = directions(await client.hints(uri))
        early_codes = {d.code for d in (await client.pull(uri)).items}
        assert "Input" in early_hints and "InParamWritten" in early_codes  # the defaults, for now
        await until(lambda: client.inlay_refreshes > 0 and client.diagnostic_refresh_count > 0)
        assert "Input" not in directions(await client.hints(uri))
        assert "InParamWritten" not in {d.code for d in (await client.pull(uri)).items}


async def test_diagnostics_switched_off_per_code_and_altogether(start_session):
    config = {"pyptoLens": {"diagnostics": {"inParamWritten": False, "unclassifiedOperators": "on"}}}
    source = LEAKY.replace("        t = pl.load(données_𝔡, [0], [64])\n",
                           "        t = pl.load(données_𝔡, [0], [64])\n        u = pl.lens_made_up(t)\n")
    async with start_session(capabilities("utf-8"), configuration=config) as client:
        await until(lambda: client.diagnostic_refresh_count > 0)  # the settings differ from the defaults
        uri = client.open_new(source)

        async def codes():
            return {d.code for d in (await client.pull(uri)).items}
        assert "InParamWritten" not in await codes() and "UnknownOperator" in await codes()
        refreshes = client.diagnostic_refresh_count
        client.set_configuration({"pyptoLens": {"diagnostics": {"enabled": False}}})
        client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
        await until(lambda: client.diagnostic_refresh_count > refreshes)
        assert await codes() == set()


async def test_bad_values_are_reported_and_replaced_by_defaults(start_session):
    config = {"pyptoLens": {"inlayHints": {"input": "yes", "scalar": 1, "future": "ignored"},
                            "diagnostics": 5}}
    async with start_session(capabilities("utf-16"), configuration=config) as client:
        await until(lambda: len(client.messages) >= 3)
        warnings = [m for m in client.messages if m.type == types.MessageType.Warning]
        text = "\n".join(m.message for m in warnings)
        assert "pyptoLens.inlayHints.input" in text and "pyptoLens.inlayHints.scalar" in text
        assert "pyptoLens.diagnostics" in text
        assert "future" not in text  # unknown keys belong to newer versions: not a mistake
        uri = client.open_new(DEMO)
        found = directions(await client.hints(uri))
        assert "Input" in found and "Scalar" not in found  # the defaults
        leaky = client.open_new(LEAKY)
        assert "InParamWritten" in {d.code for d in (await client.pull(leaky)).items}  # diagnostics on (default)

        # a settings section that is not an object at all
        client.set_configuration({"pyptoLens": ["not", "an", "object"]})
        count = len(client.messages)
        client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
        await until(lambda: len(client.messages) > count)
        assert "pyptoLens should be an object" in client.messages[-1].message
        assert "Input" in directions(await client.hints(uri))
