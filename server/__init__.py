"""PyPTO Lens language server (pygls 2): `python -m server`."""

__version__ = "0.1.0"
