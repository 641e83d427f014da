"""Prints the workspace/executeCommand commands the bundled server lists in its capabilities,
one a line: the e2e runs its task-graph step only once the server offers pyptoLens.taskGraph.

    python -I scripts/server_commands.py bundled/tool/pypto_lens_server.py
"""
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from smoke_server import receive, send  # noqa: E402  (the same stdio LSP framing)


def main() -> int:
    script = os.path.abspath(sys.argv[1])
    proc = subprocess.Popen([sys.executable, "-I", "-B", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, cwd="/")
    deadline = time.monotonic() + 60
    try:
        send(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                    "params": {"processId": None, "rootUri": None, "capabilities": {}}})
        capabilities = receive(proc, 1, deadline)["capabilities"]
        send(proc, {"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
        receive(proc, 2, deadline)
        send(proc, {"jsonrpc": "2.0", "method": "exit"})
    finally:
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
    for command in (capabilities.get("executeCommandProvider") or {}).get("commands", []):
        print(command)
    return 0


if __name__ == "__main__":
    sys.exit(main())
