"""PyPTO Lens language server (pygls 2), `pypto_lens.server`: `python -m pypto_lens` runs it."""

__version__ = "0.1.0"
