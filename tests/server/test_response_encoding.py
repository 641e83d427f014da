"""LensProtocol._send_data: a response whose result is a list is written one item converted at a time
(a cold open's hints at genpl 50,000 were all converted at once: 44 MB more at the peak, most of it kept
resident), and the client reads the same message as pygls' own encoding gives; items written as JSON
already (the hints) go in as they are, and each reads back as the lsprotocol object it stands for."""
from __future__ import annotations

import json

from lsprotocol import types

from pypto_lens.ir.nodes import ArgDir
from pypto_lens.presentation.hints import ShownHint
from pypto_lens.server.convert import WireJson
from pypto_lens.server.inlay_hints import _hint
from pypto_lens.server.server import LensServer
from pypto_lens.server.text import LspText
from pypto_lens.workspace.results import ArgHint, Explanation, Location, Range, SignatureChange


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
    assert int(header.split(b"\r\n")[0].split(b": ")[1]) == len(body)  # (bytes, as LSP counts them)
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


def test_items_written_as_json_go_in_as_they_are():
    protocol = LensServer().protocol
    items = [WireJson('{"position":{"line":1,"character":2},"label":"é → 😀"}')]
    got = _sent(protocol, types.InlayHintResponse(id=11, result=items))  # (one item: a list all the same)
    assert got == {"id": 11, "jsonrpc": "2.0", "result": [{"position": {"line": 1, "character": 2}, "label": "é → 😀"}]}
    two = _sent(protocol, types.InlayHintResponse(id="x", result=items * 2))
    assert two["id"] == "x" and len(two["result"]) == 2


class _Lens:
    """What inlay_hints._hint reads of the server: its open documents and their encoding."""

    encoding = "utf-16"

    def __init__(self, texts: dict):
        self.documents = texts
        self.disk_texts: dict = {}
        self.lens = type("NoDisk", (), {"text": staticmethod(lambda uri: None)})()


def test_each_hint_is_the_json_of_an_lsprotocol_inlay_hint():
    """inlay_hints._hint writes the wire form itself (genpl 50,000's 26,758 hints as objects, then
    converted, took 35 us each, and their memory until the answer was out): read back as lsprotocol's
    InlayHint, each says the same."""
    text = LspText("x = 1\ny = kernel(a, 😀b)\n")
    ls = _Lens({"file:///a.py": text})
    why = Explanation("C9", "first writer")
    declared = Location(None, Range(0, 0, 0, 1))
    gone = Location("file:///gone.py", Range(4, 2, 4, 7))
    first = ArgHint(1, 11, ArgDir.INPUT, "src", "a", 0, why, declared=declared)
    second = ArgHint(1, 16, ArgDir.OUTPUT_EXISTING, "dst", "b", 1, why, declared=gone)
    change = SignatureChange("kernel", "dst", 0, 5, "Out", "InOut", (why,), Range(0, 0, 0, 5))
    shown = [ShownHint(1, 11, "src: Input", 4, (first,)), ShownHint(1, 16, "dst: OutputExisting", 4, (second,)),
             ShownHint(1, 16, "dst", 0, (second,), scope=True), ShownHint(0, 5, " → InOut", 0, (), signature=change),
             ShownHint(1, 18, "+2", 0, (first, second), more=True)]
    converter = LensServer().protocol._converter
    wires = [json.loads(_hint(ls, "file:///a.py", text, item, "utf-16")) for item in shown]
    for wire in wires:
        assert converter.unstructure(converter.structure(wire, types.InlayHint)) == wire
    assert wires[1]["position"] == {"line": 1, "character": 17}  # (utf-16: the emoji before it is two units)
    assert wires[1]["label"][0]["location"] == {"uri": "file:///gone.py", "range": {
        "start": {"line": 4, "character": 2}, "end": {"line": 4, "character": 7}}}  # (no text: code points)
    assert wires[0]["label"][0]["location"]["uri"] == "file:///a.py" and wires[0]["paddingRight"] is True
    assert wires[2]["paddingLeft"] is True and wires[2]["label"] == [{"value": "dst"}]
    assert wires[3]["kind"] == types.InlayHintKind.Type.value and wires[3]["data"]["kind"] == "signature"
    assert wires[4]["tooltip"]["kind"] == "markdown" and "**dst**: **OutputExisting**" in wires[4]["tooltip"]["value"]
