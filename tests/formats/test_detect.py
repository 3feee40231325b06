"""The kind table: names, content signatures, syntaxes and legacy forms."""

from __future__ import annotations

import pytest

from passdown.formats import _detect
from passdown.formats._packet import JSON_NAME, TEXT_NAME


@pytest.mark.parametrize(("filename", "kind"), [
    ("continue.xbrief.json", "checkpoint"), ("continue.vbrief.json", "checkpoint"),
    ("continue-01HZX.json", "checkpoint"), ("continuation.packet.txt", "packet"),
    ("continuation.packet.json", "packet"), ("registry.json", "registry"),
    ("registry.yaml", "registry"), ("registry.yml", "registry"), ("ack.json", "ack"),
    ("handoff.json", "handoff"), ("handoff.pending.json", "handoff_pending"),
    ("relaunch-receipt.json", "receipt"), ("some/dir/ack.json", "ack"), ("C:\\work\\ack.json", "ack"),
    ("Ack.json", None), ("registry.toml", None), ("continue.json", None), ("ack.json.bak", None),
    ("xcontinue-1.json", None),
])
def test_by_filename(filename, kind):
    placed = _detect.by_filename(filename)
    assert (placed.name if placed else None) == kind


def test_the_packet_names_are_the_parsers():
    assert _detect.get("packet").names == (TEXT_NAME, JSON_NAME)


@pytest.mark.parametrize(("data", "text", "kind"), [
    ({"kind": "ack"}, None, "ack"), ({"kind": "registry"}, None, "registry"),
    ({"kind": "packet"}, None, "packet"), ({"kind": "handoff"}, None, "handoff"),
    ({"kind": "handoff_pending"}, None, "handoff_pending"),
    ({"kind": "relaunch_receipt"}, None, "receipt"), ({"kind": "receipt"}, None, None),
    ({"x-passdown/checkpoint": {}}, None, "checkpoint"), ({"xBRIEFInfo": {}}, None, "checkpoint"),
    ({"vBRIEFInfo": {}}, None, "checkpoint"), ({"kind": "other"}, None, None),
    ({"kind": 3}, None, None), ([], None, None), ("ack", None, None),
    (None, "GOAL_ID: x\n", "packet"), (None, "\n\nGOAL_ID: x", "packet"),
    (None, "goal_id: x", None), (None, None, None),
])
def test_by_content(data, text, kind):
    placed = _detect.by_content(data, text)
    assert (placed.name if placed else None) == kind


def test_a_kind_field_wins_over_keys():
    assert _detect.by_content({"kind": "ack", "xBRIEFInfo": {}}, None).name == "ack"


@pytest.mark.parametrize(("kind", "filename", "raw", "syntax"), [
    ("registry", "registry.yaml", b"{}", "yaml"), ("registry", "registry.json", b"a: 1", "json"),
    ("registry", None, b"  {}", "json"), ("registry", None, b"kind: registry", "yaml"),
    ("packet", None, b"GOAL_ID: x", "text"), ("packet", None, b"{}", "json"),
    ("packet", "continuation.packet.txt", b"{}", "text"), ("ack", "ack.txt", b"x", "json"),
    ("checkpoint", None, b"[]", "json"),
])
def test_syntax_for(kind, filename, raw, syntax):
    assert _detect.get(kind).syntax_for(filename, raw) == syntax


def test_legacy():
    checkpoint = _detect.get("checkpoint")
    assert checkpoint.is_legacy("continue.vbrief.json", {})
    assert checkpoint.is_legacy(None, {"vBRIEFInfo": {}})
    assert not checkpoint.is_legacy("continue.xbrief.json", {"xBRIEFInfo": {}})
    assert not _detect.get("ack").is_legacy("ack.json", {"vBRIEFInfo": {}})


@pytest.mark.parametrize(("document", "version"), [
    ({"vBRIEFInfo": {"version": "0.5"}, "plan": {}}, "0.5"),
    ({"vBRIEFInfo": {"version": 0.6}}, "0.6"),  # any header value is legacy; the schema judges it
    ({"vBRIEFInfo": "x"}, "null"),
    ({"xBRIEFInfo": {"version": "0.4"}, "todoList": {}}, "0.4"),
    ({"xBRIEFInfo": {"version": "0.7"}, "plan": {}}, "0.7"),
    ({"xBRIEFInfo": {"version": "0.8"}, "plan": {}}, None),
    ({"xBRIEFInfo": {"version": "0.8"}, "todoList": {}}, None),  # 0.8 forbids it: an error
    ({"xBRIEFInfo": {"version": "0.9"}}, None),
    ([], None),
])
def test_a_legacy_checkpoint_is_known_by_its_header(document, version):
    assert _detect.legacy_version(document) == version
    assert _detect.get("checkpoint").is_legacy("continue.xbrief.json", document) is (version is not None)


def test_the_table_is_consistent():
    names = [kind.name for kind in _detect.KINDS]
    assert len(set(names)) == len(names) == len(_detect.kind_names())
    patterns = [p for kind in _detect.KINDS for p in kind.names]
    assert len(set(patterns)) == len(patterns)
    for kind in _detect.KINDS:
        assert kind.schema.endswith(".schema.json")
        assert set(kind.syntaxes) <= {"json", "yaml", "text"}
        assert ("text" in kind.syntaxes) == (kind.parser is not None)
        assert all(p.count("*") <= 1 for p in kind.names)
    with pytest.raises(KeyError):
        _detect.get("nope")


def test_hints_name_every_kind():
    hint = _detect.unknown_kind_hint()
    for kind in _detect.KINDS:  # a kind found by no name (xbrief) is named by --kind alone
        assert (not kind.names or kind.names[0] in hint) and kind.name in hint
