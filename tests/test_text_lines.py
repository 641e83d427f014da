"""A document's lines as the analysis keeps them (workspace/text.TextLines, issue 41's genpl memory).

The hints' analysis hands its document's lines to the rest, which places task graphs and hazards
later; the lines were `text.split("\\n")`, 4.7 MB of line strings at genpl 50000 held until the rest
was made. They are now a view over the text that makes a line when one is read: it must read as the
list did, and weigh far less.
"""
from __future__ import annotations

import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pypto_lens.workspace.documents import OpenTexts
from pypto_lens.workspace.text import TextLines
from pypto_lens.workspace.workspace import Workspace

TEXTS = st.text(alphabet=st.sampled_from("ab \n#(é"), max_size=40)


@given(TEXTS)
def test_reads_as_the_split_list(text):
    lines, split = TextLines(text), text.split("\n")
    assert len(lines) == len(split)
    assert [lines[k] for k in range(len(split))] == split
    assert [lines[-k] for k in range(1, len(split) + 1)] == [split[-k] for k in range(1, len(split) + 1)]
    assert list(lines) == split
    for a in range(-2, len(split) + 2):
        for b in range(-2, len(split) + 2):
            assert lines[a:b] == split[a:b]


@pytest.mark.parametrize("k", [3, -4, 10])
def test_past_either_end_is_an_index_error(k):
    with pytest.raises(IndexError):
        TextLines("a\nb\nc")[k]


KERNEL = '''
@pl.jit.incore
def kernel{k}(a: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor[[64], pl.FP32]]):
    out = pl.store(pl.load(a, [0], [64]), [0], out)
    return out


@pl.jit
def main{k}(a: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor[[64], pl.FP32]]):
    buf = pl.create_tensor([64], dtype=pl.FP32)
    buf = kernel{k}(a, buf)
    out = kernel{k}(buf, out)
    return out
'''


def test_the_rest_keeps_no_line_strings():
    """What the hints' analysis leaves for its rest holds the document's text once, and an index of
    8 bytes a line, not a string per line (a list of them weighs 9 times the index here)."""
    text = "import pypto.language as pl\n" + "".join(KERNEL.format(k=k) for k in range(300))
    uri = "file:///many.py"
    texts = OpenTexts()
    texts.open(uri, text, 1)
    ws = Workspace(open_documents=texts)
    hints = ws.analysis(uri, hints_only=True)
    assert not hints.complete and hints.calls
    rest = ws._analyses[uri][3]  # (what is left of it: document.Rest)
    assert rest is not None and rest.programs
    lines = rest.lines
    assert isinstance(lines, TextLines) and lines.text is text
    index = sys.getsizeof(lines.starts)
    split = text.split("\n")
    strings = sum(sys.getsizeof(s) for s in {id(s): s for s in split}.values()) + sys.getsizeof(split)
    assert index * 5 < strings
    whole = ws.analysis(uri)
    assert whole.complete and whole.graphs  # (the rest placed its graphs from the view)



def test_a_keystroke_whose_places_are_cached_finds_no_line_starts(monkeypatch):
    """A comment typed on a call line changes no program: every place is the cached one, and the
    document's lines are not read (finding where 50,000 lines start is a millisecond a keystroke)."""
    found = []
    starts = TextLines.starts.fget

    def counted(self):
        if self._starts is None:
            found.append(len(self.text))
        return starts(self)
    monkeypatch.setattr(TextLines, "starts", property(counted))
    text = "import pypto.language as pl\n" + "".join(KERNEL.format(k=k) for k in range(3))
    uri = "file:///keystroke.py"
    texts = OpenTexts()
    texts.open(uri, text, 1)
    ws = Workspace(open_documents=texts)
    assert ws.analysis(uri).complete
    found.clear()
    call = text.index("    out = kernel1(buf, out)")
    end = text.index("\n", call)
    texts.change(uri, text[:end] + "  # typed" + text[end:], 2)
    assert ws.analysis(uri).calls
    assert found == []
    texts.change(uri, text[:end] + " +" + text[end:], 3)  # (a syntax error: its diagnostic reads the line)
    ws.analysis(uri)
    assert found
