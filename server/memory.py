"""`pyptoLens/memory`, a custom request for soaks and for finding what grows: the server's resident
memory and, when Python traces allocations, the allocation sites that hold the most, or that grew
the most since a named mark.

Tracing is opt-in and costly: `{"trace": N}` starts it from then on (N frames per allocation; 10
shows who called the allocating line), `{"trace": 0}` stops it and forgets the marks. Python's own
`PYTHONTRACEMALLOC=N` traces from start-up too, but with more than one frame that start-up takes
minutes. Without tracing the answer says `"tracing": false` and has no sites.

Other params, all optional: `{"top": 25, "group": "lineno" | "filename" | "traceback", "collect":
true, "mark": "warm", "since": "warm"}`: `collect` runs the cycle collector first (so that two
figures compare live memory, not garbage waiting for its turn), `mark` keeps this answer's per-site
totals under a name, `since` orders the sites by their growth since that mark. The answer:
`{"rssKb", "collected", "tracing", "tracedKb", "tracedPeakKb", "sites": [{"site", "kb", "count",
"kbDiff", "countDiff"}]}` (a site is `file:line`; with "traceback", its frames innermost first,
`a < b`; `collected`, with `collect`: how many objects the collector found unreachable, garbage
that reference counting could not free), and `"holds"`: what the workspace keeps (Workspace.holdings: the
documents analysed, the files read only for their exports, the files read from disk and their characters).
"""
from __future__ import annotations

import ctypes
import ctypes.util
import gc
import sys
import tracemalloc
from pathlib import Path
from typing import Any, Optional

MEMORY = "pyptoLens/memory"
GROUPS = ("lineno", "filename", "traceback")
# what measuring allocates is not what the server holds
_IGNORED = (tracemalloc.Filter(False, tracemalloc.__file__), tracemalloc.Filter(False, __file__))

_marks: dict[str, dict[str, tuple[int, int]]] = {}  # name -> site -> (bytes, count), one entry per mark asked


def install(server) -> None:
    @server.feature(MEMORY)
    def memory(ls, params: Any) -> dict:
        answer = memory_answer(params if isinstance(params, dict) else _as_dict(params))
        answer["holds"] = ls.lens.holdings()  # (what the workspace keeps, per kind of file)
        return answer


def memory_answer(params: dict) -> dict:
    frames = params.get("trace")
    if isinstance(frames, int) and not isinstance(frames, bool):
        if frames > 0 and not tracemalloc.is_tracing():
            tracemalloc.start(min(frames, 100))
        elif frames <= 0 and tracemalloc.is_tracing():
            tracemalloc.stop()
            _marks.clear()
    collected = gc.collect() if params.get("collect") else None
    answer: dict[str, Any] = {"rssKb": resident_kb(), "tracing": tracemalloc.is_tracing()}
    if collected is not None:
        answer["collected"] = collected  # objects found only in reference cycles since the last collection
    if not answer["tracing"]:
        return answer
    current, peak = tracemalloc.get_traced_memory()
    answer.update(tracedKb=current // 1024, tracedPeakKb=peak // 1024)
    group = params.get("group") if params.get("group") in GROUPS else "lineno"
    sites = _sites(group)
    if isinstance(params.get("mark"), str):
        _marks[params["mark"]] = sites
    before = _marks.get(params["since"]) if isinstance(params.get("since"), str) else None
    rows = []
    for site in set(sites) | set(before or ()):
        size, count = sites.get(site, (0, 0))
        old_size, old_count = (before or {}).get(site, (0, 0))
        rows.append({"site": site, "kb": round(size / 1024, 1), "count": count,
                     "kbDiff": round((size - old_size) / 1024, 1), "countDiff": count - old_count})
    rows.sort(key=(lambda r: -r["kbDiff"]) if before is not None else (lambda r: -r["kb"]))
    top = params.get("top") if isinstance(params.get("top"), int) and params["top"] > 0 else 25
    answer["sites"] = rows[:top]
    return answer


def _sites(group: str) -> dict[str, tuple[int, int]]:
    snapshot = tracemalloc.take_snapshot().filter_traces(_IGNORED)
    sites: dict[str, tuple[int, int]] = {}
    for stat in snapshot.statistics(group):
        key = " < ".join(f"{_short(f.filename)}:{f.lineno}" for f in reversed(stat.traceback))
        if group == "filename":
            key = _short(stat.traceback[0].filename)
        size, count = sites.get(key, (0, 0))
        sites[key] = (size + stat.size, count + stat.count)
    return sites


def _short(filename: str) -> str:
    """The last parts of a path: enough to know the module, short enough to read."""
    return "/".join(Path(filename).parts[-3:])


def resident_kb() -> Optional[int]:
    """The process's resident memory now (Linux: /proc/self/status; elsewhere unknown)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return None


def _as_dict(params: Any) -> dict:
    """pygls hands a custom request's params over as a namedtuple (pygls.protocol._dict_to_object)."""
    as_dict = getattr(params, "_asdict", None)
    return dict(as_dict()) if callable(as_dict) else {}


def _libc():
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.malloc_trim  # (glibc's; musl has none)
        return libc
    except (OSError, AttributeError):
        return None


_LIBC = _libc()


_M_ARENA_MAX = -8  # (mallopt's parameter number, malloc.h)


def one_heap() -> bool:
    """glibc's allocator on one heap for every thread (`mallopt(M_ARENA_MAX, 1)`), asked before the
    analysis thread starts; False where that cannot be done (not glibc).

    By default a second thread gets an arena of its own: the worker makes each analysis in its arena,
    while the event loop thread, in the main one, lets go of the analyses it replaced, and the free
    room of each heap serves only its own thread. The interpreter's lock lets one thread run at a time,
    so one heap costs no waiting. genpl 50000 at lspbench's end: 208-209 MB, 203-204 MB on one heap."""
    if _LIBC is None:
        return False
    return bool(_LIBC.mallopt(_M_ARENA_MAX, 1))


def give_back_free_pages() -> None:
    """Return the heap's free pages to the system (glibc's `malloc_trim(3)`; elsewhere nothing).

    Every keystroke copies a big document's text and its lines (2 MB at 50,000 lines), and glibc
    keeps the holes they leave: in-process, genpl 50000 grew 14 MB over 60 keystrokes, 8 MB with a
    trim after each analysis (the server at lspbench's end: 199-202 MB, 186 MB with it). A trim
    takes under a millisecond there, and ctypes lets the event loop run meanwhile (it releases the
    interpreter during the call)."""
    if _LIBC is not None:
        _LIBC.malloc_trim(0)
