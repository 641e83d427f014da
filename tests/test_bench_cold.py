"""tools/bench_cold.py: the cold open of every jit entry under an ext folder's pypto-lib/models."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import bench_cold  # noqa: E402
from gen_model import write_model  # noqa: E402


def test_it_finds_the_jit_entries_only_and_measures_each_in_a_new_process(tmp_path, capsys):
    models = tmp_path / "pypto-lib" / "models"
    write_model(models / "family", 300)  # model.py holds the @pl.jit entry; blocks.py only kernels and helpers
    assert [p.name for p in bench_cold.entries(models)] == ["model.py"]
    hints, whole = bench_cold.cold(models / "family" / "model.py")
    assert 0 < hints <= whole
    assert bench_cold.main(["--ext", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "family/model.py" in out and "1 entries" in out


def test_without_pypto_lib_it_says_so(tmp_path, capsys):
    assert bench_cold.main(["--ext", str(tmp_path)]) == 0
    assert "nothing measured" in capsys.readouterr().out
