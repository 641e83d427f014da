"""What a request answers while an analysis runs (server/analyses.py), in-process with a slow engine.

The engine here is a stand-in whose analysis waits until the test lets it go, and which
puts one hint before the `(` of every line holding `call(`: so the test decides when an
analysis is done and knows what every answer must be.
"""
from __future__ import annotations

import asyncio
import gc
import random
import threading
import time

import pytest

from pypto_lens.ir.nodes import ArgDir
from pypto_lens import preempt
from pypto_lens.server import analyses
from pypto_lens.server.analyses import (FIRST_PAUSE_SECONDS, MOVED_AFTER_SECONDS, PAUSE_SECONDS, PAUSED_AFTER_SECONDS,
                                        Analyses)
from pypto_lens.server.documents import Documents
from pypto_lens.server.text import Change, LspText
from pypto_lens.workspace.edits import Edit
from pypto_lens.workspace.results import ArgHint, CallSite, DocumentAnalysis, Explanation, Range

URI = "file:///sched/doc.py"
TEXT = "import pypto.language as pl\n\nx = call(a)\ny = 1\nz = call(b)\n"


class SlowEngine:
    def __init__(self, documents: Documents):
        self.documents = documents
        self.gate = threading.Event()
        self.gate.set()
        self.analysed: list = []  # the versions analysed, in order
        self.reused = False  # its analyses made without a chain (the last result cached or moved)

    def analysis(self, uri: str, hints_only: bool = False) -> DocumentAnalysis:
        snapshot = self.documents.snapshot(uri)  # (the workspace reads the text first, as here)
        self.gate.wait(10)
        self.analysed.append(snapshot.version)
        calls = []
        for n, line in enumerate(snapshot.text.split("\n")):
            col = line.find("call(")
            if col >= 0:
                r = Range(n, col, n, len(line))
                hint = ArgHint(n, col + 5, ArgDir.INPUT, "p", None, 0, Explanation("C4", "reads"))
                calls.append(CallSite(r, r, "call", "InCore", "f", (hint,)))
        return DocumentAnalysis(uri, snapshot.version, calls, [], [], reused=self.reused)

    def borrows(self, uri: str) -> bool:  # no inline helpers here: nothing lent in the background
        return False

    def release_replaced(self) -> None:  # (nothing kept here)
        pass


class FakeServer:
    def __init__(self):
        self.documents = Documents()
        self.lens = SlowEngine(self.documents)
        self.refreshes = 0
        self.analyses = Analyses(self)

    def is_python(self, uri: str) -> bool:
        return self.documents.is_python(uri)

    def can_refresh_hints(self) -> bool:
        return True

    def refresh_hints(self) -> None:
        self.refreshes += 1

    def open(self):
        self.documents.open(URI, TEXT, 1, "python")
        self.analyses.changed(URI, typed=False)

    def edit(self, version: int, start, end, text: str):
        self.documents.change(URI, version, [Change(text, start, end)], "utf-16")
        self.analyses.changed(URI)


def hints(analysis: DocumentAnalysis) -> list:
    return [(h.line, h.col) for c in analysis.calls for h in c.hints]


async def analysed_then_held() -> FakeServer:
    """A server whose document was analysed once, and whose next analysis waits for the gate."""
    server = FakeServer()
    server.open()
    await server.analyses.ask(URI)
    server.lens.gate.clear()
    return server


async def settle(server: FakeServer) -> None:
    for _ in range(200):
        if not server.analyses.active:
            return
        await asyncio.sleep(0.01)


async def test_a_viewport_is_answered_from_the_last_analysis_moved_while_the_new_one_runs():
    server = FakeServer()
    server.open()
    _, first = await server.analyses.ask(URI)
    assert hints(first) == [(2, 9), (4, 9)]
    server.lens.gate.clear()
    server.edit(2, (1, 0), (1, 0), "# a new line\n")  # every call moves down a line
    # the analysis is held: only a moved answer can come (the bound only stops a hang)
    text, answer = await asyncio.wait_for(server.analyses.ask(URI, MOVED_AFTER_SECONDS, (0, 10)), 5.0)
    assert hints(answer) == [(3, 9), (5, 9)] and text.version == 2
    server.lens.gate.set()
    await settle(server)
    assert server.refreshes == 0  # the new analysis shows what the moved one did: no refresh
    _, fresh = await server.analyses.ask(URI, MOVED_AFTER_SECONDS, (0, 10))
    assert hints(fresh) == [(3, 9), (5, 9)] and server.lens.analysed[-1] == 2


async def test_hints_that_changed_are_refreshed_once_the_new_analysis_is_done():
    server = await analysed_then_held()
    server.edit(2, (3, 0), (3, 5), "w = call(c)")  # a new call: the moved answer cannot know it
    _, answer = await server.analyses.ask(URI, MOVED_AFTER_SECONDS, (0, 10))
    assert hints(answer) == [(2, 9), (4, 9)]
    server.lens.gate.set()
    await settle(server)
    assert server.refreshes == 1
    _, fresh = await server.analyses.ask(URI, MOVED_AFTER_SECONDS, (0, 10))
    assert hints(fresh) == [(2, 9), (3, 9), (4, 9)]


async def test_a_hint_whose_text_was_replaced_is_gone_and_one_before_a_typed_character_stays():
    server = await analysed_then_held()
    server.edit(2, (2, 9), (2, 10), "q")  # the argument of the first call is replaced
    server.edit(3, (4, 11), (4, 11), "  # typing")  # after the second call's text
    _, answer = await server.analyses.ask(URI, MOVED_AFTER_SECONDS, (0, 10))
    assert hints(answer) == [(4, 9)]
    server.lens.gate.set()
    await settle(server)


async def test_once_a_version_was_answered_moved_the_next_request_does_not_wait_again():
    # the hints of a keystroke waited their few milliseconds; the hover that follows is answered
    # moved at once (here its wait would be 30 s: the analysis is held)
    server = await analysed_then_held()
    server.edit(2, (1, 0), (1, 0), "# a new line\n")
    await server.analyses.ask(URI, MOVED_AFTER_SECONDS, (0, 10))
    _, answer = await asyncio.wait_for(server.analyses.ask(URI, 30.0, (3, 3)), 5.0)
    assert hints(answer) == [(3, 9)]
    server.lens.gate.set()
    await settle(server)


async def test_a_document_whose_last_analysis_was_slow_is_answered_moved_at_once():
    # a big program: its analysis takes longer than the wait, so waiting would only delay the same
    # moved answer (here the wait would be 30 s: the analysis is held)
    server = FakeServer()
    server.lens.gate.clear()
    server.open()
    asyncio.get_running_loop().call_later(0.1, server.lens.gate.set)  # the first analysis takes 0.1 s
    await server.analyses.ask(URI)
    assert server.analyses.done[URI].seconds > MOVED_AFTER_SECONDS
    server.lens.gate.clear()
    server.edit(2, (1, 0), (1, 0), "# a new line\n")
    _, answer = await asyncio.wait_for(server.analyses.ask(URI, 30.0, (0, 10)), 5.0)
    assert hints(answer) == [(3, 9), (5, 9)]
    server.lens.gate.set()
    await settle(server)


async def test_an_edit_of_a_function_header_waits_for_the_new_analysis():
    # pl.Out[ made pl.InOut[ changes the directions at every call of the function: a moved answer
    # would show them stale until the refresh, so the viewport waits (while a body edit is moved)
    server = await analysed_then_held()
    server.edit(2, (3, 0), (3, 5), "def f(dst: pl.InOut[pl.Tensor[[8], pl.FP32]]):")
    asked = asyncio.ensure_future(server.analyses.ask(URI, MOVED_AFTER_SECONDS, (0, 10)))
    await asyncio.sleep(MOVED_AFTER_SECONDS * 5)
    assert not asked.done()  # no moved answer came
    server.lens.gate.set()
    text, answer = await asked
    assert text.version == 2 and server.lens.analysed[-1] == 2 and hints(answer) == [(2, 9), (4, 9)]
    await settle(server)
    assert server.refreshes == 0


async def test_a_change_of_another_document_waits_for_the_new_analysis():
    # kernels.py's pl.Out made pl.InOut changes the hints of main.py, which was not edited: its last
    # analysis, unmoved, would show the old direction as if fresh. Here main's last analysis was slow
    # (0.1 s), so before the fix it was answered at once with that analysis
    server = FakeServer()
    server.lens.gate.clear()
    server.open()
    asyncio.get_running_loop().call_later(0.1, server.lens.gate.set)
    await server.analyses.ask(URI)
    server.lens.gate.clear()
    other = "file:///sched/kernels.py"
    server.documents.open(other, TEXT, 1, "python")
    server.analyses.changed(other)
    asked = asyncio.ensure_future(server.analyses.ask(URI, 30.0, (0, 10)))
    await asyncio.sleep(MOVED_AFTER_SECONDS * 5)
    assert not asked.done()  # no stale answer came
    server.lens.gate.set()
    _, answer = await asyncio.wait_for(asked, 5.0)
    assert server.analyses.fresh(URI) is not None and hints(answer) == [(2, 9), (4, 9)]
    # once analysed again, the document's own typing is moved as before
    await settle(server)  # (kernels.py's analysis too)
    server.lens.gate.clear()
    server.edit(2, (1, 0), (1, 0), "# a new line\n")
    _, moved = await asyncio.wait_for(server.analyses.ask(URI, MOVED_AFTER_SECONDS, (0, 10)), 5.0)
    assert hints(moved) == [(3, 9), (5, 9)] and server.analyses.fresh(URI) is None
    server.lens.gate.set()
    await settle(server)


async def test_an_annotated_assignment_in_a_body_is_no_header_and_is_moved():
    # `t: pl.Tile[...] = ...` names pl.Tile as a parameter would, but starts a statement of its own
    server = await analysed_then_held()
    server.edit(2, (3, 0), (3, 5), "t: pl.Tile[[8], pl.FP32] = pl.load(x, [0], [8])")
    _, answer = await asyncio.wait_for(server.analyses.ask(URI, MOVED_AFTER_SECONDS, (0, 10)), 5.0)
    assert hints(answer) == [(2, 9), (4, 9)]  # moved at once (the analysis is held)
    server.lens.gate.set()
    await settle(server)


async def test_a_whole_document_waits_for_the_new_analysis():
    server = await analysed_then_held()
    server.edit(2, (3, 0), (3, 5), "w = call(c)")
    waiting = asyncio.ensure_future(server.analyses.ask(URI))
    await asyncio.sleep(0.2)
    assert not waiting.done()
    server.lens.gate.set()
    _, fresh = await asyncio.wait_for(waiting, 5)
    assert hints(fresh) == [(2, 9), (3, 9), (4, 9)]


async def test_a_cancelled_request_answers_at_once_and_the_analysis_is_kept():
    server = FakeServer()
    server.open()
    server.lens.gate.clear()
    waiting = asyncio.ensure_future(server.analyses.ask(URI))  # nothing to move: it must wait
    await asyncio.sleep(0.05)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(waiting, 1)
    server.lens.gate.set()
    await settle(server)
    assert server.analyses.fresh(URI) is not None


async def test_edits_made_while_an_analysis_runs_are_analysed_once_at_their_newest():
    server = FakeServer()
    server.open()
    server.lens.gate.clear()
    await asyncio.sleep(0.05)  # the worker holds version 1
    for version in range(2, 7):
        server.edit(version, (3, 4), (3, 5), str(version))
    server.lens.gate.set()
    await settle(server)
    assert server.lens.analysed == [1, 6]
    _, fresh = await server.analyses.ask(URI)
    assert fresh.version == 6


@pytest.fixture
def always_paused(monkeypatch):
    """Every change of a slow document waits for a pause, the first after a pause too (as when its
    last analysis took longer than AT_ONCE_UNDER_SECONDS)."""
    monkeypatch.setattr(analyses, "AT_ONCE_UNDER_SECONDS", 0.0)


async def slow_document() -> FakeServer:
    """A server whose document's last analysis took longer than PAUSED_AFTER_SECONDS."""
    server = FakeServer()
    server.lens.gate.clear()
    server.open()
    asyncio.get_running_loop().call_later(PAUSED_AFTER_SECONDS * 2, server.lens.gate.set)
    await server.analyses.ask(URI)
    assert server.analyses.done[URI].seconds > PAUSED_AFTER_SECONDS
    return server


async def test_a_slow_documents_analysis_waits_for_a_pause_in_typing(always_paused):
    server = await slow_document()
    for version in range(2, 6):  # a burst of keystrokes, each answered from the last analysis moved
        server.edit(version, (3, 4), (3, 5), str(version))
        _, answer = await asyncio.wait_for(server.analyses.ask(URI, MOVED_AFTER_SECONDS, (0, 10)), 5.0)
        assert hints(answer) == [(2, 9), (4, 9)]
    assert server.lens.analysed == [1] and URI in server.analyses.due  # no analysis started during the burst
    await asyncio.sleep(PAUSE_SECONDS * 3)
    await settle(server)
    assert server.lens.analysed == [1, 5]  # one, of the newest text, once the typing paused


async def test_a_quick_analysis_that_ran_no_chain_leaves_a_slow_document_waiting_for_pauses(always_paused):
    """A blank line typed in a big model is analysed in milliseconds (its last result moved), but the
    next statement typed costs a whole chain again: its keystrokes still wait for a pause."""
    server = await slow_document()
    slow = server.analyses.done[URI].seconds
    server.lens.reused = True
    server.edit(2, (1, 0), (1, 0), "\n")
    await asyncio.sleep(PAUSE_SECONDS * 3)
    await settle(server)
    assert server.lens.analysed == [1, 2] and server.analyses.done[URI].seconds >= slow
    server.lens.reused = False
    for version in range(3, 6):
        server.edit(version, (4, 4), (4, 5), str(version))
        _, answer = await asyncio.wait_for(server.analyses.ask(URI, MOVED_AFTER_SECONDS, (0, 10)), 5.0)
        assert hints(answer) == [(3, 9), (5, 9)]
    assert server.lens.analysed == [1, 2] and URI in server.analyses.due  # no analysis during the burst


async def test_the_first_change_after_a_pause_waits_a_short_pause_and_a_burst_the_whole_one():
    server = await slow_document()
    await asyncio.sleep(PAUSE_SECONDS)  # no change since the open for a pause
    server.lens.gate.clear()
    server.edit(2, (3, 4), (3, 5), "2")
    started = asyncio.get_running_loop().time()
    assert server.analyses.due[URI] - time.monotonic() <= FIRST_PAUSE_SECONDS  # a whole pause would only delay it
    await asyncio.sleep(FIRST_PAUSE_SECONDS * 2)  # (the worker holds version 2; less than a pause)
    assert server.lens.analysed == [1] and URI not in server.analyses.due
    server.edit(3, (3, 4), (3, 5), "3")  # typed within the pause: a burst
    assert server.analyses.due[URI] - time.monotonic() > FIRST_PAUSE_SECONDS
    asyncio.get_running_loop().call_later(PAUSED_AFTER_SECONDS * 2, server.lens.gate.set)
    _, fresh = await asyncio.wait_for(server.analyses.ask(URI), 5.0)
    assert fresh.version == 3 and server.lens.analysed == [1, 2, 3]
    assert asyncio.get_running_loop().time() - started >= FIRST_PAUSE_SECONDS * 2 + PAUSE_SECONDS


async def test_a_whole_answer_asked_after_the_first_change_after_a_pause_starts_it_at_once():
    server = await slow_document()
    await asyncio.sleep(PAUSE_SECONDS)  # no change since the open for a pause
    server.edit(2, (3, 4), (3, 5), "2")
    assert URI in server.analyses.due  # the first pause, for the changes sent together ...
    whole = asyncio.ensure_future(server.analyses.ask(URI))
    await asyncio.sleep(0)
    assert URI not in server.analyses.due  # ... which all came before the request: it is over
    server.edit(3, (3, 4), (3, 5), "3")  # typed right after: a burst, which a whole answer does not cut short
    again = asyncio.ensure_future(server.analyses.ask(URI))
    await asyncio.sleep(0)
    assert server.analyses.due[URI] - time.monotonic() > FIRST_PAUSE_SECONDS
    _, first = await asyncio.wait_for(whole, 5.0)
    _, fresh = await asyncio.wait_for(again, 5.0)
    assert first.version >= 2 and fresh.version == 3


async def test_a_whole_answer_for_a_document_another_changed_ends_its_first_pause_too():
    server = await slow_document()
    await settle(server)
    other = "file:///sched/kernels.py"  # (a kernel's pl.Out made pl.InOut: the caller's hints change)
    server.documents.open(other, TEXT, 1, "python")
    server.analyses.changed(other)
    await asyncio.sleep(PAUSE_SECONDS * 2)  # (kernels.py analysed; then no change for a pause)
    await settle(server)
    server.documents.change(other, 2, [Change("2", (3, 4), (3, 5))], "utf-16")
    server.analyses.changed(other)
    assert URI in server.analyses.due  # the first pause, for the changes sent together ...
    whole = asyncio.ensure_future(server.analyses.ask(URI))
    await asyncio.sleep(0)
    assert URI not in server.analyses.due  # ... over with the caller's whole answer asked
    await asyncio.wait_for(whole, 5.0)


async def test_the_first_pause_is_decided_by_the_hints_not_by_the_rest_that_gives_way(monkeypatch):
    """issue 41: prefill_cp_fwd_draft.py's hints took 0.7 s and its rest (task graph, hazards) 1.1 s
    more, which a change stops (preempt.py): its edits waited the whole pause, with the collector on,
    as if a keystroke had to wait for all of it."""
    server = FakeServer()
    server.lens = HintsFirstEngine(server.documents)  # (below: its rest waits for the test)
    monkeypatch.setattr(analyses, "AT_ONCE_UNDER_SECONDS", PAUSED_AFTER_SECONDS * 2)
    server.open()
    threading.Timer(PAUSED_AFTER_SECONDS * 3, server.lens.rest.set).start()
    await asyncio.wait_for(server.analyses.ask(URI), 5.0)
    await settle(server)
    done = server.analyses.done[URI]
    assert done.complete and done.seconds > analyses.AT_ONCE_UNDER_SECONDS > done.hints_seconds
    await asyncio.sleep(PAUSE_SECONDS)
    server.edit(2, (3, 4), (3, 5), "2")
    assert server.analyses.due[URI] - time.monotonic() <= FIRST_PAUSE_SECONDS  # the short pause
    _, fresh = await asyncio.wait_for(server.analyses.ask(URI, hints=True), 5.0)
    assert fresh.version == 2


async def test_a_document_slower_than_the_at_once_bound_waits_for_a_pause_after_a_pause_too(monkeypatch):
    server = await slow_document()
    monkeypatch.setattr(analyses, "AT_ONCE_UNDER_SECONDS", server.analyses.done[URI].seconds)
    await asyncio.sleep(PAUSE_SECONDS)
    server.edit(2, (3, 4), (3, 5), "2")
    assert server.analyses.due[URI] - time.monotonic() > FIRST_PAUSE_SECONDS and server.lens.analysed == [1]
    await asyncio.sleep(PAUSE_SECONDS * 3)
    await settle(server)
    assert server.lens.analysed == [1, 2]


async def test_a_header_edit_does_not_wait_for_the_pause_and_a_whole_document_does(always_paused):
    server = await slow_document()
    server.edit(2, (3, 0), (3, 5), "w = call(c)")
    whole = asyncio.ensure_future(server.analyses.ask(URI))  # (diagnostics, Neovim's hints: after every change)
    await asyncio.sleep(0)
    assert URI in server.analyses.due and server.lens.analysed == [1]
    _, fresh = await asyncio.wait_for(whole, 5.0)  # after the pause
    assert fresh.version == 2 and hints(fresh) == [(2, 9), (3, 9), (4, 9)]
    server = await slow_document()
    server.edit(3, (3, 0), (3, 5), "def f(dst: pl.InOut[pl.Tensor[[8], pl.FP32]]):")
    assert URI in server.analyses.due
    header = asyncio.ensure_future(server.analyses.ask(URI, MOVED_AFTER_SECONDS, (0, 10)))
    await asyncio.sleep(0)
    assert URI not in server.analyses.due  # its analysis may start at once
    text, answer = await asyncio.wait_for(header, 5.0)
    assert text.version == 3 and hints(answer) == [(2, 9), (4, 9)] and server.lens.analysed == [1, 3]


def work_in_steps(events: list, steps: int, done: str) -> None:
    """`steps` slices of 5 ms, asking preempt.check() between them as an analysis does between its
    stages; `events` says how it ended."""
    try:
        for _ in range(steps):
            preempt.check()
            time.sleep(0.005)
    except preempt.Preempted:
        events.append("gave way")
        raise
    events.append(done)


class LendingEngine(SlowEngine):
    """A helper's engine whose one caller takes a while to lend, step by step (as an analysis asks
    preempt.check() between its stages)."""

    CALLER = "file:///sched/caller.py"

    def __init__(self, documents: Documents):
        super().__init__(documents)
        self.events: list = []
        self.lending = threading.Event()

    def analysis(self, uri: str, hints_only: bool = False) -> DocumentAnalysis:
        result = super().analysis(uri)
        self.events.append(result.version)
        return result

    def borrows(self, uri: str) -> bool:
        return True

    def callers(self, uri: str, open_only: bool = False) -> list:
        return [] if open_only else [self.CALLER]

    def lend(self, caller: str) -> None:
        self.lending.set()
        work_in_steps(self.events, 60, "lent")  # 0.3 s of a caller's analysis


async def test_a_change_while_a_caller_lends_is_analysed_first_and_the_caller_lent_after(monkeypatch):
    monkeypatch.setattr(analyses, "LENDING_DELAY_SECONDS", 0.01)
    server = FakeServer()
    server.lens = LendingEngine(server.documents)
    server.open()
    await server.analyses.ask(URI)
    for _ in range(200):  # the background lending starts
        if server.lens.lending.is_set():
            break
        await asyncio.sleep(0.01)
    assert server.lens.lending.is_set()
    server.edit(2, (3, 4), (3, 5), "2")
    _, fresh = await asyncio.wait_for(server.analyses.ask(URI), 5.0)
    assert fresh.version == 2
    await asyncio.wait_for(server.analyses.settled(), 5.0)
    events = server.lens.events
    # the edit did not wait for the lending (the helper's whole answers analyse it again: more 1s and 2s)
    assert events.index("gave way") < events.index(2) < events.index("lent")


class HintsFirstEngine(SlowEngine):
    """An engine that gives the hints of an analysis at once and its rest (document.Rest) when the
    test lets it go."""

    def __init__(self, documents: Documents):
        super().__init__(documents)
        self.gate.set()
        self.rest = threading.Event()
        self.asked: list = []  # (version, hints_only) of every question

    def analysis(self, uri: str, hints_only: bool = False) -> DocumentAnalysis:
        result = super().analysis(uri)
        self.asked.append((result.version, hints_only))
        if hints_only:
            result.complete = False
            return result
        self.rest.wait(10)
        result.diagnostics.append("the rest")
        return result


async def test_hints_are_answered_before_the_rest_of_the_analysis_is_made():
    server = FakeServer()
    server.lens = HintsFirstEngine(server.documents)
    server.open()
    # a whole document's hints: answered by the analysis made as far as the hints
    text, answer = await asyncio.wait_for(server.analyses.ask(URI, hints=True), 5.0)
    assert hints(answer) == [(2, 9), (4, 9)] and not answer.complete and answer.diagnostics == []
    # what needs the rest (diagnostics) waits for it, which the worker makes at once
    whole = asyncio.ensure_future(server.analyses.ask(URI))
    await asyncio.sleep(0.05)
    assert not whole.done() and server.lens.asked == [(1, True), (1, False)]
    # meanwhile a hover answers nothing moved from the half-made analysis: it waits as well
    hover = asyncio.ensure_future(server.analyses.ask(URI, MOVED_AFTER_SECONDS, (2, 2)))
    await asyncio.sleep(0.05)
    assert not hover.done()
    server.lens.rest.set()
    _, done = await asyncio.wait_for(whole, 5.0)
    assert done.complete and done.diagnostics == ["the rest"]
    _, hovered = await asyncio.wait_for(hover, 5.0)
    assert hovered is done


class GivingWayEngine(HintsFirstEngine):
    """Its rest takes a while, step by step (as Rest.made asks preempt.check() between its stages)."""

    def __init__(self, documents: Documents):
        super().__init__(documents)
        self.rest.set()
        self.events: list = []
        self.resting = threading.Event()

    def analysis(self, uri: str, hints_only: bool = False) -> DocumentAnalysis:
        if hints_only:
            return super().analysis(uri, True)
        self.resting.set()
        work_in_steps(self.events, 100, "rest made")  # 0.5 s of a task graph
        return super().analysis(uri, False)


async def test_the_rest_of_an_analysis_gives_way_to_a_change():
    server = FakeServer()
    server.lens = GivingWayEngine(server.documents)
    server.open()
    await asyncio.wait_for(server.analyses.ask(URI, hints=True), 5.0)
    for _ in range(200):  # the rest starts at once
        if server.lens.resting.is_set():
            break
        await asyncio.sleep(0.01)
    server.edit(2, (3, 4), (3, 5), "2")
    text, answer = await asyncio.wait_for(server.analyses.ask(URI, hints=True), 5.0)
    assert text.version == 2 and answer.version == 2
    assert server.lens.events == ["gave way"]  # version 1's rest stopped, and the new hints did not wait for it
    _, whole = await asyncio.wait_for(server.analyses.ask(URI), 5.0)
    assert whole.complete and whole.version == 2 and server.lens.events[-1] == "rest made"


class CollectorWatchingEngine(HintsFirstEngine):
    """Notes whether the cycle collector was on during each question, and lets the rest go at once."""

    def __init__(self, documents: Documents):
        super().__init__(documents)
        self.rest.set()
        self.collector: list = []  # (version, hints_only, gc.isenabled())

    def analysis(self, uri: str, hints_only: bool = False) -> DocumentAnalysis:
        self.collector.append((self.documents.snapshot(uri).version, hints_only, gc.isenabled()))
        return super().analysis(uri, hints_only)


async def test_the_cycle_collector_is_off_while_an_edits_hints_are_made_and_answered():
    server = FakeServer()
    server.lens = CollectorWatchingEngine(server.documents)
    server.open()
    await asyncio.wait_for(server.analyses.ask(URI, hints=True), 5.0)
    await settle(server)
    server.edit(2, (3, 4), (3, 5), "2")
    _, answer = await asyncio.wait_for(server.analyses.ask(URI, hints=True), 5.0)
    assert answer.version == 2
    await settle(server)
    # the process's first analysis runs with it off and freezes what it built (gc_policy.first_analysis);
    # an edit's hints are made with it off; the rest with it on
    assert server.lens.collector == [(1, True, False), (1, False, True), (2, True, False), (2, False, True)]
    assert gc.isenabled()


async def test_the_cycle_collector_is_on_again_after_an_edits_analysis_failed():
    server = FakeServer()
    server.open()
    await server.analyses.ask(URI)
    seen = []

    def analysis(uri: str, hints_only: bool = False):
        seen.append(gc.isenabled())
        raise RuntimeError("a bug in a stage")
    server.lens.analysis = analysis
    server.edit(2, (3, 4), (3, 5), "2")
    _, answer = await asyncio.wait_for(server.analyses.ask(URI, hints=True), 5.0)
    await settle(server)
    assert answer is None and seen[0] is False and gc.isenabled()


async def test_the_first_change_right_after_an_open_waits_the_short_pause_an_open_is_no_typing():
    server = FakeServer()
    server.lens.gate.clear()
    server.open()
    asyncio.get_running_loop().call_later(PAUSED_AFTER_SECONDS * 1.2, server.lens.gate.set)
    await server.analyses.ask(URI)
    assert server.analyses.done[URI].seconds > PAUSED_AFTER_SECONDS  # a slow document, never typed in
    assert URI not in server.analyses.last_typed  # (however long the open took: no clock to race)
    server.lens.gate.clear()
    server.edit(2, (3, 4), (3, 5), "2")
    assert server.analyses.due[URI] - time.monotonic() <= FIRST_PAUSE_SECONDS
    server.edit(3, (3, 4), (3, 5), "3")  # typed right after it: a burst, which waits the whole pause
    assert server.analyses.due[URI] - time.monotonic() > FIRST_PAUSE_SECONDS
    server.lens.gate.set()
    _, fresh = await asyncio.wait_for(server.analyses.ask(URI), 5.0)
    assert fresh.version == 3


def test_typing_within_lines_touches_a_header_exactly_when_the_edit_by_edit_check_says_so():
    """_touches_a_signature's way for edits within lines (each keeps its line: edits.edits_by_line)
    gives what its edit-by-edit way (each edit's line moved through the edits after it) gives, on every line of a program
    with headers, bodies and a multi-line signature."""
    program = ("import pypto.language as pl\n\n\n@pl.function(type=pl.FunctionType.InCore)\n"
               "def kernel(a: pl.Tensor[[16], pl.FP32],\n           out: pl.Out[pl.Tensor[[16], pl.FP32]],\n"
               "           ) -> pl.Tensor[[16], pl.FP32]:\n    t = pl.load(a, [0], [16])\n"
               "    return pl.store(t, [0], out)\n\n\nx: pl.Tensor[[16], pl.FP32] = call(a)\n")
    text = LspText(program, 1)
    lines = program.count("\n") + 1

    rng = random.Random(7)
    answers = set()
    for _ in range(300):
        edits = [Edit(n, c, n, c + rng.randrange(2), 0, rng.randrange(3))
                 for n, c in ((rng.randrange(lines), rng.randrange(12)) for _ in range(rng.randrange(1, 8)))]
        answers.add(analyses._touches_a_signature(edits, text))
        assert analyses._touches_a_signature(edits, text) == analyses._touches_a_signature_edit_by_edit(edits, text)
    assert answers == {True, False}
