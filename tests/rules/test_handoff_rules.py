"""The validator's rules for the handoff record and the pending confirmation: each rule
fires on its own fault and on nothing else, every rule is documented, and a record file is
checked by `passdown validate`."""

import copy
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import passdown
from passdown.rules import Artifact, rules_for

ROOT = Path(__file__).resolve().parents[2]
_CONFIRM = json.loads((ROOT / "conformance" / "cases" / "handoff" / "confirm.json").read_text())
RECORD = next(c for c in _CONFIRM["cases"]
              if c["id"] == "handoff.confirm.executes_warned_plan")["expected"]["output"]["record"]
PENDING = next(c for c in _CONFIRM["cases"]
               if c["id"] == "handoff.confirm.executes_warned_plan")["input"]["pending"]


def _codes(kind, data):
    artifact = Artifact(kind, None, data, json.dumps(data))
    return sorted({rule.code for rule in rules_for(kind) for _ in rule.check(artifact)})


def _record(**changes):
    document = copy.deepcopy(RECORD)
    document.update(changes)
    return document


def test_a_valid_record_and_pending_record_have_no_findings():
    assert _codes("handoff", RECORD) == []
    assert _codes("handoff_pending", PENDING) == []


@pytest.mark.parametrize("change, codes", [
    ({"subagents": [{"id": "ses-docs", "parent_id": "ses-main"}]},
     ["handoff.digest_mismatch", "handoff.duplicate_session"]),
    ({"requested_by": "ses-gone"}, ["handoff.digest_mismatch", "handoff.requester_not_resumed"]),
    ({"subagents": [{"id": "a", "parent_id": "gone"}]},
     ["handoff.digest_mismatch", "handoff.subagent_parent_unknown"]),
    ({"subagents": [{"id": "a", "parent_id": "b"}, {"id": "b", "parent_id": "a"}]},
     ["handoff.digest_mismatch", "handoff.subagent_cycle"]),
    ({"created_at": "2026-02-30T10:01:00.000Z"}, ["handoff.digest_mismatch", "handoff.timestamp"]),
    ({"consumed": {"at": "2026-04-31T00:00:00Z", "by_incarnation": "b"}}, ["handoff.timestamp"]),
    ({"reason": "changed after writing"}, ["handoff.digest_mismatch"]),
    ({"digest": "blake3:ABC"}, ["handoff.digest_malformed"]),
    ({"digest": "md5:d41d8cd98f00b204e9800998ecf8427e"}, ["handoff.digest_unverifiable"]),
    ({"continue_prompt": "Push with ghp_abcdefghijklmnopqrstuvwxyz0123456789."},
     ["handoff.digest_mismatch", "handoff.secret"]),
    ({"passdown_version": "1.4"}, ["handoff.digest_mismatch", "version.newer_minor"]),
    ({"passdown_version": "2.0"}, ["handoff.digest_mismatch", "version.unsupported_major"]),
])
def test_each_record_rule_fires_on_its_fault(change, codes):
    assert _codes("handoff", _record(**change)) == codes


def test_the_consumed_marker_does_not_break_the_digest():
    assert _codes("handoff", _record(consumed={"at": "2026-05-04T10:02:00.000Z",
                                               "by_incarnation": "boot-8c1d"})) == []


@pytest.mark.parametrize("change, codes", [
    ({"expires_at": "2026-05-04T10:00:00.000Z"}, ["handoff_pending.expiry_order"]),
    ({"expires_at": "2026-05-04T09:00:00.000Z"}, ["handoff_pending.expiry_order"]),
    ({"spent_at": "yesterday"}, []),  # not a timestamp form: the schema's to report
    ({"spent_at": "2026-13-01T00:00:00Z"}, ["handoff_pending.timestamp"]),
    ({"spent_at": "2026-02-29T00:00:00Z"}, ["handoff_pending.timestamp"]),
    ({"plan": {**PENDING["plan"], "reason": "key AKIAIOSFODNN7EXAMPLE"}}, ["handoff_pending.secret"]),
])
def test_each_pending_rule_fires_on_its_fault(change, codes):
    assert _codes("handoff_pending", {**PENDING, **change}) == codes


@pytest.mark.parametrize("data", [None, [], "text", {"sessions": "all"}, {"subagents": [1]},
                                  {"digest": 5}, {"plan": []}, {"created_at": 1}])
def test_rules_never_raise_on_any_shape(data):
    for kind in ("handoff", "handoff_pending"):
        for rule in rules_for(kind):
            list(rule.check(Artifact(kind, None, data, "")))


def test_every_rule_is_documented_in_the_spec_page():
    page = (ROOT / "spec" / "handoff-record.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^\| `([a-z_.]+)` \|", page, re.M))
    for kind in ("handoff", "handoff_pending"):
        for rule in rules_for(kind):
            assert rule.code in documented
            assert rule.requirement is None or rule.requirement.startswith(("HND-", "GEN-", "VER-"))


def test_passdown_validate_checks_a_record_file(tmp_path):
    good = tmp_path / "good" / "handoff.json"
    bad = tmp_path / "bad" / "handoff.json"
    good.parent.mkdir()
    bad.parent.mkdir()
    good.write_text(json.dumps(RECORD, indent=2))
    bad.write_text(json.dumps(_record(requested_by="ses-gone"), indent=2))
    assert passdown.validate_paths([good]).findings == ()
    codes = sorted(f.code for f in passdown.validate_paths([bad]).findings)
    assert codes == ["handoff.digest_mismatch", "handoff.requester_not_resumed"]
    result = subprocess.run([str(Path(sys.executable).with_name("passdown")), "validate", str(bad)],
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 1
    assert "handoff.requester_not_resumed" in result.stdout
