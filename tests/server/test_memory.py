"""`pyptoLens/memory` (server/memory.py): the resident memory always; with Python's tracing on, the
allocation sites holding the most and those that grew since a mark."""
from __future__ import annotations

import os

import pytest

from lens_client import bounded, capabilities
from lens_programs import DEMO

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def memory(client, **params):
    return plain(await bounded(client.protocol.send_request_async("pyptoLens/memory", params)))


def plain(value):
    """pygls' client makes an answer of a custom request namedtuples: back to dicts and lists."""
    if hasattr(value, "_asdict"):
        return {k: plain(v) for k, v in value._asdict().items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


async def test_without_tracing_the_answer_is_the_resident_memory(client):
    answer = await memory(client, collect=True, top=5)
    assert answer["tracing"] is False and "sites" not in answer
    if os.path.exists("/proc/self/status"):
        assert answer["rssKb"] > 10_000  # a Python with lark and pygls loaded


async def test_with_tracing_the_sites_that_grew_since_a_mark_come_first(start_session):
    async with start_session(capabilities("utf-16")) as client:
        first = client.open_new(DEMO)
        assert await client.hints(first)
        warm = await memory(client, trace=5, collect=True, mark="warm", group="traceback")
        assert warm["tracing"] is True and warm["tracedKb"] >= 0
        assert [s["kb"] for s in warm["sites"]] == sorted((s["kb"] for s in warm["sites"]), reverse=True)
        for n in range(12):  # documents kept open: their analyses are held
            uri = client.open_new(DEMO.replace("class Demo", f"class Demo{n}"))
            assert await client.hints(uri)
        grown = await memory(client, collect=True, since="warm", top=10, group="traceback")
        diffs = [s["kbDiff"] for s in grown["sites"]]
        assert len(diffs) == 10 and diffs == sorted(diffs, reverse=True) and diffs[0] > 0
        assert grown["tracedKb"] > warm["tracedKb"]
        sites = [s["site"] for s in grown["sites"]]
        assert any(" < " in site for site in sites)  # callers of the allocating line
        assert not [s for s in sites if "tracemalloc.py" in s.split(" < ")[0] or "memory.py" in s.split(" < ")[0]]
        by_line = await memory(client, top=3)
        assert len(by_line["sites"]) == 3 and " < " not in by_line["sites"][0]["site"]
        stopped = await memory(client, trace=0)
        assert stopped["tracing"] is False and "sites" not in stopped


async def test_the_answer_says_what_the_workspace_holds_per_kind_of_file(start_session):
    async with start_session(capabilities("utf-16")) as client:
        before = (await memory(client))["holds"]
        assert before["analyses"] == 0 and before["diskFiles"] == 0
        first = client.open_new(DEMO)
        assert await client.hints(first)
        second = client.open_new(DEMO.replace("class Demo", "class Demo2"))
        assert await client.hints(second)
        held = (await memory(client))["holds"]
        assert held["analyses"] == 2  # one per open document, nothing else was read
        assert held["diskChars"] >= 0 and held["lightExports"] >= 0
