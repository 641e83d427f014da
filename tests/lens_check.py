"""The rule tests' helpers: what `pypto-lens check` says, computed in this process (no CLI per case).

* `reports(paths)`: `pypto-lens check --format json` of the paths, as the CLI prints it (through
  JSON), by resolved file path; tests/test_cli.py checks that it is the real CLI's output.
* `check(source, expected)`: one program's `pypto-lens check` lines (without the file name:
  `LINE:COL: call f: src(x)=Input, ...`) must be `expected` (one per line, blank lines and
  indentation ignored); when the program has `# expect:` comments, they must hold as well
  (as in tests/programs: an InParamWritten without its `# expect-warning` is a failure).
"""
from __future__ import annotations

import json
import re
import sys
import textwrap
from pathlib import Path
from typing import Iterable, Optional

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from check_expectations import check_file  # noqa: E402

from pypto_lens.cli import render  # noqa: E402
from pypto_lens.cli.main import analyses  # noqa: E402
from pypto_lens.workspace.documents import OpenTexts  # noqa: E402
from pypto_lens.workspace.workspace import Workspace  # noqa: E402

sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))  # as the CLI does
_EXPECTATION = re.compile(r"#\s*expect(?:-warning|-error)?:")


def reports(paths: Iterable[Path], scalar: bool = False) -> dict[str, dict]:
    out = {}
    for path, analysis in analyses([str(p) for p in paths]):
        if analysis is None:
            report = {"file": str(path), "error": "could not be read"}
        else:
            report = json.loads(json.dumps(render.analysis_json(str(path), analysis, render.Show(scalar=scalar)), ensure_ascii=False))
        out[str(path.resolve())] = report
    return out


def check(source: str, expected: Optional[str] = None, scalar: bool = False) -> list[str]:
    """Analyse `source` alone (a file of its own, never written) and compare; returns its lines."""
    source = textwrap.dedent(source)
    uri, name = "file:///check/program.py", "program.py"
    texts = OpenTexts()
    texts.open(uri, source, 1)
    analysis = Workspace(open_documents=texts).analysis(uri)
    lines = [line[len(name) + 1:] for line in render.analysis_text(name, analysis, render.Show(scalar=scalar))]
    if expected is not None:
        wanted = [line.strip() for line in expected.strip().splitlines() if line.strip()]
        assert lines == wanted, "pypto-lens check says:\n" + "\n".join(lines)
    if _EXPECTATION.search(source):
        report = json.loads(json.dumps(render.analysis_json(name, analysis, render.Show(scalar=scalar)), ensure_ascii=False))
        _, failures = check_file(Path(name), report, source)
        assert failures == [], "\n".join(failures)
    return lines
