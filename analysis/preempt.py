"""An analysis that gives way: the server's background lending to an open inline helper (issue 20).

Lending analyses a helper's callers, one file at a time, on the one worker thread, when typing
pauses. A keystroke after the pause then waited for the whole of that file's analysis (1-3 s for
the callers of deepseek_v4_flash_mtp's prefill_cp_csa.py), as lspedit saw whenever an edit took long
enough that the next came after the lending's delay. Inside `preemptible(wanted)`, the analysis
asks `check()` between its steps (a program's stages, a helper's expansions) and stops with
`Preempted` once `wanted()` is true; what it finished is in the content caches, what it did not is
made again by the next try. Outside it, `check()` does nothing: the documents' own analyses never
stop halfway.
"""
from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Callable, Iterator


class Preempted(Exception):
    """The analysis stopped because something else is wanted first."""


_local = threading.local()


@contextmanager
def preemptible(wanted: Callable[[], bool]) -> Iterator[None]:
    outer = getattr(_local, "wanted", None)
    _local.wanted = wanted
    try:
        yield
    finally:
        _local.wanted = outer


def check() -> None:
    wanted = getattr(_local, "wanted", None)
    if wanted is not None and wanted():
        raise Preempted()
