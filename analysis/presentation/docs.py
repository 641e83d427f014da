"""The page that explains every diagnostic code and rule id (docs/diagnostics.md), and links into it.

The page ships inside the package (`pypto_lens/docs/`, from the repository's docs/), so a diagnostic's
code links to a file on the user's machine: it opens offline, at the code's heading (`#L<line>`).
"""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Optional

PAGE = "diagnostics.md"


@functools.lru_cache(maxsize=1)
def page() -> Optional[Path]:
    """The installed page (pypto_lens/docs/), else the repository's (docs/ beside analysis/)."""
    package = Path(__file__).resolve().parents[1]
    for candidate in (package / "docs" / PAGE, package.parent / "docs" / PAGE):
        if candidate.is_file():
            return candidate
    return None


@functools.lru_cache(maxsize=1)
def headings() -> dict[str, int]:
    """`### Name` heading -> its 1-based line."""
    path = page()
    if path is None:
        return {}
    out = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1):
        if line.startswith("### "):
            out.setdefault(line[4:].strip(), number)
    return out


def link(name: str) -> Optional[str]:
    """A `file:` link to the heading of a diagnostic code or a rule id, or None when the page has none."""
    path, line = page(), headings().get(str(name))
    if path is None or line is None:
        return None
    return f"{path.as_uri()}#L{line}"
