#!/usr/bin/env python3
"""A long editing session against the real server: are its answers still right, does its memory stay flat?

  python tools/soak.py [--seconds 120] [--seed 1] [--steps N] [--models 8] [--lines 300] [--folder DIR]
                       [--families FILES --open 12] [--disk 0.0] [--burst 200]
                       [--max-growth 1.1] [--tracemalloc [FRAMES]] [--group traceback|lineno|filename]
                       [--top 15] [--max-mb 3000] [--server CMD]

Writes a workspace of model-like files that import each other (tools/gen_model.py's family:
shapes.py, blocks.py, and model_K.py, each of which also calls a kernel of model_K-1), or takes
the pl files of --folder. Starts `python -m pypto_lens` over stdio with that folder as its
workspace, opens every file, analyses each once (hints and diagnostics: the warm mark), then,
until the time is up, edits as a user does: types and deletes tokens a character at a time,
deletes and duplicates lines, flips `pl.Out[` / `pl.InOut[` in signatures (callers in other files
must follow), reverts a file, closes a file without saving and reopens it, changes settings, and
asks for hints, hovers, diagnostics, code lenses and task graphs throughout.

`--families FILES` writes a workspace of that many files instead (tools/gen_model.py --files:
families of shapes.py, blocks.py and model.py, a folder each) and edits --open of them (model.py of
two thirds, blocks.py of the rest of the first families); the others are never opened. `--disk P`
makes a step, with that probability, a change on disk instead (tools/soak_disk.py: a file not open
rewritten, an open one saved, a branch switch of up to --burst files, a file deleted or made again),
each told to the server as an editor's file watcher tells it.

At the end every file is open with its final text, and a fresh server given the same texts must
answer the same hints, resolved tooltips, hovers, diagnostics and code lenses. Memory is the
server's resident set after the cycle collector ran (`pyptoLens/memory`, else /proc), after the
warm mark and at the end. `--tracemalloc` has the server trace allocations from the warm mark on
and prints the sites that grew the most (what to fix; tracing makes the server slower and
bigger, so the growth figure of such a run is not the one to judge: 1 frame finds the lines that
hold the memory, 5 to 10 who called them, at a few times to tens of times the cost).

Prints the figures; exits 1 when an answer differs, the server failed or logged an error, or the
memory grew by more than --max-growth. Figures, not timings: nothing here is a timed assertion.
"""
from __future__ import annotations

import argparse
import json
import random
import re
import shlex
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_model import BLOCKS_FILE, ROW, SHAPES, model  # noqa: E402
from gen_model import write_families  # noqa: E402
from lsp_client import LspClient, LspError  # noqa: E402
from soak_disk import Disk  # noqa: E402

WHOLE = {"start": {"line": 0, "character": 0}, "end": {"line": 10**6, "character": 0}}
CAPABILITIES = {
    "general": {"positionEncodings": ["utf-16"]},
    "workspace": {"configuration": True, "didChangeConfiguration": {}, "workspaceFolders": True,
                  "didChangeWatchedFiles": {"dynamicRegistration": True}},
    "textDocument": {
        "synchronization": {"didSave": True},
        "hover": {"contentFormat": ["markdown", "plaintext"]},
        "inlayHint": {"resolveSupport": {"properties": ["tooltip"]}},
        "diagnostic": {"relatedDocumentSupport": False},
        "codeLens": {},
        "codeAction": {"codeActionLiteralSupport": {"codeActionKind": {"valueSet": ["quickfix"]}}},
    },
}
TOKENS = ["x", "1", " + 1", "pl.", "(", ")", ",", ":", "[", "tmp", "# note", "src", " = ", "pl.load(", "dst"]
SETTINGS = [{}, {"inlayHints": {"scalar": True}}, {"hazards": {"information": True}},
            {"inlayHints": {"signatures": False}}, {"diagnostics": {"misuse": False}}]


# -- the workspace ----------------------------------------------------------------------------------

CHAIN = f'''

@pl.jit
def chain_entry(x: {ROW}, gate: {ROW}, out: pl.Out[{ROW}]):
    out = prev_gate_0(x, gate, out)
    out = prev_gate_1(x, gate, out)
    return out
'''


def write_workspace(folder: Path, models: int, lines: int, seed: int) -> list[Path]:
    """shapes.py, blocks.py and model_0..model_{models-1}.py; model_K also calls model_K-1's kernels."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "shapes.py").write_text(SHAPES, encoding="utf-8")
    (folder / "blocks.py").write_text(BLOCKS_FILE, encoding="utf-8")
    for k in range(models):
        text = model(lines, seed + k)
        if k:
            imports = f"from model_{k - 1} import gate_0 as prev_gate_0, gate_1 as prev_gate_1\n"
            text = text.replace("from shapes import", imports + "from shapes import", 1) + CHAIN
        (folder / f"model_{k}.py").write_text(text, encoding="utf-8")
    return sorted(folder.glob("*.py"))


def edited_families(folder: Path, files: int, lines: int, seed: int, opened: int) -> list[Path]:
    """A workspace of `files` generated files; the editor's documents: model.py of two thirds of `opened`
    families, blocks.py of the first of them (the rest of those families' blocks.py stay closed, on disk)."""
    write_families(folder, files, lines, seed)
    models = (2 * opened + 2) // 3
    return ([folder / f"family_{k:03}" / "model.py" for k in range(models)]
            + [folder / f"family_{k:03}" / "blocks.py" for k in range(opened - models)])


def pl_files(folder: Path, limit: int) -> list[Path]:
    found = sorted(p for p in folder.rglob("*.py") if "pl." in p.read_text(encoding="utf-8", errors="replace")
                   or p.name == "shapes.py")
    return found[:limit]


# -- text and positions (UTF-16, as negotiated) -----------------------------------------------------

def utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def position(text: str, offset: int) -> dict:
    line = text.count("\n", 0, offset)
    start = text.rfind("\n", 0, offset) + 1
    return {"line": line, "character": utf16(text[start:offset])}


def line_starts(text: str) -> list[int]:
    return [0] + [m.end() for m in re.finditer("\n", text)]


class Document:
    """One file as the editor holds it: its text, its version, whether it is open."""

    def __init__(self, path: Path):
        self.path = path
        self.uri = path.as_uri()
        self.disk = path.read_text(encoding="utf-8", errors="replace")
        self.text = self.disk
        self.version = 1
        self.open = False
        self.hints: list = []  # the latest hints the server gave for it

    def change(self, start: int, end: int, new: str) -> dict:
        """Replace text[start:end]; the LSP change that says so."""
        change = {"range": {"start": position(self.text, start), "end": position(self.text, end)}, "text": new}
        self.text = self.text[:start] + new + self.text[end:]
        self.version += 1
        return change


# -- the session --------------------------------------------------------------------------------------

@dataclass
class Result:
    files: int = 0
    seconds: float = 0.0
    steps: int = 0
    counts: dict = field(default_factory=lambda: dict.fromkeys(
        ["edits", "flips", "line_edits", "reverts", "closes", "settings", "requests"], 0))
    warm_kb: Optional[int] = None
    peak_kb: Optional[int] = None
    end_kb: Optional[int] = None
    equal: int = 0
    differences: list = field(default_factory=list)
    failures: list = field(default_factory=list)
    grown_sites: list = field(default_factory=list)
    stopped: str = ""  # why the session ended before its time
    traced_kb: tuple = ()  # (warm, end) of the live Python objects, with --tracemalloc
    chars: tuple = ()  # (warm, end): the open documents' texts, whose analyses memory follows
    collected: Optional[int] = None  # objects the end's collection found in reference cycles

    @property
    def growth(self) -> Optional[float]:
        return round(self.end_kb / self.warm_kb, 3) if self.warm_kb and self.end_kb else None


def start(command: list[str], root: Path, log: Path) -> LspClient:
    client = LspClient(command, cwd=root, log=log)
    client.initialize(root, CAPABILITIES)
    return client


def open_document(client: LspClient, doc: Document) -> None:
    client.notify("textDocument/didOpen", {"textDocument": {"uri": doc.uri, "languageId": "python",
                                                           "version": doc.version, "text": doc.text}})
    doc.open = True


def hints(client: LspClient, doc: Document, around: Optional[int] = None) -> list:
    if around is None:
        window = WHOLE
    else:
        window = {"start": {"line": max(0, around - 40), "character": 0}, "end": {"line": around + 40, "character": 0}}
    found = client.request("textDocument/inlayHint", {"textDocument": {"uri": doc.uri}, "range": window}) or []
    if around is None:
        doc.hints = found
    return found


def diagnostics(client: LspClient, doc: Document) -> list:
    report = client.request("textDocument/diagnostic", {"textDocument": {"uri": doc.uri}}) or {}
    return report.get("items", [])


def hover(client: LspClient, doc: Document, at: dict):
    return client.request("textDocument/hover", {"textDocument": {"uri": doc.uri}, "position": at})


def code_lenses(client: LspClient, doc: Document) -> list:
    return client.request("textDocument/codeLens", {"textDocument": {"uri": doc.uri}}) or []


def memory(client: LspClient, **params) -> dict:
    """The server's memory after a collection (pyptoLens/memory; /proc when the server has no such request)."""
    try:
        return client.request("pyptoLens/memory", {"collect": True, **params}) or {}
    except LspError:
        return {"rssKb": proc_rss_kb(client.proc.pid)}


def settle(client: LspClient) -> None:
    """Wait until the server's background work is done (pyptoLens/settled): a helper's lent scope headers
    come a second or more after the last change, and two servers are compared as they settle."""
    client.request("pyptoLens/settled")


def proc_rss_kb(pid: int) -> Optional[int]:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return None


class Editor:
    """The random user: each step edits, closes, reopens or changes settings, and asks as an editor asks."""

    def __init__(self, client: LspClient, docs: list[Document], rng: random.Random, result: Result,
                 disk: Optional[Disk] = None, disk_share: float = 0.0):
        self.client, self.docs, self.rng, self.result = client, docs, rng, result
        self.disk, self.disk_share = disk, disk_share

    def step(self) -> None:
        if self.disk is not None and self.rng.random() < self.disk_share:
            self.disk.step()
            self.ask(self.rng.choice([d for d in self.docs if d.open] or self.docs), None)
            return
        doc = self.rng.choice(self.docs)
        if not doc.open:
            open_document(self.client, doc)
            self.ask(doc, None)
            return
        roll = self.rng.random()
        if roll < 0.02:
            self.close(doc)
        elif roll < 0.035:
            self.change_settings()
        elif roll < 0.06:
            self.replace(doc, doc.disk)
            self.result.counts["reverts"] += 1
        elif roll < 0.2:
            self.flip(doc)
        elif roll < 0.35:
            self.line_edit(doc)
        else:
            self.type_token(doc)
        if self.rng.random() < 0.3:  # what another open editor shows (follows cross-file edits)
            other = self.rng.choice([d for d in self.docs if d.open])
            self.ask(other, None if self.rng.random() < 0.3 else self.rng.randrange(other.text.count("\n") + 1))

    def send(self, doc: Document, change: dict) -> None:
        self.client.notify("textDocument/didChange", {"textDocument": {"uri": doc.uri, "version": doc.version},
                                                      "contentChanges": [change]})
        self.result.counts["edits"] += 1

    def ask(self, doc: Document, line: Optional[int]) -> None:
        """Hints of the visible lines and the diagnostics, and now and then a hover, code lenses, a graph."""
        found = hints(self.client, doc, line)
        diagnostics(self.client, doc)
        self.result.counts["requests"] += 2
        if found and self.rng.random() < 0.4:
            hover(self.client, doc, self.rng.choice(found)["position"])
            self.result.counts["requests"] += 1
        if self.rng.random() < 0.05:
            graph_lenses = [lens for lens in code_lenses(self.client, doc)
                            if lens.get("command", {}).get("command") == "pyptoLens.showTaskGraph"]
            for lens in graph_lenses[:2]:  # (the scopes' lenses run explainAt, with other arguments)
                self.client.request("workspace/executeCommand", {"command": "pyptoLens.taskGraph",
                                                                 "arguments": lens["command"]["arguments"]})
            self.result.counts["requests"] += 1

    def body_line(self, doc: Document) -> Optional[int]:
        lines = doc.text.split("\n")
        body = [n for n, text in enumerate(lines) if text.startswith("    ") and text.strip()]
        return self.rng.choice(body) if body else None

    def type_token(self, doc: Document) -> None:
        """A token typed a character at a time at a point of a function body, mostly deleted again."""
        line = self.body_line(doc)
        if line is None:
            return
        starts = line_starts(doc.text)
        end_of_line = doc.text.find("\n", starts[line])
        at = self.rng.randint(starts[line], end_of_line if end_of_line >= 0 else len(doc.text))
        token = self.rng.choice(TOKENS)
        for n, char in enumerate(token):
            self.send(doc, doc.change(at + n, at + n, char))
            if n % 2 == 0:
                self.ask(doc, line)
        if self.rng.random() < 0.8:
            for n in reversed(range(len(token))):
                self.send(doc, doc.change(at + n, at + n + 1, ""))
            self.ask(doc, line)

    def line_edit(self, doc: Document) -> None:
        """A body line deleted, or duplicated (a second call, a second store)."""
        line = self.body_line(doc)
        if line is None:
            return
        starts = line_starts(doc.text) + [len(doc.text)]
        begin, end = starts[line], starts[line + 1]
        if self.rng.random() < 0.5:
            self.send(doc, doc.change(begin, end, ""))
        else:
            self.send(doc, doc.change(begin, begin, doc.text[begin:end] if doc.text[begin:end].endswith("\n")
                                      else doc.text[begin:end] + "\n"))
        self.result.counts["line_edits"] += 1
        self.ask(doc, line)

    def flip(self, doc: Document) -> None:
        """pl.Out[ <-> pl.InOut[ in a signature: the callers, in this file and others, must follow."""
        found = list(re.finditer(r"pl\.(Out|InOut)\[", doc.text))
        if not found:
            return
        hit = self.rng.choice(found)
        self.send(doc, doc.change(hit.start(1), hit.end(1), "InOut" if hit.group(1) == "Out" else "Out"))
        self.result.counts["flips"] += 1
        self.ask(doc, doc.text.count("\n", 0, hit.start()))

    def replace(self, doc: Document, text: str) -> None:
        doc.text, doc.version = text, doc.version + 1
        self.send(doc, {"text": text})
        self.ask(doc, None)

    def close(self, doc: Document) -> None:
        """Closed without saving: the editor's text is gone, the file on disk is what imports see."""
        self.client.notify("textDocument/didClose", {"textDocument": {"uri": doc.uri}})
        doc.open, doc.text, doc.version = False, doc.disk, doc.version + 1
        self.result.counts["closes"] += 1

    def change_settings(self) -> None:
        self.client.settings = self.rng.choice(SETTINGS)
        self.client.notify("workspace/didChangeConfiguration", {"settings": {"pyptoLens": self.client.settings}})
        self.result.counts["settings"] += 1


def restore_default_settings(client: LspClient) -> None:
    """The defaults again, applied before the answers are compared: the server asks for the settings
    (workspace/configuration) when told they changed, and answers with the old ones until it has them."""
    asked = client.answered["workspace/configuration"]
    client.settings = {}
    client.notify("workspace/didChangeConfiguration", {"settings": {"pyptoLens": {}}})
    client.wait_until(lambda: client.answered["workspace/configuration"] > asked, "the server to ask for its settings")


def snapshot(client: LspClient, doc: Document) -> dict:
    """Everything compared with a fresh server: hints, tooltips, hovers at the hints, diagnostics, lenses."""
    found = hints(client, doc)
    resolved = [client.request("inlayHint/resolve", hint) for hint in found[:10]]
    hovers = [hover(client, doc, hint["position"]) for hint in found[:30]]
    return {"hints": found, "resolved": resolved, "hovers": hovers, "diagnostics": diagnostics(client, doc),
            "codeLens": code_lenses(client, doc)}


def first_difference(soaked: dict, fresh: dict) -> str:
    for part in soaked:
        if soaked[part] != fresh[part]:
            a, b = soaked[part], fresh[part]
            for n, (x, y) in enumerate(zip(a, b)):
                if x != y:
                    return f"{part}[{n}]: soaked {json.dumps(x)[:300]} / fresh {json.dumps(y)[:300]}"
            only_soaked, only_fresh = [x for x in a if x not in b], [y for y in b if y not in a]
            side, extra = ("soaked", only_soaked) if only_soaked else ("fresh", only_fresh)
            shown = f": only {side} has {json.dumps(extra[0])[:400]}" if extra else ""
            return f"{part}: soaked has {len(a)}, fresh {len(b)}{shown}"
    return ""


def logged_errors(client: LspClient) -> list[str]:
    return [line for line in client.log_path.read_text(errors="replace").splitlines() if line.startswith("ERROR")]


def run_soak(root: Path, paths: list[Path], seconds: float, seed: int, command: list[str], *,
             logs: Path, tracemalloc: int = 0, top: int = 15, max_steps: Optional[int] = None,
             group: str = "traceback", max_mb: float = 3000, disk_share: float = 0.0, burst: int = 200) -> Result:
    """The session (until `seconds` have passed, or after `max_steps` steps); its figures and what went wrong."""
    rng = random.Random(seed)
    docs = [Document(p) for p in paths]
    result = Result(files=len(docs))
    client = start(command, root, logs / "soaked.log")
    soaked: dict[str, dict] = {}
    try:
        for doc in docs:
            open_document(client, doc)
        for doc in docs:  # the first full analysis: the warm mark
            hints(client, doc)
            diagnostics(client, doc)
        warm = memory(client, **({"trace": tracemalloc, "mark": "warm", "group": group} if tracemalloc else {}))
        result.warm_kb = result.peak_kb = warm.get("rssKb")
        warm_chars = sum(len(doc.text) for doc in docs)
        disk = None
        if disk_share:
            def watched(changes: list) -> None:
                client.notify("workspace/didChangeWatchedFiles",
                              {"changes": [{"uri": path.as_uri(), "type": kind} for path, kind in changes]})
            disk = Disk(root, docs, watched, rng, burst)
        editor = Editor(client, docs, rng, result, disk, disk_share)
        began = time.monotonic()
        next_sample = began + 5
        steps = 0
        while time.monotonic() - began < seconds and (max_steps is None or steps < max_steps):
            editor.step()
            steps += 1
            if time.monotonic() > next_sample:
                result.peak_kb = max(result.peak_kb or 0, proc_rss_kb(client.proc.pid) or 0)
                next_sample = time.monotonic() + 2
                if result.peak_kb > max_mb * 1024:  # a shared machine: the answers are still compared
                    result.stopped = f"stopped after {steps} steps: the server's memory passed {max_mb:.0f} MB"
                    break
        result.steps = steps
        if disk is not None:
            result.counts.update(disk.counts)
        result.seconds = round(time.monotonic() - began, 1)
        restore_default_settings(client)
        for doc in docs:
            if not doc.open:
                open_document(client, doc)
        settle(client)
        soaked = {doc.uri: snapshot(client, doc) for doc in docs}
        end = memory(client, **({"since": "warm", "top": top, "group": group} if tracemalloc else {}))
        result.end_kb = end.get("rssKb")
        result.collected = end.get("collected")
        result.chars = (warm_chars, sum(len(doc.text) for doc in docs))
        result.peak_kb = max(result.peak_kb or 0, result.end_kb or 0)
        result.grown_sites = end.get("sites", [])
        if "tracedKb" in warm and "tracedKb" in end:
            result.traced_kb = (warm["tracedKb"], end["tracedKb"])
        result.failures += [f"the soaked server logged: {line}" for line in logged_errors(client)[:5]]
    except LspError as exc:
        result.failures.append(f"{exc}\n{client.log_tail()}")
    finally:
        client.close()
    if result.failures:
        return result
    fresh = start(command, root, logs / "fresh.log")
    try:
        for doc in docs:
            open_document(fresh, doc)
        settle(fresh)
        for doc in docs:
            difference = first_difference(soaked[doc.uri], snapshot(fresh, doc))
            if difference:
                result.differences.append(f"{doc.path.name}: {difference}")
            else:
                result.equal += 1
    except LspError as exc:
        result.failures.append(f"the fresh server: {exc}\n{fresh.log_tail()}")
    finally:
        fresh.close()
    return result


def report(result: Result, max_growth: float) -> int:
    for line in result.failures + result.differences[:20] + ([result.stopped] if result.stopped else []):
        print(line)
    counts = " ".join(f"{k}={v}" for k, v in result.counts.items())
    print(f"files={result.files} seconds={result.seconds} steps={result.steps} {counts}")
    kb = lambda v: f"{v / 1024:.1f} MB" if v is not None else "unknown"  # noqa: E731
    print(f"memory: warm {kb(result.warm_kb)} -> end {kb(result.end_kb)} (peak {kb(result.peak_kb)}), "
          f"growth {result.growth}")
    if result.collected is not None:  # garbage only the cycle collector frees (tests/test_reference_cycles.py)
        print(f"reference cycles: the end's collection freed {result.collected} objects")
    if result.chars:
        print(f"text: {result.chars[0]:,} -> {result.chars[1]:,} characters in the open documents")
    if result.traced_kb:
        print(f"traced (live Python objects allocated since warm): {kb(result.traced_kb[0])} -> "
              f"{kb(result.traced_kb[1])}")
    if result.grown_sites:
        print("grown since warm (KB, count, site: innermost frame first):")
        for site in result.grown_sites:
            print(f"  {site['kbDiff']:>10.1f} {site['countDiff']:>9} {site['site']}")
    print(f"{result.equal} of {result.files} files equal to a fresh server")
    failed = bool(result.failures or result.differences) or result.equal != result.files
    if result.growth is None:
        print("memory growth: unknown (no figure from the server)")
    elif result.growth > max_growth:
        print(f"memory grew {result.growth}x, more than {max_growth}x")
        failed = True
    return 1 if failed else 0


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--steps", type=int, help="stop after this many steps: with the same seed, the same session "
                                                  "(a failure's steps= figure replays it)")
    parser.add_argument("--models", type=int, default=8, help="generated model files (besides shapes and blocks)")
    parser.add_argument("--lines", type=int, default=300, help="lines of each generated model file")
    parser.add_argument("--folder", type=Path, help="soak the pl files of this folder instead")
    parser.add_argument("--families", type=int, metavar="FILES",
                        help="a workspace of this many generated files in families instead; --open of them edited")
    parser.add_argument("--open", type=int, default=12, help="with --families: the documents the editor works on")
    parser.add_argument("--disk", type=float, default=0.0, help="the share of steps that change files on disk")
    parser.add_argument("--burst", type=int, default=200, help="the files a branch switch rewrites at once")
    parser.add_argument("--max-files", type=int, default=40)
    parser.add_argument("--max-growth", type=float, default=1.1)
    parser.add_argument("--max-mb", type=float, default=3000,
                        help="end the editing early when the server's resident memory passes this")
    parser.add_argument("--tracemalloc", type=int, nargs="?", const=5, default=0, metavar="FRAMES",
                        help="trace allocations from the warm mark on, print the sites that grew (default 5 frames; "
                             "each frame more slows the server down)")
    parser.add_argument("--top", type=int, default=15, help="how many grown sites --tracemalloc prints")
    parser.add_argument("--group", choices=["traceback", "lineno", "filename"], default="traceback",
                        help="--tracemalloc's sites: by traceback, by allocating line, or by module")
    parser.add_argument("--server", default=f"{shlex.quote(sys.executable)} -m pypto_lens")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="pypto-lens-soak-") as tmp:
        if args.folder:
            root = args.folder.resolve()
            paths = pl_files(root, args.max_files)
        elif args.families:
            root = Path(tmp) / "workspace"
            paths = edited_families(root, args.families, args.lines, args.seed, args.open)
        else:
            root = Path(tmp) / "workspace"
            paths = write_workspace(root, args.models, args.lines, args.seed)
        result = run_soak(root, paths, args.seconds, args.seed, shlex.split(args.server), logs=Path(tmp),
                          tracemalloc=args.tracemalloc, top=args.top, max_steps=args.steps, group=args.group,
                          max_mb=args.max_mb, disk_share=args.disk, burst=args.burst)
        return report(result, args.max_growth)


if __name__ == "__main__":
    sys.exit(main())
