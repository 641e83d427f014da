"""Files changed on disk (issue 42): the server watches the workspace's files through the client
(`workspace/didChangeWatchedFiles`, registered dynamically) and brings the open documents that read
them up to date without any edit: hints, diagnostics, and the editor told to ask again."""
from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types

from lens_client import capabilities, direction_of, until
from lens_programs import KERNELS, T, USES_KERNEL

pytestmark = pytest.mark.asyncio(loop_scope="session")

CHANGED, CREATED, DELETED = types.FileChangeType.Changed, types.FileChangeType.Created, types.FileChangeType.Deleted
INOUT_KERNELS = KERNELS.replace("pl.Out[", "pl.InOut[")
CALL_LINE = USES_KERNEL.split("\n").index('    s = "é中文💡"; k(a, b)')


async def directions_at(client, uri: str, line: int) -> list[str]:
    return [direction_of(h) for h in await client.hints(uri) if h.position.line == line]


async def settled(client) -> dict:
    """The server's count of analyses per document, once its background work is done."""
    return await client.settled()


async def test_the_server_asks_to_watch_the_workspaces_python_files(start_session):
    async with start_session(capabilities("utf-16")) as client:
        await until(lambda: "**/*.py" in client.watched_globs)
    async with start_session(capabilities("utf-16", watch=False)) as client:
        await client.settled()
        assert client.watched_globs == []  # (a client that cannot be asked; it may still send the events)


@pytest.mark.parametrize("watch", [True, False], ids=["registered", "sent-unasked"])
async def test_a_kernel_changed_on_disk_flips_its_open_callers_hint_without_an_edit(start_session, tmp_path: Path,
                                                                                    watch: bool):
    kernels = tmp_path / "kernels.py"
    kernels.write_text(KERNELS, encoding="utf-8")
    async with start_session(capabilities("utf-16", watch=watch)) as client:
        main = client.open((tmp_path / "main.py").as_uri(), USES_KERNEL)  # kernels.py is not open
        assert await directions_at(client, main, CALL_LINE) == ["Input", "OutputExisting"]
        await client.settled()
        refreshes = client.inlay_refreshes

        kernels.write_text(INOUT_KERNELS, encoding="utf-8")  # `git checkout` of a branch where y is InOut
        client.files_changed((kernels, CHANGED))
        await until(lambda: client.inlay_refreshes > refreshes)  # the editor is told, with no edit
        assert await directions_at(client, main, CALL_LINE) == ["Input", "InOut"]

        kernels.write_text(KERNELS, encoding="utf-8")  # and back
        client.files_changed((kernels, CHANGED))
        assert await directions_at(client, main, CALL_LINE) == ["Input", "OutputExisting"]


async def call_hints(client, uri: str) -> list:
    """The hints of the calls (below `def main`, not its effective signature, which P3 adds once b is InOut)."""
    return [h for h in await client.hints(uri) if h.position.line > CALLER_DEF_LINE]


def kernel_file(n: int, out: str) -> str:
    return f'''import pypto.language as pl


@pl.jit.incore
def k{n:03}(x: {T}, y: pl.{out}[{T}]):
    t = pl.load(x, [0], [64])
    pl.store(t, [0], y)
'''


CALLER_DEF_LINE = 5  # (the callers below: pl's import, theirs on one line, two blank ones, the decorator)


def caller_file(numbers: list[int]) -> str:
    imports = "; ".join(f"from k{n:03} import k{n:03}" for n in numbers)  # (one line: `def main` is line 5)
    calls = "\n".join(f"    k{n:03}(a, b)" for n in numbers)
    return f"import pypto.language as pl\n{imports}\n\n\n@pl.jit\ndef main(a: {T}, b: pl.Out[{T}]):\n{calls}\n"


async def test_a_branch_switch_of_200_files_analyses_each_dependent_document_once(start_session, tmp_path: Path):
    kernels = [tmp_path / f"k{n:03}.py" for n in range(200)]
    for n, path in enumerate(kernels):
        path.write_text(kernel_file(n, "Out"), encoding="utf-8")
    callers = {"wide.py": list(range(0, 200, 10)), "narrow.py": [150], "deep.py": [7, 8]}
    bystander_text = f"import pypto.language as pl\n\n\n@pl.jit.incore\ndef alone(x: {T}, y: pl.Out[{T}]):\n" \
                     f"    pl.store(pl.load(x, [0], [64]), [0], y)\n"
    async with start_session(capabilities("utf-16")) as client:
        uris = {name: client.open((tmp_path / name).as_uri(), caller_file(numbers))
                for name, numbers in callers.items()}
        bystander = client.open((tmp_path / "alone.py").as_uri(), bystander_text)
        for name, uri in uris.items():  # (b's later writers see an earlier one: C7)
            hints = [direction_of(h) for h in await call_hints(client, uri)]
            assert hints == ["Input", "OutputExisting"] + ["Input", "InOut"] * (len(callers[name]) - 1)
        await client.hints(bystander)
        before = await settled(client)

        for n, path in enumerate(kernels):  # the switch rewrites every kernel: y is InOut on the other branch
            path.write_text(kernel_file(n, "InOut"), encoding="utf-8")
        for batch in range(4):  # as a watcher delivers them: in several notifications
            client.files_changed(*[(path, CHANGED) for path in kernels[batch * 50:(batch + 1) * 50]])
        after = await settled(client)

        for name, uri in uris.items():
            assert after[uri] - before[uri] == 1, f"{name} analysed {after[uri] - before[uri]} times"
            hints = [direction_of(h) for h in await call_hints(client, uri)]
            assert hints == ["Input", "InOut"] * len(callers[name])
        assert after.get(bystander, 0) == before.get(bystander, 0)  # it reads none of them: only its reads checked


async def test_a_deleted_helper_file_gives_its_callers_the_unresolved_import_diagnostic(start_session, tmp_path: Path):
    kernels = tmp_path / "kernels.py"
    kernels.write_text(KERNELS, encoding="utf-8")
    async with start_session(capabilities("utf-16")) as client:
        main = client.open((tmp_path / "main.py").as_uri(), USES_KERNEL)
        assert not [d for d in (await client.pull(main)).items if d.code == "UnresolvedImport"]
        await client.settled()
        refreshes = client.diagnostic_refresh_count

        kernels.unlink()
        client.files_changed((kernels, DELETED))
        await until(lambda: client.diagnostic_refresh_count > refreshes)  # the editor is told to pull again
        (found,) = [d for d in (await client.pull(main)).items if d.code == "UnresolvedImport"]
        assert "`kernels` is not found" in found.message and "`k`" in found.message
        line = USES_KERNEL.split("\n").index("from kernels import k")
        assert (found.range.start.line, found.range.start.character, found.range.end.character) == (line, 5, 12)
        assert found.severity == types.DiagnosticSeverity.Information  # (an absolute import: maybe a package)
        assert [r.location.range.start.line for r in found.related_information] == [CALL_LINE]
        assert await directions_at(client, main, CALL_LINE) == []  # the call lost its directions

        kernels.write_text(KERNELS, encoding="utf-8")  # created again (a branch that has it)
        client.files_changed((kernels, CREATED))
        assert await directions_at(client, main, CALL_LINE) == ["Input", "OutputExisting"]
        assert not [d for d in (await client.pull(main)).items if d.code == "UnresolvedImport"]


async def test_a_file_created_on_disk_resolves_an_import_that_was_missing(start_session, tmp_path: Path):
    async with start_session(capabilities("utf-16")) as client:
        main = client.open((tmp_path / "main.py").as_uri(), USES_KERNEL)
        assert await directions_at(client, main, CALL_LINE) == []
        await client.settled()
        refreshes = client.inlay_refreshes
        (tmp_path / "kernels.py").write_text(KERNELS, encoding="utf-8")
        client.files_changed((tmp_path / "kernels.py", CREATED))
        await until(lambda: client.inlay_refreshes > refreshes)
        assert await directions_at(client, main, CALL_LINE) == ["Input", "OutputExisting"]


async def test_pushed_diagnostics_follow_the_disk_too(start_session, tmp_path: Path):
    kernels = tmp_path / "kernels.py"
    kernels.write_text(KERNELS, encoding="utf-8")
    async with start_session(capabilities("utf-16", pull=False)) as client:
        main = client.open((tmp_path / "main.py").as_uri(), USES_KERNEL)
        await client.published_for(main)
        kernels.unlink()
        client.files_changed((kernels, DELETED))
        published = await client.published_for(main, lambda p: any(d.code == "UnresolvedImport" for d in p.diagnostics))
        assert published.version == 1


async def test_an_open_documents_buffer_wins_over_the_disk(start_session, tmp_path: Path):
    kernels = tmp_path / "kernels.py"
    kernels.write_text(KERNELS, encoding="utf-8")
    async with start_session(capabilities("utf-16")) as client:
        client.open(kernels.as_uri(), KERNELS)  # open, unedited: y is Out in the buffer
        main = client.open((tmp_path / "main.py").as_uri(), USES_KERNEL)
        assert await directions_at(client, main, CALL_LINE) == ["Input", "OutputExisting"]
        kernels.write_text(INOUT_KERNELS, encoding="utf-8")  # another program writes the file
        client.files_changed((kernels, CHANGED))
        await client.settled()
        assert await directions_at(client, main, CALL_LINE) == ["Input", "OutputExisting"]
        client.close(kernels.as_uri())  # closed: the disk is what main.py imports now
        assert await directions_at(client, main, CALL_LINE) == ["Input", "InOut"]


REGISTRATIONS = '''REGISTER_OP("tile.load")
    .add_argument("tensor", "source")
    .add_argument("offsets", "where")
    .add_argument("shapes", "how much");

REGISTER_OP("tile.store")
    .add_argument("tile", "source")
    .add_argument("offsets", "where")
    .add_argument("output_tensor", "destination")
    .set_arg_effect(2, ArgEffect::Write)
    .set_output_reuses_input(2);
'''

STORES = f'''import pypto.language as pl


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


async def test_a_registry_source_changed_on_disk_changes_the_hints(start_session, tmp_path: Path):
    source = tmp_path / "pypto" / "src" / "ir" / "op" / "tile_ops" / "memory.cpp"
    source.parent.mkdir(parents=True)
    source.write_text(REGISTRATIONS, encoding="utf-8")
    put_line = STORES.split("\n").index("        b = self.put(a, b)")
    async with start_session(capabilities("utf-16"), folder=tmp_path) as client:
        await until(lambda: "**/*.{cpp,cc,h,hpp}" in client.watched_globs)  # the checkout's sources too
        uri = client.open((tmp_path / "model.py").as_uri(), STORES)
        assert await directions_at(client, uri, put_line) == ["Input", "OutputExisting"]  # U4: the store writes dst
        await client.settled()
        refreshes = client.inlay_refreshes
        source.write_text(REGISTRATIONS.replace("    .set_arg_effect(2, ArgEffect::Write)\n", ""), encoding="utf-8")
        client.files_changed((source, CHANGED))
        await until(lambda: client.inlay_refreshes > refreshes)
        assert await directions_at(client, uri, put_line) == ["Input", "Input"]


async def test_without_a_watcher_the_files_read_from_disk_are_looked_at_while_nobody_types(start_session,
                                                                                           tmp_path: Path):
    """A client that cannot watch files for the server and sends no events (server/watched_files.py's poll)."""
    kernels = tmp_path / "kernels.py"
    kernels.write_text(KERNELS, encoding="utf-8")
    async with start_session(capabilities("utf-16", watch=False)) as client:
        main = client.open((tmp_path / "main.py").as_uri(), USES_KERNEL)
        assert await directions_at(client, main, CALL_LINE) == ["Input", "OutputExisting"]
        await client.settled()
        refreshes = client.inlay_refreshes
        kernels.write_text(INOUT_KERNELS, encoding="utf-8")  # and no event sent
        await until(lambda: client.inlay_refreshes > refreshes)
        assert await directions_at(client, main, CALL_LINE) == ["Input", "InOut"]
