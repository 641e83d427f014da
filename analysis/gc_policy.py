"""How often the interpreter collects garbage while it analyses (the server and the command line).

An analysis allocates hundreds of thousands of small objects, most of which live as long as the
analysis, and hardly any cycles (tests/test_reference_cycles.py): with the default thresholds
(700, 10, 10) the collector ran hundreds of times per analysis and walked them again each time.
`pypto-lens check --jobs 1` over pypto-lib's models: 28 -> 17 s, the same output and peak memory;
an edit of prefill_cp_csa.py in process: 232 -> 225 ms against the server's former (50,000, 20, 50).
"""
from __future__ import annotations

import gc

THRESHOLDS = (200_000, 50, 100)


def collect_less_often() -> None:
    gc.set_threshold(*THRESHOLDS)
