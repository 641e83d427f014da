"""server/memory.py's trim after each analysis: the heap's freed pages go back to the system."""
from __future__ import annotations

import ctypes
import platform

from pypto_lens.server import memory as server_memory


def test_freed_pages_go_back_to_the_system_after_an_analysis():
    """give_back_free_pages (called by the worker after each analysis) trims glibc's heap: a freed big
    block's pages leave the resident memory (the bytes freed are sure to be above the trim threshold)."""
    if server_memory._LIBC is None:  # not glibc (macOS, musl): there is no trim, and asking is harmless
        assert platform.libc_ver()[0] != "glibc"
        server_memory.give_back_free_pages()
        return
    server_memory.give_back_free_pages()
    before = server_memory.resident_kb()
    # many middle-sized blocks (under the mapping threshold: they come from the heap), then freed
    blocks = [ctypes.create_string_buffer(64 * 1024) for _ in range(800)]
    for block in blocks:
        ctypes.memset(block, 1, len(block))
    above = ctypes.create_string_buffer(64 * 1024)  # (kept: the freed ones are not the heap's top, which glibc trims by itself)
    grown = server_memory.resident_kb()
    del blocks, block
    server_memory.give_back_free_pages()
    assert grown - before > 30_000
    assert server_memory.resident_kb() < grown - 30_000
    del above
