"""LensProtocol._send_data: a response whose result is a list is written one item converted at a time
(a cold open's hints at genpl 50,000 were all converted at once: 44 MB more at the peak, most of it kept
resident), and the client reads the same message as pygls' own encoding gives."""
from __future__ import annotations

import json

from lsprotocol import types

from pypto_lens.server.server import LensServer


class _Writer:
    def __init__(self) -> None:
        self.written: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.written.append(data)


def _hints(n: int) -> list[types.InlayHint]:
    where = types.Location("file:///k.py", types.Range(types.Position(3, 4), types.Position(3, 9)))
    return [types.InlayHint(position=types.Position(k, 2 * k),
                            label=[types.InlayHintLabelPart(value="dst:", location=where),
                                   types.InlayHintLabelPart(value=" InOut")],
                            kind=types.InlayHintKind.Parameter, padding_left=False, padding_right=True,
                            data={"uri": "file:///a.py", "line": k, "index": 0})
            for k in range(n)]


def _sent(protocol, message) -> dict:
    writer = _Writer()
    protocol.set_writer(writer)
    protocol._send_data(message)
    header, body = b"".join(writer.written).split(b"\r\n\r\n", 1)
    assert int(header.split(b"\r\n")[0].split(b": ")[1]) == len(body.decode("utf-8"))
    return json.loads(body)


def test_a_list_result_reads_as_pygls_encodes_the_whole_message():
    protocol = LensServer().protocol
    message = types.InlayHintResponse(id=7, result=_hints(5))
    whole = json.loads(json.dumps(message, default=protocol._serialize_message))
    assert whole["result"][4]["label"][0]["location"]["range"]["end"] == {"line": 3, "character": 9}
    assert _sent(protocol, message) == whole


def test_the_items_are_converted_one_at_a_time(monkeypatch):
    protocol = LensServer().protocol
    serialize, asked = protocol._serialize_message, []

    def noted(obj):
        asked.append(type(obj).__name__)
        return serialize(obj)
    monkeypatch.setattr(protocol, "_serialize_message", noted)
    got = _sent(protocol, types.InlayHintResponse(id=8, result=_hints(3)))
    assert asked == ["InlayHint"] * 3  # (not the message once, with every item inside it)
    assert [h["position"]["line"] for h in got["result"]] == [0, 1, 2] and got["id"] == 8


def test_other_messages_go_as_pygls_sends_them():
    protocol = LensServer().protocol
    one = types.InlayHintResponse(id=9, result=_hints(1))
    assert _sent(protocol, one) == json.loads(json.dumps(one, default=protocol._serialize_message))
    error = types.ResponseErrorMessage(id=10, error=types.ResponseError(code=-32603, message="no"))
    assert _sent(protocol, error)["error"] == {"code": -32603, "message": "no"}
