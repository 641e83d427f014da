"""The CLI and the server never import, execute or evaluate the user's code (issue 13).

A workspace of pl files that leave a marker file wherever Python would run something of
theirs: module level (`open(...).write`, `os.system("touch ...")`), default argument values,
decorator and `pl.jit` arguments, annotations, class bodies, module constants, loop bounds in
kernel bodies, `exec`/`eval` strings, an `if __name__ == "__main__"` block, files that import
each other (`from kernels import scale`, `import model`, a package with relative imports),
`__init__.py`, `__main__.py`, `conftest.py`, `setup.py`, a `.pth` file and a `sitecustomize.py`.
A stand-in `pypto` package on PYTHONPATH makes every such file importable, and leaves a marker
of its own when imported.

First a control proves every marker is live: importing and running the files as Python would
creates each one. Then, with the markers gone, the CLI (`check`, `graph`, `explain`) and the
real server over LSP (hints, resolve, hover, diagnostics, code actions, code lens, explain, the
task graph) are run with the folder as cwd and on PYTHONPATH: no marker may appear.

Not in the folder Python searches: `sitecustomize.py` (in a subfolder of the workspace, because
on PYTHONPATH the interpreter itself imports it at start-up, before any code of ours runs), and
names of modules that Python or our dependencies import (a `lark.py` on PYTHONPATH shadows lark
for any program; the VS Code extension starts the server with `python -I` against that).
"""
from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from lsprotocol import types

sys.path.insert(0, str(Path(__file__).resolve().parent / "server"))
from lens_client import bounded, capabilities, make_client  # noqa: E402

T = "pl.Tensor[[32, 64], pl.FP32]"


class Planted:
    """Marker-writing Python expressions, each with its own marker name."""

    def __init__(self, markers: Path):
        self.markers = markers
        self.names: set[str] = set()

    def _path(self, name: str) -> str:
        assert name not in self.names, name
        self.names.add(name)
        return str(self.markers / name)

    def touch(self, name: str) -> str:
        return f"__import__('pathlib').Path({self._path(name)!r}).touch()"

    def command(self, name: str) -> str:
        """A shell command, as a Python string literal."""
        return repr("touch " + shlex.quote(self._path(name)))

    def system(self, name: str) -> str:
        return f"__import__('os').system({self.command(name)})"

    def open_write(self, name: str) -> str:
        return f"open({self._path(name)!r}, 'w').write('ran')"


STAND_IN_PL = '''"""A stand-in for pypto.language: anything goes, so that the files run when Python imports them."""


class _Any:
    def __call__(self, *args, **kwargs):
        if len(args) == 1 and not kwargs and callable(args[0]) and not isinstance(args[0], _Any):
            return args[0]  # used as a decorator
        return _Any()

    def __getattr__(self, name):
        return _Any()

    def __getitem__(self, key):
        return _Any()

    def __iter__(self):
        return iter([_Any()])

    def __enter__(self):
        return _Any()

    def __exit__(self, *exc):
        return False

    def _any(self, *other):
        return _Any()

    __add__ = __radd__ = __mul__ = __rmul__ = __sub__ = __rsub__ = __floordiv__ = __truediv__ = _any
    __gt__ = __lt__ = __ge__ = __le__ = _any


def __getattr__(name):
    return _Any()
'''


def build_workspace(tmp: Path) -> tuple[Path, Path, Planted]:
    """(workspace, stand-in pypto folder, the markers planted); markers go to tmp/markers."""
    markers = tmp / "markers"
    markers.mkdir()
    p = Planted(markers)
    ws = tmp / "ws"
    (ws / "pkg").mkdir(parents=True)
    (ws / "site_hooks").mkdir()
    files = {
        "shapes.py": f'''"""Sizes: module constants a folder of constants might read."""
{p.touch("shapes_module")}
ROWS = 32
COLS = 64
STEPS = {p.system("shapes_constant")} or 4
HEADS = eval({p.touch("shapes_eval")!r}) or 8
''',
        "kernels.py": f'''"""Kernels the model imports."""
{p.open_write("kernels_module_open")}
import os

os.system({p.command("kernels_os_system")})
import pypto.language as pl

from shapes import COLS, ROWS, STEPS


@pl.jit.incore
def scale(src: {T}, dst: pl.Out[{T}]):
    t = pl.load(src, [0, 0], [ROWS, COLS])
    dst = pl.store(pl.mul(t, t), [0, 0], dst)
    return dst


@pl.jit.incore
def add_into(src: {T}, acc: pl.InOut[{T}]):
    a = pl.load(acc, [0, 0], [ROWS, COLS])
    b = pl.load(src, [0, 0], [ROWS, COLS])
    acc = pl.store(pl.add(a, b), [0, 0], acc)
    return acc


@pl.jit.incore
def leak(src: {T}, sink: {T}) -> {p.touch("kernels_return_annotation")}:
    for i in pl.range({p.touch("kernels_loop_bound")} or STEPS):
        t = pl.load(src, [0, 0], [ROWS, COLS])
        sink = pl.store(pl.exp(t), [0, 0], sink)
    return sink


def configure(level={p.system("kernels_default_argument")}, *, note: {p.touch("kernels_annotation")} = 0,
              hook=lambda when={p.touch("kernels_lambda_default")}: when):
    return level
''',
        "helpers.py": f'''"""Inline helpers; imports the model back at its end (a cycle Python resolves)."""
import pypto.language as pl

import kernels
from kernels import scale

{p.touch("helpers_module")}


def _mark(f):
    {p.touch("helpers_plain_decorator")}
    return f


@_mark
@pl.jit.inline
def twice(src: {T}, dst: {T}):
    dst = scale(src, dst)
    dst = scale(dst, dst)
    return dst


import model  # noqa: E402
''',
        "model.py": f'''"""The entry: calls kernels and helpers of its siblings and of a package."""
import pypto.language as pl

import helpers
from helpers import twice
from kernels import add_into, leak, scale
from pkg.tiles import copy_tile

{p.touch("model_module")}
exec({p.touch("model_exec")!r})
GREETING = f"{{{p.touch("model_fstring")}}}"


class Config:
    heads = {p.touch("model_class_body")}


@pl.jit(options={p.system("model_jit_argument")})
def entry(x: {T}, y: pl.Out[{T}], acc: pl.InOut[{T}]):
    t = pl.create_tensor([32, 64], dtype=pl.FP32)
    t = scale(x, t)
    acc = add_into(t, acc)
    for i in pl.range({p.touch("model_loop_bound")} or 2):
        acc = add_into(x, acc)
    t = twice(x, t)
    leak(t, x)
    y = copy_tile(acc, y)
    return y, acc


@pl.program
class Program:
    @pl.function(type=pl.FunctionType.InCore, name={p.touch("model_function_argument")})
    def fill(self, src: {T}, dst: pl.Out[{T}]) -> {T}:
        t = pl.load(src, [0, 0], [32, 64])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: {T}, out: pl.Out[{T}]) -> {T}:
        out = self.fill(a, out)
        out = self.fill(a, out)
        return out


if __name__ == "__main__":
    {p.touch("model_main_block")}
    entry(pl.Tensor(), pl.Tensor(), pl.Tensor())
''',
        "pkg/__init__.py": f'''"""A package of the workspace."""
{p.touch("pkg_init")}
''',
        "pkg/common.py": f'''{p.system("pkg_common_module")}
TILE = 32
''',
        "pkg/tiles.py": f'''"""A kernel with a relative import."""
import pypto.language as pl

from .common import TILE

{p.touch("pkg_tiles_module")}


@pl.jit.incore
def copy_tile(src: {T}, dst: pl.Out[{T}]):
    t = pl.load(src, [0, 0], [TILE, 64])
    dst = pl.store(t, [0, 0], dst)
    return dst
''',
        "__init__.py": f"{p.touch('workspace_init')}\n",
        "__main__.py": f"{p.touch('workspace_main')}\n",
        "conftest.py": f'''{p.touch("conftest_module")}


def pytest_configure(config):
    {p.touch("conftest_hook")}
''',
        "setup.py": f"{p.system('setup_module')}\n",
        "hook.pth": f"import os; os.system({p.command('pth_line')})\n",
        "site_hooks/sitecustomize.py": f"{p.touch('sitecustomize')}\n",
    }
    for name, text in files.items():
        (ws / name).write_text(text, encoding="utf-8")
    stand_in = tmp / "stand_in"
    (stand_in / "pypto").mkdir(parents=True)
    (stand_in / "pypto" / "__init__.py").write_text(f"{p.touch('pypto_imported')}\n", encoding="utf-8")
    (stand_in / "pypto" / "language.py").write_text(STAND_IN_PL, encoding="utf-8")
    return ws, stand_in, p


def environment(*path: Path) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(p) for p in path] + [env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.pop("PYTHONSAFEPATH", None)
    return env


def python(*args: str, cwd: Path, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=str(cwd), env=env, capture_output=True, text=True,
                          timeout=120)


def fired(markers: Path) -> set[str]:
    return {m.name for m in markers.iterdir()}


def run_everything_as_python_would(ws: Path, stand_in: Path) -> None:
    """Import every module, run the model and the folder as scripts, read the .pth as a site dir,
    start an interpreter with the hooks' folder on its path."""
    env = environment(ws, stand_in)
    for args, cwd in [(("-c", "import model, helpers, kernels, shapes, pkg.tiles, conftest, setup"), ws),
                      (("-c", "import conftest; conftest.pytest_configure(None)"), ws),
                      (("model.py",), ws),
                      (("-c", "import ws"), ws.parent),
                      ((str(ws),), ws.parent),
                      (("-c", f"import site; site.addsitedir({str(ws)!r})"), ws)]:
        done = python(*args, cwd=cwd, env=env)
        assert done.returncode == 0, (args, done.stderr)
    done = python("-c", "pass", cwd=ws, env=environment(ws / "site_hooks"))
    assert done.returncode == 0, done.stderr


@pytest.fixture
def workspace(tmp_path):
    """The workspace, its stand-in pypto and its markers, after the control proved every marker live."""
    ws, stand_in, planted = build_workspace(tmp_path)
    assert fired(planted.markers) == set()
    run_everything_as_python_would(ws, stand_in)
    assert fired(planted.markers) == planted.names  # each planted marker is made by Python running the files
    for marker in planted.markers.iterdir():
        marker.unlink()
    return ws, stand_in, planted


def cli(*args: str, ws: Path, env: dict) -> subprocess.CompletedProcess:
    """`pypto-lens ARGS` as a user runs it: the installed command (or `-m pypto_lens.entry`), in the folder."""
    script = Path(sys.executable).with_name("pypto-lens")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "pypto_lens.entry"]
    return subprocess.run([*command, *args], cwd=str(ws), env=env, capture_output=True, text=True, timeout=240)


def pl_files(ws: Path) -> list[Path]:
    return sorted(p for p in ws.rglob("*.py"))


def test_the_cli_runs_nothing_of_the_workspace(workspace):
    ws, stand_in, planted = workspace
    env = environment(ws, stand_in)
    checked = cli("check", ".", "--format", "json", "--fail-on", "never", ws=ws, env=env)
    assert checked.returncode == 0, checked.stderr
    report = json.loads(checked.stdout)
    calls = [c for file in report if file["file"].endswith("model.py") for c in file["calls"] if c["args"]]
    assert len(calls) >= 5, checked.stdout[:2000]  # the files were analysed: their calls have directions
    for args in [("check", "."), ("check", ".", "--jobs", "2"), ("check", "model.py", "--information")]:
        assert cli(*args, "--fail-on", "never", ws=ws, env=env).returncode == 0
    as_module = subprocess.run([sys.executable, "-m", "pypto_lens.entry", "check", ".", "--fail-on", "never"],
                               cwd=str(ws), env=env, capture_output=True, text=True, timeout=240)
    assert as_module.returncode == 0, as_module.stderr  # `-m` puts the folder first on sys.path too
    names = [str(path.relative_to(ws)) for path in pl_files(ws)]
    graph = cli("graph", *names, "--format", "json", "--information", ws=ws, env=env)
    assert graph.returncode == 0 and "Traceback" not in graph.stderr, graph.stderr
    assert {"entry", "main"} <= {g["function"] for g in json.loads(graph.stdout)}
    for line in sorted({c["line"] for c in calls}):
        explained = cli("explain", f"model.py:{line}", ws=ws, env=env)
        assert explained.returncode == 0 and "Input" in explained.stdout, explained.stderr
    assert fired(planted.markers) == set()


@contextlib.asynccontextmanager
async def server_in(ws: Path, env: dict):
    """The real server (`python -m pypto_lens`) started in the folder, the folder its workspace."""
    client = make_client()
    await client.start_io(sys.executable, "-m", "pypto_lens", cwd=str(ws), env=env)
    try:
        client.folder = ws
        client.init_result = await bounded(client.initialize_session(types.InitializeParams(
            capabilities=capabilities("utf-16"), root_uri=ws.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=ws.as_uri(), name=ws.name)])))
        yield client
        await bounded(client.shutdown_session())
    finally:
        server = client._server
        if server is not None and server.returncode is None and not client._stop_event.is_set():
            server.kill()
        await bounded(client.stop())


async def everything_about(client, uri: str) -> int:
    """Ask the server everything it answers about a document; the number of hints it gave."""
    hints = await client.hints(uri)
    for hint in hints[:10]:
        await client.resolve(hint)
    for hint in hints:
        await client.hover(uri, hint.position)
        await client.explain(uri, hint.position.line, hint.position.character)
    diagnostics = await client.diagnostics_of(uri)
    await client.code_actions(uri, diagnostics)
    lenses = await bounded(client.text_document_code_lens_async(types.CodeLensParams(
        text_document=types.TextDocumentIdentifier(uri=uri))))
    for lens in lenses or []:
        await bounded(client.workspace_execute_command_async(types.ExecuteCommandParams(
            command="pyptoLens.taskGraph", arguments=lens.command.arguments)))
    for line in sorted({hint.position.line for hint in hints}):
        await bounded(client.workspace_execute_command_async(types.ExecuteCommandParams(
            command="pyptoLens.taskGraph", arguments=[{"uri": uri, "position": {"line": line, "character": 4}}])))
    return len(hints)


async def test_the_server_runs_nothing_of_the_workspace(workspace):
    ws, stand_in, planted = workspace
    async with server_in(ws, environment(ws, stand_in)) as client:
        model = (ws / "model.py").as_uri()
        client.open(model, (ws / "model.py").read_text(encoding="utf-8"))
        assert await everything_about(client, model) >= 5  # its siblings read from disk
        hints = {}
        for path in pl_files(ws):
            uri = path.as_uri()
            if uri != model:
                client.open(uri, path.read_text(encoding="utf-8"))
            hints[path.name] = await everything_about(client, uri)
        assert hints["model.py"] >= 5
        source = (ws / "kernels.py").read_text(encoding="utf-8")
        line = source.split("\n").index(next(s for s in source.split("\n") if s.startswith("def scale(")))
        column = source.split("\n")[line].index("pl.Out[") + len("pl.")
        client.edit((ws / "kernels.py").as_uri(), 2, (line, column), (line, column + len("Out")), "InOut")
        await everything_about(client, model)  # callers follow an edit of their kernel
        client.close(model)
        await everything_about(client, (ws / "helpers.py").as_uri())  # model.py from disk again
    assert fired(planted.markers) == set()


def test_the_markers_are_made_by_running_a_file(tmp_path):
    """The control itself can fail: one import makes that file's markers, and only those."""
    ws, stand_in, planted = build_workspace(tmp_path)
    done = python("-c", "import shapes", cwd=ws, env=environment(ws, stand_in))
    assert done.returncode == 0, done.stderr
    assert fired(planted.markers) == {n for n in planted.names if re.match(r"shapes_", n)}
