"""The documents the engine reads: open ones as their owner (the editor's side) hands them over, the
others from disk.

The open documents belong to whoever opens them: the language server's document store, or an
`OpenTexts` for users without an editor (tests, benchmarks). The engine only reads them, through
`OpenDocuments.snapshot`, which must be safe to call from the analysis thread. Files read from disk
are the engine's own: cached, and read again when their size or time stamps change.

Bad input is not analysed, and says why in one message (README, "Known limits"): a file on disk
that cannot be read (permission denied, a symbolic link that loops, a FIFO or device: never opened
for a read that could block), and a document, open or on disk, over `MAX_ANALYSED_BYTES` or binary
(`binary`). `DiskFiles.problem` keeps why a file's last read gave nothing and logs it once (the
server's log); `refusal` says it of an open document; `not_analysed` is the analysis such a
document gets: that one diagnostic at its first line. A file whose bytes are not UTF-8 (nor the
encoding its coding declaration names, PEP 263) is read with U+FFFD for the bad bytes, and says
where the first one is (`utf8_note`).
"""
from __future__ import annotations

import codecs
import errno
import io
import logging
import os
import re
import stat as stat_module
import tokenize
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Optional, Protocol
from urllib.parse import unquote, urlparse

from ..vocabulary import Code, Severity
from .results import Diagnostic, DocumentAnalysis, Range
from .text import normalise_newlines

log = logging.getLogger("pypto-lens")

# Above this (in UTF-8 bytes) a file is not analysed. Measured (README, "Known limits"): genpl.py's
# 50,000-line file, 2.4 MB, takes 8.4 s and 160 MB cold; a 5 MB one 19 s and 300 MB, a 5 MB table of
# numbers 800 MB
MAX_ANALYSED_BYTES = 3_000_000
_BINARY_SAMPLE = 8192  # the characters `binary` looks at, from the start
# NUL, the C0 controls but tab and the line and page ends, DEL, and U+FFFD (a byte that did not decode)
_BINARY_CHARACTERS = "".join(map(chr, [*range(0x00, 0x09), *range(0x0e, 0x20), 0x7f, 0xfffd]))
_BINARY_CHARACTER = re.compile(f"[{re.escape(_BINARY_CHARACTERS)}]")


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
    stamp: Optional[tuple] = None  # (mtime, ctime, size, inode) for files read from disk
    invalid_at: Optional[tuple[int, int]] = None  # (line, column) of the first byte that was not UTF-8


def binary(text: str) -> Optional[str]:
    """Why `text` is binary, or None: more than a tenth of its first 8,192 characters are NUL, control
    characters or bytes that did not decode (a text file has none or a few; random bytes about half)."""
    sample = text[:_BINARY_SAMPLE]
    if not any(c in sample for c in _BINARY_CHARACTERS):  # (a text file: 2.6 us, a regular expression's search 47)
        return None
    bad = len(_BINARY_CHARACTER.findall(sample))
    if not sample or bad * 10 <= len(sample):
        return None
    return (f"is binary ({bad * 100 // len(sample)}% of its first {len(sample):,} characters are NUL, "
            f"control characters or bytes that are not UTF-8)")


def too_big(size: int) -> Optional[str]:
    if size <= MAX_ANALYSED_BYTES:
        return None
    return f"is {size / 1e6:.1f} MB, over the {MAX_ANALYSED_BYTES / 1e6:g} MB PyPTO Lens analyses"


def refusal(doc: Document) -> Optional[str]:
    """Why a document (open, or read from disk) is not analysed: too big, or binary; None: it is."""
    text = doc.text
    size = len(text)  # (a character is 1 to 4 bytes of UTF-8; isascii is O(1))
    if size > MAX_ANALYSED_BYTES or (size * 4 > MAX_ANALYSED_BYTES and not text.isascii() and
                                     len(text.encode("utf-8", "surrogatepass")) > MAX_ANALYSED_BYTES):
        return too_big(len(text.encode("utf-8", "surrogatepass")))
    return binary(text)


def not_analysed(uri: str, version: Optional[int], why: str) -> DocumentAnalysis:
    """The analysis of a document that is not analysed: one diagnostic at its first line, saying why."""
    return DocumentAnalysis(uri, version, [], [], [Diagnostic(
        Code.NOT_ANALYSED, Severity.INFORMATION, f"not analysed: this file {why}", Range(0, 0, 0, 0))])


def utf8_note(doc: Document) -> Optional[Diagnostic]:
    """InvalidUtf8 where a document's first byte that is not UTF-8 is (the editor's U+FFFD for one)."""
    if doc.valid_utf8:
        return None
    line, col = doc.invalid_at or (0, 0)
    where = "the editor shows its bytes that are not UTF-8 as U+FFFD" if doc.open else \
        "its bytes that are not UTF-8 were read as U+FFFD"
    return Diagnostic(Code.INVALID_UTF8, Severity.WARNING,
                      f"this file is not valid UTF-8 (the first bad byte is at line {line + 1}, column "
                      f"{col + 1}): {where}; save it as UTF-8", Range(line, col, line, col + 1))


def with_disk_encoding(doc: Document, files: "DiskFiles") -> Document:
    """An open document whose text holds U+FFFD, the editor's mark of a byte it could not decode, is
    not valid UTF-8 where its file on disk is not either (U+FFFD may be a character of a valid file)."""
    text = doc.text
    at = text.find("\ufffd")
    if at < 0 or files.valid_utf8(doc.uri):
        return doc
    line = text.count("\n", 0, at)
    doc.valid_utf8, doc.invalid_at = False, (line, at - (text.rfind("\n", 0, at) + 1))
    return doc


def unread_import(files: "DiskFiles", document: Callable[[str], Optional[Document]], from_uri: str,
                  module: Optional[str], level: int, target: Optional[str], roots: list[Path]) -> Optional[str]:
    """Why the file of an import (`target`, as the workspace resolved it) gave nothing to read, with its
    path from the importer's folder: it cannot be read or is not analysed; or, when none was found, a
    name it would have beside the importer or in the workspace's roots is there as no file to read (a
    symbolic link that loops, a FIFO). None: nothing to say but what the importer says already."""
    origin = uri_to_path(from_uri)
    if target is not None:
        doc = document(target)
        why = refusal(doc) if doc is not None else files.problem(target)
        found = uri_to_path(target) if why is not None else None
    else:
        parts = module.split(".") if module else []
        bases = [] if origin is None or level > len(origin.parents) else \
            [origin.parents[level - 1] if level else origin.parent]
        names = [base.joinpath(*parts) for base in bases + ([] if level else list(roots))]
        found, why = files.absent([n.with_suffix(".py") for n in names if parts]
                                  + [n / "__init__.py" for n in names]) or (None, None)
    if found is None or why is None:
        return None
    return f"{os.path.relpath(found, origin.parent) if origin is not None else found} {why}"


class DiskFiles:
    """Files read from disk, kept while their time stamps and size stay the same; for those that could
    not be read, why (`problem`), logged once."""

    def __init__(self) -> None:
        self._files: dict[str, Document] = {}
        self._problems: dict[str, tuple[Optional[tuple], str]] = {}  # uri -> (its stamp, why)
        self._noted: dict[str, tuple] = {}  # uri -> the stamp of the version logged as not UTF-8

    def problem(self, uri: str) -> Optional[str]:
        """Why the last read of `uri` gave no document (`is binary (...)`, `cannot be read (...)`), or
        None: it was read, or it is not there."""
        found = self._problems.get(uri)
        return found[1] if found else None

    def valid_utf8(self, uri: str) -> bool:
        """Is the file on disk UTF-8 (or what its coding declaration says)? True when it is not there."""
        doc = self.read(uri)
        return doc is None or doc.valid_utf8

    def absent(self, paths: Iterable[Path]) -> Optional[tuple[Path, str]]:
        """The first of `paths` that is there but is no file to read (a symbolic link that loops or whose
        target is missing, a FIFO, a device), and what it is instead; None when none is."""
        for path in paths:
            why = _special(path)
            if why is not None:
                return path, why
        return None

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
        kept = uri in self._files
        doc = self.read(uri)  # (what cannot be read is said once, as for any read)
        if not kept:
            self._files.pop(uri, None)
        return doc.text if doc is not None else None

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
            if stat is None or _stamp(stat) != doc.stamp:
                out.append(uri)
        return out

    def read(self, uri: str) -> Optional[Document]:
        path = uri_to_path(uri)
        if path is None:
            return None
        try:
            stat = path.stat()
        except OSError as error:
            why = _special(path) if error.errno in (errno.ENOENT, errno.ELOOP) else _cannot(error)
            return self._failed(uri, path, None, why)
        stamp = _stamp(stat)
        doc = self._files.get(uri)
        if doc is not None and doc.stamp == stamp:
            return doc
        known = self._problems.get(uri)
        if known is not None and known[0] == stamp:
            return None
        self._files.pop(uri, None)
        if not stat_module.S_ISREG(stat.st_mode):
            return self._failed(uri, path, stamp, _kind(stat.st_mode))
        if too_big(stat.st_size):
            return self._failed(uri, path, stamp, too_big(stat.st_size))
        try:  # (non-blocking: a FIFO put there since the stat is not waited on)
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
        except OSError as error:
            return self._failed(uri, path, stamp, _cannot(error))
        try:
            if not stat_module.S_ISREG(os.fstat(fd).st_mode):
                return self._failed(uri, path, stamp, _kind(os.fstat(fd).st_mode))
            with os.fdopen(fd, "rb", closefd=False) as handle:
                data = handle.read(MAX_ANALYSED_BYTES + 1)
        except OSError as error:
            return self._failed(uri, path, stamp, _cannot(error))
        finally:
            os.close(fd)
        if too_big(len(data)):  # (it grew since the stat)
            return self._failed(uri, path, stamp, too_big(len(data)))
        text, valid, invalid_at = _decode_source(data)
        why = binary(text)
        if why is not None:
            return self._failed(uri, path, stamp, why)
        doc = Document(uri, normalise_newlines(text), None, False, valid, stamp, invalid_at)
        if not valid and self._noted.get(uri) != stamp:  # (once per version: a peek keeps nothing)
            self._noted[uri] = stamp
            log.info("%s: not valid UTF-8 (the first bad byte is at line %d, column %d): read with U+FFFD "
                     "for its bad bytes", path, invalid_at[0] + 1, invalid_at[1] + 1)
        self._problems.pop(uri, None)
        self._files[uri] = doc
        return doc

    def _failed(self, uri: str, path: Path, stamp: Optional[tuple], why: Optional[str]) -> None:
        self._files.pop(uri, None)
        if why is None:  # not there: nothing to say (the importer says it was not found)
            self._problems.pop(uri, None)
            return None
        known = self._problems.get(uri)
        if known is None or known[1] != why:
            log.info("%s %s: not read", path, why)
        self._problems[uri] = (stamp, why)
        return None


def _stamp(stat: os.stat_result) -> tuple:
    """What says a file is the one read: a rewrite changes its times or size, a replace its inode."""
    return (stat.st_mtime_ns, stat.st_ctime_ns, stat.st_size, stat.st_ino)


def _special(path: Path) -> Optional[str]:
    """What is at `path` when it is there and no regular file (or a folder) a stat reaches, else None."""
    try:
        link = path.lstat()
    except OSError:
        return None
    if stat_module.S_ISLNK(link.st_mode):
        try:
            target = path.stat()
        except OSError as error:
            if error.errno == errno.ELOOP:
                return "is a symbolic link that loops"
            if error.errno in (errno.ENOENT, errno.ENOTDIR):
                return "is a symbolic link to a file that is not there"
            return _cannot(error)
        return None if stat_module.S_ISREG(target.st_mode) or stat_module.S_ISDIR(target.st_mode) \
            else _kind(target.st_mode)
    if stat_module.S_ISREG(link.st_mode) or stat_module.S_ISDIR(link.st_mode):
        return None
    return _kind(link.st_mode)


def _kind(mode: int) -> str:
    kind = ("a folder" if stat_module.S_ISDIR(mode) else "a FIFO" if stat_module.S_ISFIFO(mode)
            else "a socket" if stat_module.S_ISSOCK(mode) else "a device" if stat_module.S_ISCHR(mode)
            or stat_module.S_ISBLK(mode) else "not a file")
    return f"is not a regular file ({kind})"


def _cannot(error: OSError) -> str:
    if error.errno == errno.ELOOP:
        return "is a symbolic link that loops"
    reason = error.strerror.lower() if error.strerror else type(error).__name__
    return f"cannot be read ({reason})"


def _decode_source(data: bytes) -> tuple[str, bool, Optional[tuple[int, int]]]:
    """A Python file's text as Python reads it: UTF-8, or the encoding its coding declaration names
    (PEP 263); whether it decoded, and where (line, column of the text) its first bad byte is."""
    encoding = "utf-8"
    try:  # (reads the first two lines only)
        declared = tokenize.detect_encoding(io.BytesIO(data).readline)[0]
        if declared not in ("utf-8", "utf-8-sig"):
            codecs.lookup(declared)
            encoding = declared
    except (SyntaxError, LookupError):
        pass
    try:
        return data.decode(encoding), True, None
    except UnicodeDecodeError as error:
        start = error.start
    text = data.decode(encoding, errors="replace")
    before = normalise_newlines(data[:start].decode(encoding, errors="replace"))
    return text, False, (before.count("\n"), len(before) - (before.rfind("\n") + 1))
