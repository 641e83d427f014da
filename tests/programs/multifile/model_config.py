"""The model's sizes in pypto-lib's style: a frozen dataclass and a module-level instance of it,
which the model files import (PyPTO Lens folds its fields and properties; nothing is run)."""

from dataclasses import dataclass


@dataclass(frozen=True)
class TinyConfig:
    """Shapes and counts of a tiny model."""

    rows: int
    cols: int
    layers: int = 1

    @property
    def half_rows(self) -> int:
        return self.rows // 2


TINY = TinyConfig(rows=16, cols=64)
