"""Every output format, checked structurally: JSON against findings.schema.json, SARIF
against the shape SARIF 2.1.0 requires, GitHub workflow commands parsed back, text lines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from engine_support import ACK, ROOT, dump, isolated, write  # noqa: F401
from jsonschema import Draft202012Validator

import passdown
from passdown import Finding, Report, reporters
from passdown.rules import Hit, rule

FINDINGS_SCHEMA = json.loads((ROOT / "schemas" / "v1" / "findings.schema.json").read_text("utf-8"))

# The parts of the SARIF 2.1.0 schema (OASIS) a consumer relies on, written out here because
# the full schema is not packaged anywhere offline.
SARIF_SHAPE = {
    "type": "object",
    "required": ["version", "runs"],
    "properties": {
        "version": {"const": "2.1.0"},
        "runs": {"type": "array", "minItems": 1, "items": {
            "type": "object",
            "required": ["tool"],
            "properties": {
                "tool": {"type": "object", "required": ["driver"], "properties": {
                    "driver": {"type": "object", "required": ["name"], "properties": {
                        "name": {"type": "string"},
                        "rules": {"type": "array", "items": {
                            "type": "object", "required": ["id"],
                            "properties": {
                                "id": {"type": "string"},
                                "shortDescription": {"$ref": "#/$defs/message"},
                                "help": {"$ref": "#/$defs/message"},
                                "helpUri": {"type": "string", "format": "uri"},
                                "defaultConfiguration": {"type": "object", "properties": {
                                    "level": {"enum": ["none", "note", "warning", "error"]}}},
                            }}},
                    }},
                }},
                "results": {"type": "array", "items": {
                    "type": "object",
                    "required": ["message"],
                    "properties": {
                        "ruleId": {"type": "string"},
                        "ruleIndex": {"type": "integer", "minimum": 0},
                        "level": {"enum": ["none", "note", "warning", "error"]},
                        "message": {"$ref": "#/$defs/message"},
                        "locations": {"type": "array", "items": {"type": "object", "properties": {
                            "physicalLocation": {"type": "object", "properties": {
                                "artifactLocation": {"type": "object", "required": ["uri"]},
                                "region": {"type": "object", "properties": {
                                    "startLine": {"type": "integer", "minimum": 1}}},
                            }},
                        }}},
                    }}},
            }}},
    },
    "$defs": {"message": {"type": "object", "required": ["text"],
                          "properties": {"text": {"type": "string"}}}},
}


@pytest.fixture
def mixed(isolated, tmp_path):
    """A report with an error, a warning with a rule behind it, and a finding without a line."""

    @rule("ack", "ack.test_takeover", requirement="ACK-009", summary="TAKEOVER seen",
          hint="use READY_READONLY first", severity="warning")
    def _takeover(artifact):
        if artifact.data.get("status") == "TAKEOVER":
            yield Hit(("status",), "takeover, before ownership was read back")

    write(tmp_path, "a/ack.json", {**ACK, "status": "TAKEOVER", "goal_id": "Bad Id"})
    write(tmp_path, "b/ack.json", "{,}")
    write(tmp_path, "c d/ack.json", ACK)
    return passdown.validate_paths([tmp_path])


def test_json_format_matches_its_schema(mixed, tmp_path):
    Draft202012Validator.check_schema(FINDINGS_SCHEMA)
    document = json.loads(reporters.render("json", mixed))
    assert list(Draft202012Validator(FINDINGS_SCHEMA).iter_errors(document)) == []
    assert document["kind"] == "findings" and document["ok"] is False
    assert document["summary"] == {"files": 3, "errors": 2, "warnings": 1}
    assert [(f["code"], f["severity"]) for f in document["findings"]] == [
        ("ack.test_takeover", "warning"), ("schema.pattern", "error"), ("load.syntax", "error")]
    first = document["findings"][1]
    assert first["path"] == "$.goal_id" and first["line"] == 5 and first["requirement"] == "ACK-001"
    assert [f["kind"] for f in document["files"]] == ["ack", None, "ack"]


def test_json_format_strictness_and_exit_code(isolated, tmp_path):
    report = Report((Finding("f", "$", "x.y", "warning", "m"),), ("f",))
    loose = json.loads(reporters.render("json", report))
    strict = json.loads(reporters.render("json", report, strict=True))
    assert (loose["ok"], loose["exit_code"], loose["strict"]) == (True, 0, False)
    assert (strict["ok"], strict["exit_code"], strict["strict"]) == (False, 1, True)


def test_findings_schema_is_packaged_and_valid():
    from passdown.engine._schemas import store

    schema = store().contents("findings")
    Draft202012Validator.check_schema(schema)
    assert schema["$id"] == "https://spec.passdown.dev/schemas/v1/findings.schema.json"


def test_sarif_format_has_the_required_shape(mixed):
    document = json.loads(reporters.render("sarif", mixed))
    assert list(Draft202012Validator(SARIF_SHAPE).iter_errors(document)) == []
    run = document["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == ["ack.test_takeover", "schema.pattern", "load.syntax"]
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
    takeover = rules[0]
    assert takeover["shortDescription"]["text"] == "TAKEOVER seen"
    assert takeover["help"]["text"] == "use READY_READONLY first"
    assert takeover["defaultConfiguration"]["level"] == "warning"
    assert rules[1]["shortDescription"]["text"] == "A string does not have the required form."
    levels = [r["level"] for r in run["results"]]
    assert levels == ["warning", "error", "error"]
    located = run["results"][1]["locations"][0]
    assert located["physicalLocation"]["region"] == {"startLine": 5}
    assert located["logicalLocations"][0]["fullyQualifiedName"] == "$.goal_id"
    uris = [a["location"]["uri"] for a in run["artifacts"]]
    assert any(uri.endswith("/c%20d/ack.json") for uri in uris)
    assert run["invocations"][0]["exitCode"] == 1


def test_sarif_help_uri_points_at_the_requirement_anchor(monkeypatch):
    from passdown.reporters import _links

    monkeypatch.setattr(_links, "_pages", lambda: {"ACK-009": ("spec/ack.md", "ack-009"),
                                                   "GEN-001": ("spec/index.md", "GEN-001")})
    assert _links.anchor_url("ACK-009") == "https://spec.passdown.dev/spec/ack/#ack-009"
    assert _links.anchor_url("GEN-001") == "https://spec.passdown.dev/spec/#GEN-001"
    assert _links.anchor_url("ZZZ-001") is None
    report = Report((Finding("ack.json", "$", "ack.x", "error", "m", "ACK-009", "h"),), ("ack.json",))
    (entry,) = json.loads(reporters.render("sarif", report))["runs"][0]["tool"]["driver"]["rules"]
    assert entry["helpUri"] == "https://spec.passdown.dev/spec/ack/#ack-009"


def _parse_command(line: str):
    head, _, message = line[2:].partition("::")
    command, _, properties = head.partition(" ")
    fields = dict(part.split("=", 1) for part in properties.split(","))
    unescape = lambda text: text.replace("%0A", "\n").replace("%0D", "\r").replace("%3A", ":") \
        .replace("%2C", ",").replace("%25", "%")  # noqa: E731
    return command, {k: unescape(v) for k, v in fields.items()}, unescape(message)


def test_github_format_is_one_workflow_command_per_finding(mixed):
    lines = reporters.render("github", mixed).splitlines()
    assert len(lines) == 3
    parsed = [_parse_command(line) for line in lines]
    assert [(c, p["title"]) for c, p, _ in parsed] == [
        ("warning", "ack.test_takeover"), ("error", "schema.pattern"), ("error", "load.syntax")]
    command, properties, message = parsed[1]
    assert properties["line"] == "5" and properties["file"].endswith("ack.json")
    assert message.startswith("$.goal_id: ") and "\nhint: " in message


def test_github_format_escapes_separators():
    finding = Finding("a,b:c.json", "$", "x.y", "error", "100% wrong\nreally", line=2)
    (line,) = reporters.render("github", Report((finding,), ("a,b:c.json",))).splitlines()
    assert line == "::error file=a%2Cb%3Ac.json,line=2,title=x.y::100%25 wrong%0Areally"


def test_text_format(mixed, tmp_path):
    lines = reporters.render("text", mixed).splitlines()
    assert lines[0] == (f"{tmp_path / 'a' / 'ack.json'}:4: warning ack.test_takeover $.status: "
                        "takeover, before ownership was read back [ACK-009]")
    assert lines[1] == "  hint: use READY_READONLY first"
    assert lines[2] == (f"{tmp_path / 'a' / 'ack.json'}:5: error schema.pattern $.goal_id: "
                        '"Bad Id" does not have the required form (pattern ^[a-z0-9-]+$) [ACK-001]')
    assert lines[-1] == "3 files checked: 2 errors, 1 warning"
    quiet = reporters.render("text", mixed, quiet=True).splitlines()
    assert len(quiet) == 3 and not any(line.startswith("  hint") for line in quiet)


def test_text_color_marks_severity_and_code(mixed):
    colored = reporters.render("text", mixed, color=True)
    assert "\x1b[1;31merror\x1b[0m" in colored and "\x1b[1;33mwarning\x1b[0m" in colored
    assert "\x1b[36mschema.pattern\x1b[0m" in colored


def test_reporter_names():
    assert reporters.names() == ("text", "json", "sarif", "github")
    with pytest.raises(KeyError):
        reporters.render("xml", Report())


def test_an_empty_report_in_every_format():
    assert reporters.render("text", Report()) == "0 files checked: no findings\n"
    assert reporters.render("github", Report()) == ""
    assert json.loads(reporters.render("json", Report()))["findings"] == []
    assert json.loads(reporters.render("sarif", Report()))["runs"][0]["results"] == []


def test_finding_files_are_the_paths_given(mixed, tmp_path):
    document = json.loads(reporters.render("json", mixed))
    assert {Path(f["file"]).parent.name for f in document["findings"]} == {"a", "b"}


def test_links_read_the_packaged_requirement_catalogue(tmp_path, monkeypatch):
    from passdown import _resources
    from passdown.reporters import _links

    catalogue = {"passdown_version": "1.0", "kind": "requirements", "requirements": [
        {"id": "PKT-004", "keyword": "MUST", "text": "t", "page": "spec/packet.md",
         "anchor": "pkt-004", "section": "s", "line": 3}]}
    (tmp_path / "requirements.json").write_text(json.dumps(catalogue), encoding="utf-8")
    monkeypatch.setattr(_resources, "data_dir", lambda name: tmp_path)
    _links._pages.cache_clear()
    try:
        assert _links.anchor_url("PKT-004") == "https://spec.passdown.dev/spec/packet/#pkt-004"
        assert _links.anchor_url("PKT-005") is None
    finally:
        _links._pages.cache_clear()
