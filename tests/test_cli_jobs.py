"""`pypto-lens check --jobs N` prints what one job prints, in the same order (issue 8).

Workers analyse groups of files (a file with those whose inline helpers it
expands) in parallel, each with a workspace of the same roots, so cross-file
imports resolve as in one job. Files that reach an import cycle (whose results
depend on which file of the cycle was analysed first), and helper files whose
headers borrowed from other lenders than in one job, are analysed again in the
one-job order.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from pypto_lens.cli.parallel import reaches_cycle
from pypto_lens.workspace.workspace import Workspace, path_to_uri

ROOT = Path(__file__).resolve().parent.parent
T = "pl.Tensor[[64], pl.FP32]"


def check(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pypto_lens.entry", "check", *args], capture_output=True, text=True,
                          cwd=str(ROOT), timeout=600)


def kernel(name: str) -> str:
    return (f"@pl.jit.incore\ndef {name}(x: {T}, y: {T}):\n"
            "    t = pl.load(x, [0], [64])\n    y = pl.store(t, [0], y)\n    return y\n\n\n")


def entry(name: str, callee: str, declared: str = f"pl.Out[{T}]") -> str:
    return (f"@pl.jit\ndef {name}(x: {T}, y: {declared}):\n"
            f"    y = {callee}(x, y)\n    return y\n\n\n")


def tree(tmp_path: Path) -> Path:
    """Folders whose files import each other; `cycle/a.py` and `cycle/b.py` import each other, and
    `aa/d.py` (analysed before them in one job) enters that cycle at b: one job's results for a and b
    come from that history, a worker's for the `cycle` folder from entering at a."""
    head = "import pypto.language as pl\n"
    for folder in ("aa", "cycle", "one", "two", "three"):
        (tmp_path / folder).mkdir()
    (tmp_path / "aa" / "d.py").write_text(
        head + "from cycle.b import run_b, use_b\nfrom cycle.a import run_a\n\n\n" + entry("run_d", "use_b") +
        entry("again_d", "run_a") + entry("last_d", "run_b"), encoding="utf-8")
    (tmp_path / "cycle" / "a.py").write_text(head + "from b import run_b\n\n\n" + kernel("k_a") +
                                             entry("run_a", "run_b", declared=T), encoding="utf-8")
    (tmp_path / "cycle" / "b.py").write_text(head + "from a import k_a, run_a\n\n\n" +
                                             entry("run_b", "k_a", declared=T) + entry("use_b", "run_a", declared=T),
                                             encoding="utf-8")
    for folder in ("one", "two", "three"):
        (tmp_path / folder / "kernels.py").write_text(head + "\n\n" + kernel(f"k_{folder}"), encoding="utf-8")
        (tmp_path / folder / "main.py").write_text(head + f"from kernels import k_{folder}\n\n\n" +
                                                   entry(f"run_{folder}", f"k_{folder}"), encoding="utf-8")
    return tmp_path


def test_files_reaching_an_import_cycle_are_the_order_dependent_ones(tmp_path):
    root = tree(tmp_path)
    workspace = Workspace([root])
    flagged = {}
    for path in sorted(root.rglob("*.py")):
        workspace.analysis(path_to_uri(path))
        flagged[path.relative_to(root).as_posix()] = reaches_cycle(workspace, path_to_uri(path))
    assert flagged == {"aa/d.py": True, "cycle/a.py": True, "cycle/b.py": True,
                       "one/kernels.py": False, "one/main.py": False, "three/kernels.py": False,
                       "three/main.py": False, "two/kernels.py": False, "two/main.py": False}


def test_several_jobs_print_what_one_job_prints(tmp_path):
    root = tree(tmp_path)
    paths = [str(ROOT / "tests" / "programs"), str(ROOT / "examples"), str(root)]
    for fmt in ("text", "json"):
        one = check(*paths, "--format", fmt, "--jobs", "1")
        assert one.stdout.count("\n") > 100  # the programs print a lot: a real comparison
        assert "cycle/b.py" in one.stdout and "three/main.py" in one.stdout
        for jobs in ("2", "3"):
            many = check(*paths, "--format", fmt, "--jobs", jobs)
            assert (many.returncode, many.stdout, many.stderr) == (one.returncode, one.stdout, one.stderr)


HELPER = '''\
import pypto.language as pl

N = 256
# (long, so that its group is handed out first: its worker reports it before anyone expands it there)
''' + "# padding\n" * 400 + '''

@pl.jit.inline
def square_into(src: pl.Tensor[[N], pl.FP32], dst: pl.Tensor[[N], pl.FP32]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="sq"):
        t = pl.load(src, [0], [N])
        pl.store(pl.mul(t, t), [0], dst)
    return dst
'''
CALLER = '''\
import pypto.language as pl
from lib.helpers import N, square_into


@pl.jit
def once(x: pl.Tensor[[N], pl.FP32], y: pl.Out[pl.Tensor[[N], pl.FP32]]):
    y = square_into(x, y)
    return y
'''


def test_a_helpers_headers_lent_by_a_file_in_another_group_are_those_of_one_job(tmp_path):
    """app/main.py expands app/lib/helpers.py's helper through an import the groups' textual look-up
    does not follow (a dotted module in a subfolder): the helper's worker reports it without main's
    lending, and the parent makes it again after main, as one job does."""
    (tmp_path / "app" / "lib").mkdir(parents=True)
    (tmp_path / "app" / "main.py").write_text(CALLER, encoding="utf-8")
    (tmp_path / "app" / "lib" / "helpers.py").write_text(HELPER, encoding="utf-8")
    one = check(str(tmp_path), "--format", "json", "--jobs", "1")
    assert "(from its callers)" in one.stdout  # the header one job shows: main.py was analysed before it
    many = check(str(tmp_path), "--format", "json", "--jobs", "2")
    assert (many.returncode, many.stdout) == (one.returncode, one.stdout)


def test_jobs_must_be_positive():
    result = check(str(ROOT / "examples"), "--jobs", "0")
    assert result.returncode == 2 and "--jobs" in result.stderr
