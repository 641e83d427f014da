"""tools/bench_cold.py: the cold open of every jit entry under an ext folder's pypto-lib/models."""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import bench_cold  # noqa: E402
from gen_model import write_model  # noqa: E402


def test_it_finds_the_jit_entries_only_and_measures_each_in_a_new_process(tmp_path, capsys):
    models = tmp_path / "pypto-lib" / "models"
    write_model(models / "family", 300)  # model.py holds the @pl.jit entry; blocks.py only kernels and helpers
    assert [p.name for p in bench_cold.entries(models)] == ["model.py"]
    hints, whole, edit, edit_max = bench_cold.cold(models / "family" / "model.py", rounds=2)
    assert 0 < hints <= whole
    assert 0 < edit <= edit_max  # (the novel edit was typed and analysed)
    assert bench_cold.main(["--ext", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "family/model.py" in out and "1 entries" in out
    assert "Novel edit of the same entries" in out and "over 100 ms: " in out
    assert "machine: " in out and " cores" in out  # (the figures say where they were taken)


def test_without_pypto_lib_it_says_so(tmp_path, capsys):
    assert bench_cold.main(["--ext", str(tmp_path)]) == 0
    assert "nothing measured" in capsys.readouterr().out


def test_an_entry_near_the_bound_is_opened_again_and_its_median_counts(tmp_path, capsys, monkeypatch):
    models = tmp_path / "pypto-lib" / "models"
    write_model(models / "slow", 300)
    write_model(models / "quick", 300)
    figures = {"slow": [(1100, 1500, 300, 340), (950, 1400, 310, 330), (980, 1450, 305, 320)],
               "quick": [(120, 200, 40, 45)]}
    asked = []

    def cold(path, rounds):
        asked.append(path.parent.name)
        return figures[path.parent.name][asked.count(path.parent.name) - 1]
    monkeypatch.setattr(bench_cold, "cold", cold)
    assert bench_cold.main(["--ext", str(tmp_path), "--json", str(tmp_path / "cold.json")]) == 0
    assert sorted(asked) == ["quick", "slow", "slow", "slow"]  # (one run over 800 ms: two more)
    out = capsys.readouterr().out
    assert "over 1 s: 0" in out  # the median (980), not the first run (1100)
    assert "1100 950 980" in out
    rows = {row["file"]: row for row in json.loads((tmp_path / "cold.json").read_text())}
    assert rows["slow/model.py"]["hints_ms"] == 980 and rows["slow/model.py"]["whole_ms"] == 1450
    assert rows["quick/model.py"]["hints_runs_ms"] == [120]
    assert "over 100 ms: 1" in out  # (slow's novel edit, from its first run)
    assert rows["slow/model.py"]["edit_ms"] == 300 and rows["quick/model.py"]["edit_max_ms"] == 45
