"""`pypto-lens check` / `explain` as a user runs them, bad input included: a clear answer, never a traceback.

Most cases run the command in this process (`run`); a few run it as a process of its own
(`run_process`), as a user does, and one checks that the in-process reports of the rule tests
(lens_check.reports) are what the command prints.
"""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from lens_check import check, reports

from pypto_lens import entry

ROOT = Path(__file__).resolve().parent.parent

PROGRAM = '''import pypto.language as pl


@pl.program
class Demo:
    @pl.function(type=pl.FunctionType.InCore)
    def fill(self, src: pl.Tensor[[64], pl.FP32], dst: pl.Out[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:
        t = pl.load(src, [0], [64])
        dst = pl.store(t, [0], dst)
        return dst

    @pl.function(type=pl.FunctionType.InCore)
    def leak(self, src: pl.Tensor[[64], pl.FP32], dst: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        t = pl.load(src, [0], [64])
        dst = pl.store(t, [0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        s = pl.create_tensor([64], dtype=pl.FP32)
        s = self.fill(a, s)
        s = self.fill(a, s)
        return s
'''


def run_process(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pypto_lens.entry", *args], capture_output=True, text=True,
                          cwd=str(cwd), timeout=240)


def run(*args: str) -> subprocess.CompletedProcess:
    """`pypto-lens ARGS` in this process: its exit status and what it printed."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            status = entry.main(list(args))
        except SystemExit as exc:  # argparse's own errors
            status = exc.code
    return subprocess.CompletedProcess(args, status, out.getvalue(), err.getvalue())


@pytest.fixture
def program(tmp_path: Path) -> Path:
    path = tmp_path / "demo.py"
    path.write_text(PROGRAM, encoding="utf-8")
    return path


def test_check_prints_calls_and_warnings_like_a_compiler(program: Path):
    result = run_process("check", str(program))
    assert result.returncode == 1  # an InParamWritten warning
    lines = result.stdout.splitlines()
    assert f"{program}:21:13: call fill: src(a)=Input, dst(s)=OutputExisting" in lines
    assert f"{program}:22:13: call fill: src(a)=Input, dst(s)=InOut" in lines
    warning = [ln for ln in lines if "InParamWritten" in ln]
    assert len(warning) == 1 and warning[0].startswith(f"{program}:15:") and ": warning: " in warning[0]
    assert "traceback" not in result.stderr.lower()


def test_fail_on_never_and_error_relax_the_exit_status(program: Path):
    assert run("check", "--fail-on", "never", str(program)).returncode == 0
    assert run("check", "--exit-zero", str(program)).returncode == 0
    assert run("check", "--fail-on", "error", str(program)).returncode == 0


def test_json_output(program: Path):
    result = run("check", "--format", "json", str(program))
    (report,) = json.loads(result.stdout)
    second = [c for c in report["calls"] if c["line"] == 22][0]
    assert [(a["param"], a["direction"], a["rule"]) for a in second["args"]] == \
        [("src", "Input", "C4"), ("dst", "InOut", "C7")]
    codes = {d["code"] for d in report["diagnostics"]}
    assert "InParamWritten" in codes


def test_explain_prints_each_derivation(program: Path):
    result = run("explain", f"{program}:22")
    assert result.returncode == 0
    assert "**fill** (InCore)" in result.stdout
    assert "C7: s was written earlier in this scope" in result.stdout
    assert "earlier writer" in result.stdout and "line 21" in result.stdout


def test_explain_on_a_line_without_a_call(program: Path):
    result = run("explain", f"{program}:1")
    assert result.returncode == 1 and "no direction-bearing call" in result.stdout


@pytest.mark.parametrize("args, message", [
    (["check", "no/such/file.py"], "no such file or directory: no/such/file.py"),
    (["explain", "no/such/file.py:3"], "no such file: no/such/file.py"),
    (["explain", "just-a-file.py"], "expected FILE:LINE"),
    (["registry", "."], "does not look like a PyPTO checkout"),
])
def test_usage_errors_are_one_clear_line(args, message):
    result = run_process(*args)
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr


def test_a_file_that_is_not_utf8(tmp_path: Path):
    path = tmp_path / "latin1.py"
    path.write_bytes(PROGRAM.replace("import pypto", "# caf\xe9, written in Latin-1\nimport pypto").encode("latin-1"))
    result = run("check", "--format", "json", str(path))
    (report,) = json.loads(result.stdout)
    assert report["diagnostics"][0]["code"] == "InvalidUtf8"
    assert any(c["callee"] == "fill" for c in report["calls"])  # the rest is still analysed


def test_a_folder_of_a_thousand_files(tmp_path: Path):
    for i in range(1000):
        (tmp_path / f"m{i:04d}.py").write_text(f"x = {i}\n", encoding="utf-8")
    (tmp_path / "demo.py").write_text(PROGRAM, encoding="utf-8")
    result = run("check", "--fail-on", "never", str(tmp_path))
    assert result.returncode == 0
    assert "checked 1001 files" in result.stderr


def test_a_ten_thousand_line_file_and_a_deep_expression(tmp_path: Path):
    body = PROGRAM + "\n".join(f"X{i} = {i}" for i in range(10_000)) + "\n"
    deep = "Y = " + "(" * 1000 + "1" + ")" * 1000 + "\n"
    path = tmp_path / "big.py"
    path.write_text(body + deep, encoding="utf-8")
    result = run("check", "--format", "json", "--fail-on", "never", str(path))
    assert result.returncode == 0, result.stderr
    (report,) = json.loads(result.stdout)
    assert len(report["calls"]) == 2


def test_a_deeply_nested_call_argument(tmp_path: Path):
    deep = "(" * 1000 + "a" + ")" * 1000
    path = tmp_path / "deep.py"
    path.write_text(PROGRAM.replace("s = self.fill(a, s)\n        return s", f"s = self.fill({deep}, s)\n        return s"),
                    encoding="utf-8")
    result = run("check", "--format", "json", "--fail-on", "never", str(path))
    assert result.returncode == 0 and "Traceback" not in result.stderr
    json.loads(result.stdout)


def test_the_in_process_reports_are_what_the_command_prints():
    examples = sorted((ROOT / "examples").glob("*.py"))
    printed = json.loads(run_process("check", "--format", "json", "--fail-on", "never", *map(str, examples)).stdout)
    assert list(reports(examples).values()) == printed


def test_check_in_process(program: Path):
    lines = check(PROGRAM, """
        15:32: warning: InParamWritten: parameter 'dst' of leak is declared In, but tile.store writes it: \
PyPTO's InCore upgrade (U4) makes it Out for its callers (their hints show it), so declare it pl.Out[...] to say the same
        21:13: call fill: src(a)=Input, dst(s)=OutputExisting
        22:13: call fill: src(a)=Input, dst(s)=InOut
    """)
    assert [f"{program}:{line}" for line in lines] == run("check", str(program)).stdout.splitlines()


def test_a_3000_deep_expression_gets_too_deep_and_the_rest_its_hints(tmp_path: Path):
    deep = "pl.neg(" * 3000 + "a" + ")" * 3000
    path = tmp_path / "deeper.py"
    path.write_text(PROGRAM.replace("s = self.fill(a, s)\n        return s", f"s = self.fill({deep}, s)\n        return s"),
                    encoding="utf-8")
    result = run("check", "--format", "json", "--fail-on", "never", str(path))
    (report,) = json.loads(result.stdout)
    [too_deep] = [d for d in report["diagnostics"] if d["code"] == "TooDeep"]
    assert too_deep["line"] == 22 and too_deep["severity"] == "error" and "3003 deep" in too_deep["message"]
    assert [c["line"] for c in report["calls"]] == [21]  # the first call keeps its directions


def test_operator_notes_only_when_asked_or_beside_pypto_sources(tmp_path: Path, program: Path):
    def codes(*args):
        (report,) = json.loads(run("check", "--format", "json", "--fail-on", "never", *args).stdout)
        return {d["code"]: d["severity"] for d in report["diagnostics"]}
    assert "UnclassifiedOperator" not in codes(str(program))  # ordinary user code
    assert codes("--operators", "on", str(program))["UnclassifiedOperator"] == "hint"
    checkout = tmp_path / "pypto"
    (checkout / "src" / "ir" / "op").mkdir(parents=True)
    beside = checkout / "demo.py"
    beside.write_text(PROGRAM, encoding="utf-8")
    assert codes(str(checkout))["UnclassifiedOperator"] == "hint"  # a PyPTO checkout: its own registrations
    assert "UnclassifiedOperator" not in codes("--operators", "off", str(checkout))


def test_check_on_a_cpp_source_prints_its_registration_problems_at_file_lines(tmp_path: Path):
    source = tmp_path / "ops.cpp"
    source.write_text('#include "op.h"\n\n// one op\nREGISTER_OP("tile.foo")\n'
                      '    .set_arg_effect(0, ArgEffect::Write)\n    .no_arg_writes();\n', encoding="utf-8")
    result = run("check", str(source))
    assert result.returncode == 1
    [line] = result.stdout.splitlines()
    assert line.startswith(f"{source}:6:5: error: ArgEffectContradiction: V1: no_arg_writes() after set_arg_effect(...) "
                           "(line 5)"), line


def test_explain_past_the_end_of_the_file(program: Path):
    result = run("explain", f"{program}:99")
    assert result.returncode == 1 and result.stdout.strip() == f"{program}:99: past the end of the file (24 lines)"


def test_a_call_imported_from_a_file_that_is_not_there_says_so(tmp_path: Path):
    main = tmp_path / "main.py"
    main.write_text("import pypto.language as pl\nfrom kernels import fill\n\n\n@pl.jit\n"
                    "def entry(a: pl.Tensor[[16], pl.FP32], out: pl.Out[pl.Tensor[[16], pl.FP32]]):\n"
                    "    out = fill(a, out)\n    return out\n", encoding="utf-8")
    missing = run("check", str(main)).stdout
    assert "call fill: no directions (imported from `kernels`, not found (neither beside this file nor in the " \
        "workspace) (S6))" in missing
    (tmp_path / "kernels.py").write_text("fill = None\n", encoding="utf-8")
    assert "imported from `kernels`, which defines no pl function `fill`" in run("check", str(main)).stdout


KERNELS = """import pypto.language as pl


@pl.jit.incore
def fill(a: pl.Tensor[[16], pl.FP32], out: pl.Out[pl.Tensor[[16], pl.FP32]]):
    pl.store(pl.load(a, [0], [16]), [0], out)
"""
MAIN = ("import pypto.language as pl\nfrom kernels import fill\n\n\n@pl.jit\n"
        "def entry(a: pl.Tensor[[16], pl.FP32], out: pl.Out[pl.Tensor[[16], pl.FP32]]):\n"
        "    out = fill(a, out)\n    return out\n")


def test_an_unreadable_import_says_it_cannot_be_read(tmp_path: Path):
    """Run without root's capabilities (tests/without_dac.py): the permissions count, as for any user."""
    (tmp_path / "main.py").write_text(MAIN, encoding="utf-8")
    kernels = tmp_path / "kernels.py"
    kernels.write_text(KERNELS, encoding="utf-8")
    kernels.chmod(0)
    result = subprocess.run([sys.executable, str(ROOT / "tests" / "without_dac.py"), sys.executable, "-m",
                             "pypto_lens.entry", "check", str(tmp_path)], capture_output=True, text=True,
                            cwd=str(ROOT), timeout=240)
    assert "Traceback" not in result.stderr
    assert f"{tmp_path / 'main.py'}:7:11: call fill: no directions (imported from `kernels`, whose file " \
        "kernels.py cannot be read (permission denied) (S6))" in result.stdout.splitlines()
    assert f"{kernels}:1:1: information: NotAnalysed: not analysed: this file cannot be read (permission denied)" \
        in result.stdout.splitlines()


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_fifo_and_a_looping_link_named_py_are_reported_not_waited_on(tmp_path: Path, jobs: str):
    (tmp_path / "main.py").write_text(MAIN, encoding="utf-8")
    os.mkfifo(tmp_path / "kernels.py")
    os.symlink("loop.py", tmp_path / "loop.py")
    result = run_process("check", "--jobs", jobs, str(tmp_path), str(tmp_path / "loop.py"))  # (bounded: 240 s)
    lines = result.stdout.splitlines()
    assert f"{tmp_path / 'main.py'}:7:11: call fill: no directions (imported from `kernels`, whose file " \
        "kernels.py is not a regular file (a FIFO) (S6))" in lines
    assert f"{tmp_path / 'kernels.py'}:1:1: information: NotAnalysed: not analysed: this file is not a regular " \
        "file (a FIFO)" in lines
    assert lines.count(f"{tmp_path / 'loop.py'}:1:1: information: NotAnalysed: not analysed: this file is a "
                       "symbolic link that loops") == 2  # (the folder's, and named on the command line)
    assert "Traceback" not in result.stderr and "checked 4 files" in result.stderr


def test_python_dash_m_server_from_the_clone_runs_the_language_server():
    """The shared checkers start `python -m server` in a clone's top folder by default."""
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-m", "server", "--help"], cwd=root, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and "PyPTO Lens language server" in done.stdout


def test_check_collects_garbage_less_often_than_the_interpreter_by_default(program: Path):
    """gc_policy.py: an analysis allocates many small objects and hardly any cycles."""
    import gc

    from pypto_lens.gc_policy import THRESHOLDS
    before = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        assert run("check", "--jobs", "1", str(program)).returncode == 1
        assert gc.get_threshold() == THRESHOLDS and THRESHOLDS[0] > 700
    finally:
        gc.set_threshold(*before)


def test_too_deeps_measure_is_exact_past_its_bound_over_many_lines():
    """TooDeep's measure (lower.expression_depth) does not enter what stands on a line too short to nest
    past its bound: an expression spread over many lines is still measured exactly once it passes it,
    and one within it (or a long body of short statements) stays within it."""
    from pypto_lens.ir.lower import MAX_EXPRESSION_DEPTH, expression_depth
    from pypto_lens.syntax.parser import parse_unit
    from pypto_lens.syntax import nodes as s

    def walked(statement):  # every expression node, nothing pruned
        deepest, stack = 0, [(child, 1) for child in statement.children() if not isinstance(child, s.Stmt)]
        while stack:
            node, depth = stack.pop()
            deepest = max(deepest, depth)
            stack.extend((child, depth + 1) for child in node.children() if not isinstance(child, s.Stmt))
        return deepest
    [statement], problem = parse_unit("x = " + "pl.neg(\n" * 2500 + "a" + ")" * 2500 + "\n")
    assert problem is None and expression_depth(statement) == walked(statement) > MAX_EXPRESSION_DEPTH
    [statement], problem = parse_unit("x = " + "pl.neg(\n" * 1200 + "a" + ")" * 1200 + "\n")
    assert problem is None and expression_depth(statement) <= MAX_EXPRESSION_DEPTH  # (within: not measured exactly)
    body = "".join(f"    y{k} = pl.add(a, b)\n" for k in range(3000))
    [with_block], problem = parse_unit("with pl.at(level=pl.Level.CORE_GROUP):\n" + body)
    assert problem is None and expression_depth(with_block) <= MAX_EXPRESSION_DEPTH
