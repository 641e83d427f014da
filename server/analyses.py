"""When analyses run, and what a request answers while one runs (issue 8).

One worker thread analyses (lark parsers are not thread-safe; the event loop stays free). An
edit asks for the document's analysis at once, and a newer edit supersedes an older one that
has not started: the worker takes the newest text when it starts. An edit of any document may
change what others import, so every open document's last analysis is checked again (cheaply:
the workspace's early cutoff returns the same analysis when nothing it reads changed).

A request answers for the newest text:

- when the analysis of the newest text is done, with it;
- a viewport's hints and a hover (`ask(..., moved_after=...)`), when that analysis is not done
  within a few milliseconds (at once when the document's last analysis took longer than that):
  with the last analysis moved through the edits made since
  (edits.moved: a hint keeps its label and moves with its text; one whose text was replaced is
  gone). Once the new analysis is done, `workspace/inlayHint/refresh` goes out if, and only if,
  the hints answered that way differ from the new ones. An edit of a function's header (a
  direction declared, a parameter added) waits instead: it changes the calls elsewhere. So does a
  document whose analysis is stale because another document (or the registry) changed: what it
  imports may mean something new, and its last analysis, unmoved, would show the old directions
  as if they were fresh (a kernel's `pl.Out` made `pl.InOut` in kernels.py, main.py's hint);
- anything else (diagnostics, a request for a whole document, clients that cannot refresh
  hints), when the analysis of the newest text is done.

Hints first: the worker makes an analysis as far as what hints show (every call's directions, the
signatures: document.Rest), hands it to the requests for hints, whole documents' included, and
then at once makes the rest of it (task graphs, hazards, misuse) for everything else. An edit's
directions are on screen that much earlier (issue 20: a third of decode_fwd.py's analysis is its
task graph and hazards).

A document whose last analysis took longer than `PAUSED_AFTER_SECONDS` is analysed once its typing
pauses for `PAUSE_SECONDS`, not at every keystroke (opening it is no keystroke; an analysis that ran no
chain, a blank line typed, keeps the figure of the last one that did: the next statement typed costs
that): its viewports and hovers are answered moved meanwhile, so the analysis does not hold the
interpreter while they are answered (genpl 50000: keystroke p95 22-26 -> 6 ms, hover 11-15 -> 2 ms). The first change after such a pause waits only
`FIRST_PAUSE_SECONDS` for a second one when the last analysis's hints took under `AT_ONCE_UNDER_SECONDS` (a
model of a few thousand lines; its rest, which gives way to a change, does not count: issue 41, the
task graph and hazards of prefill_cp_fwd_draft.py took 1.1 s more, so each of its edits waited the
whole pause, with the collector on, and then for the rest to give way): the whole pause would only add itself to what a single edit costs
(issue 20: 70 ms of every edit -> fresh whole document of such a model; the first pause is only long
enough to take the changes an editor sends together, 30 -> 15 ms: lspbench --file keystroke p95 stayed
3-4 ms on decode_fwd.py and prefill_cp_csa.py; 5 ms started so many more analyses that a long
session kept more memory, make soak 1.09 -> 1.10-1.11x), while a burst of keystrokes still waits for its pause (an analysis started at a burst's first keystroke takes the interpreter
from the burst's answers: keystroke p95 2 -> 18 ms on prefill_cp_csa.py). A viewport that cannot
be moved (a header edit) starts it at once; diagnostics and whole documents, which VS Code and Neovim ask after every
change, wait for a burst's pause too (else they would start it at every keystroke), but end the first one: it
only gathers the changes an editor sends together, and those came before the request (15 ms of every
edit -> fresh whole document).

The cycle collector is off while an edit's hints are made and answered (a document whose hints were
made before in under `AT_ONCE_UNDER_SECONDS`). The analysis allocates its new result while the last one is still
alive, and the young generation reached the collector's threshold during nearly every edit of a
model: a collection walked the tens of thousands of young objects, 16-36 ms of an edit of
dspark_drafter.py. Once the answers are out, the last result is gone, freed by reference counts
(an analysis makes hardly any cycles), and most of those collections are not needed at all; one
that still is runs then, off the answer's path. The first analysis of a document, longer, keeps it on,
except the process's first, which runs without it and freezes what it built (gc_policy.first_analysis).

An inline helper's scope headers borrow what its callers in other files lent the workspace's
store (helper_callers.py); its own analysis never waits for them. What is missing or stale is lent
in the background, at low priority: `LENDING_DELAY_SECONDS` after the last change of any document,
one caller at a time, only while no document waits for its own analysis, and started again by a
newer change. A caller's analysis gives way to a document wanted meanwhile (preempt.py): a
keystroke after a pause does not wait for it, and the caller is lent again later. When it is done and the helper's borrowed headers changed, its hints and code lenses
are refreshed. A viewport's hints and a hover answer with what the store has; a request that cannot
be answered again (a whole document's hints, code lenses, diagnostics) first waits for the helper's
open callers: their analyses of their newest texts, then the helper's borrowing of what they lent. So
for the documents an editor has open, its answer is the same as a fresh server's. Callers only on
disk are not waited for (three of them took a 3,300-line model's cold open from 1 s to 3.9 s): they
lend in the background, and a refresh follows; `pyptoLens/settled` waits for them too.

A request cancelled (`$/cancelRequest`) while it waits answers at once: the wait is cancelled,
never the analysis, whose result the caches keep.
"""
from __future__ import annotations

import asyncio
import gc
import logging
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, nullcontext
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Optional

from pypto_lens.gc_policy import first_analysis
from pypto_lens.preempt import Preempted, preemptible
from pypto_lens.workspace.edits import edits_by_line, move, moved
from pypto_lens.workspace.helper_callers import borrowed
from pypto_lens.workspace.results import DocumentAnalysis
from pypto_lens.workspace.text import in_a_function_header

from .memory import give_back_free_pages

log = logging.getLogger("pypto-lens")

MOVED_AFTER_SECONDS = 0.010  # how long a viewport's hints or a hover wait for the new analysis
PAUSED_AFTER_SECONDS = 0.05  # a document whose last analysis took longer than this is analysed ...
PAUSE_SECONDS = 0.1  # ... once its typing pauses this long (its answers meanwhile are moved)
FIRST_PAUSE_SECONDS = 0.015  # ... but the first change after a pause waits only this long for another ...
AT_ONCE_UNDER_SECONDS = 1.5  # ... when its last hints took less (pypto-lib's biggest models open in 1-1.2 s)
ANSWERS_SECONDS = 0.05  # how long the cycle collector stays off for the hints an edit's analysis answers, at most
DISK_PAUSE_SECONDS = 0.1  # open documents are analysed again this long after the last file event (watched_files.py)
LENDING_DELAY_SECONDS = 1.0  # the background lending to an open helper starts this long after the last change (a pause in typing: lending takes the worker, and a keystroke meanwhile waits)



@dataclass
class Done:
    """A finished analysis of a document: of which version, and in which state of the workspace."""

    version: Optional[int]
    generation: int
    analysis: Optional[DocumentAnalysis]
    seconds: float = 0.0  # the whole analysis's (its hints and its rest)
    # the part a change cannot stop: its hints (the rest gives way to a change, preempt.py), what the
    # first pause and the collector's pause are decided by
    hints_seconds: float = 0.0

    @property
    def complete(self) -> bool:
        return self.analysis is None or self.analysis.complete


@dataclass
class Lending:
    """The background lending to one open inline helper: when it may start, and the callers left."""

    due: float
    callers: Optional[list] = None  # None: not listed yet


@dataclass
class Answered:
    """Hints answered from a moved analysis, by line window, for the refresh decision."""

    windows: list = field(default_factory=list)  # (first, last, hints as compared)


class Analyses:
    def __init__(self, server) -> None:
        self.server = server
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pypto-lens-analysis")
        self.done: dict[str, Done] = {}
        self.whole: dict[str, Done] = {}  # the last complete analysis of each document (hovers are moved from it)
        self.generation = 0  # bumped by every change that may change an analysis (any document, the registry)
        # which change made the newest generation, and the newest one made by another (None: not a
        # document): a document's last analysis is older than a change of something else when
        # foreign_generation(uri) is newer than it (then it may not be moved)
        self.last_change: tuple[int, Optional[str]] = (0, None)
        self.other_change_generation = 0
        self.wanted: OrderedDict[str, None] = OrderedDict()  # documents to analyse, the most wanted first
        self.running: Optional[str] = None
        self.active = False  # the loop that feeds the worker runs
        self.changed_event: Optional[asyncio.Event] = None  # set whenever an analysis finishes
        self.answered: dict[str, Answered] = {}  # documents answered from a moved analysis since their last one
        self.moved_version: dict[str, Optional[int]] = {}  # the version each document was last answered moved at
        self.frozen = False  # gc.freeze done (once)
        self.asking: dict[str, int] = {}  # document -> how many requests for its hints wait in ask()
        self.timings: list[float] = []  # seconds of recent analyses (for the benchmarks' log)
        self.helpers: set[str] = set()  # open documents with inline helpers whose headers callers lend
        self.lending: dict[str, Lending] = {}  # helper -> its background lending, pending
        self.wanted_event: Optional[asyncio.Event] = None  # set when a document is wanted (ends a lending wait)
        self.borrowed_after_open_callers: dict[str, tuple] = {}  # helper -> (generation, version) it last did
        self.due: dict[str, float] = {}  # big documents being typed in -> when their analysis may start
        self.first_pause: set[str] = set()  # those whose due is the short first pause (a whole answer ends it)
        self.last_typed: dict[str, float] = {}  # document -> when it last changed (a pause in typing ends a burst)

    # -- what changed -------------------------------------------------------------------------
    def changed(self, uri: Optional[str] = None, typed: bool = True) -> None:
        """A document (or, with None, the registry or the workspace) changed: every analysis may be
        stale; the changed document's is wanted at once. `typed`: by an edit (an open is none: the
        first change after it is the first after a pause, not one of a burst)."""
        self.generation += 1
        if uri is None or uri != self.last_change[1]:
            self.other_change_generation = self.last_change[0]
        self.last_change = (self.generation, uri)
        for helper in self.helpers:  # a change of any file may change what the helpers' callers lend
            self._lend_later(helper)
        if self.helpers:
            self._start()
        if uri is not None and self.server.is_python(uri):
            now = time.monotonic()
            last = self.last_typed.get(uri)
            after_a_pause = last is None or now - last >= PAUSE_SECONDS
            self._others_later(uri, after_a_pause)
            if typed:
                self.last_typed[uri] = now
            done = self.done.get(uri)
            if done is not None and done.seconds > PAUSED_AFTER_SECONDS:  # a newer change puts it off again
                first = after_a_pause and done.hints_seconds < AT_ONCE_UNDER_SECONDS
                self.due[uri] = now + (FIRST_PAUSE_SECONDS if first else PAUSE_SECONDS)
                (self.first_pause.add if first else self.first_pause.discard)(uri)
            self.want(uri)

    def files_changed(self) -> None:
        """Files that are not open changed on disk (watched_files.py): every open document may read
        them. Each is analysed again once the file events pause for `DISK_PAUSE_SECONDS` (a branch
        switch comes in several notifications: one analysis per document for all of them); meanwhile
        no answer is moved from its last analysis, which may show what the files said before
        (foreign_generation). Those that read nothing that changed cost only the check of their
        reads (the early cutoff); the editor is told to ask again for those whose answers changed
        (_refresh_if_changed_elsewhere)."""
        self.changed()
        due = time.monotonic() + DISK_PAUSE_SECONDS
        for uri in list(self.server.documents):
            if uri in self.done and self.server.is_python(uri):
                self.due[uri] = max(self.due.get(uri, 0.0), due)
                self.wanted[uri] = None
        self._start()

    def typed_within(self, seconds: float) -> bool:
        """Was any document edited in the last `seconds`?"""
        return any(time.monotonic() - when < seconds for when in self.last_typed.values())

    def _others_later(self, uri: str, first: bool = False) -> None:
        """The other open documents, analysed again once the typing pauses, after `uri`: an import
        may have changed what they show, and an editor asks again for a document it does not edit only
        when told to (the refresh in `_finished`). The early cutoff makes it cheap when nothing they
        read changed. After the `first` change following a pause they wait as the changed document
        does, `FIRST_PAUSE_SECONDS` (a kernel's `pl.Out` made `pl.InOut` is one edit: its callers' new
        hints were 100 ms later for nothing), which a whole answer asked for them ends, as for it."""
        due = time.monotonic() + (FIRST_PAUSE_SECONDS if first else PAUSE_SECONDS)
        for other in list(self.server.documents):
            if other != uri and other in self.done and self.server.is_python(other):
                if self.due.get(other, 0.0) <= due:  # (else it waits longer already: it is typed in itself)
                    self.due[other] = due
                    (self.first_pause.add if first else self.first_pause.discard)(other)  # (as the changed one)
                self.wanted[other] = None  # (last: the documents being typed in and asked about go first)

    def _lend_later(self, helper: str) -> None:
        self.lending[helper] = Lending(time.monotonic() + LENDING_DELAY_SECONDS)  # a newer change starts it again

    async def _open_callers_lent(self, helper: str, text, hints: bool = False) -> bool:
        """For a whole answer of a helper: have its open callers' analyses of their newest texts lent it
        what they expand, and has the helper borrowed that? If not, one step towards it (the caller's
        analyses wanted, or the helper's borrowing again) and False. Callers only on disk are not
        waited for: they lend in the background, and a refresh follows."""
        state = (self.generation, text.version)
        if self.borrowed_after_open_callers.get(helper) == state:
            return True
        loop = asyncio.get_running_loop()
        callers = await loop.run_in_executor(self.worker, self._callers, helper, True)
        if (self.generation, self.server.documents.get(helper)) != (state[0], text):
            return False  # a change meanwhile: ask again
        open_callers = self._open_others(helper, callers)
        if not open_callers:  # its analysis borrowed what the store has: no open caller is to lend more
            self.borrowed_after_open_callers[helper] = state
            return True
        stale = [c for c in open_callers if self.fresh(c, hints=True) is None]
        if stale:
            for caller in reversed(stale):
                self.want(caller)
            await self._next_done(0.5)
            return False
        analysis = await loop.run_in_executor(self.worker, self._analysis, helper, hints)
        if (self.generation, self.server.documents.get(helper)) == (state[0], text):
            self._lent(helper, text, state[0], analysis)
            self.borrowed_after_open_callers[helper] = state
        return False  # (the next look finds it done, unless a change came meanwhile)

    def forget(self, uri: str) -> None:
        self.helpers.discard(uri)
        self.lending.pop(uri, None)
        self.borrowed_after_open_callers.pop(uri, None)
        self.due.pop(uri, None)
        self.first_pause.discard(uri)
        self.last_typed.pop(uri, None)
        self.done.pop(uri, None)
        self.whole.pop(uri, None)
        self.answered.pop(uri, None)
        self.moved_version.pop(uri, None)
        self.wanted.pop(uri, None)

    # -- answers ---------------------------------------------------------------------------------
    def fresh(self, uri: str, hints: bool = False) -> Optional[Done]:
        """The analysis of the newest text in the current state, if it is done (`hints`: as far as what
        hints show, at least)."""
        text = self.server.documents.get(uri)
        done = self.done.get(uri)
        if text is None or done is None or done.version != text.version or done.generation != self.generation \
                or not (hints or done.complete):
            return None
        return done

    async def ask(self, uri: str, moved_after: Optional[float] = None, lines: Optional[tuple[int, int]] = None,
                  hints: bool = False):
        """(text, analysis) for the newest text; see the module's docstring for `moved_after`. `hints`:
        the analysis may be one made as far as what hints show."""
        if not hints:
            return await self._ask(uri, moved_after, lines, hints)
        self.asking[uri] = self.asking.get(uri, 0) + 1
        try:
            return await self._ask(uri, moved_after, lines, hints)
        finally:
            self.asking[uri] -= 1
            if not self.asking[uri]:
                del self.asking[uri]

    async def _ask(self, uri: str, moved_after: Optional[float], lines: Optional[tuple[int, int]], hints: bool):
        started = time.monotonic()
        while True:
            text = self.server.documents.get(uri)
            if text is None or not self.server.is_python(uri):
                return text, None
            done = self.fresh(uri, hints)
            if done is not None:
                if moved_after is not None or uri not in self.helpers:
                    return text, done.analysis
                if await self._open_callers_lent(uri, text, hints):  # a whole answer for a helper
                    return text, self.done[uri].analysis
                continue
            movable = moved_after is not None and self._can_move(uri, hints)
            if moved_after is not None and not movable:
                self.due.pop(uri, None)  # a viewport that cannot be moved (a header edit) does not wait for a pause
            if moved_after is None and uri in self.first_pause:
                # a whole answer ends the first pause: that pause only gathers the changes an editor sends
                # together, and they all came before this request (LSP keeps their order)
                self.first_pause.discard(uri)
                self.due.pop(uri, None)
            self.want(uri)
            wait = None
            if movable:
                # once one request of this version was answered moved, the others need not wait again;
                # nor does one whose document's last analysis took longer than the wait (a big program:
                # waiting would only delay the same moved answer)
                waited = self.moved_version.get(uri) == text.version or self.done[uri].seconds > MOVED_AFTER_SECONDS
                wait = 0 if waited else moved_after - (time.monotonic() - started)
                if wait <= 0:
                    return text, self._moved(uri, text, lines, hints)
            await self._next_done(wait)

    def foreign_generation(self, uri: str) -> int:
        """The newest generation that a change of something other than `uri` made."""
        generation, changed = self.last_change
        return generation if changed is None or changed != uri else self.other_change_generation

    def _can_move(self, uri: str, hints: bool = False) -> bool:
        # (a hover asks for operators and hazards too: it is moved from the last complete analysis)
        done = self.done.get(uri) if hints else self.whole.get(uri)
        text = self.server.documents.get(uri)
        if done is None or done.analysis is None or text is None or not self.server.can_refresh_hints():
            return False
        if self.foreign_generation(uri) > done.generation:
            return False  # another document changed since: the new meaning waits for the analysis
        edits = text.edits_since(done.version)
        return edits is not None and not _touches_a_signature(edits, text)

    def _moved(self, uri: str, text, lines: Optional[tuple[int, int]], hints: bool = False) -> Optional[DocumentAnalysis]:
        done = self.done[uri] if hints else self.whole[uri]
        self.moved_version[uri] = text.version
        edits = text.edits_since(done.version)
        first, last = lines if lines is not None else (0, None)
        result = moved(done.analysis, edits, first, last) if edits else done.analysis
        window = (first, last if last is not None else 1 << 30)
        answered = self.answered.setdefault(uri, Answered())
        answered.windows = answered.windows[-20:] + [(window, _shown(result, window))]
        return result

    async def settled(self) -> None:
        """Returns when no analysis is wanted or running and no lending is pending (pyptoLens/settled)."""
        while self.active or self.wanted or self.lending:
            await self._next_done(0.5)  # (woken by every analysis done; the timeout re-checks a debounce)

    async def _next_done(self, timeout: Optional[float]) -> None:
        if self.changed_event is None:
            self.changed_event = asyncio.Event()
        event = self.changed_event
        try:
            if timeout is None:
                await event.wait()
            else:
                await asyncio.wait_for(event.wait(), timeout)
        except asyncio.TimeoutError:
            pass

    # -- the worker -------------------------------------------------------------------------------
    async def warm(self) -> None:
        """At start-up: the registry and the worker's parser, made before a document asks for them."""
        try:
            await asyncio.get_running_loop().run_in_executor(self.worker, self.server.lens.warm)
        except Exception:
            log.error("warming up failed (the first analysis does it):\n%s", traceback.format_exc())

    def want(self, uri: str) -> None:
        """Analyse `uri` next (what was asked for or edited last goes first)."""
        self.wanted[uri] = None
        self.wanted.move_to_end(uri, last=False)
        self._end_lending_wait()
        self._start()

    def _end_lending_wait(self) -> None:
        """The lending's debounce wait under way, if any, ends now (its due time is looked at again)."""
        event, self.wanted_event = self.wanted_event, None
        if event is not None:
            event.set()

    def _start(self) -> None:
        if not self.active:
            self.active = True
            asyncio.ensure_future(self._run())

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while self.wanted or self.lending:
                if not self.wanted:
                    await self._lend_step(loop)
                    continue
                uri = self._next_wanted()
                if uri is None:
                    await self._pause()
                    continue
                del self.wanted[uri]
                if self.fresh(uri) is not None or self.server.documents.get(uri) is None:
                    continue
                generation = self.generation
                self.running = uri
                try:
                    before = self.done.get(uri)
                    paused = before is not None and before.hints_seconds < AT_ONCE_UNDER_SECONDS  # (an edit's)
                    with _collector_paused(paused):
                        version, analysis, seconds, helper = await loop.run_in_executor(self.worker, self._analyse, uri)
                        # (what the whole analysis costs, for the pauses in typing: the last one's when only the hints are made)
                        whole = seconds if analysis is None or analysis.complete or before is None else \
                            max(seconds, before.seconds)
                        hints = seconds
                        if analysis is not None and analysis.reused and before is not None:
                            whole = max(whole, before.seconds)  # (no chain ran: the next edit's will, as the last one did)
                            hints = max(hints, before.hints_seconds)
                        self._finished(uri, Done(version, generation, analysis, whole, hints))
                        if paused:
                            await self._hints_answered(uri)
                    # what the analysis replaced is freed now, off the answer's path (workspace.release_replaced)
                    self.server.lens.release_replaced()
                    if helper and self.fresh(uri, hints=True) is not None:
                        await self._alone(loop, uri)
                    if analysis is not None and not analysis.complete and self.fresh(uri, hints=True) is not None:
                        # its hints are out: the rest of it (task graph, hazards, misuse) at once, if its
                        # text is still the newest (a request waiting for the whole of it wants it again);
                        # it gives way to any change meanwhile (typing right after a file opened)
                        made = await loop.run_in_executor(self.worker, self._rest, uri, generation)
                        if made is not None:
                            version, analysis, more = made
                            self._finished(uri, Done(version, generation, analysis, seconds + more, hints))
                finally:
                    self.running = None
                if helper and uri not in self.helpers:
                    self.helpers.add(uri)
                    self._lend_later(uri)
        finally:
            self.active = False
            self.server.lens.release_replaced()  # (what the background lending replaced, once idle)
            self._wake()

    async def _hints_answered(self, uri: str) -> None:
        """Returns when the requests for `uri`'s hints that were waiting have been answered (their answers
        are written when their tasks end, a turn of the loop later), or after ANSWERS_SECONDS."""
        deadline = time.monotonic() + ANSWERS_SECONDS
        while self.asking.get(uri) and time.monotonic() < deadline:
            await asyncio.sleep(0.001)
        await asyncio.sleep(0)

    async def _alone(self, loop, helper: str) -> None:
        """A helper just analysed with no other open document calling it: its analysis borrowed what the
        store has, and no open caller is to lend it more, so its whole answers need not wait (for the
        rest of its analysis, which the worker makes next, to list its callers): `_open_callers_lent`."""
        state = (self.generation, self.server.documents.get(helper))
        callers = await loop.run_in_executor(self.worker, self._callers, helper, True)
        if (self.generation, self.server.documents.get(helper)) == state and not self._open_others(helper, callers):
            self.borrowed_after_open_callers[helper] = (state[0], state[1].version)
            self._wake()

    def _open_others(self, helper: str, callers: list) -> list:
        """The callers of a helper that are other documents the editor has open."""
        return [c for c in callers if c != helper and self.server.documents.get(c) is not None]

    def _rest(self, uri: str, generation: int):
        """On the worker thread: the rest of the document's analysis made hints first, unless a change
        comes meanwhile (then None: what it did not finish is made again when the whole is asked)."""
        started = time.perf_counter()
        try:
            with preemptible(lambda: self.generation != generation):  # (an int read on this thread)
                analysis = self.server.lens.analysis(uri)
        except Preempted:
            return None
        except Exception:
            log.error("analysis of %s failed:\n%s", uri, traceback.format_exc())
            return None
        if analysis is None:
            return None
        analysis.calls_between(0, 0)
        give_back_free_pages()
        return analysis.version, analysis, time.perf_counter() - started

    def _next_wanted(self) -> Optional[str]:
        """The most wanted document whose analysis may start now (None: all wait for a pause in typing)."""
        now = time.monotonic()
        for uri in self.wanted:
            if self.due.get(uri, 0.0) <= now:
                self.due.pop(uri, None)
                self.first_pause.discard(uri)
                return uri
        return None

    async def _pause(self) -> None:
        """Wait for the first pause due, or for a document wanted meanwhile."""
        await self._until_wanted(min(self.due.get(uri, 0.0) for uri in self.wanted) - time.monotonic())

    async def _until_wanted(self, seconds: float) -> None:
        """Wait that long, or until a document is wanted (want() ends the wait)."""
        if self.wanted_event is None:
            self.wanted_event = asyncio.Event()
        try:
            await asyncio.wait_for(self.wanted_event.wait(), max(seconds, 0.0))
        except asyncio.TimeoutError:
            pass

    def _analyse(self, uri: str, hints_only: bool = True):
        """On the worker thread: the analysis of the text the document has now (`hints_only`: as far as
        what hints show; the rest is made by the same call without it)."""
        started = time.perf_counter()
        snapshot = self.server.documents.snapshot(uri)
        helper = False
        # the process's first analysis runs with the collector off and freezes what it built, its
        # index by line included (gc_policy.first_analysis). Once: a freeze makes every object alive
        # then immortal, so one per document (again at each reopen) kept every cycle left over by the
        # analyses before it for good (issue 13)
        policy = nullcontext() if self.frozen else first_analysis()
        self.frozen = True
        with policy:
            try:
                analysis = self.server.lens.analysis(uri, hints_only)
                helper = analysis is not None and self.server.lens.borrows(uri)
            except Exception:
                log.error("analysis of %s failed:\n%s", uri, traceback.format_exc())
                analysis = None
            if analysis is not None:
                analysis.calls_between(0, 0)  # its index by line is built here, off the event loop (20 ms at 50,000 lines)
        version = analysis.version if analysis is not None else snapshot.version if snapshot else None
        give_back_free_pages()  # what this analysis and the edits before it freed (memory.py)
        return version, analysis, time.perf_counter() - started, helper

    # -- the background lending to open helpers (helper_callers.py) ---------------------------------------
    async def _lend_step(self, loop) -> None:
        """One step of the lending due first: list the helper's callers, lend one, or (none left) answer anew."""
        now = time.monotonic()
        uri, job = min(self.lending.items(), key=lambda kv: kv[1].due)
        if job.due > now:  # debounced: wait, unless a document is wanted meanwhile
            await self._until_wanted(job.due - now)
            return
        if self.server.documents.get(uri) is None:
            self.lending.pop(uri, None)
            return
        if job.callers is None:
            job.callers = await loop.run_in_executor(self.worker, self._callers, uri)
        elif job.callers:
            caller = job.callers.pop(0)
            if not await loop.run_in_executor(self.worker, self._lend, caller):
                job.callers.insert(0, caller)  # it gave way to a document wanted meanwhile: again later
        else:
            generation, text = self.generation, self.server.documents.get(uri)
            analysis = await loop.run_in_executor(self.worker, self._analysis, uri)
            if self.lending.get(uri) is job:
                del self.lending[uri]
            self._lent(uri, text, generation, analysis)

    def _callers(self, uri: str, open_only: bool = False) -> list:
        try:
            return self.server.lens.callers(uri, open_only)
        except Exception:
            log.error("the callers of %s:\n%s", uri, traceback.format_exc())
            return []

    def _lend(self, caller: str) -> bool:
        """Lend what `caller` lends; False when its analysis gave way to a document wanted meanwhile
        (a keystroke after the pause does not wait for a whole caller's analysis: preempt.py)."""
        try:
            with preemptible(lambda: bool(self.wanted)):  # (read on this thread: a dict's truth is atomic)
                self.server.lens.lend(caller)
        except Preempted:
            return False
        except Exception:
            log.error("analysis of %s (lending to a helper) failed:\n%s", caller, traceback.format_exc())
        return True

    def _analysis(self, uri: str, hints_only: bool = False) -> Optional[DocumentAnalysis]:
        try:
            analysis = self.server.lens.analysis(uri, hints_only)
        except Exception:
            log.error("analysis of %s failed:\n%s", uri, traceback.format_exc())
            return None
        if analysis is not None:
            analysis.calls_between(0, 0)
        return analysis

    def _lent(self, uri: str, text, generation: int, analysis: Optional[DocumentAnalysis]) -> None:
        """The helper's analysis with what its callers lend now: its views are refreshed if that changed."""
        done = self.done.get(uri)
        if analysis is None or done is None or borrowed(done.analysis) == borrowed(analysis):
            self._wake()  # (whole answers wait for the lending's end)
            return
        if text is self.server.documents.get(uri) and analysis.version == text.version and \
                done.version == text.version and done.generation == generation == self.generation:
            self.done[uri] = Done(done.version, done.generation, analysis, done.seconds, done.hints_seconds)
        # (else a newer change came meanwhile: its analysis, once asked, borrows what the store has)
        self.answered.pop(uri, None)
        self.server.refresh_hints()
        self.server.refresh_code_lenses()
        self._wake()

    def _finished(self, uri: str, done: Done) -> None:
        text = self.server.documents.get(uri)
        if text is not None:
            before = self.done.get(uri)
            whole_before = self.whole.get(uri)
            self.done[uri] = done
            if done.complete:
                self.whole[uri] = done
            whole = self.whole.get(uri)  # (the edits since it are kept too: a hover is moved from it)
            text.forget_before(done.version if whole is None or whole.version is None or done.version is None
                               else min(done.version, whole.version))
            self.timings = (self.timings + [done.seconds])[-50:]
            if done.generation == self.generation and done.version == text.version:
                self._maybe_refresh(uri, done)
                if before is not None and before.version == done.version:
                    self._refresh_if_changed_elsewhere(before, done)
                if done.complete and whole_before is not None and whole_before.version == done.version:
                    self._diagnostics_changed_elsewhere(uri, whole_before, done)
        self._wake()

    def _refresh_if_changed_elsewhere(self, before: Done, done: Done) -> None:
        """The same text analysed again after another document (or the registry) changed: if what its
        hints or signatures show changed, the editor is told (issue 20: kernels.py's `pl.Out` made
        `pl.InOut`, main.py open beside it). It asks again for what it shows, which is fresh now."""
        if before.analysis is None or done.analysis is None or before.analysis is done.analysis:
            return
        whole = (0, 1 << 30)
        if _shown(before.analysis, whole) != _shown(done.analysis, whole):
            self.server.refresh_hints()
            self.server.refresh_code_lenses()

    def _diagnostics_changed_elsewhere(self, uri: str, before: Done, done: Done) -> None:
        """The same text's whole analysis again after another change: a client that pulls diagnostics asks
        again for those of the documents it edits; for one whose import changed on disk it is told to."""
        if before.analysis is None or done.analysis is None or before.analysis is done.analysis:
            return
        if _diagnosed(before.analysis) != _diagnosed(done.analysis):
            self.server.diagnostics.changed_elsewhere(uri)
            self.server.refresh_code_lenses()  # (the task graphs' counts, with their hazards)

    def _wake(self) -> None:
        event, self.changed_event = self.changed_event, None
        if event is not None:
            event.set()

    def _maybe_refresh(self, uri: str, done: Done) -> None:
        answered = self.answered.pop(uri, None)
        if answered is None or done.analysis is None:
            return
        if any(_shown(done.analysis, window) != shown for window, shown in answered.windows):
            self.server.refresh_hints()


@contextmanager
def _collector_paused(paused: bool):
    """The cycle collector off while an edit's hints are made and answered (see the module)."""
    if not paused or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _shown(analysis: Optional[DocumentAnalysis], window: tuple[int, int]) -> tuple:
    """What the hints of lines [first, last] show, to compare two answers."""
    if analysis is None:
        return ()
    first, last = window
    hints = tuple(sorted((h.line, h.col, h.direction.value, h.param, h.arg, h.index, h.copies, site.scope)
                         for site in analysis.calls_between(first, last) for h in site.hints
                         if first <= h.line <= last))
    signatures = tuple(sorted((s.line, s.col, s.function, s.param, s.declared, s.effective)
                              for s in analysis.signatures if first <= s.line <= last))
    return hints, signatures


def _diagnosed(analysis: DocumentAnalysis) -> tuple:
    """What an analysis's diagnostics say, to compare two answers."""
    return tuple((d.code, d.severity, d.message, d.range) for d in
                 list(analysis.diagnostics) + list(analysis.optional_diagnostics))


def _touches_a_signature(edits, text) -> bool:
    """Does an edit since the last analysis touch a line of a function's header (in the newest
    text: each edit's lines moved through the edits after it)? An edit there (`pl.Out[` made
    `pl.InOut[`, a parameter added) changes the directions of calls elsewhere, which a moved answer
    would show stale until the refresh; such an edit waits for its analysis instead."""
    by_line = edits_by_line(edits)
    if by_line is not None:  # (typing within lines: each edit's line keeps its number)
        return any(in_a_function_header(text.line, n) for n in by_line)
    return _touches_a_signature_edit_by_edit(edits, text)


def _touches_a_signature_edit_by_edit(edits, text) -> bool:
    """_touches_a_signature for any edits: each edit's lines moved through the edits after it."""
    for i, edit in enumerate(edits):
        at = move(edits[i + 1:], edit.line, 0) if i + 1 < len(edits) else (edit.line, 0)
        first = at[0] if at is not None else edit.line
        for n in range(first, first + edit.lines + 1):
            if in_a_function_header(text.line, n):
                return True
    return False
