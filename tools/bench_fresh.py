#!/usr/bin/env python3
"""Benchmark freshness through LSP: how long until an edit's meaning is on screen (issue 20).

  python tools/bench_fresh.py [--rounds 6] [--ext DIR] [--file F ...] [--json OUT]

Shapes: the generated model families of 1,000 and 3,000 lines (tools/gen_model.py: a `@pl.jit`
entry expanding an inline core of dozens of scopes and inline helpers, with kernels and helpers
imported from a sibling file, as pypto-lib's models are written), and PyPTO's real models when
checked-out copies are found under --ext (pypto-lib/ and pypto/ there) or given with --file.
For each, the server runs over stdio with the editor's default settings, and:

- `edit_fresh`: a statement (`_edit_probe = 0`) inserted, then deleted, in the middle of the
  file's biggest function; after each edit the whole document's hints, which the server answers
  with the analysis of the newest text (median and max over the rounds);
- `novel_edit_fresh`: an edit that means something and was never seen before: the probe line's own
  call under a new name each round (`_edit_probe_3 = pl.read(...)`), which replaces the last
  round's; nothing of an earlier identical text can answer it, as when a user types code (the
  alternating `_edit_probe = 0` comes back to texts analysed before, and assigns a constant);
- `blank_line_fresh`: a blank line typed there and deleted, each after a pause: the whole document's
  hints, which come from the last result placed where its lines are now (workspace/moved_lines.py);
- `keystroke_moved`: what typing costs meanwhile, a viewport's hints right after a keystroke in
  the same place (p95): an answer moved from the last analysis until the new one is done;
- `signature_at_caller` (families): blocks.py's kernel `scale_tile(dst: pl.Out[...])` made
  `pl.InOut[` and back, both files open; the caller's viewport (model.py) is asked every 10 ms
  until its hint for that argument shows the new direction, and whether the server asked the
  editor to refresh the hints of the document it did not edit (`refresh`); then the same for
  model.py's own kernel `gate_0` at its call in model.py (`signature_in_file`);
- `scope_write_lens` (families): `pl.write(src, [0, 0], 0.0)` added to a scope that only read
  `src`, then removed; the document's code lenses are asked once, which answer with the newest
  text's analysis: until the scope's lens names the capture written (and back).

Wall clock on a shared machine: compare figures of one run. Nothing is asserted.
"""
from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

TOOLS = Path(__file__).resolve().parent
REPO = TOOLS.parent
sys.path.insert(0, str(TOOLS))

from gen_model import write_model  # noqa: E402
from lsp_client import LspClient  # noqa: E402
from machine import describe  # noqa: E402

REAL_MODELS = ["pypto/examples/models/08_llama_mini.py",
               "pypto-lib/models/qwen3_14b/decode_fwd.py",
               "pypto-lib/models/deepseek_v4_flash_dspark/dspark_drafter.py",
               "pypto-lib/models/deepseek_v4_flash_mtp/prefill_cp_csa.py"]
CAPABILITIES = {"workspace": {"inlayHint": {"refreshSupport": True}, "codeLens": {"refreshSupport": True},
                              "configuration": True}}
FULL = {"inlayHints": {"labelStyle": "full", "input": True}}  # full ArgDirection names, Input shown
REFRESH = "workspace/inlayHint/refresh"


def whole(text: str) -> dict:
    return {"start": {"line": 0, "character": 0}, "end": {"line": text.count("\n") + 1, "character": 0}}


def probe_line(lines: list[str]) -> int:
    """A plain `name = f(...)` line in the middle of the biggest function (as lspedit does)."""
    starts = [i for i, line in enumerate(lines) if re.match(r"\s*def \w+\(", line)] + [len(lines)]
    k = max(range(len(starts) - 1), key=lambda j: starts[j + 1] - starts[j])
    middle = (starts[k] + starts[k + 1]) // 2
    found = [i for i in range(starts[k] + 1, starts[k + 1]) if re.match(r"\s+\w+ = [\w.]+\(.*\)\s*$", lines[i])]
    return min(found, key=lambda i: abs(i - middle)) if found else middle


class Session:
    """One server, its documents and their versions."""

    def __init__(self, root: Path, settings: dict):
        self.client = LspClient([sys.executable, "-m", "pypto_lens"], cwd=REPO, log=root / "server.log")
        self.client.settings = settings
        self.client.initialize(root, CAPABILITIES)
        self.versions: dict = {}

    def open(self, path: Path) -> tuple[str, str]:
        text = path.read_text(encoding="utf-8")
        uri = path.as_uri()
        self.versions[uri] = 1
        self.client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python",
                                                                     "version": 1, "text": text}})
        return uri, text

    def change(self, uri: str, line: int, col: int, end_line: int, end_col: int, new: str) -> None:
        self.versions[uri] += 1
        self.client.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": self.versions[uri]},
            "contentChanges": [{"range": {"start": {"line": line, "character": col},
                                          "end": {"line": end_line, "character": end_col}}, "text": new}]})

    def hints(self, uri: str, first: int, last: int) -> list:
        return self.client.request("textDocument/inlayHint", {
            "textDocument": {"uri": uri},
            "range": {"start": {"line": first, "character": 0}, "end": {"line": last, "character": 0}}}) or []

    def close(self) -> None:
        self.client.close()


def ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


def edit_fresh(path: Path, root: Path, rounds: int) -> dict:
    session = Session(root, FULL)
    try:
        uri, text = session.open(path)
        started = time.perf_counter()
        session.client.request("textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": whole(text)})
        cold = time.perf_counter() - started
        lines = text.split("\n")
        at = probe_line(lines)
        probe = re.match(r"\s*", lines[at]).group(0) + "_edit_probe = 0\n"
        fresh, moved = [], []
        current = text
        for r in range(rounds):
            started = time.perf_counter()
            if r % 2 == 0:
                session.change(uri, at + 1, 0, at + 1, 0, probe)
                current = "\n".join(lines[:at + 1]) + "\n" + probe + "\n".join(lines[at + 1:])
            else:
                session.change(uri, at + 1, 0, at + 2, 0, "")
                current = text
            session.client.request("textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": whole(current)})
            fresh.append(time.perf_counter() - started)
        novel = []  # the probe line's call under a new name each round, replacing the last round's line
        indent = re.match(r"\s*", lines[at]).group(0)
        assigned = re.match(r"\s*\w+ = (.*)$", lines[at])  # (probe_line's fallback may be no assignment)
        for r in range(rounds):
            statement = f"{indent}_edit_probe_{r} = {assigned.group(1) if assigned else r}\n"
            started = time.perf_counter()
            session.change(uri, at + 1, 0, at + 1 if r == 0 else at + 2, 0, statement)
            current = "\n".join(lines[:at + 1]) + "\n" + statement + "\n".join(lines[at + 1:])
            session.client.request("textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": whole(current)})
            novel.append(time.perf_counter() - started)
        session.change(uri, at + 1, 0, at + 2, 0, "")  # (back to the file's text)
        current = text
        blank = []  # a blank line typed and deleted there, after a pause (the last result moved: moved_lines.py)
        for r in range(rounds):
            time.sleep(0.3)
            started = time.perf_counter()
            if r % 2 == 0:
                session.change(uri, at + 1, 0, at + 1, 0, "\n")
                current = "\n".join(lines[:at + 1]) + "\n\n" + "\n".join(lines[at + 1:])
            else:
                session.change(uri, at + 1, 0, at + 2, 0, "")
                current = text
            session.client.request("textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": whole(current)})
            blank.append(time.perf_counter() - started)
        for n in range(rounds * 3):  # keystrokes: a trailing comment typed at the probe's line
            col = len(lines[at]) + n
            started = time.perf_counter()
            session.change(uri, at, col, at, col, "#" if n == 0 else "x")
            session.hints(uri, max(0, at - 30), at + 30)
            moved.append(time.perf_counter() - started)
        return {"lines": len(lines), "cold_ms": ms(cold), "edit_fresh_median_ms": ms(statistics.median(fresh)),
                "edit_fresh_max_ms": ms(max(fresh)), "novel_edit_fresh_median_ms": ms(statistics.median(novel)),
                "novel_edit_fresh_max_ms": ms(max(novel)), "blank_line_fresh_median_ms": ms(statistics.median(blank)),
                "keystroke_moved_p95_ms": ms(sorted(moved)[int(0.95 * (len(moved) - 1))])}
    finally:
        session.close()


def _direction(hints: list, line: int, param: str) -> str:
    for h in hints:
        label = h["label"] if isinstance(h["label"], str) else "".join(p["value"] for p in h["label"])
        if h["position"]["line"] == line and label.strip().startswith(param):
            return label
    return ""


def signature_at_caller(folder: Path, rounds: int) -> dict:
    """blocks.py's kernel `scale_tile` seen at its call in model.py (another open file), then model.py's
    own kernel `gate_0` seen at its call in model.py (the same file)."""
    session = Session(folder, FULL)
    try:
        blocks, blocks_text = session.open(folder / "blocks.py")
        model, model_text = session.open(folder / "model.py")
        session.client.request("textDocument/inlayHint", {"textDocument": {"uri": model}, "range": whole(model_text)})
        times, refreshed = _flips(session, blocks, blocks_text, "scale_tile", model, model_text, rounds)
        in_file, _ = _flips(session, model, model_text, "gate_0", model, model_text, rounds)
        return {"signature_at_caller_median_ms": ms(statistics.median(times)), "signature_at_caller_max_ms": ms(max(times)),
                "refreshed": f"{refreshed}/{rounds}", "signature_in_file_median_ms": ms(statistics.median(in_file)),
                "signature_in_file_max_ms": ms(max(in_file))}
    finally:
        session.close()


def _flips(session: Session, kernel_uri: str, kernel_text: str, kernel: str, caller_uri: str, caller_text: str,
           rounds: int) -> tuple[list, int]:
    """`kernel`'s `dst: pl.Out[` made `pl.InOut[` and back, `rounds` times: the seconds until the caller's
    viewport shows the new direction at its call, and how often the editor was told to refresh."""
    caller_lines = caller_text.split("\n")
    call = next(i for i, line in enumerate(caller_lines) if re.search(rf"= {kernel}\(", line))
    kernel_lines = kernel_text.split("\n")
    header = next(i for i, ln in enumerate(kernel_lines) if ln.startswith(f"def {kernel}("))
    line = next(i for i in range(header, len(kernel_lines)) if kernel_lines[i].strip().startswith("dst: pl.Out["))
    col = kernel_lines[line].index("pl.Out[") + len("pl.")
    times, refreshed = [], 0
    for r in range(rounds):
        before = _direction(session.hints(caller_uri, call, call + 1), call, "dst")
        refreshes = session.client.answered[REFRESH]
        started = time.perf_counter()
        if r % 2 == 0:
            session.change(kernel_uri, line, col, line, col + len("Out"), "InOut")
        else:
            session.change(kernel_uri, line, col, line, col + len("InOut"), "Out")
        while _direction(session.hints(caller_uri, call, call + 1), call, "dst") == before:
            if time.perf_counter() - started > 30:
                raise SystemExit(f"the hint at {kernel}'s call never changed")
            time.sleep(0.01)
        times.append(time.perf_counter() - started)
        if kernel_uri != caller_uri:  # (the edited document's own hints are asked again by the editor)
            deadline = time.perf_counter() + 2
            while session.client.answered[REFRESH] == refreshes and time.perf_counter() < deadline:
                time.sleep(0.01)
            refreshed += session.client.answered[REFRESH] > refreshes
    return times, refreshed


def scope_write_lens(folder: Path, rounds: int) -> dict:
    session = Session(folder, {})  # the default settings: scope headers are lenses
    try:
        model, text = session.open(folder / "model.py")
        lines = text.split("\n")
        header = next(i for i, line in enumerate(lines) if 'name_hint="tiles_' in line)
        load = next(i for i in range(header, len(lines)) if "pl.load(" in lines[i])
        src = re.search(r"pl\.load\((\w+),", lines[load]).group(1)
        indent = re.match(r"\s*", lines[header + 1]).group(0)
        write = f"{indent}pl.write({src}, [0, 0], 0.0)\n"

        def lens() -> str:
            lenses = session.client.request("textDocument/codeLens", {"textDocument": {"uri": model}}) or []
            return next((c["command"]["title"] for c in lenses if c["range"]["start"]["line"] == header
                         and c.get("command") and src in c["command"]["title"]), "")
        first = lens()
        times = []
        for r in range(rounds):
            before = lens()
            started = time.perf_counter()
            if r % 2 == 0:
                session.change(model, header + 1, 0, header + 1, 0, write)
            else:
                session.change(model, header + 1, 0, header + 2, 0, "")
            after = lens()
            times.append(time.perf_counter() - started)
            if after == before:
                raise SystemExit(f"the scope's lens did not change: {before!r}")
        return {"scope_write_lens_median_ms": ms(statistics.median(times)), "scope_write_lens_max_ms": ms(max(times)),
                "lens": first}
    finally:
        session.close()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--ext", type=Path, default=REPO.parent / "ext",
                        help="where checked-out copies of pypto-lib/ and pypto/ live (default ../ext)")
    parser.add_argument("--file", type=Path, action="append", help="another pl file to measure (repeatable)")
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    args = parser.parse_args(argv)
    rows: dict = {}
    with tempfile.TemporaryDirectory(prefix="bench_fresh_") as tmp:
        for size in (1000, 3000):
            main_file = write_model(Path(tmp) / f"family_{size}", size)
            row = edit_fresh(main_file, main_file.parent, args.rounds)
            row.update(signature_at_caller(main_file.parent, args.rounds))
            row.update(scope_write_lens(main_file.parent, args.rounds))
            rows[f"family {size}"] = row
        files = [args.ext / rel for rel in REAL_MODELS if (args.ext / rel).is_file()] + list(args.file or [])
        for path in files:
            rows[path.name] = edit_fresh(path.resolve(), path.resolve().parent, args.rounds)
    columns = [("lines", "lines"), ("cold_ms", "cold"), ("edit_fresh_median_ms", "edit p50"),
               ("edit_fresh_max_ms", "edit max"), ("novel_edit_fresh_median_ms", "novel p50"),
               ("novel_edit_fresh_max_ms", "novel max"), ("blank_line_fresh_median_ms", "blank line p50"),
               ("keystroke_moved_p95_ms", "moved p95"),
               ("signature_at_caller_median_ms", "signature p50"), ("refreshed", "refreshed"),
               ("signature_in_file_median_ms", "in file p50"),
               ("scope_write_lens_median_ms", "scope lens p50")]
    print("\nFreshness through LSP (ms). edit: an edit -> the whole document's fresh hints; novel: the same for "
          "a new operator call each round; blank line: the same for a blank line typed after a pause; "
          "moved: a keystroke's "
          "viewport meanwhile; signature: a kernel's pl.Out -> pl.InOut seen at its caller in another open file "
          "(refreshed: the editor told to ask again), in file: the same for a kernel in its caller's file; "
          "scope lens: a write added to a scope seen in its lens")
    print(describe())
    print(f"{'shape':24}" + "".join(f"{title:>15}" for _, title in columns))
    for name, row in rows.items():
        print(f"{name:24}" + "".join(f"{str(row.get(key, '-')):>15}" for key, _ in columns))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
