"""The example handoff and the example records are valid and consistent across their files;
every invalid example yields exactly the codes recorded for it; every rule of the seven
artifact kinds has an invalid example; every handoff record's digest is true except where an
example breaks it."""

import json
from pathlib import Path

import blake3
import pytest
import rfc8785

import passdown
from passdown.gates import run_gate
from passdown.rules import rules_for

ROOT = Path(__file__).resolve().parents[2]
HANDOFF = ROOT / "examples" / "handoff"
RECORDS = ROOT / "examples" / "records"
INVALID = ROOT / "examples" / "invalid"
EXPECTED = json.loads((INVALID / "expected.json").read_text(encoding="utf-8"))
HANDOFF_KINDS = ("checkpoint", "packet", "registry", "ack")
RECORD_KINDS = ("handoff", "handoff_pending", "receipt")
KINDS = HANDOFF_KINDS + RECORD_KINDS


def _codes(report):
    return {
        "errors": sorted({f.code for f in report.findings if f.is_error}),
        "warnings": sorted({f.code for f in report.findings if not f.is_error}),
    }


def test_the_example_handoff_has_no_findings():
    report = passdown.validate_paths([HANDOFF])
    assert report.findings == ()
    assert sorted(kind for _, kind in report.kinds) == sorted(HANDOFF_KINDS)


def test_the_example_records_have_no_findings():
    report = passdown.validate_paths([RECORDS])
    assert report.findings == ()
    assert report.unreadable == ()
    assert sorted(kind for _, kind in report.kinds) == sorted(RECORD_KINDS)


def _record_digest(record):
    covered = {key: value for key, value in record.items() if key not in ("digest", "consumed")}
    return "blake3:" + blake3.blake3(rfc8785.dumps(covered)).hexdigest()


def test_the_example_record_digest_is_true():
    record = json.loads((RECORDS / "handoff.json").read_text(encoding="utf-8"))
    assert record["digest"] == _record_digest(record)


def test_the_example_record_confirms_the_example_warning():
    record = json.loads((RECORDS / "handoff.json").read_text(encoding="utf-8"))
    pending = json.loads((RECORDS / "handoff.pending.json").read_text(encoding="utf-8"))
    assert record["handoff_id"] == pending["token"]
    assert {key: record[key] for key in pending["plan"]} == pending["plan"]
    assert pending["spent_at"] == record["created_at"]
    assert record["writer_incarnation"] == pending["writer_incarnation"]


def test_the_example_receipt_digest_is_the_brief_beside_it():
    receipt = json.loads((RECORDS / "rl-20261015-1200-lead.relaunch-receipt.json").read_text(encoding="utf-8"))
    brief = (RECORDS / receipt["brief"]["file"]).read_bytes()
    assert receipt["brief"]["digest"] == "blake3:" + blake3.blake3(brief).hexdigest()


@pytest.mark.parametrize("relative", sorted(r for r in EXPECTED if r.startswith("handoff/")))
def test_invalid_handoff_records_break_their_digest_only_where_meant_to(relative):
    record = json.loads((INVALID / relative).read_text(encoding="utf-8"))
    breaks_it = relative.split("/")[1].startswith("digest-")
    assert ("digest" in record and record["digest"] == _record_digest(record)) is not breaks_it


@pytest.mark.parametrize("relative", sorted(EXPECTED))
def test_invalid_example_yields_exactly_its_codes(relative):
    report = passdown.validate_paths([INVALID / relative])
    assert _codes(report) == EXPECTED[relative]
    assert report.unreadable == ()


def test_every_invalid_file_is_listed_and_every_listed_file_exists():
    on_disk = {p.relative_to(INVALID).as_posix() for p in INVALID.rglob("*")
               if p.is_file() and p.name != "expected.json"}
    assert on_disk == set(EXPECTED)


def test_each_invalid_example_lives_in_the_folder_of_its_kind():
    for relative in EXPECTED:
        report = passdown.validate_paths([INVALID / relative])
        assert [kind for _, kind in report.kinds] == [relative.split("/")[0]]


@pytest.mark.parametrize("kind", KINDS)
def test_every_rule_has_an_invalid_example(kind):
    shown = {code for relative, codes in EXPECTED.items() if relative.startswith(kind + "/")
             for code in codes["errors"] + codes["warnings"]}
    missing = sorted(r.code for r in rules_for(kind) if r.code not in shown)
    assert missing == []


def test_expected_codes_are_real_codes_with_their_severity():
    from passdown.formats._packet import GRAMMAR_CODES

    severities = {(r.kind, r.code): r.severity for r in
                  (rule for kind in KINDS for rule in rules_for(kind))}
    for relative, codes in EXPECTED.items():
        kind = relative.split("/")[0]
        for severity, listed in (("error", codes["errors"]), ("warning", codes["warnings"])):
            for code in listed:
                if code.startswith("schema.") or code in GRAMMAR_CODES:
                    assert severity == "error", (relative, code)
                else:
                    assert severities[(kind, code)] == severity, (relative, code)


def _packet_fields():
    from passdown.formats import _packet

    parsed = _packet.parse((HANDOFF / "continuation.packet.txt").read_text(encoding="utf-8"))
    assert parsed.problems == ()
    return parsed.values()


def test_the_packet_digest_is_blake3_over_the_packet_without_its_digest_line():
    raw = (HANDOFF / "continuation.packet.txt").read_bytes()
    kept = b"".join(line for line in raw.splitlines(keepends=True)
                    if not line.startswith(b"CHECKPOINT_DIGEST:"))
    recomputed = "blake3:" + blake3.blake3(kept).hexdigest()
    assert _packet_fields()["CHECKPOINT_DIGEST"] == recomputed


def test_the_packet_digest_matches_the_digest_tool():
    from passdown import digest_file

    assert digest_file(HANDOFF / "continuation.packet.txt") == _packet_fields()["CHECKPOINT_DIGEST"]


def test_the_registered_checkpoint_digest_matches_the_digest_tool():
    from passdown import digest_file

    attempt = _load("registry.yaml")["attempts"][-1]
    assert attempt["continue_checkpoint_digest"] == digest_file(HANDOFF / "xbrief/continue.xbrief.json")


def test_the_ack_verifies_against_the_example_folder():
    from click.testing import CliRunner

    from passdown.cli import cli

    result = CliRunner().invoke(cli, ["ack", "verify", str(HANDOFF / "ack.json"),
                                      "--packet", str(HANDOFF / "continuation.packet.txt"),
                                      "--registry", str(HANDOFF / "registry.yaml")])
    assert result.exit_code == 0, result.output


def test_the_validate_cases_agree_with_the_invalid_examples():
    cases = {}
    for path in sorted((ROOT / "conformance" / "cases" / "validate").glob("*.json")):
        fixture = json.loads(path.read_text(encoding="utf-8"))
        for case in fixture["cases"]:
            if "input" not in case or not isinstance(case["input"], dict):
                continue  # raw-byte cases (input_text, input_base64) are no example's body
            body = case["input"].get("text", case["input"].get("document"))
            cases[json.dumps(body, sort_keys=True)] = case["expected"]["output"]
    for relative, codes in EXPECTED.items():
        raw = (INVALID / relative).read_bytes().decode("utf-8")
        body = raw if relative.endswith(".txt") else json.loads(raw)
        output = cases[json.dumps(body, sort_keys=True)]
        assert output == {"valid": not codes["errors"], **codes}, relative


def _load(name):
    from passdown.formats._loading import load_path, syntax_for

    loaded, findings = load_path(str(HANDOFF / name), syntax=syntax_for(name))
    assert findings == []
    return loaded.data


def test_ids_agree_across_the_handoff_files():
    packet = _packet_fields()
    checkpoint = _load("xbrief/continue.xbrief.json")["x-passdown/checkpoint"]
    registry = _load("registry.yaml")
    ack = _load("ack.json")
    attempt = next(a for a in registry["attempts"] if a["restart_id"] == packet["RESTART_ID"])

    goal = packet["GOAL_ID"]
    assert goal == checkpoint["goal_id"] == registry["policy"]["goal_id"] == ack["goal_id"]
    assert registry["observation"]["inputs"]["goal_id"] == goal
    assert ack["restart_id"] == packet["RESTART_ID"]
    assert ack["checkpoint_digest"] == attempt["checkpoint_digest"] == packet["CHECKPOINT_DIGEST"]
    assert ack["source_id"] == attempt["source_id"] == registry["policy"]["main_id"]
    assert ack["target_id"] == attempt["target_id"]
    assert attempt["source_id"] in packet["SOURCE"]
    assert ack["checkout"]["head"] in packet["SOURCE"]
    assert ack["first_safe_action"] == packet["NEXT_SAFE_ACTION"].replace("\n", " ")
    assert checkpoint["epoch"] == registry["fencing_epoch"]
    assert checkpoint["next_action"]["item_id"] == "migrate-callers.reports"
    assert registry["policy"]["checkpoint_path"] == "xbrief/continue.xbrief.json"


def test_the_recorded_decision_is_what_the_restart_gate_decides():
    registry = _load("registry.yaml")
    decided = run_gate("restart", registry["observation"]["inputs"])
    output = decided.output if hasattr(decided, "output") else decided
    recorded = registry["decision"]
    assert output["action"] == recorded["action"]
    assert output["reason"] == recorded["reason"]
    assert output["assessment"] == recorded["assessment"]
