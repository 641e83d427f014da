"""The content-keyed caches every document of a workspace shares, and the cached parse of a unit.

Keyed by content, not by line numbers or object ids: a unit's parse by its code, a long
function's statements by their text and line, a function's lowering by its unit's code and the
module context, a program's chain by its functions' lowerings (their digests) and what it reads of
other programs and files (their effective signatures), a program's placed results by all that and
its offsets.

Bounded in size, not in entries (issue 13). What the last analysis of a document used is held for
that document (until it is analysed again, or forgotten when it closes): memory follows the
documents' current texts. What no current analysis uses (past versions: the edits typed and
undone) is kept while it weighs, in characters of the source it was made from, at most a tenth
of what the cache holds for current analyses (SPARE_SHARE), and never less than the cache's
`spare` floor nor more than its `spare` ceiling; the least recently used goes first. So memory
after hours of editing stays within about a tenth of what the open documents need. Characters are the proxy for bytes:
a parse, a lowering or a program result grows with the text it comes from (about 20, 10 and 60
bytes a character on PyPTO's models).
"""
from __future__ import annotations

from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Callable, Optional

from ..syntax import chunker
from ..syntax import pieces
from ..syntax.parser import SyntaxProblem
from ..syntax.recovery import parse_recovering


@dataclass
class ParsedUnit:
    stmts: list
    problem: Optional[SyntaxProblem]
    contributions: dict = field(default_factory=dict, compare=False)  # context key -> unit_contribution


_MISSING = object()


SPARE_SHARE = 0.1  # the spare values weigh at most this share of the held ones (within floor and ceiling)


class ContentCache:
    """Values by content key: those some document's current analysis uses are held, the others are
    spare, in all at most SPARE_SHARE of the held weight in characters of source, within
    [floor, spare] (the least recently used go first)."""

    def __init__(self, spare: int, floor: int = 5_000):
        self.spare_bound = spare
        self.spare_floor = floor
        self.values: dict = {}
        self.weights: dict = {}
        self.total_weight = 0  # of every value, held or spare
        self.holders: dict = {}  # key -> how many documents' current analyses use it
        self.spare: OrderedDict = OrderedDict()  # keys no document holds, least recently used first
        self.spare_weight = 0
        self.recording: Optional[dict] = None  # key -> value: what the analysis running now uses

    def __len__(self) -> int:
        return len(self.values)

    def get_or(self, key, make: Callable[[], object], weight: int):
        value = self.values.get(key, _MISSING)
        if value is _MISSING:
            value = make()
            self.values[key] = value
            self.weights[key] = max(1, weight)
            self.total_weight += self.weights[key]
            if self.recording is None:
                self._to_spare(key)
            # (else the analysis running now uses it: it is held when that is done, Caches.analysing)
        elif key in self.spare:
            self._unspare(key)
        if self.recording is not None:
            self.recording[key] = value
        return value

    def get(self, key, default=None):
        """The value if cached (recorded as used, like get_or), else `default`."""
        value = self.values.get(key, _MISSING)
        if value is _MISSING:
            return default
        if key in self.spare:
            self._unspare(key)
        if self.recording is not None:
            self.recording[key] = value
        return value

    def peek(self, key, default=None):
        """The value if cached, not recorded as used: a look whose value may not be used (get() it
        when it is), lest the analysis running now hold what it only looked at."""
        return self.values.get(key, default)

    def put(self, key, value, weight: int) -> None:
        """Set (or replace) a value."""
        if key in self.values:
            self.values[key] = value
            if self.recording is not None:
                self.recording[key] = value
        else:
            self.get_or(key, lambda: value, weight)

    def hold(self, used: dict) -> None:
        for key, value in used.items():
            if key not in self.values:  # (spared and dropped while the analysis ran: it is in use)
                self.values[key] = value
                if key not in self.weights:
                    self.weights[key] = 1
                    self.total_weight += 1
            elif key in self.spare:
                del self.spare[key]
                self.spare_weight -= self.weights[key]
            self.holders[key] = self.holders.get(key, 0) + 1

    def release(self, used: dict) -> None:
        for key in used:
            count = self.holders.get(key, 0) - 1
            if count > 0:
                self.holders[key] = count
            elif key in self.values:
                self.holders.pop(key, None)
                self._to_spare(key)

    def _unspare(self, key) -> None:
        """A spare value asked for again: the analysis running now holds it (so that no trim drops it
        under that analysis, to come back weighing nothing), else it is the most recently used."""
        if self.recording is None:
            self.spare.move_to_end(key)
        else:
            del self.spare[key]
            self.spare_weight -= self.weights[key]

    def spare_unheld(self, keys) -> None:
        """The keys no document holds (made by an analysis of no document) become spare."""
        for key in keys:
            if key in self.values and key not in self.spare and not self.holders.get(key):
                self._to_spare(key)

    def _to_spare(self, key) -> None:
        self.spare[key] = None
        self.spare_weight += self.weights[key]
        self._trim()

    def _trim(self) -> None:
        held = self.total_weight - self.spare_weight
        bound = min(self.spare_bound, max(self.spare_floor, int(SPARE_SHARE * held)))
        while self.spare_weight > bound and self.spare:
            old, _ = self.spare.popitem(last=False)
            weight = self.weights.pop(old)
            self.spare_weight -= weight
            self.total_weight -= weight
            del self.values[old]

    def clear(self) -> None:
        self.__init__(self.spare_bound, self.spare_floor)

    def weight(self) -> int:
        """The characters of source behind every value held or spare."""
        return self.total_weight


class Caches:
    """Content-keyed caches shared by every document of a workspace (bounds: see the module)."""

    def __init__(self) -> None:
        self.parses = ContentCache(spare=100_000)  # (kind, code) -> ParsedUnit
        self.statements = ContentCache(spare=50_000)  # pieces.parse_by_statements: (text, line) -> parse
        self.lowered = ContentCache(spare=100_000)  # a function's lowering key -> ir.Function
        self.programs = ContentCache(spare=50_000)  # a program's functions and externals -> ProgramResult
        self.placed = ContentCache(spare=50_000)  # ... and its offsets -> its results in the document
        self.module_copies = ContentCache(spare=50_000)  # a module function as another program sees it
        # an outlined scope's body, up to its variables -> its answers (weighed in the key's tokens, a few
        # per character of source); a program's cached result holds the scopes it was made with
        self.scopes = ContentCache(spare=50_000)
        self.splitters: dict = {}  # uri -> the chunker.Splitter of that document
        # (document, program kind, name, parent) -> (the programs key of its last result made whole, and for
        # each function the lowering key of the last analysis and how the result's lines moved to it, or None):
        # what an edit that means nothing new reuses (document._moved, moved_lines.py)
        self.origins: dict = {}
        # origin name -> (chain key, the shapes of the externals it read, its pipeline.Normalised): the
        # document's last chain as N1 and the types left it, which a signature edit elsewhere leaves the same
        self.normalised: dict = {}
        # origin name -> pipeline.expansion_memo.ProgramMemos: what the last N1 made of each statement of
        # the document's functions, and the keys of its outlined scopes, for the next (documents open in
        # an editor)
        self.expansions: dict = {}
        self._held: dict[str, dict] = {}  # uri -> {cache name: what its current analysis uses}

    def all(self) -> dict[str, ContentCache]:
        return {name: getattr(self, name) for name in ("parses", "statements", "lowered", "programs", "placed",
                                                       "module_copies", "scopes")}

    def splitter(self, uri: str) -> chunker.Splitter:
        if uri not in self.splitters:
            self.splitters[uri] = chunker.Splitter()
        return self.splitters[uri]

    @contextmanager
    def analysing(self, uri: Optional[str], adding: bool = False):
        """While a document is analysed, what it uses of each cache is recorded; afterwards that is
        what the document holds (instead of what its previous analysis used; `adding`: besides it, for
        the rest of an analysis made hints first). Analyses nest (a document analyses what it
        imports): each records its own."""
        caches = self.all()
        saved = [cache.recording for cache in caches.values()]
        used = {name: {} for name in caches}
        for name, cache in caches.items():
            cache.recording = used[name]
        try:
            yield
        finally:
            for cache, recording in zip(caches.values(), saved):
                cache.recording = recording
            if uri is None:  # no document holds what it made: spare at once
                for name, cache in caches.items():
                    cache.spare_unheld(used[name])
            else:
                # only the difference changes hands (a keystroke changes a few of a file's keys): what
                # both analyses use stayed held by the old one all along
                before = self._held.get(uri) or {name: {} for name in caches}
                for name, cache in caches.items():
                    old, new = before[name], used[name]
                    cache.hold({key: value for key, value in new.items() if key not in old})
                    if adding:
                        used[name] = {**old, **new}
                    else:
                        cache.release([key for key in old if key not in new])
                self._held[uri] = used

    def forget(self, uri: str) -> None:
        """The document's analysis is gone (closed, or replaced): what only it used becomes spare."""
        for made_from in [k for k in self.origins if k[0] == uri]:
            del self.origins[made_from]
        for made_from in [k for k in self.normalised if k[0] == uri]:
            del self.normalised[made_from]
        for made_from in [k for k in self.expansions if k[0] == uri]:
            del self.expansions[made_from]
        old = self._held.pop(uri, None)
        if old is not None:
            for name, cache in self.all().items():
                cache.release(old[name])


def parse(caches: Caches, unit: chunker.Unit, by_statements: bool = True) -> ParsedUnit:
    """A unit's statements and its first syntax problem, parsed once per (kind, code): its text
    without comments and trailing blanks (chunker.code_text), so a comment typed changes nothing.
    A long function is parsed statement by statement (`by_statements`), each statement cached, so
    that a keystroke in it parses one statement again. That costs 12% more than one parse of the
    whole (pypto-lib's deepseek_v4_flash_mtp), which a file only imported, not typed in, need not
    pay: the result is the same (pieces.py)."""
    def run() -> ParsedUnit:
        text = unit.code
        if unit.kind == "class":
            text += "\n" + " " * 4 + "pass"  # a class header alone has no body
        if by_statements and unit.end - unit.start >= pieces.MIN_LINES:  # a long function: statement by statement
            stmts, problem = parse_recovering(text, lambda t: pieces.parse_by_statements(t, _Statements(caches)))
        else:
            stmts, problem = parse_recovering(text)
        return ParsedUnit(stmts, problem)
    return caches.parses.get_or((unit.kind, unit.code), run, len(unit.code))


class _Statements:
    """The statements cache as the mapping pieces.parse_by_statements expects."""

    def __init__(self, caches: Caches):
        self.cache = caches.statements

    def get(self, key):
        return self.cache.get(key)

    def __setitem__(self, key, value) -> None:
        self.cache.put(key, value, len(key[0]))
