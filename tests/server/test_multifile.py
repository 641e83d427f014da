"""Several documents: a program imports a @pl.jit.incore kernel from a sibling module (`from kernels import k`)."""
from __future__ import annotations

import itertools

import pytest

from lens_client import direction_of, label_text, pos, until
from lens_programs import KERNELS, T, USES_KERNEL, argument_positions

pytestmark = pytest.mark.asyncio(loop_scope="session")

_folders = itertools.count()

# a kernel-using InCore function that writes its In parameter through k's Out slot (InParamWritten)
HELPER = f'''\
import pypto.language as pl
from kernels import k


@pl.jit.incore
def helper(src: {T}, sink: {T}):
    s = "é中文💡"; k(src, sink)
'''


def folder_of(client):
    folder = client.folder / f"project_{next(_folders)}"
    folder.mkdir(parents=True)
    return folder


async def kernel_hints(client, uri, source=USES_KERNEL):
    call = argument_positions(source, "k(a, b)", 0, client.encoding)
    hints = await client.hints(uri, (call[0].line, 0), (call[0].line + 1, 0))
    assert [h.position for h in hints] == call  # just before each argument, after the astral text
    return hints


def out_to_inout_edit(client, uri, version):
    line = KERNELS.split("\n").index(f"def k(x: {T}, y: pl.Out[{T}]):")
    col = KERNELS.split("\n")[line].index("pl.Out[") + len("pl.")
    client.edit(uri, version, (line, col), (line, col + len("Out")), "InOut")  # ASCII line: same in every encoding


async def test_changing_the_kernel_in_one_document_changes_the_hint_in_the_other(client):
    folder = folder_of(client)
    kernels = client.open((folder / "kernels.py").as_uri(), KERNELS)
    main = client.open((folder / "main.py").as_uri(), USES_KERNEL)
    before = await kernel_hints(client, main)
    assert [direction_of(h) for h in before] == ["Input", "OutputExisting"]
    out_to_inout_edit(client, kernels, 2)
    after = await kernel_hints(client, main)
    assert [direction_of(h) for h in after] == ["Input", "InOut"]
    # and back, by replacing the whole kernel document
    client.replace(kernels, 3, KERNELS)
    assert [direction_of(h) for h in await kernel_hints(client, main)] == ["Input", "OutputExisting"]


async def test_the_editor_is_told_to_ask_again_for_a_document_whose_hints_an_import_changed(client):
    """main.py open beside kernels.py, not edited and not asked: once kernels.py's pl.Out is pl.InOut,
    the server analyses main.py again and tells the editor to ask for its hints again (issue 20)."""
    folder = folder_of(client)
    kernels = client.open((folder / "kernels.py").as_uri(), KERNELS)
    main = client.open((folder / "main.py").as_uri(), USES_KERNEL)
    assert [direction_of(h) for h in await kernel_hints(client, main)] == ["Input", "OutputExisting"]
    refreshes = client.inlay_refreshes
    out_to_inout_edit(client, kernels, 2)
    await until(lambda: client.inlay_refreshes > refreshes)
    assert [direction_of(h) for h in await kernel_hints(client, main)] == ["Input", "InOut"]


async def test_hints_name_the_imported_kernels_parameters(client):
    folder = folder_of(client)
    client.open((folder / "kernels.py").as_uri(), KERNELS)
    main = client.open((folder / "main.py").as_uri(), USES_KERNEL)
    hints = await kernel_hints(client, main)
    assert [label_text(h) for h in hints] == ["x (a): Input", "y (b): OutputExisting"]
    assert hints[0].label[0].location.uri == (folder / "kernels.py").as_uri()


async def test_an_unopened_kernel_is_read_from_disk_and_an_open_one_wins(client):
    folder = folder_of(client)
    (folder / "kernels.py").write_text(KERNELS, encoding="utf-8")
    main = client.open((folder / "main.py").as_uri(), USES_KERNEL)
    assert [direction_of(h) for h in await kernel_hints(client, main)] == ["Input", "OutputExisting"]
    # the editor's unsaved text of the kernel wins over the file
    kernels = client.open((folder / "kernels.py").as_uri(), KERNELS.replace("pl.Out[", "pl.InOut["))
    assert [direction_of(h) for h in await kernel_hints(client, main)] == ["Input", "InOut"]
    # closed without saving: the file again
    client.close(kernels)
    assert [direction_of(h) for h in await kernel_hints(client, main)] == ["Input", "OutputExisting"]


async def test_links_into_an_unopened_kernel_count_the_clients_units(client):
    """The kernel is only on disk, and an astral parameter name precedes `y` on its line."""
    folder = folder_of(client)
    kernels = KERNELS.replace("def k(x:", "def k(𝔵:").replace("load(x,", "load(𝔵,")
    (folder / "kernels.py").write_text(kernels, encoding="utf-8")
    main = client.open((folder / "main.py").as_uri(), USES_KERNEL)
    hints = await kernel_hints(client, main)
    links = [h.label[0].location for h in hints]
    assert [link.uri for link in links] == [(folder / "kernels.py").as_uri()] * 2
    assert [link.range.start for link in links] == [pos(kernels, "𝔵: ", client.encoding),
                                                    pos(kernels, "y: ", client.encoding)]


# k no longer writes y at all (declared In, and no store): effective and declared directions change
READ_ONLY_KERNEL = KERNELS.replace(f"y: pl.Out[{T}]", f"y: {T}").replace("    pl.store(t, [0], y)\n", "")


def sink_warnings(diagnostics):
    return [d for d in diagnostics if d.code == "InParamWritten" and "'sink'" in d.message]


async def test_a_kernel_change_updates_pulled_diagnostics_of_its_callers(client):
    folder = folder_of(client)
    kernels = client.open((folder / "kernels.py").as_uri(), KERNELS)
    helper = client.open((folder / "helper.py").as_uri(), HELPER)
    [warning] = sink_warnings((await client.pull(helper)).items)
    assert "k writes it" in warning.message
    client.replace(kernels, 2, READ_ONLY_KERNEL)
    assert sink_warnings((await client.pull(helper)).items) == []
    client.replace(kernels, 3, KERNELS)
    assert len(sink_warnings((await client.pull(helper)).items)) == 1


async def test_a_kernel_change_is_no_unchanged_report_for_its_callers(client):
    """The caller's text is the same, but its diagnostics are not: a previous result id must not match."""
    folder = folder_of(client)
    kernels = client.open((folder / "kernels.py").as_uri(), KERNELS)
    helper = client.open((folder / "helper.py").as_uri(), HELPER)
    first = await client.pull(helper)
    assert len(sink_warnings(first.items)) == 1
    client.replace(kernels, 2, READ_ONLY_KERNEL)
    again = await client.pull(helper, previous=first.result_id)
    assert again.kind == "full" and sink_warnings(again.items) == []


async def test_a_declaration_only_change_of_the_kernel_reaches_its_callers(client):
    folder = folder_of(client)
    kernels = client.open((folder / "kernels.py").as_uri(), KERNELS)
    helper = client.open((folder / "helper.py").as_uri(), HELPER)
    assert len(sink_warnings((await client.pull(helper)).items)) == 1
    # y declared In, the body still stores into it: U upgrades it back to Out, so only the declaration changed
    client.replace(kernels, 2, KERNELS.replace(f"y: pl.Out[{T}]", f"y: {T}"))
    fresh = client.open((folder / "helper2.py").as_uri(), HELPER)  # the same text, analysed from scratch
    assert sink_warnings((await client.pull(fresh)).items) == []
    assert sink_warnings((await client.pull(helper)).items) == []


async def test_a_kernel_change_republishes_its_callers_diagnostics(push_client):
    folder = folder_of(push_client)
    kernels = push_client.open((folder / "kernels.py").as_uri(), KERNELS)
    helper = push_client.open((folder / "helper.py").as_uri(), HELPER)
    await push_client.published_for(helper, lambda p: bool(sink_warnings(p.diagnostics)))
    push_client.replace(kernels, 2, READ_ONLY_KERNEL)
    await push_client.published_for(helper, lambda p: not sink_warnings(p.diagnostics))
