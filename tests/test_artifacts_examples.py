"""The example handoff is valid and consistent across its files; every invalid example yields
exactly the codes recorded for it; every rule of the four artifact kinds has an invalid
example."""

import json
from pathlib import Path

import blake3
import pytest

import baton
from baton.rules import rules_for

ROOT = Path(__file__).resolve().parent.parent
HANDOFF = ROOT / "examples" / "handoff"
INVALID = ROOT / "examples" / "invalid"
EXPECTED = json.loads((INVALID / "expected.json").read_text(encoding="utf-8"))
KINDS = ("checkpoint", "packet", "registry", "ack")


def _codes(report):
    return {
        "errors": sorted({f.code for f in report.findings if f.is_error}),
        "warnings": sorted({f.code for f in report.findings if not f.is_error}),
    }


def test_the_example_handoff_has_no_findings():
    report = baton.validate_paths([HANDOFF])
    assert report.findings == ()
    assert sorted(kind for _, kind in report.kinds) == sorted(KINDS)


@pytest.mark.parametrize("relative", sorted(EXPECTED))
def test_invalid_example_yields_exactly_its_codes(relative):
    report = baton.validate_paths([INVALID / relative])
    assert _codes(report) == EXPECTED[relative]
    assert report.unreadable == ()


def test_every_invalid_file_is_listed_and_every_listed_file_exists():
    on_disk = {p.relative_to(INVALID).as_posix() for p in INVALID.rglob("*")
               if p.is_file() and p.name != "expected.json"}
    assert on_disk == set(EXPECTED)


def test_each_invalid_example_lives_in_the_folder_of_its_kind():
    for relative in EXPECTED:
        report = baton.validate_paths([INVALID / relative])
        assert [kind for _, kind in report.kinds] == [relative.split("/")[0]]


@pytest.mark.parametrize("kind", KINDS)
def test_every_rule_has_an_invalid_example(kind):
    shown = {code for relative, codes in EXPECTED.items() if relative.startswith(kind + "/")
             for code in codes["errors"] + codes["warnings"]}
    missing = sorted(r.code for r in rules_for(kind) if r.code not in shown)
    assert missing == []


def test_expected_codes_are_real_codes_with_their_severity():
    from baton._packet import GRAMMAR_CODES

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
    from baton import _packet

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
    from baton._digest import digest_file

    assert digest_file(HANDOFF / "continuation.packet.txt") == _packet_fields()["CHECKPOINT_DIGEST"]


def _load(name):
    from baton._loading import load_path, syntax_for

    loaded, findings = load_path(str(HANDOFF / name), syntax=syntax_for(name))
    assert findings == []
    return loaded.data


def test_ids_agree_across_the_handoff_files():
    packet = _packet_fields()
    checkpoint = _load("xbrief/continue.xbrief.json")["x-baton/checkpoint"]
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
    gates = pytest.importorskip("baton.gates")
    registry = _load("registry.yaml")
    decided = gates.run_gate("restart", registry["observation"]["inputs"])
    output = decided.output if hasattr(decided, "output") else decided
    recorded = registry["decision"]
    assert output["action"] == recorded["action"]
    assert output["reason"] == recorded["reason"]
    assert output["assessment"] == recorded["assessment"]
