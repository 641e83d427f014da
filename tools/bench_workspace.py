#!/usr/bin/env python3
"""A workspace the size of a monorepo (issue 42): what opening files and a branch switch cost.

  python tools/bench_workspace.py [--files 500] [--lines 300] [--open 1,4,8] [--switch 200]
                                  [--ext ../ext] [--server CMD]

Writes --files generated files (tools/gen_model.py --files: families of shapes.py, blocks.py and
model.py, one folder each, the same helpers' names in every family) and, when --ext holds
pypto-lib, a copy of its models beside them. For each count K of --open, a fresh server over that
workspace (a client that watches files for it, as VS Code does) opens family_000's blocks.py (an
inline helper file: its callers are searched for in the whole workspace) and the model.py of K
families, and then a branch switch rewrites --switch files that are not open (every family's
blocks.py: `scale_tile`'s dst becomes `pl.InOut`, then model.py files) and sends their events in
notifications of 50. Printed per K: the cold open of each document (ms to its hints), what the
server holds then (documents analysed, files read for their exports, files read from disk and their
characters, resident memory), and the switch: its time until the server settled, how many
analyses it ran, and whether every open model shows the new direction. Figures, not assertions:
it exits 1 only when an answer is wrong (a model still showing the old direction).
"""
from __future__ import annotations

import argparse
import shlex
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_model import write_families  # noqa: E402
from lsp_client import LspClient  # noqa: E402
from machine import describe  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
WHOLE = {"start": {"line": 0, "character": 0}, "end": {"line": 10**6, "character": 0}}
CAPABILITIES = {
    "general": {"positionEncodings": ["utf-16"]},
    "workspace": {"configuration": True, "workspaceFolders": True,
                  "didChangeWatchedFiles": {"dynamicRegistration": True},
                  "inlayHint": {"refreshSupport": True}, "codeLens": {"refreshSupport": True}},
    "textDocument": {"inlayHint": {"resolveSupport": {"properties": ["tooltip"]}}, "diagnostic": {},
                     "hover": {"contentFormat": ["markdown"]}, "codeLens": {}},
}
BATCH = 50  # events per notification (a watcher delivers a switch in several)


def write_workspace(folder: Path, files: int, lines: int, ext: Path) -> tuple[int, int]:
    """The generated files, and pypto-lib's models copied beside them when --ext has them."""
    written = write_families(folder, files, lines)
    models = ext / "pypto-lib" / "models"
    real = 0
    if models.is_dir():
        shutil.copytree(models, folder / "pypto-lib-models")
        real = sum(1 for _ in (folder / "pypto-lib-models").rglob("*.py"))
    return len(written), real


def hints(client: LspClient, path: Path) -> list:
    return client.request("textDocument/inlayHint", {"textDocument": {"uri": path.as_uri()}, "range": WHOLE}) or []


def open_file(client: LspClient, path: Path) -> float:
    """Opened, and its hints asked: ms until they came."""
    started = time.perf_counter()
    client.notify("textDocument/didOpen", {"textDocument": {"uri": path.as_uri(), "languageId": "python",
                                                           "version": 1, "text": path.read_text(encoding="utf-8")}})
    hints(client, path)
    return (time.perf_counter() - started) * 1000


def analyses(client: LspClient) -> dict:
    answer = client.request("pyptoLens/settled") or {}
    return {entry["uri"]: entry["count"] for entry in answer.get("analyses", [])}


def scale_tile_directions(client: LspClient, path: Path) -> set:
    """The directions the model's calls of scale_tile pass dst as (from the hints' full labels)."""
    text = path.read_text(encoding="utf-8").split("\n")
    out = set()
    for hint in hints(client, path):
        line = hint["position"]["line"]
        label = "".join(part["value"] for part in hint["label"]) if isinstance(hint["label"], list) else hint["label"]
        if "scale_tile(" in text[line] and label.startswith("dst"):
            out.add(label.split(": ")[-1])
    return out


def switch(folder: Path, count: int, open_paths: set) -> list[Path]:
    """Rewrite `count` files that are not open, as a branch switch does: blocks.py first, then model.py."""
    candidates = sorted(folder.glob("family_*/blocks.py")) + sorted(folder.glob("family_*/model.py"))
    changed = [p for p in candidates if p not in open_paths][:count]
    for path in changed:
        text = path.read_text(encoding="utf-8")
        if path.name == "blocks.py":
            text = text.replace("    dst: pl.Out[", "    dst: pl.InOut[", 1)
        else:
            text += "# rewritten by the branch switch\n"
        path.write_text(text, encoding="utf-8")
    return changed


def session(folder: Path, command: list[str], families: int, switched: int, logs: Path) -> tuple[dict, bool]:
    client = LspClient(command, cwd=ROOT, log=logs / f"workspace-{families}.log")
    client.settings = {"inlayHints": {"labelStyle": "full", "input": True}}
    figures: dict = {}
    right = True
    try:
        client.initialize(folder, CAPABILITIES)
        blocks = folder / "family_000" / "blocks.py"
        models = [folder / f"family_{k:03}" / "model.py" for k in range(families)]
        figures["open ms"] = [round(open_file(client, path)) for path in [blocks] + models]
        before = analyses(client)
        memory = client.request("pyptoLens/memory", {"collect": True}) or {}
        figures["analysed"] = len(before)
        figures["holds"] = memory.get("holds", {})
        figures["rss MB"] = round((memory.get("rssKb") or 0) / 1024, 1)
        old = [scale_tile_directions(client, path) for path in models]

        changed = switch(folder, switched, {blocks, *models})
        started = time.perf_counter()
        for k in range(0, len(changed), BATCH):
            client.notify("workspace/didChangeWatchedFiles", {"changes": [
                {"uri": path.as_uri(), "type": 2} for path in changed[k:k + BATCH]]})
        # A model whose blocks.py was rewritten passes dst as InOut now; family_000's blocks.py is
        # open, and its buffer wins over the disk, so its model keeps what it showed.
        expected = [{"InOut"} if path.parent / "blocks.py" in changed else before_shown
                    for path, before_shown in zip(models, old)]
        while time.perf_counter() - started < 10 and [scale_tile_directions(client, p) for p in models] != expected:
            time.sleep(0.02)
        figures["shown ms"] = round((time.perf_counter() - started) * 1000)
        after = analyses(client)
        figures["switch ms"] = round((time.perf_counter() - started) * 1000)
        figures["switch analyses"] = sum(after.values()) - sum(before.values())
        shown = [scale_tile_directions(client, path) for path in models]
        figures["models right"] = f"{sum(1 for s, e in zip(shown, expected) if s == e)} of {len(models)}"
        right = shown == expected
        figures["before"] = sorted({repr(s) for s in old})
    finally:
        client.close()
    return figures, right


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=500)
    parser.add_argument("--lines", type=int, default=300)
    parser.add_argument("--open", default="1,4,8", help="how many models are open, per session")
    parser.add_argument("--switch", type=int, default=200, help="files the branch switch rewrites")
    parser.add_argument("--ext", type=Path, default=ROOT.parent / "ext", help="where pypto-lib/ lives, if anywhere")
    parser.add_argument("--server", default=f"{shlex.quote(sys.executable)} -m pypto_lens")
    args = parser.parse_args(argv)
    print(describe())
    failed = False
    for count in (int(n) for n in args.open.split(",")):
        with tempfile.TemporaryDirectory(prefix="pypto-lens-workspace-") as tmp:
            folder = Path(tmp) / "workspace"
            generated, real = write_workspace(folder, args.files, args.lines, args.ext)
            figures, right = session(folder, shlex.split(args.server), count, args.switch, Path(tmp))
        failed = failed or not right
        opens = figures["open ms"]
        holds = figures["holds"]
        print(f"{generated} generated files + {real} of pypto-lib's models; open: blocks.py and {count} model.py")
        print(f"  cold open ms: blocks.py {opens[0]}, models {opens[1:]}")
        print(f"  held after settling: {figures['analysed']} documents analysed, "
              f"{holds.get('lightExports', '?')} read for their exports, {holds.get('diskFiles', '?')} files "
              f"read from disk ({holds.get('diskChars', 0):,} characters), {figures['rss MB']} MB resident")
        print(f"  switch of {args.switch} files not open: every model's hints right after {figures['shown ms']} ms, "
              f"settled (the helper's lending included) after {figures['switch ms']} ms, "
              f"{figures['switch analyses']} analyses; models showing what their blocks.py says: {figures['models right']}"
              f"{'' if right else '  <-- WRONG'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
