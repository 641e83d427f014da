"""The documents the engine reads: open ones as their owner (the editor's side) hands them over, the
others from disk.

The open documents belong to whoever opens them: the language server's document store, or an
`OpenTexts` for users without an editor (tests, benchmarks). The engine only reads them, through
`OpenDocuments.snapshot`, which must be safe to call from the analysis thread. Files read from disk
are the engine's own: cached, and read again when their size or time stamp changes.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Protocol
from urllib.parse import unquote, urlparse

from .text import decode, normalise_newlines

MAX_FILE_BYTES = 8 * 1024 * 1024


def path_to_uri(path: Path) -> str:
    return Path(os.path.abspath(path)).as_uri()


def uri_to_path(uri: str) -> Optional[Path]:
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    return Path(unquote(parsed.path))


@dataclass(frozen=True)
class Snapshot:
    """An open document as the analysis reads it: its text (LSP line ends made \\n) and version."""

    text: str
    version: Optional[int]


class OpenDocuments(Protocol):
    def snapshot(self, uri: str) -> Optional[Snapshot]:
        """The open document's current text, or None when it is not open (then it is read from disk)."""


class OpenTexts:
    """Open documents kept for the engine by a user without an editor: tests and benchmarks edit them."""

    def __init__(self) -> None:
        self._open: dict[str, Snapshot] = {}

    def open(self, uri: str, text: str, version: Optional[int] = None) -> None:
        self._open[uri] = Snapshot(normalise_newlines(text), version)

    change = open

    def close(self, uri: str) -> None:
        self._open.pop(uri, None)

    def snapshot(self, uri: str) -> Optional[Snapshot]:
        return self._open.get(uri)

    def __iter__(self):
        return iter(list(self._open))


@dataclass
class Document:
    uri: str
    text: str
    version: Optional[int]
    open: bool  # from the editor (else read from disk)
    valid_utf8: bool = True
    stamp: Optional[tuple] = None  # (mtime, size) for files read from disk


class DiskFiles:
    """Files read from disk, kept while their (mtime, size) stays the same."""

    def __init__(self) -> None:
        self._files: dict[str, Document] = {}

    def __len__(self) -> int:
        return len(self._files)

    def characters(self) -> int:
        """Of the texts kept."""
        return sum(len(doc.text) for doc in list(self._files.values()))

    def forget(self, uri: str) -> None:
        """Read `uri` again when next asked (it changed on disk: its time stamp may not say so, a
        rewrite of the same size within the clock's resolution)."""
        self._files.pop(uri, None)

    def peek(self, uri: str) -> Optional[str]:
        """The file's text, without keeping it: what is kept is current, else it is read for this once
        (the search for an inline helper's callers reads every Python file of the workspace, and keeps
        only what it found: issue 42's 500 files)."""
        doc = self._files.get(uri)
        path = uri_to_path(uri)
        try:
            stat = path.stat() if path is not None else None
        except OSError:
            return None
        if stat is None:
            return None
        if doc is not None and doc.stamp == (stat.st_mtime_ns, stat.st_size):
            return doc.text
        if stat.st_size > MAX_FILE_BYTES or not path.is_file():
            return None
        try:
            return normalise_newlines(decode(path.read_bytes())[0])
        except OSError:
            return None

    def changed_on_disk(self) -> list[str]:
        """The files read whose time stamp or size is not what they were read with (deleted ones too):
        for a client that watches no files for the server (its poll, server/watched_files.py)."""
        out = []
        for uri, doc in list(self._files.items()):
            path = uri_to_path(uri)
            try:
                stat = path.stat() if path is not None else None
            except OSError:
                stat = None
            if stat is None or (stat.st_mtime_ns, stat.st_size) != doc.stamp:
                out.append(uri)
        return out

    def read(self, uri: str) -> Optional[Document]:
        path = uri_to_path(uri)
        if path is None:
            return None
        try:
            stat = path.stat()
        except OSError:
            return None
        stamp = (stat.st_mtime_ns, stat.st_size)
        doc = self._files.get(uri)
        if doc is not None and doc.stamp == stamp:
            return doc
        if stat.st_size > MAX_FILE_BYTES or not path.is_file():
            return None
        try:
            data = path.read_bytes()
        except OSError:
            return None
        text, valid = decode(data)
        doc = Document(uri, normalise_newlines(text), None, False, valid, stamp)
        self._files[uri] = doc
        return doc
