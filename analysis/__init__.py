"""PyPTO Lens: PyPTO's argument directions, derived from the text of pl programs.

This folder is the package `pypto_lens` (pyproject.toml maps it; server/ is `pypto_lens.server`).
Its layers, each importing only those before it (tests/test_layers.py): the shared words
(vocabulary), syntax, ir, registry, pipeline, workspace (the engine), presentation, then cli and
server, and `entry` above both. README.md, "How it works", names every module.
"""
