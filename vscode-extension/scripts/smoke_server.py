"""Smoke test of the server as the .vsix runs it: `python -I bundled/tool/pypto_lens_server.py`.

Speaks LSP over the server's stdio (standard library only): initialize, open a pl
program, ask for inlay hints; checks that the server came from bundled/libs and that
the hints name the directions.

    python -I scripts/smoke_server.py bundled/tool/pypto_lens_server.py
"""
import json
import os
import subprocess
import sys
import time

PROGRAM = '''import pypto.language as pl


@pl.program
class Smoke:
    @pl.function(type=pl.FunctionType.InCore)
    def copy(self, src: pl.Tensor[[16], pl.FP32], dst: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        t = pl.load(src, [0], [16])
        dst = pl.store(t, [0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16], pl.FP32]) -> pl.Tensor[[16], pl.FP32]:
        b = pl.create_tensor([16], dtype=pl.FP32)
        b = self.copy(a, b)
        return b
'''


def send(proc, message):
    body = json.dumps(message).encode()
    proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    proc.stdin.flush()


def receive(proc, wanted_id, deadline):
    while time.monotonic() < deadline:
        length = 0
        while True:
            line = proc.stdout.readline()
            if not line:
                raise SystemExit("smoke: the server closed its output")
            line = line.strip()
            if not line:
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        message = json.loads(proc.stdout.read(length))
        if message.get("id") == wanted_id and "method" not in message:
            if "error" in message:
                raise SystemExit(f"smoke: error {message['error']}")
            return message["result"]
        if "method" in message and "id" in message:  # a request to us: answer null
            send(proc, {"jsonrpc": "2.0", "id": message["id"], "result": None})
    raise SystemExit("smoke: no answer in time")


def imported_from_bundle(script: str) -> bool:
    """The packages the launcher puts first on sys.path are the bundled ones (not an installed copy)."""
    libs = os.path.join(os.path.dirname(os.path.dirname(script)), "libs")
    probe = ("import sys; sys.path.insert(0, sys.argv[1]); import pypto_lens, pypto_lens.server, pygls, lark; "
             "print('\\n'.join(m.__file__ for m in (pypto_lens, pypto_lens.server, pygls, lark)))")
    files = subprocess.run([sys.executable, "-I", "-c", probe, libs], capture_output=True, text=True,
                           check=True, cwd="/").stdout.split()
    outside = [f for f in files if not f.startswith(libs + os.sep)]
    for f in outside:
        print(f"smoke: {f} is not in {libs}")
    return not outside


def main() -> int:
    script = os.path.abspath(sys.argv[1])
    if not imported_from_bundle(script):
        return 1
    proc = subprocess.Popen([sys.executable, "-I", "-B", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, cwd="/")
    deadline = time.monotonic() + 60
    try:
        send(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                    "params": {"processId": None, "rootUri": None, "capabilities": {}}})
        info = receive(proc, 1, deadline)["serverInfo"]
        send(proc, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
        uri = "file:///smoke/demo.py"
        send(proc, {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "python", "version": 1, "text": PROGRAM}}})
        send(proc, {"jsonrpc": "2.0", "id": 2, "method": "textDocument/inlayHint", "params": {
            "textDocument": {"uri": uri}, "range": {"start": {"line": 0, "character": 0},
                                                   "end": {"line": 20, "character": 0}}}})
        hints = receive(proc, 2, deadline)
        send(proc, {"jsonrpc": "2.0", "id": 4, "method": "shutdown"})
        receive(proc, 4, deadline)
        send(proc, {"jsonrpc": "2.0", "method": "exit"})
    finally:
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
    labels = sorted("".join(part["value"] for part in h["label"]) if isinstance(h["label"], list) else h["label"]
                    for h in hints)
    # the exact directions are the analysis' business (its own tests); here: the server works
    if labels != ["OUT", "in"]:  # the default short words (sorted): dst OutputExisting, src Input
        print(f"smoke: hints {labels}, expected ['OUT', 'in']")
        return 1
    print(f"smoke: {info['name']} {info.get('version', '')} from the bundle answers: {', '.join(labels)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
