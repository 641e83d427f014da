"""What each call of an inline helper launches (N1; pipeline/expansions.py, presentation/expansions.py):
its tasks, per argument the strongest write of a task on what the argument names, else a read; a
helper call inside a helper of the same file sums up every expansion of it.

tests/task_places/layers.py: `layer` calls `mix` twice through a temporary; the entry passes views
of one buffer (h0, h1, h2 = hidden[0..2]), so only the view a task writes is written; a `pl.unroll`
of a call gives two expansions of it (the second writes h0 InOut: C7)."""
from __future__ import annotations

from pathlib import Path

from pypto_lens.presentation.expansions import helper_call_at, helper_calls, hover_markdown, lens_title
from pypto_lens.presentation.explain import explain_at
from pypto_lens.workspace.workspace import Workspace, path_to_uri

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ROOT / "tests" / "task_places" / "layers.py"
TEXT = LAYERS.read_text(encoding="utf-8")


def _line(needle: str) -> int:
    return TEXT[:TEXT.index(needle)].count("\n")


def _analysis():
    return Workspace([LAYERS.parent]).analysis(path_to_uri(LAYERS))


def test_each_call_says_what_it_writes_and_reads_by_its_own_views():
    calls = {c.range.line: c for c in helper_calls(_analysis())}
    assert lens_title(calls[_line("h1 = layer(h0, w, h1)")]) == "2 tasks · writes h1 · reads h0, w"
    assert lens_title(calls[_line("h2 = layer(h1, w, h2)")]) == "2 tasks · writes h2 · reads h1, w"
    # inside `layer`, expanded twice: one lens for both
    assert lens_title(calls[_line("tmp = mix(src, w, tmp)")]) == "1 task × 2 · writes tmp · reads src, w"
    assert lens_title(calls[_line("dst = mix(tmp, w, dst)")]) == "1 task × 2 · writes dst · reads tmp, w"
    unrolled = calls[_line("h0 = mix(h2, w, h0)")]
    assert lens_title(unrolled) == "1 task × 2 · writes h0 · reads h2, w"
    assert [a.direction for _, e in unrolled.expansions for a in e.args if a.text == "h0"] == \
        ["OutputExisting", "InOut"]


def test_expansions_nest_and_own_their_tasks():
    (graph,) = _analysis().graphs
    tops = [e for e in graph.expansions if e.parent is None]
    assert [(e.helper, e.tasks) for e in tops] == [("layer", (0, 1)), ("layer", (2, 3)), ("mix", (4,)), ("mix", (5,))]
    inner = [e for e in graph.expansions if e.parent == tops[0].id]
    assert [(e.helper, e.tasks) for e in inner] == [("mix", (0,)), ("mix", (1,))]
    assert graph.tasks[1].path == (f"g{tops[0].id}", f"g{inner[1].id}")


def test_the_hover_and_explain_of_a_helper_call():
    analysis = _analysis()
    line = _line("h1 = layer(h0, w, h1)")
    col = TEXT.split("\n")[line].index("layer")
    call = helper_call_at(analysis, line, col + 2)
    text = hover_markdown(call)
    assert text.startswith("**layer** (inline helper) — expands into `stack`: 2 tasks (N1)")
    assert "- **h1** — **written** by #1 mix_rows (OutputExisting)" in text
    assert "- **h0** — read by #0 mix_rows" in text
    assert text.index("**h1** — **written**") < text.index("**h0** — read"), "the writes come first"
    header = _line('name_hint="mix_rows"') + 1
    assert f"- #0 mix_rows (scope, line {header})" in text
    assert explain_at(analysis, line, 0).startswith(f"# What line {line + 1} launches\n\n**layer**")
    assert helper_call_at(analysis, _line("def stack"), 0) is None
