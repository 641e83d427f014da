"""Where lark keeps a compiled grammar between runs (one file per grammar text)."""
from __future__ import annotations

import hashlib
import os
import tempfile


def cache_file(stem: str, grammar_text: str):
    """A per-user cache file for the grammar, or False when no folder can be written.

    The file name carries a digest of the grammar, so an edited grammar never
    loads a stale table, and of the package's name: the cached parser names our
    lexer class by its module path, and lark rebuilds (and rewrites) a table made
    under another name, so two installs under different names would keep
    overwriting each other's file."""
    digest = hashlib.sha256(f"{__package__}\0{grammar_text}".encode("utf-8")).hexdigest()[:16]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    for folder in (os.path.join(base, "pypto-lens"), tempfile.gettempdir()):
        try:
            os.makedirs(folder, exist_ok=True)
            if os.access(folder, os.W_OK):
                return os.path.join(folder, f"{stem}-{digest}.lark-cache")
        except OSError:
            continue
    return False
