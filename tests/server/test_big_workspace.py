"""A workspace the size of a monorepo (issue 42): many model families written from one template
(tools/gen_model.py --files), so the same helpers' and kernels' names are in every family. Opening
files analyses what is open, and of the rest only what their imports reach."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from lens_client import capabilities

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from gen_model import write_families  # noqa: E402

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_an_open_helper_file_is_lent_to_by_the_files_that_import_it_only(start_session, tmp_path: Path):
    """Every family's model.py names blocks.py's helpers; only family_001's imports family_001's blocks.py.
    The search for the helpers' callers analyses that one, not the 29 others (before: all of them)."""
    files = write_families(tmp_path, 90, lines=120)
    assert len(files) == 90
    blocks = tmp_path / "family_001" / "blocks.py"
    async with start_session(capabilities("utf-16"), folder=tmp_path) as client:
        uri = client.open(blocks.as_uri(), blocks.read_text(encoding="utf-8"))
        await client.hints(uri)
        analysed = await client.settled()  # (the lending in the background is done)
    assert sorted(Path(u).parent.name + "/" + Path(u).name for u in analysed) == \
        ["family_001/blocks.py", "family_001/model.py"]


async def test_opening_a_model_analyses_it_alone(start_session, tmp_path: Path):
    """What it imports is read for its exports (light: not analysed); the other 87 files are not read."""
    write_families(tmp_path, 90, lines=120)
    model = tmp_path / "family_007" / "model.py"
    async with start_session(capabilities("utf-16"), folder=tmp_path) as client:
        uri = client.open(model.as_uri(), model.read_text(encoding="utf-8"))
        assert await client.hints(uri)
        assert list(await client.settled()) == [uri]
