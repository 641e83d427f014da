"""The wheel as a user installs it: one import name, `pypto_lens`, whatever else the environment holds.

Builds the wheel, installs it into a fresh virtual environment that also holds packages named
`server` and `analysis` (decoys that fail when imported), and from an unrelated folder (with a
`server.py` and an `analysis/` of its own) runs the language server over LSP and `pypto-lens check`.
It takes half a minute (a wheel build and a pip install); `make test` runs it.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

pytestmark = [pytest.mark.wheel, pytest.mark.timeout(900)]

ROOT = Path(__file__).resolve().parent.parent

PROGRAM = '''import pypto.language as pl


@pl.program
class Demo:
    @pl.function(type=pl.FunctionType.InCore)
    def copy(self, src: pl.Tensor[[16], pl.FP32], dst: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        t = pl.load(src, [0], [16])
        dst = pl.store(t, [0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16], pl.FP32]) -> pl.Tensor[[16], pl.FP32]:
        b = pl.create_tensor([16], dtype=pl.FP32)
        b = self.copy(a, b)
        b = self.copy(a, b)
        return b
'''

DECOY = 'raise ImportError("the decoy {name!r} was imported: PyPTO Lens must import only pypto_lens")\n'


def _run(*args, **kwargs) -> subprocess.CompletedProcess:
    result = subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=600, **kwargs)
    assert result.returncode == 0, f"{args}: {result.stdout[-2000:]}{result.stderr[-2000:]}"
    return result


def _tree_files(folder: str) -> list[str]:
    """The project's files under `folder` (tracked or new, not ignored), relative to it."""
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", folder],
                            capture_output=True, text=True, cwd=ROOT, check=True)
    return sorted({p[len(folder) + 1:] for p in listed.stdout.split() if (ROOT / p).is_file()})


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """Built from a copy of the project's files: an in-tree build/ may hold modules that are gone."""
    source = tmp_path_factory.mktemp("source")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    for folder in ("analysis", "server"):
        for relative in _tree_files(folder):
            (source / folder / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(ROOT / folder / relative, source / folder / relative)
    (source / "docs").mkdir()
    shutil.copy(ROOT / "docs" / "diagnostics.md", source / "docs" / "diagnostics.md")  # the page diagnostics link to
    out = tmp_path_factory.mktemp("wheel")
    _run(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", out, source)
    (found,) = out.glob("pypto_lens-*.whl")
    return found


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory) -> Path:
    """A fresh virtual environment with the wheel and two decoys; its bin folder."""
    env = tmp_path_factory.mktemp("env") / "venv"
    venv.create(env, with_pip=True)
    python = env / "bin" / "python"
    _run(python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", wheel)
    site = Path(_run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").stdout.strip())
    for name in ("server", "analysis"):
        (site / name).mkdir()
        (site / name / "__init__.py").write_text(DECOY.format(name=name), encoding="utf-8")
    return env / "bin"


@pytest.fixture
def elsewhere(tmp_path: Path) -> Path:
    """An unrelated folder, as a user's project: a server.py and an analysis/ of its own, and a pl file."""
    (tmp_path / "server.py").write_text(DECOY.format(name="server.py"), encoding="utf-8")
    (tmp_path / "analysis").mkdir()
    (tmp_path / "analysis" / "__init__.py").write_text(DECOY.format(name="analysis/"), encoding="utf-8")
    (tmp_path / "demo.py").write_text(PROGRAM, encoding="utf-8")
    return tmp_path


def test_the_wheel_holds_pypto_lens_only_and_all_of_it(wheel: Path):
    names = set(zipfile.ZipFile(wheel).namelist())
    packaged = {n for n in names if ".dist-info/" not in n}
    expected = {f"pypto_lens/{p}" for p in _tree_files("analysis")} | \
        {f"pypto_lens/server/{p}" for p in _tree_files("server")} | {"pypto_lens/docs/diagnostics.md"}
    assert packaged == expected
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "pypto-lens = pypto_lens.entry:main" in zipfile.ZipFile(wheel).read(entry_points).decode()


def test_the_decoys_are_what_server_and_analysis_mean_there(installed: Path, elsewhere: Path):
    for name in ("server", "analysis"):
        result = subprocess.run([installed / "python", "-c", f"import {name}"], capture_output=True, text=True,
                                cwd=elsewhere, timeout=60)
        assert result.returncode != 0 and "decoy" in result.stderr


def test_the_server_runs_from_an_unrelated_folder(installed: Path, elsewhere: Path):
    proc = subprocess.Popen([installed / "python", "-m", "pypto_lens"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=elsewhere)
    client = _Client(proc)
    try:
        init = client.request("initialize", {"processId": None, "rootUri": elsewhere.as_uri(), "capabilities": {}})
        assert init["serverInfo"]["name"] == "pypto-lens"
        client.notify("initialized", {})
        uri = (elsewhere / "demo.py").as_uri()
        client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1,
                                                                "text": PROGRAM}})
        hints = client.request("textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": {
            "start": {"line": 0, "character": 0}, "end": {"line": 20, "character": 0}}})
        client.request("shutdown", None)
        client.notify("exit", None)
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    labels = ["".join(part["value"] for part in h["label"]) for h in hints]
    assert labels == ["in", "OUT", "in", "INOUT"], \
        proc.stderr.read().decode(errors="replace")[-2000:]


def test_the_diagnostics_page_is_installed_and_linked(installed: Path, elsewhere: Path):
    script = "from pypto_lens.presentation import docs; print(docs.link('InParamWritten'))"
    href = _run(installed / "python", "-c", script, cwd=elsewhere).stdout.strip()
    path, _, line = href.partition("#L")
    page = Path(path.removeprefix("file://"))
    assert "site-packages" in page.parts and page.parts[-2:] == ("docs", "diagnostics.md"), href
    assert page.read_text(encoding="utf-8").split("\n")[int(line) - 1] == "### InParamWritten"


def test_the_command_line_runs_from_an_unrelated_folder(installed: Path, elsewhere: Path):
    result = subprocess.run([installed / "pypto-lens", "check", "demo.py"], capture_output=True, text=True,
                            cwd=elsewhere, timeout=120)
    assert result.returncode == 0, result.stderr
    calls = [line for line in result.stdout.splitlines() if ": call " in line]
    assert calls == ["demo.py:15:13: call copy: src(a)=Input, dst(b)=OutputExisting",
                     "demo.py:16:13: call copy: src(a)=Input, dst(b)=InOut"]
    assert "checked 1 file" in result.stderr


class _Client:
    """Just enough LSP over a child's stdio: requests wait for their answer, the server's requests get null."""

    def __init__(self, proc: subprocess.Popen):
        self.proc = proc
        self.next_id = 0

    def _send(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def notify(self, method: str, params) -> None:
        self._send({"method": method, "params": params})

    def request(self, method: str, params):
        self.next_id += 1
        self._send({"id": self.next_id, "method": method, "params": params})
        while True:  # bounded by the test's timeout
            message = self._receive()
            if "method" in message:
                if "id" in message:
                    self._send({"id": message["id"], "result": None})
                continue
            if message.get("id") == self.next_id:
                assert "error" not in message, message["error"]
                return message["result"]

    def _receive(self) -> dict:
        length = 0
        while True:
            line = self.proc.stdout.readline()
            assert line, "the server closed its output: " + self.proc.stderr.read().decode(errors="replace")[-2000:]
            line = line.strip()
            if not line:
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.proc.stdout.read(length))
