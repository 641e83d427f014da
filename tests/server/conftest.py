"""pytest-lsp end-to-end tests of the language server: a real `python -m pypto_lens` subprocess.

Fixtures:

* `client` - session-scoped, one server per position encoding (UTF-16, UTF-8,
  UTF-32), a pull-diagnostics client; every test module runs in the session's
  event loop (`pytestmark = pytest.mark.asyncio(loop_scope="session")`).
* `push_client` - the same, for a client without pull diagnostics.
* `start_session` - an async context manager factory for tests that need their
  own server (settings, initialization options, workspace folders).
"""
from __future__ import annotations

import pytest
import pytest_asyncio

from lens_client import ENCODINGS, capabilities, session


@pytest.fixture
def start_session(tmp_path):
    """`async with start_session(caps, ...) as client:` - a server of the test's own."""
    def start(caps, **kwargs):
        kwargs.setdefault("folder", tmp_path)
        return session(caps, **kwargs)
    return start


@pytest_asyncio.fixture(scope="session", loop_scope="session", params=ENCODINGS)
async def client(request, tmp_path_factory):
    """A pull-diagnostics client, one server per encoding, shared by every test."""
    folder = tmp_path_factory.mktemp("ws")
    async with session(capabilities(request.param), folder=folder) as c:
        assert c.init_result.capabilities.position_encoding == request.param
        yield c


@pytest_asyncio.fixture(scope="session", loop_scope="session", params=ENCODINGS)
async def push_client(request, tmp_path_factory):
    """A client without pull diagnostics: the server publishes them."""
    folder = tmp_path_factory.mktemp("ws")
    async with session(capabilities(request.param, pull=False), folder=folder) as c:
        assert c.init_result.capabilities.position_encoding == request.param
        yield c
