"""tools/soak.py's core, briefly (`make soak` runs it for minutes): a generated workspace of files that
import each other, a seeded sequence of edits, closes, settings and requests against the real server,
then every file's answers compared with a fresh server's. Memory figures are printed by `make soak`,
not asserted here."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
from soak import first_difference, run_soak, write_workspace  # noqa: E402

SERVER = [sys.executable, "-m", "pypto_lens"]


def test_a_short_soak_edits_across_files_and_answers_as_a_fresh_server(tmp_path):
    root = tmp_path / "workspace"
    paths = write_workspace(root, models=2, lines=120, seed=5)
    assert [p.name for p in paths] == ["blocks.py", "model_0.py", "model_1.py", "shapes.py"]
    assert "from model_0 import gate_0" in (root / "model_1.py").read_text()
    result = run_soak(root, paths, seconds=240, seed=5, command=SERVER, logs=tmp_path, max_steps=80)
    assert result.failures == [] and result.differences == []
    assert result.equal == result.files == 4
    counts = result.counts
    assert counts["edits"] > 100 and counts["flips"] > 5 and counts["requests"] > 200, counts
    assert counts["line_edits"] and counts["closes"] and counts["reverts"], counts  # (the seed's sequence)
    if Path("/proc/self/status").exists():
        assert result.warm_kb and result.end_kb  # the figures make soak prints


def test_a_difference_is_named_with_the_first_item_that_differs():
    same = {"hints": [{"label": "a"}], "diagnostics": []}
    assert first_difference(same, same) == ""
    differs = first_difference(same, {"hints": [{"label": "b"}], "diagnostics": []})
    assert differs.startswith("hints[0]:") and '"a"' in differs and '"b"' in differs
    assert first_difference(same, {"hints": [], "diagnostics": []}) == 'hints: soaked has 1, fresh 0: only soaked has {"label": "a"}'
