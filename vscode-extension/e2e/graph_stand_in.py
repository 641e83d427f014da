"""A stand-in language server for the e2e's task-graph step, until the real server offers
pyptoLens.taskGraph: it speaks LSP over stdio (standard library only), lists that command and a
CodeLens provider, and answers both with the graph of `main` in e2e/workspace/scale.py written
out here by hand per the task-graph contract. It reads nothing of the document. The e2e runs it
through a wrapper named as the interpreter (pyptoLens.interpreter), then goes back to the real one.
"""
import json
import sys

SCALE_MAIN = {
    "function": "main", "file": "scale.py", "line": 28, "host": False, "manual": False,
    "tasks": [
        {"id": 0, "name": "scale", "kind": "call", "line": 30, "col": 19, "end_line": 30, "end_col": 40,
         "loops": [], "branch": False, "manual": False, "tid": None,
         "args": [{"param": "src", "text": "a", "buffer": "a", "direction": "Input", "region": "whole"},
                  {"param": "dst", "text": "squares", "buffer": "squares", "direction": "OutputExisting", "region": "whole"}]},
        {"id": 1, "name": "accumulate", "kind": "call", "line": 33, "col": 21, "end_line": 33, "end_col": 52,
         "loops": [0], "branch": False, "manual": False, "tid": None,
         "args": [{"param": "acc", "text": "total", "buffer": "total", "direction": "InOut", "region": "whole"},
                  {"param": "x", "text": "squares", "buffer": "squares", "direction": "Input", "region": "whole"}]},
    ],
    "loops": [{"id": 0, "kind": "range", "line": 32, "trips": 4, "parent": None}],
    "edges": [
        {"from": 0, "to": 1, "rule": "G4", "kind": "raw", "buffer": "squares", "carried": False, "overlap": "certain", "redundant": False},
        {"from": 1, "to": 1, "rule": "G5", "kind": "waw", "buffer": "total", "carried": True, "overlap": "certain", "redundant": False},
    ],
    "hazards": [],
    "counts": {"tasks": 2, "edges": 2, "hazards": 0},
}


def read():
    length = 0
    while True:
        line = sys.stdin.buffer.readline()
        if not line:
            return None
        line = line.strip()
        if not line:
            break
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return json.loads(sys.stdin.buffer.read(length))


def write(message):
    body = json.dumps(message).encode()
    sys.stdout.buffer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    sys.stdout.buffer.flush()


def answer(method, params):
    if method == "initialize":
        return {"capabilities": {"textDocumentSync": 1, "codeLensProvider": {},
                                 "executeCommandProvider": {"commands": ["pyptoLens.taskGraph"]}},
                "serverInfo": {"name": "pypto-lens-stand-in", "version": "0"}}
    if method == "textDocument/codeLens":
        uri = params["textDocument"]["uri"]
        if not uri.endswith("/scale.py"):
            return []
        counts = SCALE_MAIN["counts"]
        return [{"range": {"start": {"line": 27, "character": 4}, "end": {"line": 27, "character": 12}},
                 "command": {"title": f"Task graph: {counts['tasks']} tasks, {counts['edges']} edges, {counts['hazards']} hazards",
                             "command": "pyptoLens.showTaskGraph", "arguments": [{"uri": uri, "function": "main"}]}}]
    if method == "workspace/executeCommand" and params.get("command") == "pyptoLens.taskGraph":
        request = (params.get("arguments") or [{}])[0]
        uri = request.get("uri", "")
        graph = SCALE_MAIN if uri.endswith("/scale.py") and request.get("function", "main") == "main" else None
        return {"uri": uri, "functions": ["main"] if uri.endswith("/scale.py") else [], "graph": graph}
    return None


def main():
    while True:
        message = read()
        if message is None or message.get("method") == "exit":
            return
        if "id" in message and "method" in message:
            write({"jsonrpc": "2.0", "id": message["id"], "result": answer(message["method"], message.get("params") or {})})


if __name__ == "__main__":
    main()
