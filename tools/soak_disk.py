"""The soak's disk (issue 42): files changed, deleted and created behind the editor's back.

What a branch switch, a `git pull` or a code generator does to a workspace while the user edits:
a file that is not open is rewritten (a signature's `pl.Out[` / `pl.InOut[` flipped, a line added),
an open one saved, a burst of up to --burst files rewritten at once (their events sent in
notifications of 50, as a watcher delivers them), a file deleted and later made again. Each change
is written to disk first and then told to the server with workspace/didChangeWatchedFiles, as an
editor's file watcher does. An open document's buffer is never touched: it wins over the disk.
"""
from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Callable

CREATED, CHANGED, DELETED = 1, 2, 3  # FileChangeType
BATCH = 50
SIGNATURE_DIRECTION = re.compile(r"pl\.(Out|InOut)\[")


def flipped(text: str, rng: random.Random) -> str:
    """One signature's pl.Out[ <-> pl.InOut[, else a line added at the end."""
    found = list(SIGNATURE_DIRECTION.finditer(text))
    if not found:
        return text + "# changed on disk\n"
    hit = rng.choice(found)
    return text[:hit.start(1)] + ("InOut" if hit.group(1) == "Out" else "Out") + text[hit.end(1):]


class Disk:
    """The files of the workspace as the disk holds them, and the changes made to them."""

    def __init__(self, root: Path, docs: list, notify: Callable[[list], None], rng: random.Random, burst: int):
        self.root, self.rng, self.burst = root, rng, burst
        self.notify = notify  # sends one didChangeWatchedFiles of these changes
        self.docs = {doc.path: doc for doc in docs}  # the editor's documents (open or not)
        self.files = sorted(root.rglob("*.py"))
        self.deleted: dict[Path, str] = {}  # what a deleted file held, to make it again
        self.counts = dict.fromkeys(["disk_rewrites", "saves", "bursts", "burst_files", "deletes", "creates"], 0)

    def step(self) -> None:
        roll = self.rng.random()
        if roll < 0.05:
            self.branch_switch()
        elif roll < 0.15:
            self.delete_or_create()
        elif roll < 0.35:
            self.save()
        else:
            self.rewrite_one()

    # -- the changes --------------------------------------------------------------------------------
    def closed(self) -> list[Path]:
        return [p for p in self.files if p not in self.deleted and not getattr(self.docs.get(p), "open", False)]

    def write(self, path: Path, text: str) -> None:
        path.write_text(text, encoding="utf-8")
        doc = self.docs.get(path)
        if doc is not None:  # a closed document: what the editor shows when it opens it again
            doc.disk = text
            if not doc.open:
                doc.text = text

    def rewrite_one(self) -> None:
        """A file not open rewritten: mostly one of the editor's documents or a file they import."""
        near = [p for p in self.closed() if p.parent in {d.parent for d in self.docs}]
        pool = near if near and self.rng.random() < 0.8 else self.closed()
        if not pool:
            return
        path = self.rng.choice(pool)
        self.write(path, flipped(path.read_text(encoding="utf-8"), self.rng))
        self.notify([(path, CHANGED)])
        self.counts["disk_rewrites"] += 1

    def save(self) -> None:
        """An open document saved: its buffer is on disk now (the server already has it)."""
        opened = [doc for doc in self.docs.values() if doc.open]
        if not opened:
            return
        doc = self.rng.choice(opened)
        self.write(doc.path, doc.text)
        self.notify([(doc.path, CHANGED)])
        self.counts["saves"] += 1

    def branch_switch(self) -> None:
        """Up to --burst files not open rewritten at once, their events in notifications of 50."""
        pool = self.closed()
        changed = self.rng.sample(pool, min(self.burst, len(pool)))
        for path in changed:
            self.write(path, flipped(path.read_text(encoding="utf-8"), self.rng))
        for k in range(0, len(changed), BATCH):
            self.notify([(path, CHANGED) for path in changed[k:k + BATCH]])
        self.counts["bursts"] += 1
        self.counts["burst_files"] += len(changed)

    def delete_or_create(self) -> None:
        """A file no document of the editor's is deleted (what imports it loses it), or one deleted made again."""
        if self.deleted and self.rng.random() < 0.5:
            path = self.rng.choice(sorted(self.deleted))
            self.write(path, self.deleted.pop(path))
            self.notify([(path, CREATED)])
            self.counts["creates"] += 1
            return
        near = [p for p in self.closed() if p not in self.docs and p.parent in {d.parent for d in self.docs}]
        if not near:
            return
        path = self.rng.choice(near)
        self.deleted[path] = path.read_text(encoding="utf-8")
        path.unlink()
        self.notify([(path, DELETED)])
        self.counts["deletes"] += 1
