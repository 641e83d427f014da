"""`pyptoLens/settled`: answers once the server has nothing left to do in the background.

A request of ours (not LSP's), no params, answers `{"settled": true, "analyses": [{"uri", "count"}, ...]}`,
`count` the analyses of each document made in its own right so far (made again, not found current: what an edit
or a file changed on disk cost; the tests count them). The background work is the
documents' analyses still wanted and the lending to inline helpers (analyses.py), which starts a
second after the last change: until it is done, a helper's lent scope headers may still change.
Whoever compares two servers' answers (the soak, tests) asks this first on both, so that each answers
what it settles on, not what it showed a moment after an edit.
"""
from __future__ import annotations

from typing import Any

SETTLED = "pyptoLens/settled"


def install(server) -> None:
    @server.feature(SETTLED)
    async def settled(ls, params: Any) -> dict:
        await ls.analyses.settled()
        return {"settled": True, "analyses": [{"uri": uri, "count": count}
                                              for uri, count in sorted(ls.lens.analysed.items())]}
