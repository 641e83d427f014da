"""Bad input read by the engine (issue 42): each case says what and where in one message, the other files
keep their answers, nothing blocks. The language server's side is tests/server/test_bad_input.py; a file
that root cannot be kept from reading is tested there and in test_cli.py, without root's capabilities."""
from __future__ import annotations

import logging
import os
import random
import threading
from pathlib import Path

import pytest

from pypto_lens.workspace.documents import MAX_ANALYSED_BYTES, DiskFiles, OpenTexts, path_to_uri
from pypto_lens.workspace.workspace import Workspace

T = "pl.Tensor[[64], pl.FP32]"
KERNELS = f'''\
import pypto.language as pl


@pl.jit.incore
def k(x: {T}, y: pl.Out[{T}]):
    t = pl.load(x, [0], [64])
    pl.store(t, [0], y)
'''
MAIN = f'''\
import pypto.language as pl
from kernels import k


@pl.jit
def main(a: {T}, b: pl.Out[{T}]):
    k(a, b)
'''


def workspace(folder: Path) -> tuple[Workspace, OpenTexts]:
    texts = OpenTexts()
    return Workspace([folder], open_documents=texts), texts


def call_k(ws: Workspace, uri: str):
    (site,) = [c for c in ws.analysis(uri).calls if c.callee == "k"]
    return site


def directions(ws: Workspace, uri: str) -> list[str]:
    return [h.direction.value for h in call_k(ws, uri).hints]


def importer_says(tmp_path: Path, kernels: Path) -> str:
    """What main.py's call of k says when `kernels` (kernels.py beside it) is what it is."""
    assert kernels == tmp_path / "kernels.py"
    ws, texts = workspace(tmp_path)
    main = path_to_uri(tmp_path / "main.py")
    texts.open(main, MAIN)
    site = call_k(ws, main)
    assert site.hints == () or not site.hints
    return site.skipped


def finishes(work, seconds: float = 30.0):
    """Run `work` in a thread; its result, or a failure if it is still running after `seconds` (it blocked)."""
    out: list = []
    thread = threading.Thread(target=lambda: out.append(work()), daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), "blocked"
    return out[0]


# -- a file too big to analyse ---------------------------------------------------------------------------

def padded(text: str, size: int) -> str:
    """`text` followed by comment lines up to `size` bytes (a generated module's size, none of its cost)."""
    line = "# " + "padding " * 12 + "\n"
    return text + line * ((size - len(text)) // len(line) + 1)


def test_an_open_document_over_the_limit_gets_one_diagnostic_and_the_others_keep_theirs(tmp_path: Path):
    ws, texts = workspace(tmp_path)
    big, main = path_to_uri(tmp_path / "big.py"), path_to_uri(tmp_path / "main.py")
    texts.open(big, padded(KERNELS, 5_000_000))
    texts.open(main, MAIN)
    texts.open(path_to_uri(tmp_path / "kernels.py"), KERNELS)
    analysis = ws.analysis(big)
    assert [(d.code, d.range.line, d.range.col) for d in analysis.diagnostics] == [("NotAnalysed", 0, 0)]
    assert analysis.diagnostics[0].message == "not analysed: this file is 5.0 MB, over the 3 MB PyPTO Lens analyses"
    assert analysis.calls == [] and analysis.signatures == []
    assert directions(ws, main) == ["Input", "OutputExisting"]


def test_the_limit_counts_utf8_bytes_not_characters(tmp_path: Path):
    ws, texts = workspace(tmp_path)
    uri = path_to_uri(tmp_path / "wide.py")
    texts.open(uri, "# " + "中" * (MAX_ANALYSED_BYTES // 3 + 10) + "\n")  # 1 M characters, 3 MB of UTF-8
    assert [d.code for d in ws.analysis(uri).diagnostics] == ["NotAnalysed"]


def test_an_import_over_the_limit_says_why_its_calls_have_no_directions(tmp_path: Path):
    kernels = tmp_path / "kernels.py"
    kernels.write_text(padded(KERNELS, 5_000_000), encoding="utf-8")
    assert importer_says(tmp_path, kernels) == \
        "imported from `kernels`, whose file kernels.py is 5.0 MB, over the 3 MB PyPTO Lens analyses (S6)"


def test_an_import_just_under_the_limit_is_read(tmp_path: Path):
    (tmp_path / "kernels.py").write_text(padded(KERNELS, MAX_ANALYSED_BYTES - 200), encoding="utf-8")
    assert (tmp_path / "kernels.py").stat().st_size <= MAX_ANALYSED_BYTES
    ws, texts = workspace(tmp_path)
    main = path_to_uri(tmp_path / "main.py")
    texts.open(main, MAIN)
    assert directions(ws, main) == ["Input", "OutputExisting"]


# -- binary files ------------------------------------------------------------------------------------------

def random_bytes(size: int, seed: int = 42) -> bytes:
    r = random.Random(seed)
    return bytes(r.randrange(256) for _ in range(size))


@pytest.mark.parametrize("data", [b"\x00" * 4096, random_bytes(20_000), b"\x7fELF\x02\x01\x01" + b"\x00" * 64],
                         ids=["NUL bytes", "random bytes", "an ELF header"])
def test_a_binary_import_says_so(tmp_path: Path, data: bytes):
    kernels = tmp_path / "kernels.py"
    kernels.write_bytes(data)
    said = importer_says(tmp_path, kernels)
    assert said.startswith("imported from `kernels`, whose file kernels.py is binary (")
    assert "are NUL, control characters or bytes that are not UTF-8) (S6)" in said


@pytest.mark.parametrize("text", ["\x00" * 5000, random_bytes(20_000).decode("utf-8", errors="replace")],
                         ids=["NUL characters", "random bytes as the editor decodes them"])
def test_an_open_binary_document_gets_one_diagnostic(tmp_path: Path, text: str):
    ws, texts = workspace(tmp_path)
    uri = path_to_uri(tmp_path / "blob.py")
    texts.open(uri, text)
    analysis = ws.analysis(uri)
    [note] = analysis.diagnostics
    assert note.code == "NotAnalysed" and (note.range.line, note.range.col) == (0, 0)
    assert note.message.startswith("not analysed: this file is binary (")
    assert analysis.calls == []


def test_a_nul_character_in_a_program_is_no_binary_file(tmp_path: Path):
    ws, texts = workspace(tmp_path)
    (tmp_path / "kernels.py").write_text(KERNELS, encoding="utf-8")
    uri = path_to_uri(tmp_path / "main.py")
    texts.open(uri, MAIN.replace("    k(a, b)\n", '    s = "\x00"; k(a, b)\n'))
    assert directions(ws, uri) == ["Input", "OutputExisting"]
    assert [d.code for d in ws.analysis(uri).diagnostics if d.code == "NotAnalysed"] == []


# -- files that are not UTF-8 ------------------------------------------------------------------------------

LATIN1 = ("# caf\xe9, written in Latin-1\n" + KERNELS).encode("latin-1")


def test_a_latin1_import_is_read_and_the_log_says_where(tmp_path: Path, caplog):
    (tmp_path / "kernels.py").write_bytes(LATIN1)
    ws, texts = workspace(tmp_path)
    main = path_to_uri(tmp_path / "main.py")
    texts.open(main, MAIN)
    with caplog.at_level(logging.INFO, logger="pypto-lens"):
        assert directions(ws, main) == ["Input", "OutputExisting"]
    [line] = [r.getMessage() for r in caplog.records if "UTF-8" in r.getMessage()]
    assert line == (f"{tmp_path / 'kernels.py'}: not valid UTF-8 (the first bad byte is at line 1, column 6): "
                    "read with U+FFFD for its bad bytes")
    own = ws.analysis(path_to_uri(tmp_path / "kernels.py"))  # analysed in its own right: where, as a diagnostic
    [note] = [d for d in own.diagnostics if d.code == "InvalidUtf8"]
    assert (note.range.line, note.range.col) == (0, 5)
    assert note.message.startswith("this file is not valid UTF-8 (the first bad byte is at line 1, column 6)")


def test_the_first_bad_byte_is_found_after_crlf_lines_and_wide_characters(tmp_path: Path):
    path = tmp_path / "k.py"
    path.write_bytes("x = '中文'\r\ny = 2\r\nz = 'd\xe9j\xe0'\r\n".encode("utf-8").replace(b"\xc3\xa9", b"\xe9"))
    doc = DiskFiles().read(path_to_uri(path))
    assert not doc.valid_utf8 and doc.invalid_at == (2, 6)


def test_a_coding_declaration_is_what_python_reads(tmp_path: Path):
    (tmp_path / "kernels.py").write_bytes(("# -*- coding: latin-1 -*-\n# caf\xe9\n" + KERNELS).encode("latin-1"))
    ws, texts = workspace(tmp_path)
    main = path_to_uri(tmp_path / "main.py")
    texts.open(main, MAIN)
    assert directions(ws, main) == ["Input", "OutputExisting"]
    own = ws.analysis(path_to_uri(tmp_path / "kernels.py"))
    assert [d.code for d in own.diagnostics if d.code == "InvalidUtf8"] == []
    assert "café" in ws.text(path_to_uri(tmp_path / "kernels.py"))


def test_an_open_document_the_editor_could_not_decode(tmp_path: Path):
    """The editor shows a byte that is not UTF-8 as U+FFFD: where its file on disk is not UTF-8, the
    document says so at the first one; once the file on disk is UTF-8 (saved), it does not."""
    path = tmp_path / "kernels.py"
    path.write_bytes(LATIN1)
    ws, texts = workspace(tmp_path)
    uri = path_to_uri(path)
    texts.open(uri, LATIN1.decode("utf-8", errors="replace"))
    [note] = [d for d in ws.analysis(uri).diagnostics if d.code == "InvalidUtf8"]
    assert (note.range.line, note.range.col, note.range.end_col) == (0, 5, 6)
    assert "the editor shows its bytes that are not UTF-8 as U+FFFD" in note.message
    path.write_text(LATIN1.decode("utf-8", errors="replace"), encoding="utf-8")  # saved as UTF-8
    assert [d.code for d in ws.analysis(uri).diagnostics if d.code == "InvalidUtf8"] == []


def test_a_replacement_character_in_a_utf8_file_is_no_bad_byte(tmp_path: Path):
    path = tmp_path / "kernels.py"
    text = "# U+FFFD \ufffd is a character too\n" + KERNELS
    path.write_text(text, encoding="utf-8")
    ws, texts = workspace(tmp_path)
    texts.open(path_to_uri(path), text)
    assert [d.code for d in ws.analysis(path_to_uri(path)).diagnostics if d.code == "InvalidUtf8"] == []
    texts.open(path_to_uri(tmp_path / "untitled.py"), text)  # and one that is on no disk
    assert [d.code for d in ws.analysis(path_to_uri(tmp_path / "untitled.py")).diagnostics
            if d.code == "InvalidUtf8"] == []


# -- what is no file to read: symbolic links that loop, FIFOs ------------------------------------------

def test_an_import_that_is_a_symbolic_link_to_itself(tmp_path: Path, caplog):
    os.symlink("kernels.py", tmp_path / "kernels.py")
    with caplog.at_level(logging.INFO, logger="pypto-lens"):
        said = finishes(lambda: importer_says(tmp_path, tmp_path / "kernels.py"))
    assert said == "imported from `kernels`, whose file kernels.py is a symbolic link that loops (S6)"


def test_an_import_through_a_symbolic_link_to_a_missing_file(tmp_path: Path):
    os.symlink("gone.py", tmp_path / "kernels.py")
    assert importer_says(tmp_path, tmp_path / "kernels.py") == \
        "imported from `kernels`, whose file kernels.py is a symbolic link to a file that is not there (S6)"


def test_an_import_that_is_a_fifo_does_not_block(tmp_path: Path):
    os.mkfifo(tmp_path / "kernels.py")
    said = finishes(lambda: importer_says(tmp_path, tmp_path / "kernels.py"))
    assert said == "imported from `kernels`, whose file kernels.py is not a regular file (a FIFO) (S6)"
    finishes(lambda: DiskFiles().read(path_to_uri(tmp_path / "kernels.py")))  # read directly: no wait either


def test_a_missing_import_still_says_not_found(tmp_path: Path):
    assert importer_says(tmp_path, tmp_path / "kernels.py") == \
        "imported from `kernels`, not found (neither beside this file nor in the workspace) (S6)"


def test_a_failed_read_is_logged_once_and_read_again_when_the_file_changes(tmp_path: Path, caplog):
    path = tmp_path / "blob.py"
    path.write_bytes(b"\x00" * 100)
    files = DiskFiles()
    with caplog.at_level(logging.INFO, logger="pypto-lens"):
        for _ in range(3):
            assert files.read(path_to_uri(path)) is None
    assert [r.getMessage() for r in caplog.records] == [
        f"{path} is binary (100% of its first 100 characters are NUL, control characters or bytes that are not "
        "UTF-8): not read"]
    assert files.problem(path_to_uri(path)).startswith("is binary")
    path.write_text("x = 1\n", encoding="utf-8")
    assert files.read(path_to_uri(path)).text == "x = 1\n" and files.problem(path_to_uri(path)) is None


# -- walking the workspace: symbolic links that loop, FIFOs ---------------------------------------------------

HELPERS = '''\
import pypto.language as pl

N = 64


@pl.jit.inline
def square_into(src: pl.Tensor[[N], pl.FP32], dst: pl.Tensor[[N], pl.FP32]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="sq"):
        t = pl.load(src, [0], [N])
        pl.store(pl.mul(t, t), [0], dst)
    return dst
'''
CALLER = '''\
import pypto.language as pl
from helpers import N, square_into


@pl.jit
def once(x: pl.Tensor[[N], pl.FP32], y: pl.Out[pl.Tensor[[N], pl.FP32]]):
    y = square_into(x, y)
    return y
'''


def test_the_helpers_callers_are_found_past_loops_and_fifos(tmp_path: Path, caplog):
    (tmp_path / "helpers.py").write_text(HELPERS, encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "caller.py").write_text(CALLER, encoding="utf-8")
    os.symlink("..", tmp_path / "sub" / "up")  # a folder loop: sub/up/sub/up/...
    os.symlink(tmp_path, tmp_path / "sub" / "again")
    os.symlink("self.py", tmp_path / "self.py")  # a .py that loops
    os.mkfifo(tmp_path / "pipe.py")
    (tmp_path / "blob.py").write_bytes(b"\x00" * 100 + b"square_into")
    ws, texts = workspace(tmp_path)
    helpers = path_to_uri(tmp_path / "helpers.py")
    texts.open(helpers, HELPERS)
    with caplog.at_level(logging.INFO, logger="pypto-lens"):
        callers = finishes(lambda: ws.callers(helpers))
    assert callers == [path_to_uri(tmp_path / "caller.py")]  # once: not again through sub/up or sub/again
    said = sorted(r.getMessage() for r in caplog.records)
    assert f"{tmp_path / 'self.py'} is a symbolic link that loops: not read" in said
    assert f"{tmp_path / 'pipe.py'} is not a regular file (a FIFO): not read" in said
    finishes(lambda: ws.settle(helpers))
    assert ws.lenders(helpers) == (path_to_uri(tmp_path / "caller.py"),)
