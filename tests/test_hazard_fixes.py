"""The hazards' quick fixes (presentation/hazard_fixes.py): the edits on the text of the call or the
annotation, for the shapes a user writes, none when the text is not what the analysis saw; and,
applied to the graph programs, the hazard they fix is gone from a new analysis."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import pytest

from pypto_lens.presentation.graph_view import fix_title, graph_json
from pypto_lens.presentation.hazard_fixes import hazard_fixes
from pypto_lens.workspace.workspace import Workspace, path_to_uri

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = ROOT / "tests" / "graph_programs"


def lines_of(text: str):
    lines = text.split("\n")
    return lambda n: lines[n] if 0 <= n < len(lines) else ""


def apply(text: str, fix) -> str:
    lines = text.split("\n")
    r = fix.range
    head, tail = lines[r.line][:r.col], lines[r.end_line][r.end_col:]
    return "\n".join(lines[:r.line] + (head + fix.new_text + tail).split("\n") + lines[r.end_line + 1:])


def add_dep(text: str, call: str, tid: str = "t0", occurrence: int = 0) -> Optional[str]:
    """The add-dep fix of a hazard whose later task is the call written `call` (its text, up to the
    end of the statement's call) in `text`."""
    start = -1
    for _ in range(occurrence + 1):
        start = text.index(call, start + 1)
    end = start + len(call)
    line, col = text.count("\n", 0, start), start - text.rfind("\n", 0, start) - 1
    end_line, end_col = text.count("\n", 0, end), end - text.rfind("\n", 0, end) - 1
    data = {"setting": "hazards.manualScope", "fix": {
        "kind": "add-dep", "tid": tid, "callee": None, "param": None, "task": "bump",
        "call": {"line": line, "col": col, "end_line": end_line, "end_col": end_col}}}
    fixes = hazard_fixes("ManualScopeMissingDep", data, lambda uri: lines_of(text))
    if not fixes:
        return None
    (fix,) = fixes
    assert fix.title == "Add t0 to deps= of bump" and fix.preferred and fix.uri is None
    return apply(text, fix)


@pytest.mark.parametrize("before, after", [
    ("x, t = pl.submit(self.bump, buf)", "x, t = pl.submit(self.bump, buf, deps=[t0])"),
    ("x, t = pl.submit(self.bump, buf, deps=[ta])", "x, t = pl.submit(self.bump, buf, deps=[ta, t0])"),
    ("x, t = pl.submit(self.bump, buf, deps=[])", "x, t = pl.submit(self.bump, buf, deps=[t0])"),
    ("x, t = pl.submit(self.bump, buf, deps=[ta, tids[0],])",
     "x, t = pl.submit(self.bump, buf, deps=[ta, tids[0], t0])"),
    ("x, t = pl.submit(self.bump, buf, deps = [ta], name_hint='deps=[q]')",
     "x, t = pl.submit(self.bump, buf, deps = [ta, t0], name_hint='deps=[q]')"),
    ("x, t = pl.submit(self.bump, buf, label=\"a)b\")", "x, t = pl.submit(self.bump, buf, label=\"a)b\", deps=[t0])"),
    ("with pl.at(level=pl.Level.CORE_GROUP, name_hint=\"tail\") as tail:",
     "with pl.at(level=pl.Level.CORE_GROUP, name_hint=\"tail\", deps=[t0]) as tail:"),
    ("with pl.at(level=pl.Level.CORE_GROUP, deps=[tb]) as tail:",
     "with pl.at(level=pl.Level.CORE_GROUP, deps=[tb, t0]) as tail:"),
    ("gate = pl.system.task_dummy()", "gate = pl.system.task_dummy(deps=[t0])"),
])
def test_add_dep_on_one_line(before: str, after: str):
    text = f"def main():\n    {before}\n    return x\n"
    assert add_dep(text, before.rstrip(":").replace(" as tail", "")) == text.replace(before, after)


def test_add_dep_on_a_call_over_several_lines_with_comments():
    text = ("    x, t = pl.submit(\n"
            "        self.bump,  # (the kernel\n"
            "        buf,  # deps=[not, this]\n"
            "    )\n")
    assert add_dep(text, text.strip().split("= ", 1)[1]) == text.replace("buf,  #", "buf, deps=[t0]  #")
    listed = ("    x, t = pl.submit(self.bump, buf, deps=[\n"
              "        ta,  # the reader\n"
              "    ])\n")
    assert add_dep(listed, listed.strip().split("= ", 1)[1]) == listed.replace("ta,  #", "ta, t0  #")


@pytest.mark.parametrize("call", [
    "pl.submit(self.bump, buf, deps=tids)",  # a variable: what to write is not clear
    "pl.submit(self.bump, buf, deps=[ta, t0])",  # there already (the diagnostic is older than the text)
    "pl.submit(self.bump, buf",  # the call's range no longer holds its closing parenthesis
    "x = 1",  # another text altogether
])
def test_no_add_dep_where_the_text_does_not_fit(call: str):
    text = f"def main():\n    {call}\n"
    assert add_dep(text, call) is None


def make_inout(annotation: str, uri: Optional[str] = None):
    text = f"def fill(src: {annotation}, dst: pl.Out[pl.Tensor[[16], pl.FP32]]):\n    pass\n"
    col = text.index(annotation)
    data = {"setting": "hazards.unorderedWriteAfterRead", "fix": {
        "kind": "make-inout", "tid": None, "callee": "fill", "param": "src", "task": "bump", "alias": "pl",
        "call": {"line": 9, "col": 4, "end_line": 9, "end_col": 20},
        "annotation": {"uri": uri, "range": {"line": 0, "col": col, "end_line": 0, "end_col": col + len(annotation)}}}}
    asked = []

    def text_of(which):
        asked.append(which)
        return lines_of(text)
    fixes = hazard_fixes("UnorderedWriteAfterRead", data, text_of)
    assert asked == [uri]  # the edit is made on the text of the file that declares the callee
    return text, fixes


def test_make_inout_wraps_or_upgrades_the_annotation():
    text, (fix,) = make_inout("pl.Tensor[[16], pl.FP32]")
    assert fix.title == "Declare fill.src InOut, so that bump waits for this read" and fix.uri is None
    assert apply(text, fix).startswith("def fill(src: pl.InOut[pl.Tensor[[16], pl.FP32]], dst:")
    text, (fix,) = make_inout("pl.In[pl.Tensor[[16], pl.FP32]]", uri="file:///k/kernels.py")
    assert fix.uri == "file:///k/kernels.py"
    assert apply(text, fix).startswith("def fill(src: pl.InOut[pl.Tensor[[16], pl.FP32]], dst:")
    assert make_inout("pl.InOut[pl.Tensor[[16], pl.FP32]]")[1] == []  # fixed already
    assert make_inout("pl.Tensor[[16], pl.FP3")[1] == []  # not an annotation the analysis saw


@pytest.mark.parametrize("code, data", [
    ("InParamWritten", {"fix": {"kind": "add-dep"}}),  # not a hazard
    ("UnorderedWriteAfterRead", None),
    ("UnorderedWriteAfterRead", {"fix": None}),
    ("UnorderedWriteAfterRead", {"fix": {"kind": "add-dep", "tid": "t", "call": {"line": "x"}}}),
    ("UnorderedWriteAfterRead", {"fix": {"kind": "add-dep", "tid": "a; b", "call": {
        "line": 0, "col": 0, "end_line": 0, "end_col": 9}}}),
    ("UnorderedWriteAfterRead", {"fix": {"kind": "make-inout", "annotation": {"range": [1, 2]}}}),
    ("UnorderedWriteAfterRead", {"fix": {"kind": "add-dep", "tid": "t", "call": {  # hostile: no endless scan
        "line": 0, "col": 0, "end_line": 10 ** 12, "end_col": 0}}}),
    ("UnorderedWriteAfterRead", {"fix": {"kind": "add-dep", "tid": "t", "call": {
        "line": 3, "col": 0, "end_line": 1, "end_col": 0}}}),
    ("UnorderedWriteAfterRead", {"fix": {"kind": "rewrite-everything"}}),
])
def test_mangled_data_gives_no_fix(code, data):
    assert hazard_fixes(code, data, lambda uri: lines_of("f(x)\n")) == []


@pytest.mark.parametrize("name, code, kinds", [
    ("z1_write_after_read_is_never_ordered", "UnorderedWriteAfterRead", ["add-dep"]),
    ("z1_make_inout_only_where_the_program_still_compiles", "UnorderedWriteAfterRead", ["make-inout"]),
    ("g11_z4_manual_scopes_order_only_deps", "ManualScopeMissingDep", ["add-dep"]),
])
def test_each_fix_applied_removes_its_hazard(tmp_path: Path, name: str, code: str, kinds: list):
    original = (PROGRAMS / f"{name}.py").read_text(encoding="utf-8")
    path = tmp_path / f"{name}.py"
    path.write_text(original, encoding="utf-8")
    analysis = Workspace([tmp_path]).analysis(path_to_uri(path))
    fixable = [d for d in analysis.diagnostics if d.code == code and d.data["fix"]]
    assert [d.data["fix"]["kind"] for d in fixable] == kinds
    for diagnostic in fixable:
        (fix,) = hazard_fixes(diagnostic.code, diagnostic.data, lambda uri: lines_of(original))
        graph = analysis.graph_at(diagnostic.range.line)
        titles = [h["fix"]["title"] for h in graph_json(graph, "f")["hazards"]
                  if h["fix"] and h["second"] == diagnostic.data["second"] and h["first"] == diagnostic.data["first"]]
        assert titles == [fix.title]  # the graph's list and the code action say the same
        fixed = apply(original, fix)
        assert fixed != original
        path.write_text(fixed, encoding="utf-8")
        after = Workspace([tmp_path]).analysis(path_to_uri(path))
        pair = (diagnostic.data["first"], diagnostic.data["second"])
        left = [d for d in after.diagnostics + after.optional_diagnostics
                if d.code == diagnostic.code and (d.data["first"], d.data["second"]) == pair]
        assert left == [], f"{fix.title}: still {left[0].message}"
        assert len(after.diagnostics) < len(analysis.diagnostics)  # and nothing new (PyPTO still takes it)


def test_the_fix_titles():
    assert fix_title("add-dep", "seen", None, None, "bump") == "Add seen to deps= of bump"
    assert fix_title("make-inout", None, "fill", "src", "bump") == \
        "Declare fill.src InOut, so that bump waits for this read"
