#!/usr/bin/env python3
"""Benchmark program shapes like PyPTO's models, through LSP and through the analysis API (issue 8).

  python tools/bench_models.py [--edits 10] [--ext DIR] [--file F ...] [--no-lsp] [--no-api]

Shapes: generated model families (tools/gen_model.py: one @pl.jit family of
1,000 and 3,000 lines with dozens of pl.at / pl.spmd scopes, inline helpers,
nested loops and imports from sibling files), the 5,000-line file of
../shared/tools/genpl.py (the reference the ratios are taken to) and its 50,000-line one (a
keystroke's cost should not follow the file's size), and PyPTO's real models when checked-out copies are found under --ext (default ../ext:
pypto-lib/ and pypto/ there) or given with --file (their folder is the
workspace, so their imports resolve).

For each shape: cold open (open the file, all its hints), then --edits
keystrokes at each of several places (inside a scope body, in a kernel
signature, in an inline helper, on a call line near the middle), once as a
trailing comment (`#`: no analysis changes) and once as code (`code`: a `z`
typed at the line's first column, so its function is analysed again), each followed
at once by a request for the hints of the ~60 lines around it and a hover
there; p50/p95 per place, memory, and the ratio of each figure to the genpl
5,000-line file's. Through LSP the server runs over stdio as VS Code would
drive it (hint refresh supported: a viewport may be answered from the last
analysis moved through the edits, then refreshed); through the API (the
analysis itself, what a refresh waits for) a fresh process uses analysis.Workspace directly.
Figures are wall clock on a shared machine (compare by ratios); nothing is
asserted.
"""
from __future__ import annotations

import argparse
import gc
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TOOLS = Path(__file__).resolve().parent
REPO = TOOLS.parent
sys.path.insert(0, str(TOOLS))

from bench_server import Rpc  # noqa: E402
from gen_model import write_model  # noqa: E402

REAL_MODELS = ["pypto-lib/models/deepseek_v4_flash_dspark/dspark_drafter.py",
               "pypto-lib/models/deepseek_v4_flash_mtp/prefill_cp_csa.py",
               "pypto/examples/models/08_llama_mini.py"]
SETTINGS = {"pyptoLens": {"inlayHints": {"enabled": True, "input": True, "output": True, "inout": True,
                                         "noDep": True, "scopeHeaders": True, "labelStyle": "full"}}}
# as VS Code: the server may answer a viewport from the last analysis and refresh the hints later
CAPABILITIES = {"workspace": {"inlayHint": {"refreshSupport": True}}}
_SCOPE = re.compile(r"^\s*(with\s+pl\.(at|spmd|cluster)\(|for\s+\w+\s+in\s+pl\.spmd\()")
_DEF = re.compile(r"^(\s*)def\s+(\w+)\s*\(")


# -- where to type ------------------------------------------------------------------------


def _typeable(line: str) -> bool:
    """A line a trailing comment can be typed at without changing its meaning."""
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith("#") and not line.rstrip().endswith("\\") \
        and '"""' not in line and "'''" not in line and "#" not in line


def _nearest(candidates: list[int], middle: int):
    return min(candidates, key=lambda i: abs(i - middle)) if candidates else None


def _decorators(lines: list[str], def_line: int) -> str:
    out, i = [], def_line - 1
    while i >= 0 and lines[i].lstrip().startswith("@"):
        out.append(lines[i].strip())
        i -= 1
    return " ".join(out)


def _body_lines(lines: list[str], header: int) -> list[int]:
    """The lines of the block a header opens (a def's body after its signature, a scope's body)."""
    start = header
    while start < len(lines) and not lines[start].rstrip().endswith(":"):
        start += 1  # a multi-line header
    indent = len(lines[header]) - len(lines[header].lstrip())
    out = []
    for i in range(start + 1, len(lines)):
        if lines[i].strip() and len(lines[i]) - len(lines[i].lstrip()) <= indent:
            break
        out.append(i)
    return out


def places(text: str, hinted: set[int]) -> dict[str, int]:
    """Line numbers to type at: inside a scope body, in a kernel signature, in an inline helper,
    on a hinted call line; each the one nearest the middle of the file (absent when there is none)."""
    lines = text.split("\n")
    middle = len(lines) // 2
    found: dict[str, int] = {}
    scope_body = [b for i, ln in enumerate(lines) if _SCOPE.match(ln)
                  for b in _body_lines(lines, i)[:1] if _typeable(lines[b])]
    defs = [i for i, ln in enumerate(lines) if _DEF.match(ln)]
    kernels = [i for i in defs if re.search(r"incore|InCore|\bAIV\b|\bAIC\b", _decorators(lines, i))]
    signature = []
    for i in kernels:  # the def line, or a parameter line of a multi-line signature
        end = i
        while end < len(lines) - 1 and not lines[end].rstrip().endswith(":"):
            end += 1
        signature.append(next((k for k in range(i + 1, end) if _typeable(lines[k])), i))
    helpers = [b for i in defs if "jit.inline" in _decorators(lines, i) or "FunctionType.Inline" in _decorators(lines, i)
               for b in _body_lines(lines, i)[:3] if _typeable(lines[b])]
    calls = [i for i in sorted(hinted) if _typeable(lines[i]) and "(" in lines[i]]
    for name, candidates in (("scope body", scope_body), ("kernel signature", signature),
                             ("inline helper", helpers), ("call line", calls)):
        line = _nearest(candidates, middle)
        if line is not None and _typeable(lines[line]):
            found[name] = line
    return found


COMMENT, CODE = "#", "code"  # a trailing comment typed (no analysis changes), or code: a `z` typed
# at the line's first column of code, again and again (`x = ...` becomes `zzx = ...`: what the line
# binds changes, or it stops parsing: the function is lowered and its program analysed again)


def _runs(found: dict) -> list:
    """Each place, typed at in both ways."""
    return [(item, mode) for item in found.items() for mode in (COMMENT, CODE)]


def typed(n: int) -> str:
    return "  #" if n == 0 else "x"


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def figures(times: list[float]) -> dict:
    return {"p50_ms": round(statistics.median(times) * 1000, 1), "p95_ms": round(pct(times, 0.95) * 1000, 1)}


def memory_mb(pid: str = "self") -> dict:
    out = {}
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(("VmRSS:", "VmHWM:")):
                out["rss_mb" if line.startswith("VmRSS") else "peak_mb"] = round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return out


# -- through LSP ----------------------------------------------------------------------------


def hinted_lines(hints) -> set[int]:
    return {h["position"]["line"] for h in hints or []}


def bench_lsp(path: Path, root: Path, edits: int) -> dict:
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    rpc = Rpc([sys.executable, "-m", "pypto_lens"])
    try:
        rpc.request("initialize", {"processId": None, "rootUri": root.as_uri(),
                                   "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
                                   "capabilities": CAPABILITIES, "initializationOptions": SETTINGS})
        rpc.notify("initialized", {})
        uri = path.as_uri()
        everything = {"start": {"line": 0, "character": 0}, "end": {"line": len(lines), "character": 0}}
        started = time.perf_counter()
        rpc.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1,
                                                             "text": text}})
        hints = rpc.request("textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": everything}) or []
        result = {"lines": len(lines), "hints": len(hints), "cold_ms": round((time.perf_counter() - started) * 1000, 1)}
        result.update(memory_mb(str(rpc.proc.pid)))
        version = 1
        result["places"] = {}
        for (name, line), mode in _runs(places(text, hinted_lines(hints))):
            column = len(lines[line]) if mode == COMMENT else len(lines[line]) - len(lines[line].lstrip())
            keystrokes, hovers = [], []
            for n in range(edits):
                version += 1
                text_typed = typed(n) if mode == COMMENT else "z"
                change = {"range": {"start": {"line": line, "character": column},
                                    "end": {"line": line, "character": column}}, "text": text_typed}
                if mode == COMMENT:
                    column += len(text_typed)
                visible = {"start": {"line": max(0, line - 30), "character": 0},
                           "end": {"line": min(len(lines) - 1, line + 30), "character": 0}}
                started = time.perf_counter()
                rpc.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                      "contentChanges": [change]})
                rpc.request("textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": visible})
                keystrokes.append(time.perf_counter() - started)
                indent = len(lines[line]) - len(lines[line].lstrip())
                started = time.perf_counter()
                rpc.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                   "position": {"line": line, "character": indent + 1}})
                hovers.append(time.perf_counter() - started)
            result["places"][f"{name} {mode}"] = {"line": line + 1, **figures(keystrokes),
                                                  "hover_p95_ms": figures(hovers)["p95_ms"]}
        result.update({"end_" + k: v for k, v in memory_mb(str(rpc.proc.pid)).items()})
        rpc.request("shutdown", None)
        rpc.notify("exit", None)
    finally:
        try:
            rpc.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            rpc.proc.kill()
    return result


# -- through the analysis API (in a fresh process, so that its memory is its own) -----------


def bench_api(path: Path, root: Path, edits: int) -> dict:
    from pypto_lens.workspace.documents import OpenTexts
    from pypto_lens.workspace.workspace import Workspace, path_to_uri
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    before = memory_mb()
    texts = OpenTexts()
    workspace = Workspace([root], open_documents=texts)
    uri = path_to_uri(path)
    texts.open(uri, text, 1)
    started = time.perf_counter()
    analysis = workspace.analysis(uri)
    result = {"lines": len(lines), "cold_ms": round((time.perf_counter() - started) * 1000, 1)}
    gc.collect()
    gc.freeze()  # as the server does after its first analysis
    hinted = {c.range.line for c in analysis.calls} if analysis else set()
    version = 1
    result["places"] = {}
    for (name, line), mode in _runs(places(text, hinted)):
        times = []
        for n in range(edits):
            version += 1
            if mode == COMMENT:
                lines[line] += typed(n)
            else:
                indent = len(lines[line]) - len(lines[line].lstrip())
                lines[line] = lines[line][:indent] + "z" + lines[line][indent:]
            texts.change(uri, "\n".join(lines), version)
            started = time.perf_counter()
            workspace.analysis(uri)
            times.append(time.perf_counter() - started)
        result["places"][f"{name} {mode}"] = {"line": line + 1, **figures(times)}
    after = memory_mb()
    result["end_rss_mb"] = after.get("rss_mb")
    result["peak_mb"] = after.get("peak_mb")
    result["grown_mb"] = round(after.get("rss_mb", 0) - before.get("rss_mb", 0), 1)
    return result


def api_in_child(path: Path, root: Path, edits: int) -> dict:
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--api-child", str(path), str(root),
                          str(edits)], capture_output=True, text=True, cwd=str(REPO))
    if out.returncode != 0:
        return {"error": out.stderr.strip().splitlines()[-1:] or ["failed"]}
    return json.loads(out.stdout.strip().splitlines()[-1])


# -- the report -----------------------------------------------------------------------------


def shapes(args, scratch: Path) -> list[tuple[str, Path, Path]]:
    out = []
    genpl = REPO.parent / "shared" / "tools" / "genpl.py"
    if genpl.is_file():
        sys.path.insert(0, str(genpl.parent))
        from genpl import generate
        for size in (5000, 50000):
            generated = scratch / f"genpl_{size}" / f"genpl_{size}.py"
            generated.parent.mkdir(parents=True)
            generated.write_text(generate(size, 1), encoding="utf-8")
            out.append((f"genpl {size}", generated, generated.parent))
    for lines in (1000, 3000):
        main = write_model(scratch / f"family_{lines}", lines)
        out.append((f"family {lines}", main, main.parent))
    for rel in REAL_MODELS:
        path = args.ext / rel
        if path.is_file():
            out.append((rel.split("/")[0] + ":" + path.name, path.resolve(), path.resolve().parent))
        else:
            print(f"(not found, skipped: {path})", file=sys.stderr)
    for extra in args.file or []:
        out.append((extra.name, extra.resolve(), extra.resolve().parent))
    return out


def report(title: str, rows: list[tuple[str, dict]], memory_keys: tuple[str, ...]) -> None:
    print(f"\n{title}")
    reference = dict(rows).get("genpl 5000")
    ref_p95 = max((p["p95_ms"] for p in reference["places"].values()), default=None) if reference else None
    header = f"{'shape':34} {'lines':>6} {'cold_ms':>8} {'cold/ref':>8}  {'place':22} {'line':>5} " \
             f"{'p50_ms':>7} {'p95_ms':>7} {'p95/ref':>7} {'hover95':>7}  " + " ".join(f"{k:>10}" for k in memory_keys)
    print(header)
    for name, r in rows:
        if "error" in r:
            print(f"{name:34} error: {r['error']}")
            continue
        cold_ratio = f"{r['cold_ms'] / reference['cold_ms']:.2f}" if reference else "-"
        memory = " ".join(f"{str(r.get(k, '-')):>10}" for k in memory_keys)
        first = True
        for place, p in r["places"].items() or [("-", {})]:
            ratio = f"{p['p95_ms'] / ref_p95:.2f}" if ref_p95 else "-"
            lead = f"{name:34} {r['lines']:>6} {r['cold_ms']:>8} {cold_ratio:>8}" if first else " " * 59
            print(f"{lead}  {place:22} {p['line']:>5} {p['p50_ms']:>7} {p['p95_ms']:>7} {ratio:>7} "
                  f"{str(p.get('hover_p95_ms', '-')):>7}  " + (memory if first else ""))
            first = False


def main(argv=None) -> int:
    if argv is None and sys.argv[1:2] == ["--api-child"]:
        path, root, edits = Path(sys.argv[2]), Path(sys.argv[3]), int(sys.argv[4])
        print(json.dumps(bench_api(path, root, edits)))
        return 0
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--edits", type=int, default=10, help="keystrokes at each place (default 10)")
    parser.add_argument("--ext", type=Path, default=REPO.parent / "ext",
                        help="where checked-out copies of pypto-lib/ and pypto/ live (default ../ext)")
    parser.add_argument("--file", type=Path, action="append", help="another pl file to measure (repeatable)")
    parser.add_argument("--no-lsp", action="store_true", help="skip the measurements through the server")
    parser.add_argument("--no-api", action="store_true", help="skip the measurements through the analysis API")
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench_models_") as tmp:
        todo = shapes(args, Path(tmp))
        everything: dict = {}
        if not args.no_lsp:
            rows = [(name, bench_lsp(path, root, args.edits)) for name, path, root in todo]
            everything["lsp"] = dict(rows)
            report("Through LSP (server over stdio): cold open = open + all hints; keystroke = didChange + the "
                   "visible hints; memory of the server (MB)", rows, ("rss_mb", "end_rss_mb", "end_peak_mb"))
        if not args.no_api:
            rows = [(name, api_in_child(path, root, args.edits)) for name, path, root in todo]
            everything["api"] = dict(rows)
            report("Through the analysis API (Workspace.analysis in a fresh process): memory of that process (MB)",
                   rows, ("grown_mb", "peak_mb"))
    if args.json:
        args.json.write_text(json.dumps(everything, indent=1), encoding="utf-8")
    print("\nref = genpl 5000 (p95/ref: a place's p95 over the reference's worst place p95)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
