"""A small LSP client over a server's stdio for the team's tools (tools/soak.py): JSON in, JSON out.

Requests wait with a bound; the server's own requests are answered (`workspace/configuration`
with the client's settings, everything else with null); what the server writes to stderr goes
to a file, so that a full pipe never stalls it and a failure can show its log.
"""
from __future__ import annotations

import json
import os
from collections import Counter
import subprocess
import threading
from pathlib import Path
from typing import Any, Optional


class LspError(Exception):
    pass


class LspClient:
    def __init__(self, command: list[str], *, cwd: Path, log: Path, timeout: float = 120.0):
        self.timeout = timeout
        self.settings: dict = {}  # the `pyptoLens` section workspace/configuration answers
        self.log_path = log
        self._log = open(log, "wb")
        self.proc = subprocess.Popen(command, cwd=str(cwd), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self._log, env=dict(os.environ))
        self._next_id = 0
        self._answers: dict[int, dict] = {}
        self._arrived = threading.Condition()
        self._write_lock = threading.Lock()
        self._closed = False
        self.answered: Counter = Counter()  # the server's requests answered, by method
        threading.Thread(target=self._read_forever, name="lsp-client-reader", daemon=True).start()

    # -- the wire ----------------------------------------------------------------------------
    def _send(self, message: dict) -> None:
        body = json.dumps(message).encode("utf-8")
        with self._write_lock:
            try:
                self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
                self.proc.stdin.flush()
            except (BrokenPipeError, ValueError) as exc:
                raise LspError(f"the server is gone (exit status {self.proc.poll()})") from exc

    def _read_one(self) -> Optional[dict]:
        length = None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                return None
            line = line.strip()
            if not line:
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":", 1)[1])
        if length is None:
            return None
        return json.loads(self.proc.stdout.read(length))

    def _read_forever(self) -> None:
        while True:
            message = self._read_one()
            if message is None:
                with self._arrived:
                    self._closed = True
                    self._arrived.notify_all()
                return
            if "method" in message and "id" in message:
                self._answer_server(message)
            elif "id" in message:
                with self._arrived:
                    self._answers[message["id"]] = message
                    self._arrived.notify_all()

    def _answer_server(self, message: dict) -> None:
        result: Any = None
        if message["method"] == "workspace/configuration":
            items = (message.get("params") or {}).get("items") or []
            result = [self.settings if item.get("section") == "pyptoLens" else None for item in items]
        try:
            self._send({"jsonrpc": "2.0", "id": message["id"], "result": result})
        except LspError:
            pass
        with self._arrived:
            self.answered[message["method"]] += 1
            self._arrived.notify_all()

    def wait_until(self, predicate, what: str) -> None:
        """Until `predicate()` holds (checked as the server's messages arrive), within the timeout."""
        with self._arrived:
            if not self._arrived.wait_for(lambda: predicate() or self._closed, self.timeout) or not predicate():
                raise LspError(f"waited {self.timeout:.0f} s for {what}")

    # -- what the tools call -----------------------------------------------------------------
    def request(self, method: str, params: Any = None) -> Any:
        self._next_id += 1
        rid = self._next_id
        self._send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        with self._arrived:
            if not self._arrived.wait_for(lambda: rid in self._answers or self._closed, self.timeout):
                raise LspError(f"no answer to {method} in {self.timeout:.0f} s")
            if rid not in self._answers:
                raise LspError(f"the server exited (status {self.proc.poll()}) during {method}")
            answer = self._answers.pop(rid)
        if "error" in answer:
            raise LspError(f"{method}: {answer['error'].get('message')}")
        return answer.get("result")

    def notify(self, method: str, params: Any = None) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def initialize(self, root: Path, capabilities: dict) -> dict:
        result = self.request("initialize", {
            "processId": os.getpid(), "rootUri": root.as_uri(), "capabilities": capabilities,
            "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}]})
        self.notify("initialized", {})
        return result

    def close(self) -> None:
        """shutdown and exit, bounded; the process is ended if it does not go."""
        try:
            if self.proc.poll() is None:
                self.request("shutdown")
                self.notify("exit")
                self.proc.wait(timeout=10)
        except (LspError, subprocess.TimeoutExpired):
            pass
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            self._log.close()

    def log_tail(self, lines: int = 20) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""
