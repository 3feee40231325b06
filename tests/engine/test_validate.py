"""The validation engine's library API: detection, schema findings with paths and lines,
rules (including crashing ones), folders and handoff folders, and the report."""

from __future__ import annotations

import dataclasses
import os

import pytest
from engine_support import ACK, CHECKPOINT, PACKET_TEXT, REGISTRY, codes, dump, isolated, write  # noqa: F401

import passdown
from passdown.errors import UsageError
from passdown import Report
from passdown.rules import Hit, rule


def test_a_valid_file_has_no_findings(isolated, tmp_path):
    path = write(tmp_path, "xbrief/continue.xbrief.json", CHECKPOINT)
    report = passdown.validate_paths([path])
    assert report.findings == ()
    assert report.files == (str(path),)
    assert report.kinds == ((str(path), "checkpoint"),)
    assert report.ok and report.exit_code() == 0


def test_schema_findings_carry_code_path_line_requirement_and_hint(isolated, tmp_path):
    document = {**CHECKPOINT, "plan": {**CHECKPOINT["plan"], "status": "runing", "colour": "red"}}
    path = write(tmp_path, "continue.xbrief.json", document)
    report = passdown.validate_paths([path])
    by_code = {f.code: f for f in report.findings}
    assert sorted(by_code) == ["schema.additional_properties", "schema.enum"]
    enum = by_code["schema.enum"]
    assert enum.json_path == "$.plan.status"
    assert enum.line == dump(document).splitlines().index('    "status": "runing",') + 1
    assert enum.requirement == "CKP-001"
    assert '"runing" is not one of the allowed values: "pending", "running", "completed"' in enum.message
    assert "The plan's status" in enum.hint
    extra = by_code["schema.additional_properties"]
    assert extra.json_path == "$.plan.colour"
    assert extra.message == 'the property "colour" is not allowed here'
    assert extra.line == dump(document).splitlines().index('    "colour": "red"') + 1
    assert "allowed here: \"items\", \"status\", \"title\"" in extra.hint


def test_required_names_the_missing_property_and_points_at_its_object(isolated, tmp_path):
    document = {**CHECKPOINT, "x-passdown/checkpoint": {"epoch": 1}}
    report = passdown.validate_paths([write(tmp_path, "continue.xbrief.json", document)])
    (finding,) = report.findings
    assert finding.code == "schema.required"
    assert finding.json_path == '$["x-passdown/checkpoint"]'
    assert finding.message == 'the required property "goal_id" is missing'
    assert finding.line == dump(document).splitlines().index('  "x-passdown/checkpoint": {') + 1


def test_any_of_reports_the_most_relevant_branch(isolated):
    document = {**CHECKPOINT, "x-passdown/checkpoint": {"goal_id": "g", "epoch": -4}}
    report = passdown.validate_bytes(dump(document).encode(), "checkpoint")
    (finding,) = report.findings
    assert finding.code == "schema.minimum"
    assert finding.json_path == '$["x-passdown/checkpoint"].epoch'
    assert finding.message == "must be at least 0, not -4"


def test_type_and_pattern_messages_are_plain_words(isolated):
    report = passdown.validate_bytes(dump({**ACK, "goal_id": 7}).encode(), "ack")
    assert [(f.code, f.message) for f in report.findings] == [
        ("schema.type", "must be a string, not an integer")]
    report = passdown.validate_bytes(dump({**ACK, "goal_id": "Goal 1"}).encode(), "ack")
    (finding,) = report.findings
    assert finding.code == "schema.pattern"
    assert finding.message == '"Goal 1" does not have the required form (pattern ^[a-z0-9-]+$)'
    assert finding.requirement == "ACK-001"


@pytest.mark.parametrize(("change", "code", "message"), [
    ({"passdown_version": "2.0"}, "schema.const", 'must be exactly "1.0", not "2.0"'),
    ({"dirty": ["a", "a"]}, "schema.unique_items", "the items must be unique, but some repeat"),
    ({"dirty": ["a", "b", "c", "d"]}, "schema.max_items", "must have at most 3 items, not 4"),
])
def test_keyword_codes_are_snake_case(isolated, change, code, message):
    report = passdown.validate_bytes(dump({**ACK, **change}).encode(), "ack")
    assert [(f.code, f.message) for f in report.findings] == [(code, message)]


def test_long_values_are_shortened_in_messages(isolated):
    report = passdown.validate_bytes(dump({**ACK, "status": "x" * 5000}).encode(), "ack")
    (finding,) = report.findings
    assert finding.code == "schema.enum"
    assert len(finding.message) < 200


def test_yaml_findings_have_lines(isolated, tmp_path):
    text = "kind: registry\nrevision: 2\nrows:\n  - id: row-1\n  - id: Row 2\n"
    report = passdown.validate_paths([write(tmp_path, "registry.yaml", text)])
    (finding,) = report.findings
    assert (finding.code, finding.json_path, finding.line) == ("schema.pattern", "$.rows[1].id", 5)


def test_detection_by_content_and_the_unknown(isolated, tmp_path):
    ack = write(tmp_path, "mine.json", ACK)
    checkpoint = write(tmp_path, "state.json", CHECKPOINT)
    packet = write(tmp_path, "notes.txt", PACKET_TEXT)
    stranger = write(tmp_path, "other.json", {"hello": 1})
    report = passdown.validate_paths([ack, checkpoint, packet, stranger])
    assert dict(report.kinds) == {str(ack): "ack", str(checkpoint): "checkpoint",
                                  str(packet): "packet"}
    unknown = [f for f in report.findings if f.file == str(stranger)]
    assert [f.code for f in unknown] == ["detect.unknown_kind"]
    assert "--kind" in unknown[0].hint and "continue.xbrief.json" in unknown[0].hint
    assert report.exit_code() == 1


def test_kind_forces_the_kind_of_a_named_file(isolated, tmp_path):
    path = write(tmp_path, "whatever.json", {"kind": "registry", "revision": 1})
    assert codes(passdown.validate_paths([path], kind="ack")) == [
        "schema.additional_properties", "schema.const"] + ["schema.required"] * 3
    assert codes(passdown.validate_paths([path])) == []


def test_an_unknown_kind_is_a_usage_error(isolated):
    with pytest.raises(UsageError):
        passdown.validate_paths(["x"], kind="nonsense")
    with pytest.raises(UsageError):
        passdown.validate_bytes(b"{}", "nonsense")


def test_validate_bytes_names_stdin_and_reports_unreadable_input(isolated):
    report = passdown.validate_bytes(b"\xef\xbb\xbf{}", "ack")
    assert [(f.file, f.code) for f in report.findings] == [("<stdin>", "load.bom")]
    assert report.unreadable == ("<stdin>",)
    assert report.exit_code() == 2


def test_validate_bytes_detects_by_name_and_content(isolated):
    assert codes(passdown.validate_bytes(dump(ACK).encode(), None, name="ack.json")) == []
    assert codes(passdown.validate_bytes(dump(ACK).encode(), None)) == []
    assert codes(passdown.validate_bytes(b"plain words", None)) == ["detect.unknown_kind"]


def test_the_size_bound_applies_to_bytes(isolated):
    report = passdown.validate_bytes(b" " * 101, "ack", limit=100)
    assert codes(report) == ["load.too_large"]


def test_rules_run_after_the_schema_with_their_metadata(isolated, tmp_path):
    @rule("ack", "ack.test_goal", requirement="ACK-009", summary="goal must not be goal-1",
          hint="pick another goal", severity="warning")
    def _goal(artifact):
        if artifact.data.get("goal_id") == "goal-1":
            yield Hit(("goal_id",), "goal-1 is reserved")

    path = write(tmp_path, "ack.json", ACK)
    report = passdown.validate_paths([path])
    (finding,) = report.findings
    assert (finding.code, finding.severity, finding.requirement, finding.hint) == (
        "ack.test_goal", "warning", "ACK-009", "pick another goal")
    assert finding.message == "goal-1 is reserved"
    assert finding.json_path == "$.goal_id"
    assert finding.line == 5
    assert report.ok and report.exit_code() == 0 and report.exit_code(strict=True) == 1


def test_a_rule_that_raises_becomes_rule_crashed(isolated):
    @rule("ack", "ack.test_broken", requirement="ACK-009", summary="broken", hint="none")
    def _broken(artifact):
        yield from ()
        raise KeyError("boom")

    report = passdown.validate_bytes(dump(ACK).encode(), "ack")
    (finding,) = report.findings
    assert finding.code == "rule.crashed"
    assert "ack.test_broken" in finding.message and "KeyError" in finding.message


def test_legacy_checkpoints_are_marked_for_the_rules(isolated, tmp_path):
    seen = []

    @rule("checkpoint", "checkpoint.test_legacy", requirement="CKP-009", summary="s", hint="h")
    def _legacy(artifact):
        seen.append((os.path.basename(artifact.file), artifact.legacy))
        return ()

    legacy = {"vBRIEFInfo": {"version": "0.5"}, "plan": CHECKPOINT["plan"]}
    passdown.validate_paths([write(tmp_path, "vbrief/continue.vbrief.json", legacy),
                          write(tmp_path, "xbrief/continue.xbrief.json", CHECKPOINT)])
    assert seen == [("continue.vbrief.json", True), ("continue.xbrief.json", False)]


def test_folders_are_walked_for_artifacts_by_name_only(isolated, tmp_path):
    write(tmp_path, "a/ack.json", ACK)
    write(tmp_path, "a/notes.json", {"not": "an artifact"})
    write(tmp_path, "b/registry.yml", "kind: registry\nrevision: 0\n")
    write(tmp_path, "b/.git/ack.json", "broken")
    write(tmp_path, "node_modules/x/ack.json", "broken")
    write(tmp_path, ".venv/ack.json", "broken")
    report = passdown.validate_paths([tmp_path])
    assert report.findings == ()
    assert sorted(os.path.relpath(f, tmp_path) for f in report.files) == [
        os.path.join("a", "ack.json"), os.path.join("b", "registry.yml")]


def test_a_folder_without_artifacts_is_a_finding(isolated, tmp_path):
    write(tmp_path, "readme.txt", "hello")
    report = passdown.validate_paths([tmp_path])
    assert [(f.file, f.code) for f in report.findings] == [(str(tmp_path), "detect.no_artifacts")]
    assert report.exit_code() == 1


def test_kind_limits_a_folder_walk(isolated, tmp_path):
    write(tmp_path, "ack.json", ACK)
    write(tmp_path, "registry.json", "{broken")
    report = passdown.validate_paths([tmp_path], kind="ack")
    assert report.findings == () and len(report.files) == 1
    report = passdown.validate_paths([tmp_path], kind="handoff")
    assert codes(report) == ["detect.no_artifacts"]


def test_load_findings_inside_a_folder_are_findings_not_unreadable_input(isolated, tmp_path):
    write(tmp_path, "ack.json", '{"a": 1, "a": 2}')
    report = passdown.validate_paths([tmp_path])
    assert codes(report) == ["load.duplicate_key"]
    assert report.unreadable == () and report.exit_code() == 1
    report = passdown.validate_paths([tmp_path / "ack.json"])
    assert report.unreadable == (str(tmp_path / "ack.json"),) and report.exit_code() == 2


def test_a_missing_path_is_unreadable(isolated, tmp_path):
    report = passdown.validate_paths([tmp_path / "nope.json"])
    assert codes(report) == ["load.unreadable"] and report.exit_code() == 2


def test_handoff_folders_get_cross_file_rules(isolated, tmp_path):
    seen = []

    @rule("crossfile", "handoff.test_ids_agree", requirement="DIG-009", summary="ids agree",
          hint="make them agree")
    def _ids(folder):
        seen.append((folder.file, sorted(folder.artifacts)))
        ack = folder.artifacts["ack"]
        goal = folder.artifacts["checkpoint"].data["x-passdown/checkpoint"]["goal_id"]
        if ack.data["goal_id"] != goal:
            yield Hit(("ack", "goal_id"), "the ACK names another goal")
            yield Hit((), "the folder disagrees with itself")

    handoff = tmp_path / "handoff"
    write(handoff, "xbrief/continue.xbrief.json", CHECKPOINT)
    write(handoff, "ack.json", {**ACK, "goal_id": "goal-2"})
    write(tmp_path, "lonely/ack.json", ACK)  # an ACK without a checkpoint: no cross-file check
    report = passdown.validate_paths([tmp_path])
    assert seen == [(str(handoff), ["ack", "checkpoint"])]
    on_file = [f for f in report.findings if f.file == str(handoff / "ack.json")]
    assert [(f.code, f.json_path, f.line) for f in on_file] == [
        ("handoff.test_ids_agree", "$.goal_id", 5)]
    on_folder = [f for f in report.findings if f.file == str(handoff)]
    assert [(f.code, f.message) for f in on_folder] == [
        ("handoff.test_ids_agree", "the folder disagrees with itself")]


def test_a_crashing_cross_file_rule_is_reported_on_the_folder(isolated, tmp_path):
    @rule("crossfile", "handoff.test_crash", requirement="DIG-009", summary="s", hint="h")
    def _crash(folder):
        raise RuntimeError("no")

    write(tmp_path, "continue.xbrief.json", CHECKPOINT)
    write(tmp_path, "registry.json", REGISTRY)
    report = passdown.validate_paths([tmp_path])
    assert [(f.file, f.code) for f in report.findings] == [(str(tmp_path), "rule.crashed")]


def test_the_same_path_twice_is_checked_once(isolated, tmp_path):
    path = write(tmp_path, "ack.json", {**ACK, "goal_id": 1})
    report = passdown.validate_paths([path, str(path)])
    assert report.files == (str(path),) and codes(report) == ["schema.type"]


def test_a_kind_without_a_packaged_schema_is_a_finding(isolated):
    report = passdown.validate_bytes(b'{"kind": "handoff"}', "handoff")
    assert codes(report) == ["schema.unavailable"]


def test_reports_are_frozen_and_add_up(isolated):
    one = passdown.validate_bytes(b"{", "ack")
    two = passdown.validate_bytes(dump(ACK).encode(), "ack", name="ack.json")
    total = one + two
    assert total.files == ("<stdin>", "ack.json") and codes(total) == ["load.syntax"]
    assert total.unreadable == ("<stdin>",)
    with pytest.raises(dataclasses.FrozenInstanceError):
        total.findings = ()
    assert Report().ok and Report().exit_code() == 0


def test_findings_are_ordered_by_line_within_a_file(isolated, tmp_path):
    document = {**ACK, "status": "LATER", "goal_id": "Bad Id", "extra": 1}
    report = passdown.validate_paths([write(tmp_path, "ack.json", document)])
    assert [f.line for f in report.findings] == sorted(f.line for f in report.findings)
    assert codes(report) == ["schema.additional_properties", "schema.enum", "schema.pattern"]


def test_text_packets_are_checked_through_their_projection_with_lines(isolated, tmp_path):
    path = write(tmp_path, "continuation.packet.txt", "OUTCOME / ACCEPTANCE: x\nGOAL_ID:\n")
    report = passdown.validate_paths([path])
    assert [(f.code, f.json_path, f.line, f.message) for f in report.findings] == [
        ("schema.min_length", "$.goal_id", 2, "must not be empty")]


def test_packet_grammar_problems_are_findings_with_their_requirement(isolated):
    report = passdown.validate_bytes(b"GOAL_ID: a\r\n odd\n", "packet")
    grammar = {f.code: f for f in report.findings if f.code.startswith("packet.")}
    assert sorted(grammar) == ["packet.line_ending", "packet.syntax"]
    assert (grammar["packet.line_ending"].line, grammar["packet.line_ending"].requirement) == (1, "PKT-007")
    assert grammar["packet.syntax"].line == 2 and grammar["packet.syntax"].hint


def test_cross_file_findings_in_a_text_packet_get_its_lines(isolated, tmp_path):
    @rule("crossfile", "handoff.test_packet_goal", requirement="DIG-009", summary="s", hint="h")
    def _goal(folder):
        yield Hit(("packet", "goal_id"), "the packet names another goal")

    write(tmp_path, "xbrief/continue.xbrief.json", CHECKPOINT)
    packet = write(tmp_path, "continuation.packet.txt", "OUTCOME / ACCEPTANCE: x\nGOAL_ID: goal-2\n")
    report = passdown.validate_paths([tmp_path])
    assert [(f.file, f.code, f.json_path, f.line) for f in report.findings] == [
        (str(packet), "handoff.test_packet_goal", "$.goal_id", 2)]
