"""The server's allocator keeps one heap for all its threads (memory.one_heap, issue 41's genpl RSS)."""
from __future__ import annotations

import platform
import subprocess
import sys

from pypto_lens.server import main as server_main
from pypto_lens.server import memory as server_memory

# a thread that allocates, then glibc's own account of its heaps (malloc_stats writes one "Arena N:"
# per heap to stderr)
_PROBE = """
import ctypes, sys, threading
from pypto_lens.server import memory
if sys.argv[1] == "one":
    assert memory.one_heap()
def allocate():
    global kept
    kept = [ctypes.create_string_buffer(4096) for _ in range(200)]
worker = threading.Thread(target=allocate)
worker.start()
worker.join()
sys.stderr.flush()
memory._LIBC.malloc_stats()
"""


def _arenas(mode: str) -> int:
    done = subprocess.run([sys.executable, "-c", _PROBE, mode], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stderr.count("Arena ")


def test_a_thread_allocates_from_the_one_heap():
    if server_memory._LIBC is None:  # not glibc (macOS, musl): no arenas to limit, and asking is harmless
        assert platform.libc_ver()[0] != "glibc"
        assert server_memory.one_heap() is False
        return
    assert _arenas("default") >= 2  # (what the setting changes: the thread's own arena)
    assert _arenas("one") == 1


def test_the_server_asks_for_one_heap_before_it_starts(monkeypatch):
    asked = []

    class Stub:
        def start_io(self):
            asked.append("start")

    monkeypatch.setattr(server_memory, "one_heap", lambda: asked.append("one heap") or True)
    monkeypatch.setattr(server_main, "create_server", lambda: Stub())
    for quiet in ("_set_logging", "collect_less_often"):  # (the test process keeps its own settings)
        monkeypatch.setattr(server_main, quiet, lambda: None)
    monkeypatch.setattr(server_main.sys, "setswitchinterval", lambda seconds: None)
    server_main.serve(None)
    assert asked == ["one heap", "start"]
