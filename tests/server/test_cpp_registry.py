"""REGISTER_OP chains in C++ documents: the registration rules V1-V3 as error diagnostics."""
from __future__ import annotations

import pytest
from lsprotocol import types

from lens_client import pos
from lens_programs import REGISTRATIONS

pytestmark = pytest.mark.asyncio(loop_scope="session")

CONTRADICTION = ".set_arg_effect(0, ArgEffect::Write)"  # after no_arg_writes(): V1, at the call
CHANNEL_HEAD = 'REGISTER_OP("lens.channel")'  # a write channel and no write: V2, at the head
REUSE_HEAD = 'REGISTER_OP("lens.reuse")'  # reuses input 0, which has no effect: V3, at the head


def span(needle: str, encoding: str) -> types.Range:
    return types.Range(start=pos(REGISTRATIONS, needle, encoding), end=pos(REGISTRATIONS, needle, encoding, after=True))


def expected(encoding: str):
    return [("ArgEffectContradiction", "V1", span(CONTRADICTION, encoding)),
            ("WriteChannelWithoutWrite", "V2", span(CHANNEL_HEAD, encoding)),
            ("ReuseWithoutArgEffect", "V3", span(REUSE_HEAD, encoding))]


def summary(diagnostics):
    out = []
    for d in diagnostics:
        assert d.severity == types.DiagnosticSeverity.Error and d.source == "pypto-lens"
        out.append((d.code, d.message.split(":")[0], d.range))
    return out


async def test_v1_v2_v3_pulled_with_exact_ranges(client):
    uri = client.open_new(REGISTRATIONS, name="ops.cpp", language="cpp")
    assert summary((await client.pull(uri)).items) == expected(client.encoding)
    # hints and hovers have nothing to say about C++
    assert await client.hints(uri) == []
    assert await client.hover(uri, pos(REGISTRATIONS, CHANNEL_HEAD, client.encoding)) is None


async def test_fixing_a_chain_removes_its_problem(client):
    uri = client.open_new(REGISTRATIONS, name="ops.cpp", language="cpp")
    # drop `.no_arg_writes()` (its own line): the V1 contradiction goes
    line = pos(REGISTRATIONS, ".no_arg_writes()", client.encoding).line
    client.edit(uri, 2, (line, 0), (line + 1, 0), "")
    codes = [d.code for d in (await client.pull(uri)).items]
    assert codes == ["WriteChannelWithoutWrite", "ReuseWithoutArgEffect"]


async def test_pushed_to_a_client_that_does_not_pull(push_client):
    uri = push_client.open_new(REGISTRATIONS, name="ops.cc", language="cpp")
    published = await push_client.published_for(uri, lambda p: len(p.diagnostics) == 3)
    assert published.version == 1
    assert summary(published.diagnostics) == expected(push_client.encoding)


async def test_a_header_by_its_extension_only(client):
    uri = client.open_new(REGISTRATIONS, name="ops.h", language="plaintext")
    assert [d.code for d in (await client.pull(uri)).items] == [c for c, _, _ in expected(client.encoding)]
