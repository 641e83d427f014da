"""Bad input over LSP (issue 42): a file that is not UTF-8, too big, binary, a symbolic link that loops, a
FIFO, unreadable, deleted while open, a C++ registration that does not parse. Each gets one diagnostic, or
one hover reason at its importer's call, or one log line, saying what and where; the other documents keep
their answers; the server never blocks. The engine's side is tests/test_bad_input_engine.py."""
from __future__ import annotations

import asyncio
import itertools
import os
import random
import sys
from pathlib import Path

import pytest
from lsprotocol import types

from lens_client import ROOT, bounded, capabilities, direction_of, label_text, pos, units, until
from lens_programs import DEMO, KERNELS, T, USES_KERNEL, argument_positions

pytestmark = pytest.mark.asyncio(loop_scope="session")

_folders = itertools.count()
WITHOUT_DAC = [sys.executable, str(ROOT / "tests" / "without_dac.py"), sys.executable, "-m", "pypto_lens"]


def folder_of(client) -> Path:
    folder = client.folder / f"bad_input_{next(_folders)}"
    folder.mkdir(parents=True)
    return folder


async def kernel_directions(client, uri, source=USES_KERNEL) -> list[str]:
    call = argument_positions(source, "k(a, b)", 0, client.encoding)
    hints = await client.hints(uri, (call[0].line, 0), (call[0].line + 1, 0))
    return [direction_of(h) for h in hints]


async def call_hover(client, uri, source=USES_KERNEL) -> str:
    hover = await client.hover(uri, pos(source, "k(a, b)", client.encoding))
    assert hover is not None
    return hover.contents.value


async def still_fine(client) -> None:
    """Another document's answers are what they always are."""
    uri = client.open_new(DEMO)
    assert len(await client.hints(uri)) == 13
    client.close(uri)


def logged(client, text: str) -> bool:
    return any(text in line for line in client.stderr_lines)


def padded(text: str, size: int) -> str:
    line = "# " + "padding " * 12 + "\n"
    return text + line * ((size - len(text)) // len(line) + 1)


def random_bytes(size: int, seed: int = 7) -> bytes:
    r = random.Random(seed)
    return bytes(r.randrange(256) for _ in range(size))


# -- 1. not UTF-8 --------------------------------------------------------------------------------------

LATIN1_KERNELS = b"# caf\xe9, one byte of Latin-1\n" + KERNELS.encode("utf-8")


async def test_an_open_document_whose_file_is_not_utf8(client):
    """The editor decodes the file's bad byte as U+FFFD and sends that: one InvalidUtf8 there, hints kept."""
    folder = folder_of(client)
    (folder / "kernels.py").write_text(KERNELS, encoding="utf-8")
    raw = b"# caf\xe9, one byte of Latin-1\n" + USES_KERNEL.encode("utf-8")
    (folder / "main.py").write_bytes(raw)
    text = raw.decode("utf-8", errors="replace")
    main = client.open((folder / "main.py").as_uri(), text)
    assert await kernel_directions(client, main, text) == ["Input", "OutputExisting"]
    [note] = [d for d in (await client.pull(main)).items if d.code == "InvalidUtf8"]
    assert (note.range.start.line, note.range.start.character, note.range.end.character) == \
        (0, 5, 5 + units("\ufffd", client.encoding))
    assert note.message == ("this file is not valid UTF-8 (the first bad byte is at line 1, column 6): the editor "
                            "shows its bytes that are not UTF-8 as U+FFFD; save it as UTF-8")
    assert note.severity == types.DiagnosticSeverity.Warning
    await still_fine(client)


async def test_an_import_that_is_not_utf8_is_read_and_logged(client):
    folder = folder_of(client)
    (folder / "kernels.py").write_bytes(LATIN1_KERNELS)
    main = client.open((folder / "main.py").as_uri(), USES_KERNEL)
    assert await kernel_directions(client, main) == ["Input", "OutputExisting"]
    assert [d.code for d in (await client.pull(main)).items if d.code == "InvalidUtf8"] == []  # (not this file)
    await until(lambda: logged(client, f"{folder / 'kernels.py'}: not valid UTF-8 (the first bad byte is at line 1, "
                                       "column 6): read with U+FFFD for its bad bytes"))


# -- 2. too big ----------------------------------------------------------------------------------------

async def test_a_five_megabyte_document_says_it_is_not_analysed(client):
    folder = folder_of(client)
    (folder / "kernels.py").write_text(KERNELS, encoding="utf-8")
    text = padded(USES_KERNEL, 5_000_000)
    big = client.open((folder / "big.py").as_uri(), text)
    [note] = (await client.pull(big)).items
    assert note.code == "NotAnalysed" and note.severity == types.DiagnosticSeverity.Information
    assert (note.range.start.line, note.range.start.character) == (0, 0)
    assert note.message == "not analysed: this file is 5.0 MB, over the 3 MB PyPTO Lens analyses"
    assert await client.hints(big) == []
    assert await client.hover(big, pos(text, "k(a, b)", client.encoding)) is None
    client.close(big)
    await still_fine(client)


async def test_an_import_of_five_megabytes_says_why_its_calls_have_no_directions(client):
    folder = folder_of(client)
    (folder / "kernels.py").write_text(padded(KERNELS, 5_000_000), encoding="utf-8")
    main = client.open((folder / "main.py").as_uri(), USES_KERNEL)
    assert await kernel_directions(client, main) == []
    assert "No directions: imported from `kernels`, whose file kernels.py is 5.0 MB, over the 3 MB PyPTO Lens " \
           "analyses (S6)" in await call_hover(client, main)
    await still_fine(client)


# -- 3. binary ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["\x00" * 5000, random_bytes(20_000).decode("utf-8", errors="replace")],
                         ids=["NUL characters", "random bytes"])
async def test_an_open_binary_document_says_it_is_not_analysed(client, text):
    uri = client.open_new(text)
    [note] = (await client.pull(uri)).items
    assert note.code == "NotAnalysed" and note.message.startswith("not analysed: this file is binary (")
    assert await client.hints(uri) == []
    client.close(uri)
    await still_fine(client)


@pytest.mark.parametrize("data", [b"\x00" * 5000, random_bytes(20_000)], ids=["NUL bytes", "random bytes"])
async def test_a_binary_import_says_so(client, data):
    folder = folder_of(client)
    (folder / "kernels.py").write_bytes(data)
    main = client.open((folder / "main.py").as_uri(), USES_KERNEL)
    assert await kernel_directions(client, main) == []
    text = await call_hover(client, main)
    assert "No directions: imported from `kernels`, whose file kernels.py is binary (" in text
    assert "NUL, control characters or bytes that are not UTF-8) (S6)" in text
    await still_fine(client)


# -- 4. symbolic links that loop -------------------------------------------------------------------------

async def test_an_import_that_is_a_symbolic_link_to_itself(client):
    folder = folder_of(client)
    os.symlink("kernels.py", folder / "kernels.py")
    main = client.open((folder / "main.py").as_uri(), USES_KERNEL)
    assert "No directions: imported from `kernels`, whose file kernels.py is a symbolic link that loops (S6)" \
        in await call_hover(client, main)
    await still_fine(client)


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
HEADER = 'with pl.at(level=pl.Level.CORE_GROUP, name_hint="sq"):'
CALLER = '''\
import pypto.language as pl
from helpers import N, square_into


@pl.jit
def once(x: pl.Tensor[[N], pl.FP32], y: pl.Out[pl.Tensor[[N], pl.FP32]]):
    y = square_into(x, y)
    return y
'''


async def test_the_helpers_callers_are_found_past_folder_loops_fifos_and_binary_files(start_session, tmp_path):
    """Walking the workspace for an inline helper's callers on disk ends, past a folder that links to its
    parent, a .py that links to itself, a FIFO and a binary file: the caller lends its directions once."""
    (tmp_path / "caller.py").write_text(CALLER, encoding="utf-8")
    (tmp_path / "sub").mkdir()
    os.symlink("..", tmp_path / "sub" / "up")
    os.symlink("self.py", tmp_path / "self.py")
    os.mkfifo(tmp_path / "pipe.py")
    (tmp_path / "blob.py").write_bytes(b"\x00" * 1000 + b"square_into")
    async with start_session(capabilities("utf-16"), folder=tmp_path) as client:
        helpers = client.open((tmp_path / "helpers.py").as_uri(), HELPERS)
        answer = await bounded(client.protocol.send_request_async("pyptoLens/settled", None), 30)
        assert answer.settled is True
        line = pos(HELPERS, HEADER, "utf-16").line
        assert sorted(label_text(h) for h in await client.hints(helpers, (line, 0), (line + 1, 0))) == \
            ["dst: OutputExisting", "src: Input"]
        hover = await client.hover(helpers, pos(HELPERS, "pl.at(", "utf-16"))
        assert "caller.py:7 (once): src (x): Input, dst (y): OutputExisting" in hover.contents.value
        assert "up/" not in hover.contents.value  # (not found again through the loop)
        await until(lambda: logged(client, f"{tmp_path / 'pipe.py'} is not a regular file (a FIFO): not read"))
        await until(lambda: logged(client, f"{tmp_path / 'self.py'} is a symbolic link that loops: not read"))


# -- 5. deleted while open ---------------------------------------------------------------------------------

OWN_CALL = KERNELS + f'''

@pl.jit
def entry(a: {T}, b: pl.Out[{T}]):
    k(a, b)
'''


async def test_a_file_deleted_while_open_keeps_its_hints_and_once_closed_is_missing(client):
    folder = folder_of(client)
    path = folder / "kernels.py"
    path.write_text(OWN_CALL, encoding="utf-8")
    kernels = client.open(path.as_uri(), OWN_CALL)
    main = client.open((folder / "main.py").as_uri(), USES_KERNEL)
    assert await kernel_directions(client, main) == ["Input", "OutputExisting"]
    path.unlink()
    client.edit(kernels, 2, (0, 0), (0, 0), "# deleted on disk, still in the editor\n")
    own = "# deleted on disk, still in the editor\n" + OWN_CALL
    assert await kernel_directions(client, kernels, own) == ["Input", "OutputExisting"]
    assert await kernel_directions(client, main) == ["Input", "OutputExisting"]  # (the editor's text)
    client.close(kernels)
    assert "No directions: imported from `kernels`, not found (neither beside this file nor in the workspace) (S6)" \
        in await call_hover(client, main)
    assert await kernel_directions(client, main) == []


# -- 6. unreadable; a FIFO -----------------------------------------------------------------------------------

async def test_an_unreadable_import_says_it_cannot_be_read(start_session, tmp_path):
    """The server runs without root's capabilities (tests/without_dac.py), so the file's mode counts."""
    kernels = tmp_path / "kernels.py"
    kernels.write_text(KERNELS, encoding="utf-8")
    kernels.chmod(0)
    async with start_session(capabilities("utf-16"), folder=tmp_path, command=WITHOUT_DAC) as client:
        main = client.open((tmp_path / "main.py").as_uri(), USES_KERNEL)
        text = await call_hover(client, main)
        assert "No directions: imported from `kernels`, whose file kernels.py cannot be read (permission denied) " \
               "(S6)" in text
        assert "imported from `kernels`, not found" not in text
        await until(lambda: logged(client, f"{kernels} cannot be read (permission denied): not read"))
        kernels.chmod(0o644)  # readable again: read at the next question
        client.replace(main, 2, USES_KERNEL + "\n")
        assert await kernel_directions(client, main) == ["Input", "OutputExisting"]


async def test_a_fifo_import_does_not_block_the_server(client):
    folder = folder_of(client)
    os.mkfifo(folder / "kernels.py")
    main = client.open((folder / "main.py").as_uri(), USES_KERNEL)
    assert "No directions: imported from `kernels`, whose file kernels.py is not a regular file (a FIFO) (S6)" \
        in await call_hover(client, main)
    await still_fine(client)


# -- 7. a registration source that does not parse ------------------------------------------------------------

# tile.store declares no write here (PyPTO's does): the hints below follow this checkout, not the bundled table
OPS = '''REGISTER_OP("tile.load")
    .add_argument("tensor", "source")
    .add_argument("offsets", "where")
    .add_argument("shapes", "how much");

REGISTER_OP("tile.store")
    .add_argument("tile", "source")
    .add_argument("offsets", "where")
    .add_argument("output_tensor", "destination");
'''
BROKEN = '''// a chain that stops parsing half way
REGISTER_OP("lens.half")
    .add_argument("dst", "destination") .. set_arg_effect(0, ArgEffect::Write);

REGISTER_OP("lens.whole").add_argument("dst", "destination").set_arg_effect(0, ArgEffect::Write);
'''
PROGRAM = f'''import pypto.language as pl


@pl.program
class UsesStore:
    @pl.function(type=pl.FunctionType.InCore)
    def put(self, src: {T}, dst: {T}) -> {T}:
        t = pl.load(src, [0], [64])
        dst = pl.store(t, [0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: {T}, b: {T}) -> {T}:
        b = self.put(a, b)
        return b
'''


async def put_directions(client, uri) -> list[str]:
    call = argument_positions(PROGRAM, "self.put(a, b)", 0, "utf-16")
    return [direction_of(h) for h in await client.hints(uri, (call[0].line, 0), (call[0].line + 1, 0))]


async def test_a_registration_that_does_not_parse_is_logged_and_shown_and_the_rest_is_read(start_session, tmp_path):
    ops = tmp_path / "pypto" / "src" / "ir" / "op"
    ops.mkdir(parents=True)
    (ops / "memory.cpp").write_text(OPS, encoding="utf-8")
    (ops / "broken.cpp").write_text(BROKEN, encoding="utf-8")
    os.symlink("..", ops / "up")  # folder loops on the checkout's search: not followed
    os.symlink(".", tmp_path / "here")
    async with start_session(capabilities("utf-16"), folder=tmp_path) as client:
        await until(lambda: logged(client, "operator registry: "))  # (read from the workspace's sources)
        assert logged(client, f"{ops / 'broken.cpp'}:3:42: the chain of `lens.half` does not parse from `.` on: "
                              "only the calls before it are read (add_argument)")
        program = client.open((tmp_path / "model.py").as_uri(), PROGRAM)
        assert await put_directions(client, program) == ["Input", "Input"]  # this checkout's tile.store: no write
        broken = client.open((ops / "broken.cpp").as_uri(), BROKEN, language="cpp")
        [note] = (await client.pull(broken)).items
        assert note.code == "UnparsedRegistration" and note.severity == types.DiagnosticSeverity.Warning
        assert (note.range.start.line, note.range.start.character) == (2, 41)
        assert note.message == "the chain of `lens.half` does not parse from `.` on: only the calls before it are " \
                               "read (add_argument)"
        assert await put_directions(client, program) == ["Input", "Input"]
        assert len(await asyncio.wait_for(client.hints(program), 30)) == 2
