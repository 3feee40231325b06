"""One reading of time: the validator (``passdown validate`` of an artifact carrying the time)
and every gate that reads a timestamp give the same verdict on the same string.

The verdicts in :data:`TABLE` are stated by hand from spec/index.md (GEN-004: a real date and
time with an explicit offset, no leap second; GEN-020: years 0001 to 9999 once the offset is
applied) and the schema's ``timestamp`` form (``defs.schema.json``). The title gate reads its
own wider ISO 8601 grammar (TTL-002) and is pinned by its own tests, so it is not here.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest
from authoring_support import replaced

import passdown
from passdown.gates import load

ROOT = Path(__file__).resolve().parents[2]
VALID, INVALID = True, False

#: (what it shows, the string, whether it is a timestamp).
TABLE = (
    ("plain Z", "2026-10-14T09:15:00Z", VALID),
    ("colon offset", "2026-10-14T09:15:00+02:00", VALID),
    ("negative zero offset", "2026-10-14T09:15:00-00:00", VALID),
    ("lowercase t and z", "2026-10-14t09:15:00z", VALID),
    ("space separator", "2026-10-14 09:15:00Z", VALID),
    ("fraction of 1 digit", "2026-10-14T09:15:00.1Z", VALID),
    ("fraction of 2 digits", "2026-10-14T09:15:00.12Z", VALID),
    ("fraction of 3 digits", "2026-10-14T09:15:00.123Z", VALID),
    ("fraction of 4 digits", "2026-10-14T09:15:00.1234Z", VALID),
    ("fraction of 5 digits", "2026-10-14T09:15:00.12345Z", VALID),
    ("fraction of 6 digits", "2026-10-14T09:15:00.123456Z", VALID),
    ("fraction of 7 digits", "2026-10-14T09:15:00.1234567Z", VALID),
    ("fraction of 8 digits", "2026-10-14T09:15:00.12345678Z", VALID),
    ("fraction of 9 digits", "2026-10-14T09:15:00.123456789Z", VALID),
    ("Feb 29 of a leap year", "2024-02-29T00:00:00Z", VALID),
    ("first instant", "0001-01-01T00:00:00Z", VALID),
    ("last instant", "9999-12-31T23:59:59.999Z", VALID),
    ("leap second on a day that had one", "2016-12-31T23:59:60Z", INVALID),
    ("leap second on a day that had none", "2026-10-14T23:59:60Z", INVALID),
    ("offset without colon", "2026-10-14T09:15:00+0200", INVALID),
    ("no offset", "2026-10-14T09:15:00", INVALID),
    ("fullwidth digits", "\uff12\uff10\uff12\uff16-10-14T09:15:00Z", INVALID),
    ("Arabic-Indic digits", "2026-10-\u0661\u0664T09:15:00Z", INVALID),
    ("day 32", "2026-10-32T09:15:00Z", INVALID),
    ("Feb 29 of a common year", "2025-02-29T00:00:00Z", INVALID),
    ("month 13", "2026-13-01T00:00:00Z", INVALID),
    ("hour 24", "2026-10-14T24:00:00Z", INVALID),
    ("offset hour 24", "2026-10-14T09:15:00+24:00", INVALID),
    ("year 0000", "0000-01-01T00:00:00Z", INVALID),
    ("year 10000", "10000-01-01T00:00:00Z", INVALID),
    ("before year 0001 in UTC", "0001-01-01T00:00:00+00:01", INVALID),
    ("after year 9999 in UTC", "9999-12-31T23:59:59-00:01", INVALID),
    ("X separator", "2026-10-14X09:15:00Z", INVALID),
    ("empty fraction", "2026-10-14T09:15:00.Z", INVALID),
    ("letter in the month", "2026-1a-14T09:15:00Z", INVALID),
    ("space in the minutes", "2026-10-14T09:1 :00Z", INVALID),
    ("sign in the year", "+026-10-14T09:15:00Z", INVALID),
    ("letter in the fraction", "2026-10-14T09:15:00.12aZ", INVALID),
    ("letter in the offset", "2026-10-14T09:15:00+02:0x", INVALID),
    ("date only", "2026-10-14", INVALID),
)
IDS = [label for label, _, _ in TABLE]


def _json(path):
    return json.loads((ROOT / path).read_text(encoding="utf-8"))


def _case_input(gate, case_id):
    for path in sorted((ROOT / "conformance" / "cases" / gate).glob("*.json")):
        for case in json.loads(path.read_text(encoding="utf-8"))["cases"]:
            if case["id"] == case_id:
                return case["input"]
    raise LookupError(case_id)


# -- the validator: an artifact carrying the time ---------------------------------------------



def _validator_accepts(kind, document, parts, value):
    """Whether ``passdown validate`` reports nothing at the time's own place."""
    raw = json.dumps(replaced(document, parts, value), ensure_ascii=False).encode("utf-8")
    report = passdown.validate_bytes(raw, kind)
    where = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in parts)
    return not [f for f in report.findings if f.json_path == where]


ARTIFACTS = {
    "handoff record": ("handoff", _json("examples/records/handoff.json"), ("created_at",)),
    "pending confirmation": ("handoff_pending", _json("examples/records/handoff.pending.json"),
                             ("spent_at",)),
    "ACK": ("ack", _json("examples/handoff/ack.json"), ("read_at",)),
    "restart registry": ("registry", _case_input("ack", "ack.accept.full_readback")["registry"],
                         ("attempts", 1, "registered_at")),
    "relaunch receipt": ("receipt", _json("examples/records/rl-20261015-1200-lead.relaunch-receipt.json"),
                         ("created_at",)),
}


# -- the gates: each one's `now`, and the ACK's read_at as the ack gate reads it ----------------

def _gate_accepts_now(gate, base, refused):
    def accepts(value):
        return not refused(load(gate).decide({**base, "now": value}).output)
    return accepts


def _ack_check_reads(place, phrase):
    """Whether the ACK check the ack gate runs reads the time put at ``place`` (``read_at`` of
    the ACK, or the attempt's ``registered_at`` in the registry): an unreadable one is
    ``ack.stale`` whose message says ``phrase`` (a readable one may be stale for its order:
    not this)."""
    from passdown.formats._ackcheck import verify

    def accepts(value):
        given = copy.deepcopy(_case_input("ack", "ack.accept.full_readback"))
        if place == "read_at":
            given["ack"]["read_at"] = value
        else:
            given["registry"]["attempts"][1][place] = value
        verdict = verify(given["ack"], given["packet_text"], given["registry"],
                         checkout=given["checkout"], dirty=given["dirty"],
                         checkpoint=given["checkpoint"], now=given["now"])
        return not any(failure.code == "ack.stale" and phrase in failure.message
                       for failure in verdict.failures)
    return accepts


GATES = {
    "handoff replay now": _gate_accepts_now(
        "handoff", _case_input("handoff", "handoff.replay.wakes_top_down"),
        lambda out: out.get("field") == "$.now"),
    "handoff confirm now": _gate_accepts_now(
        "handoff", _case_input("handoff", "handoff.confirm.executes_warned_plan"),
        lambda out: out.get("field") == "$.now"),
    "relaunch now": _gate_accepts_now(
        "relaunch", _case_input("relaunch", "relaunch.order.relaunch_when_every_guard_holds"),
        lambda out: out.get("path") == "$.now"),
    "lifecycle now": _gate_accepts_now(
        "lifecycle", _case_input("lifecycle", "lifecycle.fencing.write_accepted"),
        lambda out: out.get("path") == "$.now"),
    "ack now": _gate_accepts_now(
        "ack", _case_input("ack", "ack.accept.full_readback"),
        lambda out: out["outcome"] == "unusable"),
    "ack read_at": _ack_check_reads("read_at", "cannot be measured"),
    "ack registered_at": _ack_check_reads("registered_at", "cannot tell"),
}


@pytest.mark.parametrize(("label", "text", "valid"), TABLE, ids=IDS)
@pytest.mark.parametrize("artifact", sorted(ARTIFACTS))
def test_the_validator_reads_the_time_as_the_table_says(artifact, label, text, valid):
    kind, document, parts = ARTIFACTS[artifact]
    assert _validator_accepts(kind, document, parts, text) is valid


@pytest.mark.parametrize(("label", "text", "valid"), TABLE, ids=IDS)
@pytest.mark.parametrize("gate", sorted(GATES))
def test_every_gate_reads_the_time_as_the_table_says(gate, label, text, valid):
    assert GATES[gate](text) is valid


@pytest.mark.parametrize(("text", "valid"), [
    ("2026-10-14T09:15:00+0200", INVALID), ("2016-12-31T23:59:60Z", INVALID),
    ("2026-10-14t09:15:00z", VALID)])
def test_the_command_gives_the_same_verdict(tmp_path, text, valid):
    """``passdown validate`` itself, end to end, on an ACK carrying the time."""
    path = tmp_path / "ack.json"
    path.write_text(json.dumps({**_json("examples/handoff/ack.json"), "read_at": text}), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "passdown", "validate", "--format", "json", str(path)],
                          capture_output=True, text=True, check=False)
    findings = json.loads(done.stdout)["findings"]
    assert (not [f for f in findings if f["path"] == "$.read_at"]) is valid


# -- every artifact a gate also reads: the validator and the gate never disagree ----------------
# The handoff gate reads a handoff record (replay) and a pending confirmation (confirm) as
# artifacts and refuses a malformed one: its refusal and the validator's errors must agree on
# every variant. The ack gate reads an ACK and a registry to compare them with a readback
# (spec/ack.md, ACK-101 to ACK-116), not to judge their form, so for those two the promise
# is about the values both read: the timestamps above. No gate reads a relaunch receipt or
# draft file (the relaunch gate reads a summary of the open receipt in its own input).

ODD_VALUES = (None, True, 0, -1, 1.5, 2**53, "", " ", "x", "a\nb", "a\x1f", "x" * 600, [], {},
              [{"id": "ses-main"}], *(text for _, text, _ in TABLE[::3]))


def _variants(document, nested=("plan", "sessions", "subagents", "consumed")):
    """``document`` with one member removed, replaced by an odd value, or added; the same one
    level down in the members named ``nested``."""
    yield "as it is", document
    yield "an extra member", {**document, "extra": 1}
    for key in document:
        yield f"no {key}", {k: v for k, v in document.items() if k != key}
        for value in ODD_VALUES:
            yield f"{key}={value!r:.30}", {**document, key: value}
    for key in nested:
        inner = document.get(key)
        if isinstance(inner, dict):
            for name in list(inner) + ["extra"]:
                for value in ODD_VALUES[:12]:
                    yield f"{key}.{name}={value!r:.30}", {**document, key: {**inner, name: value}}
        elif isinstance(inner, list) and inner:
            for name in list(inner[0]) + ["extra"]:
                for value in ODD_VALUES[:12]:
                    yield (f"{key}[0].{name}={value!r:.30}",
                           {**document, key: [{**inner[0], name: value}, *inner[1:]]})


def _validator_errors(kind, document):
    raw = json.dumps(document, ensure_ascii=False).encode("utf-8")
    return [f for f in passdown.validate_bytes(raw, kind).findings if f.severity == "error"]


def _sealed(record):
    """``record`` with its digest recomputed, so a change is judged beyond the digest."""
    from passdown.formats._handoff_record import digest_of

    if not isinstance(record.get("digest"), str):
        return record
    try:
        return {**record, "digest": digest_of(record)}
    except Exception:  # noqa: BLE001 - a record with no canonical bytes keeps its digest
        return record


RECORD = _json("examples/records/handoff.json")
RECORD_VARIANTS = [(name, _sealed(variant)) for name, variant in _variants(RECORD)]
#: The replay answers that judge the record itself, not the time or the caller.
RECORD_REFUSALS = {"record_malformed", "record_version", "record_digest"}


@pytest.mark.parametrize(("name", "record"), RECORD_VARIANTS, ids=[n for n, _ in RECORD_VARIANTS])
def test_the_handoff_gate_and_the_validator_agree_on_a_record(name, record):
    replay = {"op": "replay", "now": "2026-10-15T09:40:00Z", "incarnation": "boot-other",
              "record_text": json.dumps(record, ensure_ascii=False)}
    outcome = load("handoff").decide(replay).outcome
    assert (outcome in RECORD_REFUSALS) == bool(_validator_errors("handoff", record)), outcome


PENDING = _case_input("handoff", "handoff.confirm.executes_warned_plan")["pending"]
PENDING_VARIANTS = list(_variants(PENDING))


@pytest.mark.parametrize(("name", "pending"), PENDING_VARIANTS, ids=[n for n, _ in PENDING_VARIANTS])
def test_the_handoff_gate_and_the_validator_agree_on_a_pending_confirmation(name, pending):
    confirm = {**_case_input("handoff", "handoff.confirm.executes_warned_plan"), "pending": pending}
    outcome = load("handoff").decide(confirm).outcome
    assert (outcome == "pending_malformed") == bool(_validator_errors("handoff_pending", pending)), outcome
