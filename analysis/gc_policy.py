"""How often the interpreter collects garbage while it analyses (the server and the command line).

An analysis allocates hundreds of thousands of small objects, most of which live as long as the
analysis, and hardly any cycles (tests/test_reference_cycles.py): with the default thresholds
(700, 10, 10) the collector ran hundreds of times per analysis and walked them again each time.
`pypto-lens check --jobs 1` over pypto-lib's models: 28 -> 18 s, the same output and peak memory.
(200,000, 50, 100) was 1 s faster there and 3% on an edit, but a long session kept more memory:
`make soak` grew 1.11x, over its 1.1x.
"""
from __future__ import annotations

import gc
from contextlib import contextmanager

THRESHOLDS = (50_000, 20, 50)


def collect_less_often() -> None:
    gc.set_threshold(*THRESHOLDS)


@contextmanager
def first_analysis():
    """The process's first analysis with the collector off, and everything alive after it frozen
    (gc.freeze: out of every later collection). That analysis builds what lives as long as the
    process (the registry's tables, the first document's results); its young collections walked
    those objects only to keep them (10 of them, 53 ms of prefill_cp_fwd_draft.py's 1.2 s cold
    open), and a full one later would walk them all again (400 ms at genpl 50000). Freezing costs
    nothing, and no collection is left to run after the answer. What it keeps for good is the
    garbage in cycles that analysis left: `ast.literal_eval`'s closures, 1,969 objects there."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if was_enabled:
            gc.enable()
