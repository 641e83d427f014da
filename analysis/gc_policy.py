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

THRESHOLDS = (50_000, 20, 50)


def collect_less_often() -> None:
    gc.set_threshold(*THRESHOLDS)
