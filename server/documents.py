"""The open documents, and their one owner: the client's text of each (LSP line rules, text.py), its
language, and the snapshot the analysis reads (the workspace asks `snapshot`, from its thread)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Optional

from pypto_lens.workspace.documents import Snapshot

from .text import Change, LspText


@dataclass
class OpenDocument:
    text: LspText
    language: str
    snapshot: Optional[Snapshot] = None  # Python documents only: C++ ones are the registry's business


class Documents:
    def __init__(self) -> None:
        self._open: dict[str, OpenDocument] = {}

    def open(self, uri: str, text: str, version: Optional[int], language: str) -> None:
        doc = self._open[uri] = OpenDocument(LspText(text, version), language)
        self._take_snapshot(uri, doc)

    def change(self, uri: str, version: Optional[int], changes: list[Change], encoding: str) -> list[Exception]:
        """Apply the changes in order; a change that fails is skipped (and returned), never the document."""
        doc = self._open[uri]
        failed = []
        for change in changes:
            try:
                doc.text.apply(change, encoding)
            except Exception as exc:
                failed.append(exc)
        doc.text.version = version
        doc.text.mark()
        self._take_snapshot(uri, doc)
        return failed

    def close(self, uri: str) -> None:
        self._open.pop(uri, None)

    def get(self, uri: str) -> Optional[LspText]:
        doc = self._open.get(uri)
        return doc.text if doc else None

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._open))

    def __contains__(self, uri: str) -> bool:
        return uri in self._open

    def is_python(self, uri: str) -> bool:
        doc = self._open.get(uri)
        language = doc.language if doc else ""
        return language == "python" or (language in ("", "plaintext") and uri.endswith((".py", ".pyi")))

    def is_c(self, uri: str) -> bool:
        """Opened as C or C++ (by its language, whatever its name)."""
        doc = self._open.get(uri)
        return doc is not None and doc.language in ("cpp", "c")

    def snapshot(self, uri: str) -> Optional[Snapshot]:
        doc = self._open.get(uri)
        return doc.snapshot if doc else None

    def _take_snapshot(self, uri: str, doc: OpenDocument) -> None:
        # one assignment: the analysis thread sees the old snapshot or the new one, never half of it
        doc.snapshot = Snapshot(doc.text.normalised(), doc.text.version) if self.is_python(uri) else None
