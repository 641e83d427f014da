"""The server's log level comes from PYPTO_LENS_LOG_LEVEL (the VS Code extension's logLevel setting)."""
from __future__ import annotations

import logging

import pytest

from pypto_lens.server.main import _set_logging


@pytest.fixture
def loggers():
    names = ("pypto-lens", "pygls")
    saved = {name: logging.getLogger(name).level for name in names}
    yield {name: logging.getLogger(name) for name in names}
    for name, level in saved.items():
        logging.getLogger(name).setLevel(level)


@pytest.mark.parametrize("setting, ours, pygls", [
    (None, logging.INFO, logging.WARNING),  # the default: our INFO, not pygls' per-message INFO
    ("CRITICAL", logging.CRITICAL, logging.CRITICAL),  # logLevel off
    ("WARNING", logging.WARNING, logging.WARNING),
    ("DEBUG", logging.DEBUG, logging.DEBUG),  # logLevel debug/trace: pygls' messages too
    ("nonsense", logging.INFO, logging.WARNING),
])
def test_the_level_follows_the_environment(monkeypatch, loggers, setting, ours, pygls):
    if setting is None:
        monkeypatch.delenv("PYPTO_LENS_LOG_LEVEL", raising=False)
    else:
        monkeypatch.setenv("PYPTO_LENS_LOG_LEVEL", setting)
    _set_logging()
    assert loggers["pypto-lens"].level == ours
    assert loggers["pygls"].level == pygls
