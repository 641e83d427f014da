"""The workspace's registry wins: built from a PyPTO checkout in the workspace, edits included.

Keeps the ops declared by each source file, so that an edit of one file (an
unsaved buffer) re-reads only that file. The analysis asks `registry()`; its
`update` reports a change only when a declaration changed (where it sits does
not count), so typing elsewhere in a .cpp file does not invalidate every pl
program.
"""
from __future__ import annotations

import logging
import os
from dataclasses import replace
from pathlib import Path
from typing import Optional

from .cpp_chains import parse_chains, unparsed
from .declarations import chains_to_ops
from .generate import SOURCE_SUFFIXES, source_files
from .model import OpInfo
from .registry import Registry

_MAX_DEPTH = 3
log = logging.getLogger("pypto-lens")


def find_checkouts(roots: list[Path]) -> list[Path]:
    """PyPTO checkouts in (or just under) the workspace roots: folders holding src/ir/op."""
    found = []
    for root in roots:
        for folder, dirs, _ in os.walk(root):
            depth = Path(folder).relative_to(root).parts
            if len(depth) >= _MAX_DEPTH:
                dirs[:] = []
            dirs[:] = [d for d in dirs if not d.startswith(".") and d not in ("node_modules", "build", ".venv")]
            if (Path(folder) / "src" / "ir" / "op").is_dir():
                found.append(Path(folder))
                dirs[:] = []
    return found


class WorkspaceRegistry:
    def __init__(self, checkout: Path, dsl) -> None:
        self.checkout = checkout
        self.dsl = dsl
        self.by_file: dict[Path, dict[str, OpInfo]] = {}
        for path in _unreadable(checkout):
            log.warning("%s: not a file to read (a symbolic link that loops or whose target is missing): not read",
                        path)
        for path in source_files(checkout):
            text = _read_disk(path)
            if text is not None and "REGISTER_OP" in text:
                self.by_file[path] = self._read(path, text, disk=True)
        self._registry: Optional[Registry] = None
        self.declarations = self._declarations()

    def owns(self, path: Path) -> bool:
        try:
            path.resolve().relative_to((self.checkout / "src").resolve())
            return path.suffix in SOURCE_SUFFIXES
        except ValueError:
            return False

    def _read(self, path: Path, text: str, disk: bool = False) -> dict[str, OpInfo]:
        """The ops a source declares; read from disk (`disk`), each chain read only in part is logged (an
        open document shows it as a diagnostic instead: presentation/diagnostics.py)."""
        if disk:
            for problem in unparsed(text):
                log.warning("%s:%d:%d: %s", path, problem.range.line + 1, problem.range.col + 1, problem.message)
        relative = path.resolve().relative_to(self.checkout.resolve()).as_posix()
        return chains_to_ops(parse_chains(text), relative)

    def update(self, path: Path, text: Optional[str]) -> bool:
        """A file's (possibly unsaved) text; None re-reads the disk. True when declarations changed."""
        disk = text is None
        if text is None:
            text = _read_disk(path) or ""
        ops = self._read(path, text, disk) if "REGISTER_OP" in text else {}
        if ops == self.by_file.get(path, {}):
            return False
        self.by_file[path] = ops
        declarations = self._declarations()
        changed = declarations != self.declarations
        self.declarations = declarations
        self._registry = None
        return changed

    def _merged(self) -> dict[str, OpInfo]:
        """Every op, the first file (in path order) that declares a name winning."""
        ops: dict[str, OpInfo] = {}
        for path in sorted(self.by_file):
            for name, op in self.by_file[path].items():
                ops.setdefault(name, op)
        return ops

    def registry(self) -> Registry:
        if self._registry is None:
            self._registry = Registry(self._merged(), self.dsl, source=f"workspace:{self.checkout}")
        return self._registry

    def _declarations(self) -> dict[str, OpInfo]:
        """What the analysis reads of the ops: everything but where they are declared."""
        return {name: replace(op, location=None) for name, op in self._merged().items()}


def _read_disk(path: Path) -> Optional[str]:
    """A source's text (bad bytes as U+FFFD), or None, logged, when it cannot be read."""
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError as error:
        log.warning("%s: cannot be read (%s): its REGISTER_OP chains are not read", path,
                    (error.strerror or type(error).__name__).lower())
        return None


def _unreadable(checkout: Path) -> list[Path]:
    """The names of sources under src/ that are no file to read: symbolic links that loop or whose target is
    missing (folders reached through a symbolic link are not searched: a loop of them cannot trap the walk)."""
    root = checkout / "src"
    return sorted(p for p in root.rglob("*") if p.suffix in SOURCE_SUFFIXES and p.is_symlink() and not p.exists())
