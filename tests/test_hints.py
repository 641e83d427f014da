"""What a line shows of its hints (presentation/hints.py): short words by default, fitted into the
editor's budget for one line's hint text, written directions first; the full form unfitted."""
from __future__ import annotations

import textwrap
from collections import defaultdict

from pypto_lens.ir.nodes import ArgDir
from pypto_lens.presentation.hints import (FULL, HINT_WORDS, INLINE, SHORT, WORDS, HintOptions, lens_title,
                                          scope_lenses, scope_order, shorten, shown_hints)
from pypto_lens.workspace.documents import OpenTexts
from pypto_lens.workspace.workspace import Workspace

CALLS = textwrap.dedent('''\
    import pypto.language as pl

    T = pl.Tensor[[64], pl.FP32]


    @pl.program
    class Wide:
        @pl.function(type=pl.FunctionType.InCore)
        def mix(self, first_input: T, second_input: T, third_input: T, fourth_input: T, fifth_input: T,
                sixth_input: T, result: pl.Out[T], accumulator: pl.InOut[T]) -> T:
            t = pl.load(first_input, [0], [64])
            result = pl.store(t, [0], result)
            accumulator = pl.store(t, [0], accumulator)
            return result

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, a: T, b: T, c: T, d: T, e: T, f: T, acc: pl.InOut[T]) -> T:
            out = pl.create_tensor([64], dtype=pl.FP32)
            out = self.mix(a, b, c, d, e, f, out, acc)
            out = self.mix(a, b, c, d, e, f, out, acc)
            return out
    ''')

SCOPE = textwrap.dedent('''\
    import pypto.language as pl

    T = pl.Tensor[[64], pl.FP32]


    @pl.program
    class Scopes:
        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, rope_cos: T, rope_sin: T, query_projection: T, key_projection: T,
                 value_projection: T, key_cache: pl.InOut[T], value_cache: pl.InOut[T]) -> T:
            rotated_keys = pl.create_tensor([64], dtype=pl.FP32)
            with pl.at(
                level=pl.Level.CORE_GROUP,
                name_hint="rope_kv_cache_update",
            ):  # a comment after the header
                cos = pl.load(rope_cos, [0], [64])
                sin = pl.load(rope_sin, [0], [64])
                q = pl.load(query_projection, [0], [64])
                k = pl.add(pl.mul(pl.load(key_projection, [0], [64]), cos), sin)
                rotated_keys = pl.store(pl.add(k, q), [0], rotated_keys)
                key_cache = pl.store(k, [0], key_cache)
                value_cache = pl.store(pl.load(value_projection, [0], [64]), [0], value_cache)
            return rotated_keys
    ''')


def analysis_of(source: str):
    texts = OpenTexts()
    texts.open("file:///hints/program.py", source, 1)
    return Workspace(open_documents=texts).analysis("file:///hints/program.py")


def by_line(hints) -> dict[int, list]:
    out = defaultdict(list)
    for h in hints:
        out[h.line].append(h)
    return out


def test_each_direction_has_its_own_short_word():
    assert len(set(WORDS.values())) == len(ArgDir) == len(WORDS)
    assert WORDS[ArgDir.OUTPUT_EXISTING] == "out" and WORDS[ArgDir.OUTPUT] == "new"  # (lenses)


def test_a_hint_writes_a_written_direction_in_capitals():
    assert len(set(HINT_WORDS.values())) == len(ArgDir) == len(HINT_WORDS)
    written = (ArgDir.OUTPUT_EXISTING, ArgDir.INOUT, ArgDir.NO_DEP, ArgDir.OUTPUT)
    assert all(HINT_WORDS[d] == WORDS[d].upper() for d in written)
    assert HINT_WORDS[ArgDir.INPUT] == "in" and HINT_WORDS[ArgDir.SCALAR] == "scalar"


def test_a_line_over_the_budget_keeps_its_written_hints_and_drops_a_calls_inputs_together():
    analysis = analysis_of(CALLS)
    line = CALLS.split("\n").index("        out = self.mix(a, b, c, d, e, f, out, acc)")
    everything = [h.label for h in shown_hints(analysis, HintOptions(budget=0)) if h.line == line]
    assert everything == ["in"] * 6 + ["OUT", "INOUT"]  # no cap: every hint, in position order
    tight = [h.label for h in shown_hints(analysis, HintOptions(budget=12)) if h.line == line]
    assert tight == ["OUT", "INOUT"]  # 6 Inputs (12 characters) do not fit beside them: none of them
    fits = [h.label for h in shown_hints(analysis, HintOptions(budget=20)) if h.line == line]
    assert fits == everything


def test_full_labels_are_every_hint_unfitted_in_h5_form():
    analysis = analysis_of(CALLS)
    line = CALLS.split("\n").index("        out = self.mix(a, b, c, d, e, f, out, acc)")
    labels = [h.label for h in shown_hints(analysis, HintOptions(style=FULL, budget=5)) if h.line == line]
    assert labels[0] == "first_input (a): Input" and labels[-1] == "accumulator (acc): InOut"
    assert len(labels) == 8


def test_a_scope_header_shows_written_captures_first_after_its_colon():
    analysis = analysis_of(SCOPE)
    lines = SCOPE.split("\n")
    colon = lines.index("        ):  # a comment after the header")
    hints = [h for h in shown_hints(analysis, HintOptions(budget=0, scope_style=INLINE)) if h.scope]
    assert {(h.line, h.col) for h in hints} == {(colon, len("        ):"))}  # after the `:`, not after `pl.at(`
    assert [h.label for h in hints] == ["OUT rotated_keys", "INOUT key_cache", "value_cache",
                                        "in key_projection", "query_projection", "rope_cos", "rope_sin",
                                        "value_projection"]
    fitted = [h for h in shown_hints(analysis, HintOptions(scope_style=INLINE)) if h.scope]
    assert sum(len(h.label) for h in fitted) <= 43
    # the written ones fill the line: their names in full matter more than a count of the inputs
    assert [h.label for h in fitted] == ["OUT rotated_keys", "INOUT key_cache", "value_cache"]
    roomy = [h for h in shown_hints(analysis, HintOptions(budget=61, scope_style=INLINE)) if h.scope]
    assert [h.label for h in roomy] == ["OUT rotated_keys", "INOUT key_cache", "value_cache", "in key_projection",
                                        "+4"]
    assert [h.param for h in roomy[-1].hints] == ["query_projection", "rope_cos", "rope_sin",
                                                  "value_projection"]  # the `+N` stands for the rest


def test_written_captures_are_shortened_before_they_are_hidden():
    analysis = analysis_of(SCOPE)
    fitted = [h.label for h in shown_hints(analysis, HintOptions(budget=36, scope_style=INLINE)) if h.scope]
    assert fitted == ["OUT rota…eys", "INOUT key_…che", "valu…che"]  # all three, at 8 characters a name
    too_small = [h.label for h in shown_hints(analysis, HintOptions(budget=30, scope_style=INLINE)) if h.scope]
    assert too_small == ["OUT rotated_keys", "+7"]  # shorter would not be legible: the first in full, a count
    assert shorten("context_slots_0", 8) == "cont…s_0" and shorten("k_cache", 8) == "k_cache"


def test_the_order_of_a_scopes_captures_does_not_follow_edits_of_its_body():
    analysis = analysis_of(SCOPE)
    moved = SCOPE.replace("            cos = pl.load(rope_cos, [0], [64])\n", "").replace(
        "            q = pl.load(query_projection, [0], [64])\n",
        "            q = pl.load(query_projection, [0], [64])\n            cos = pl.load(rope_cos, [0], [64])\n")
    assert moved != SCOPE
    again = analysis_of(moved)
    dispatch = [h.param for h in analysis.calls[0].hints]
    assert dispatch != [h.param for h in again.calls[0].hints]  # PyPTO's argument order did change (O3)
    assert [h.param for h in scope_order(analysis.calls[0])] == [h.param for h in scope_order(again.calls[0])]


def test_every_line_fits_the_budget_and_shows_every_written_hint():
    for source in (CALLS, SCOPE):
        analysis = analysis_of(source)
        full = by_line(shown_hints(analysis, HintOptions(style=FULL, budget=0)))
        short = by_line(shown_hints(analysis, HintOptions(style=SHORT, scope_style=INLINE)))
        for line, hints in short.items():
            assert sum(len(h.label) for h in hints) <= 43, [h.label for h in hints]
            written = [h for h in full[line] if h.hints and h.hints[0].direction not in (ArgDir.INPUT, ArgDir.SCALAR)]
            shown = [h for h in hints if not h.more and h.hints[0].direction not in (ArgDir.INPUT, ArgDir.SCALAR)]
            assert len(shown) == len(written)


def test_by_default_a_scopes_captures_are_a_code_lens_above_its_header():
    analysis = analysis_of(SCOPE)
    assert [h for h in shown_hints(analysis, HintOptions()) if h.scope] == []  # none after the colon
    [lens] = scope_lenses(analysis, HintOptions())
    lines = SCOPE.split("\n")
    assert (lens.line, lens.col) == (lines.index("        with pl.at("), 8)  # above the `with`, at its indentation
    assert lens.title == ("out rotated_keys · inout key_cache, value_cache · in key_projection, query_projection, "
                          "rope_cos +2")  # (100 characters at most: the inputs give way)
    assert scope_lenses(analysis, HintOptions(style=FULL)) == []  # the full style keeps them on the header
    assert scope_lenses(analysis, HintOptions(scope_style=INLINE)) == []


def test_a_lens_title_keeps_every_written_capture_and_counts_the_inputs_it_has_no_room_for():
    analysis = analysis_of(SCOPE)
    captures = scope_order(analysis.calls[0])
    assert lens_title(captures, length=60) == "out rotated_keys · inout key_cache, value_cache · +5 in"
    assert lens_title(captures, length=0) == lens_title(captures, length=60)
    assert lens_title(captures, length=200).endswith("· in key_projection, query_projection, rope_cos, rope_sin, "
                                                     "value_projection")
