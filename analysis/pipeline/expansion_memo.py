"""What N1 made of each statement of a function's own text, kept for the next analysis of that
function (issue 41: resume N1 from what an edit changed).

N1 (normalise.py) goes through the function's statements in order with one shared state, `_Pending`:
an expansion reads the argument expressions that earlier ones left there, the N4 temporaries just
before it, and how many expansions came before it (their serials); it writes renames, marks, phis,
temporaries, expressions and frames for the rest. A statement's output is a function of the
statement, of what it read of that state and of the program (which helper a call expands, the
callee's parameter names), so it is recorded with all of it:

- `reads` and `asked`: what it read from outside itself: the expressions state it looked up (and
  found or not), the helpers and parameter names the program answered for each call it asked about;
- `hoisted`: the N4 temporaries just before it, which an expansion reads (by identity);
- `writes`: what it wrote to the state, in order, the expansions it made among them, each with its
  arguments as made (the end of N1 renames them in place, `_Pending.finish`), given their serials
  again as they are replayed (what tells two expansions apart in a function: its count so far);
- `output`: the statements it added to its block.

A statement that reads an argument expression another statement left is not kept (N1 marks that
expression in place with the expansions it is copied into; lowering's N4 temporaries have one use,
so this is rare), nor one that expands nothing (made again as cheaply as it is found).

The next analysis finds a statement by identity (the lowering of an edited function is made of the
last one's objects wherever they are the same: ir/rebase.py) and, when every check and `hoisted` hold
again, replays the writes and takes the output as it was. Then the state after it is the state the
statement would leave, so the statements after it are found the same way: an edit's N1 remakes the
statements it changed and those whose reads it changed. Only the function's own statements are kept
(depth 0): a helper's copies are new objects at every expansion, made again only inside a statement
that is made again. Statements nested in the function's own blocks are kept too, and a block
remade around a kept statement records that statement's checks and writes as its own.
"""
from __future__ import annotations

from typing import Optional

from .scope_keys import KeyMemo


class ProgramMemos:
    """What a program's chain keeps for its next (per open document, caches.expansions): N1's of
    each function, by name, and its outlined scopes' keys (scope_keys.KeyMemo)."""

    def __init__(self) -> None:
        self.functions: dict = {}
        self.scope_keys = KeyMemo()


class ExpansionMemo:
    """The entries of one function, by the identity of its lowered statements. After each N1 only
    those used or made then are kept (the function's last lowering: what the next one is made of)."""

    def __init__(self) -> None:
        self.entries: dict = {}
        self.touched: dict = {}
        self.hits = self.made = 0  # (for tests and benchmarks: how much of the last N1 was kept)

    def start(self) -> None:
        self.touched, self.hits, self.made = {}, 0, 0

    def done(self) -> None:
        self.entries, self.touched = self.touched, {}


class Record:
    """One statement's N1 under way (or kept: an entry)."""

    __slots__ = ("stmt", "hoisted", "reads", "written", "asked", "writes", "output", "keep", "finished")

    def __init__(self, stmt, hoisted: Optional[tuple]):
        # (each container made when first needed: most statements read and write nothing, and a
        # big file keeps a record for each of its statements that does)
        self.stmt = stmt  # (held: the key is its identity)
        self.hoisted = hoisted  # ids of the N4 temporaries just before it, as an expansion reads them
        self.reads: Optional[dict] = None  # expression-state key read from outside -> what was there (None: nothing)
        self.written: Optional[set] = None  # expression-state keys it wrote (its own reads of them are no checks)
        self.asked: Optional[list] = None  # (question, call, answer): what the program answered for its calls
        self.writes: Optional[list] = None  # (what, key, value) in order; a frame's value: its arguments as made
        self.output: tuple = ()
        self.keep = True
        self.finished = None  # what the end of N1 made of the output (normalise._Renamed)

    @property
    def worth_keeping(self) -> bool:
        """Kept if it may be taken again, and taking it saves work: a statement that expands nothing
        (its output is itself, it wrote nothing: a kernel's call asked about is no helper) is made
        again as cheaply as it is found, and a big file has tens of thousands of them."""
        return self.keep and (self.writes is not None or self.reads is not None
                              or len(self.output) != 1 or self.output[0] is not self.stmt)


class Recorder:
    """The records under way, innermost last; every read and write of the state goes to all of them
    (an enclosing statement's record holds what its nested ones read and wrote)."""

    def __init__(self, memo: ExpansionMemo):
        self.memo = memo
        self.active: list[Record] = []

    def read(self, key, value) -> None:
        for record in self.active:
            if record.written is not None and key in record.written:
                continue
            if record.reads is None:
                record.reads = {}
            if key not in record.reads:
                record.reads[key] = value
                if value is not None:  # another statement's expression, which this one's copies mark
                    record.keep = False  # (in place, normalise._mark): not kept, as it may change

    def wrote(self, what: str, key, value) -> None:
        for record in self.active:
            if record.writes is None:
                record.writes = []
            record.writes.append((what, key, value))
            if what == "expression":
                if record.written is None:
                    record.written = set()
                record.written.add(key)

    def asked(self, question: str, call, answer) -> None:
        for record in self.active:
            if record.asked is None:
                record.asked = []
            record.asked.append((question, call, answer))


def helper_answer(found: Optional[tuple]) -> Optional[tuple]:
    """What an expansion reads of the helper a call expands (normalise.InlineLookup's answer): its
    parameters' names and variables, its body and whether it is a jit helper, by identity."""
    if found is None:
        return None
    params, body, jit = found
    return tuple((p.name, p.var) for p in params), body, jit


def same_helper(a: Optional[tuple], b: Optional[tuple]) -> bool:
    """Two `helper_answer`s: the same body and parameter variables (by identity), the same names."""
    if a is None or b is None:
        return a is b
    return a[1] is b[1] and a[2] == b[2] and len(a[0]) == len(b[0]) \
        and all(x[0] == y[0] and x[1] is y[1] for x, y in zip(a[0], b[0]))
