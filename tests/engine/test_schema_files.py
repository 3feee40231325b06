"""The v1 artifact schemas: valid draft 2020-12, titled and described, satisfied by the example
handoff, and the checkpoint schema accepting only documents that are valid xBRIEF 0.8. Patterns
are ECMA-262, so instances are checked with the packaged store's two validators."""

import copy
import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "schemas" / "v1"
HANDOFF = ROOT / "examples" / "handoff"
OURS = ["ack", "checkpoint", "defs", "packet", "registry", "xbrief-0.8"]


def _schema(name):
    return json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))


def _errors(name, instance):
    """The failing keywords, from the reference validator (patterns read as ECMA-262), after
    checking that the fast validator gives the same verdict."""
    from passdown.engine._schemas import store

    errors = sorted(e.validator for e in store().reference_validator(f"{name}.schema.json").iter_errors(instance))
    assert store().is_valid(f"{name}.schema.json", instance) is (errors == [])
    return errors


def _handoff(name):
    from passdown.formats._loading import load_path, syntax_for

    loaded, findings = load_path(str(HANDOFF / name), syntax=syntax_for(name))
    assert findings == []
    return loaded


@pytest.mark.parametrize("name", OURS)
def test_schema_passes_the_metaschema(name):
    Draft202012Validator.check_schema(_schema(name))


@pytest.mark.parametrize("name", OURS)
def test_schema_id_mirrors_its_path_and_it_is_titled(name):
    schema = _schema(name)
    assert schema["$id"] == f"https://spec.passdown.dev/schemas/v1/{name}.schema.json"
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["title"] and schema["description"]


def _properties(node, where=()):
    """Every (path, property schema) under ``properties`` anywhere in a schema."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "if":
                continue  # a condition names properties, it does not define them
            if key == "properties" and isinstance(value, dict):
                for name, sub in value.items():
                    yield where + (name,), sub
                    yield from _properties(sub, where + (name,))
            else:
                yield from _properties(value, where + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _properties(value, where + (index,))


@pytest.mark.parametrize("name", OURS)
def test_every_property_has_a_title_and_a_description(name):
    schema = _schema(name)
    defs = schema.get("$defs", {})
    untitled = []
    for path, sub in _properties(schema):
        if not isinstance(sub, dict) or set(sub) <= {"x-hint"}:
            continue  # `false`, or an annotation-only property inside a conditional
        target = sub
        if set(sub) <= {"$ref", "x-requirement", "x-hint"} and sub.get("$ref", "").startswith("#/$defs/"):
            target = defs[sub["$ref"].split("/")[-1]]
        if "$ref" in target and "title" not in target:
            continue  # a reference into another file: titled there
        if not (target.get("title") and target.get("description")):
            untitled.append(path)
    assert untitled == []


def test_checkpoint_example_validates():
    assert _errors("checkpoint", _handoff("xbrief/continue.xbrief.json").data) == []


def test_checkpoint_example_is_plain_xbrief_too():
    assert _errors("xbrief-0.8", _handoff("xbrief/continue.xbrief.json").data) == []


def test_registry_example_validates():
    assert _errors("registry", _handoff("registry.yaml").data) == []


def test_ack_example_validates():
    assert _errors("ack", _handoff("ack.json").data) == []


def test_packet_example_projection_validates():
    from passdown.formats import _packet

    text = _handoff("continuation.packet.txt").text
    assert _errors("packet", _packet.projection(_packet.parse(text))) == []


def _checkpoint():
    return copy.deepcopy(_handoff("xbrief/continue.xbrief.json").data)


def _break(change):
    document = _checkpoint()
    change(document)
    return document


# Documents that break an xBRIEF 0.8 core rule JSON Schema can state: the checkpoint schema
# must refuse each one, exactly as the xBRIEF schema does.
XBRIEF_BREAKS = {
    "version 0.9": (lambda d: d["xBRIEFInfo"].update(version="0.9"), "const"),
    "version 0.3": (lambda d: d["xBRIEFInfo"].update(version="0.3"), "const"),
    "version as a number": (lambda d: d["xBRIEFInfo"].update(version=0.8), "const"),
    "no xBRIEFInfo": (lambda d: d.pop("xBRIEFInfo"), "required"),
    "no plan": (lambda d: d.pop("plan"), "required"),
    "plan without items": (lambda d: d["plan"].pop("items"), "required"),
    "plan without title": (lambda d: d["plan"].pop("title"), "required"),
    "unknown plan status": (lambda d: d["plan"].update(status="paused"), "enum"),
    "auto as a plan status": (lambda d: d["plan"].update(status="auto"), "enum"),
    "item without status": (lambda d: d["plan"]["items"][0].pop("status"), "required"),
    "item without title": (lambda d: d["plan"]["items"][0].pop("title"), "required"),
    "unknown item status": (lambda d: d["plan"]["items"][0].update(status="done"), "enum"),
    "nested unknown status": (lambda d: d["plan"]["items"][2]["items"][0].update(status="done"), "enum"),
    "unknown item type": (lambda d: d["plan"]["items"][0].update(type="story"), "enum"),
    "id with a space": (lambda d: d["plan"]["items"][0].update(id="the inventory"), "pattern"),
    "id with an empty segment": (lambda d: d["plan"]["items"][0].update(id="a..b"), "pattern"),
    "timestamp without offset": (lambda d: d["plan"]["items"][0].update(completed="2026-10-12T10:05:00"), "pattern"),
    "info timestamp without offset": (lambda d: d["xBRIEFInfo"].update(created="2026-10-12 09:41"), "pattern"),
    "planRef over http": (lambda d: d["plan"]["items"][2].update(planRef="http://example.org/x"), "pattern"),
    "edge without type": (lambda d: d["plan"]["edges"][0].pop("type"), "required"),
    "reference type without namespace": (lambda d: d["plan"]["references"][0].update(type="commit"), "pattern"),
    "reference without uri": (lambda d: d["plan"]["references"][0].pop("uri"), "required"),
    "narrative that is not text": (lambda d: d["plan"]["narratives"].update(Decisions=["a"]), "type"),
    "percentComplete over 100": (lambda d: d["plan"]["items"][0].update(percentComplete=101), "maximum"),
    "todoList at the root": (lambda d: d.update(todoList={}), "not"),
    "playbook at the root": (lambda d: d.update(playbook={}), "not"),
}


@pytest.mark.parametrize("case", sorted(XBRIEF_BREAKS))
def test_checkpoint_schema_refuses_what_xbrief_refuses(case):
    change, keyword = XBRIEF_BREAKS[case]
    document = _break(change)
    assert keyword in _errors("xbrief-0.8", document)
    assert _errors("checkpoint", document) != []


def test_unknown_members_and_other_extension_blocks_are_never_checked():
    document = _checkpoint()
    document["x-other-tool/state"] = {"status": "anything", "created": "yesterday"}
    document["plan"]["x-other-tool/note"] = 42
    document["plan"]["items"][0]["futureField"] = {"nested": [1, 2]}
    document["plan"]["planRef"] = "tolerated as an unknown member"
    assert _errors("checkpoint", document) == []


def test_the_passdown_block_is_optional_and_checked_when_present():
    """A plain continue checkpoint (no block) is valid on its own (CKP-026); a block that is
    there is held to its schema."""
    document = _checkpoint()
    del document["x-passdown/checkpoint"]
    assert _errors("checkpoint", document) == []
    assert _errors("xbrief-0.8", document) == []
    document = _checkpoint()
    document["x-passdown/checkpoint"]["revision"] = 0
    assert _errors("checkpoint", document) == ["minimum"]


def test_a_legacy_vbrief_checkpoint_is_accepted_without_the_block():
    document = _checkpoint()
    document["vBRIEFInfo"] = {"version": "0.5"}
    del document["xBRIEFInfo"]
    del document["x-passdown/checkpoint"]
    assert _errors("checkpoint", document) == []
    document["vBRIEFInfo"]["version"] = "0.9"
    assert _errors("checkpoint", document) == ["enum"]


@pytest.mark.parametrize("version", ["0.4", "0.5", "0.6", "0.7"])
def test_a_legacy_xbrief_version_is_read_with_its_own_statuses(version):
    document = _checkpoint()
    document["xBRIEFInfo"]["version"] = version
    document["plan"]["items"][0]["status"] = "inProgress"  # 0.4's name for running
    assert _errors("checkpoint", document) == []
    assert "enum" in _errors("xbrief-0.8", document)


def test_a_legacy_todo_list_root_is_read():
    document = {"xBRIEFInfo": {"version": "0.4"},
                "todoList": {"items": [{"title": "Fix bug", "status": "inProgress"}]}}
    assert _errors("checkpoint", document) == []
    del document["todoList"]
    assert _errors("checkpoint", document) == ["required"]


def test_a_document_cannot_be_both_legacy_and_xbrief():
    document = _checkpoint()
    document["vBRIEFInfo"] = {"version": "0.6"}
    assert _errors("checkpoint", document) == ["enum", "not"]


def test_ack_takeover_fields_follow_the_status():
    ack = _handoff("ack.json").data
    takeover = dict(ack, status="TAKEOVER")
    assert _errors("ack", takeover) == ["required"]
    takeover["takeover"] = {"owner_id": ack["target_id"], "fencing_epoch": 5,
                            "committed_at": "2026-10-14T09:17:00+02:00",
                            "readback_at": "2026-10-14T09:17:30+02:00", "checkpoint_revision": 7}
    assert _errors("ack", takeover) == []
    assert _errors("ack", dict(takeover, status="READY_READONLY")) == ["not"]


@pytest.mark.parametrize("digest, valid", [
    ("blake3:" + "0" * 64, True),
    ("sha256:" + "f" * 64, True),
    ("sha512:" + "ab" * 64, True),      # fits the grammar: the rules call it unverifiable
    ("blake3:" + "0" * 63, True),       # fits the grammar: the rules call it malformed
    ("blake3", False),
    (":abc", False),
    ("BLAKE3:" + "0" * 64, False),
    ("blake3:" + "0" * 64 + "\n", False),
    ("sha-:abc", False),
])
def test_digest_strings_follow_the_oci_grammar(digest, valid):
    ack = dict(_handoff("ack.json").data, checkpoint_digest=digest)
    assert (_errors("ack", ack) == []) is valid


@pytest.mark.parametrize("member, value", [
    ("goal_id", "two\nlines"),
    ("goal_id", "   "),
    ("restart_id", "-starts-with-a-dash"),
    ("restart_id", "x" * 129),
    ("policy", "   \n  "),
    ("policy", "a carriage\rreturn"),
    ("policy", "a NUL \x00"),
])
def test_packet_projection_refuses_bad_values(member, value):
    from passdown.formats import _packet

    projection = _packet.projection(_packet.parse(_handoff("continuation.packet.txt").text))
    projection[member] = value
    assert _errors("packet", projection) == ["pattern"]


def test_packet_projection_allows_no_other_members():
    from passdown.formats import _packet

    projection = _packet.projection(_packet.parse(_handoff("continuation.packet.txt").text))
    projection["notes"] = "x"
    assert _errors("packet", projection) == ["additionalProperties"]
