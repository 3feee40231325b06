"""The handoff gate's conformance cases. Expected answers are stated by hand from
spec/gates/handoff.md and spec/handoff-record.md; digests and derived tokens are computed
here with the RFC 8785 and BLAKE3 libraries directly, not with Baton's own code."""

import base64
import copy
import hashlib
import json

import rfc8785
from blake3 import blake3
from gate_cases import case as _case

WARNED_AT = "2026-05-04T10:00:00.000Z"
EXPIRES_AT = "2026-05-04T10:05:00.000Z"
CONFIRMED_AT = "2026-05-04T10:01:00.000Z"
TOKEN = "hp-0f5d8a3a5b7f4c21"
PLAN = {
    "requested_by": "ses-main",
    "reason": "apply the new plugin configuration",
    "continue_prompt": "Continue with step 4 of the plan: rerun the migration tests.",
}
SESSIONS = [{"id": "ses-main"}, {"id": "ses-docs"}]
SUBAGENTS = [{"id": "ses-main/tests", "parent_id": "ses-main"}]


def digest(record, algorithm="blake3"):
    covered = {k: v for k, v in record.items() if k not in ("digest", "consumed")}
    canonical = rfc8785.dumps(covered)
    if algorithm == "sha256":
        return "sha256:" + hashlib.sha256(canonical).hexdigest()
    return "blake3:" + blake3(canonical).hexdigest()


def pending(**changes):
    document = {
        "baton_version": "1.0",
        "kind": "handoff_pending",
        "token": TOKEN,
        "plan": dict(PLAN),
        "created_at": WARNED_AT,
        "expires_at": EXPIRES_AT,
        "writer_incarnation": "boot-7f3a",
    }
    document.update(changes)
    return document


def record(*, seal=True, **changes):
    document = {
        "baton_version": "1.0",
        "kind": "handoff",
        "handoff_id": TOKEN,
        "created_at": CONFIRMED_AT,
        "ttl_ms": 1_800_000,
        "writer_incarnation": "boot-7f3a",
        "requested_by": PLAN["requested_by"],
        "reason": PLAN["reason"],
        "continue_prompt": PLAN["continue_prompt"],
        "sessions": copy.deepcopy(SESSIONS),
        "subagents": copy.deepcopy(SUBAGENTS),
    }
    document.update(changes)
    if seal:
        document["digest"] = digest(document)
    return document


def case(ident, description, requirements, given, output, exit_code):
    return _case("handoff", ident, description, requirements, given, output, exit_code)


def invalid(ident, description, requirements, given, field):
    return case(ident, description, requirements, given, {"outcome": "invalid_input", "field": field}, 2)


def refused(ident, description, requirements, given, op, outcome, **extra):
    return case(ident, description, requirements, given, {"outcome": outcome, "op": op, **extra}, 1)


# ---------------------------------------------------------------------------------- warn

def warn_input(**changes):
    given = {"op": "warn", "now": "2026-05-04T10:00:00Z", "incarnation": "boot-7f3a", "plan": dict(PLAN)}
    given.update(changes)
    return given


def derived_token(now_text, incarnation, plan):
    canonical = rfc8785.dumps({"incarnation": incarnation, "now": now_text, "plan": plan})
    return "hp-" + blake3(canonical).hexdigest()[:32]


def warned(token, **pending_changes):
    return {"outcome": "warned", "op": "warn", "token": token, "pending": pending(token=token, **pending_changes)}


def warn_cases():
    token = derived_token(WARNED_AT, "boot-7f3a", PLAN)
    cases = [
        case("warn.derived_token", "a warning derives its token from the plan, the time and the incarnation",
             ["HND-110", "HND-111", "HND-160"], warn_input(), warned(token), 0),
        case("warn.supplied_token", "a token the host supplies is used as given", ["HND-110", "HND-111"],
             warn_input(token="tok-12345678"), warned("tok-12345678"), 0),
        case("warn.custom_ttl", "the pending time to live sets expires_at", ["HND-110"],
             warn_input(pending_ttl_ms=60_000), warned(token, expires_at="2026-05-04T10:01:00.000Z"), 0),
        case("warn.offset_now", "a time with an offset is written back in UTC with milliseconds", ["HND-110", "HND-111"],
             warn_input(now="2026-05-04T12:00:00+02:00"), warned(token), 0),
        case("warn.multiline_prompt", "a continue prompt may hold line feeds and tabs", ["HND-110"],
             warn_input(plan={**PLAN, "continue_prompt": "Step 4:\n\trerun the tests"}),
             warned(derived_token(WARNED_AT, "boot-7f3a", {**PLAN, "continue_prompt": "Step 4:\n\trerun the tests"}),
                    plan={**PLAN, "continue_prompt": "Step 4:\n\trerun the tests"}), 0),
    ]
    bad = [
        ("plan_missing", "a warning without a plan", warn_input(plan=None), "$.plan"),
        ("plan_extra", "a plan with a member the plan does not have", warn_input(plan={**PLAN, "sessions": []}), "$.plan"),
        ("reason_newline", "a reason spanning two lines", warn_input(plan={**PLAN, "reason": "a\nb"}), "$.plan"),
        ("reason_too_long", "a reason of 501 characters", warn_input(plan={**PLAN, "reason": "r" * 501}), "$.plan"),
        ("prompt_blank", "a blank continue prompt", warn_input(plan={**PLAN, "continue_prompt": " \n "}), "$.plan"),
        ("requester_blank", "a blank requesting session", warn_input(plan={**PLAN, "requested_by": " "}), "$.plan"),
        ("token_short", "a supplied token of seven characters", warn_input(token="tok-123"), "$.token"),
        ("token_space", "a supplied token holding a space", warn_input(token="tok 12345678"), "$.token"),
        ("ttl_zero", "a pending time to live of 0", warn_input(pending_ttl_ms=0), "$.pending_ttl_ms"),
        ("ttl_too_long", "a pending time to live over an hour", warn_input(pending_ttl_ms=3_600_001), "$.pending_ttl_ms"),
        ("now_missing", "a warning without the time", warn_input(now=None), "$.now"),
        ("now_bad_day", "a time on 30 February", warn_input(now="2026-02-30T10:00:00Z"), "$.now"),
        ("now_leap_second", "a time with a leap second", warn_input(now="2026-06-30T23:59:60Z"), "$.now"),
        ("now_no_offset", "a time without an offset", warn_input(now="2026-05-04T10:00:00"), "$.now"),
        ("now_end_of_time", "a time whose expiry falls after year 9999", warn_input(now="9999-12-31T23:59:00Z"), "$.now"),
        ("incarnation_missing", "a warning without an incarnation", warn_input(incarnation=None), "$.incarnation"),
    ]
    cases += [invalid(f"warn.{name}", f"{text} is invalid input", ["HND-101"], given, field)
              for name, text, given, field in bad]
    return cases


# ---------------------------------------------------------------------------------- confirm

def confirm_input(**changes):
    given = {
        "op": "confirm", "now": "2026-05-04T10:01:00Z", "incarnation": "boot-7f3a", "token": TOKEN,
        "pending": pending(), "sessions": copy.deepcopy(SESSIONS), "subagents": copy.deepcopy(SUBAGENTS),
    }
    given.update(changes)
    return given


def confirmed(**record_changes):
    return {"outcome": "confirmed", "op": "confirm", "record": record(**record_changes),
            "pending": pending(spent_at=CONFIRMED_AT)}


def confirm_cases():
    rewritten = {"requested_by": "ses-docs", "reason": "something else", "continue_prompt": "Delete the branch."}
    cases = [
        case("confirm.executes_warned_plan", "the record holds the warned plan, not the confirming call's arguments",
             ["HND-127", "HND-128", "HND-160", "HND-001"], confirm_input(plan=rewritten), confirmed(), 0),
        case("confirm.without_subagents", "a confirmation without subagents writes an empty list", ["HND-128"],
             {k: v for k, v in confirm_input().items() if k != "subagents"}, confirmed(subagents=[]), 0),
        case("confirm.at_expiry", "a confirmation at exactly expires_at is in time", ["HND-125", "HND-128"],
             confirm_input(now="2026-05-04T10:05:00Z"),
             {"outcome": "confirmed", "op": "confirm",
              "record": record(created_at="2026-05-04T10:05:00.000Z"),
              "pending": pending(spent_at="2026-05-04T10:05:00.000Z")}, 0),
        case("confirm.custom_ttl", "the handoff time to live is written into the record", ["HND-128"],
             confirm_input(handoff_ttl_ms=60_000), confirmed(ttl_ms=60_000), 0),
        case("confirm.resampled_sessions", "the record lists the sessions running at confirmation", ["HND-128"],
             confirm_input(sessions=[{"id": "ses-main"}, {"id": "ses-new"}], subagents=[]),
             confirmed(sessions=[{"id": "ses-main"}, {"id": "ses-new"}], subagents=[]), 0),
        refused("confirm.no_pending", "a confirmation without a pending warning is refused", ["HND-120", "HND-121", "HND-160"],
                confirm_input(pending=None), "confirm", "no_pending_warning"),
        refused("confirm.pending_absent", "a confirmation with no pending member is refused", ["HND-121"],
                {k: v for k, v in confirm_input().items() if k != "pending"}, "confirm", "no_pending_warning"),
        refused("confirm.pending_no_token", "a pending record without a token is malformed", ["HND-122", "HND-020"],
                confirm_input(pending={k: v for k, v in pending().items() if k != "token"}), "confirm",
                "pending_malformed"),
        refused("confirm.pending_wrong_kind", "a pending record of another kind is malformed", ["HND-122", "HND-020"],
                confirm_input(pending=pending(kind="handoff")), "confirm", "pending_malformed"),
        refused("confirm.pending_other_version", "a pending record of an unknown version is malformed", ["HND-122"],
                confirm_input(pending=pending(baton_version="2.0")), "confirm", "pending_malformed"),
        refused("confirm.pending_bad_day", "a pending record dated 30 February is malformed", ["HND-122", "HND-024"],
                confirm_input(pending=pending(created_at="2026-02-30T10:00:00.000Z")), "confirm", "pending_malformed"),
        refused("confirm.pending_plan_extra", "a pending plan with an extra member is malformed", ["HND-122", "HND-020"],
                confirm_input(pending=pending(plan={**PLAN, "sessions": []})), "confirm", "pending_malformed"),
        refused("confirm.token_mismatch", "a token that is not the warning's is refused", ["HND-123"],
                confirm_input(token="hp-ffffffffffffffff"), "confirm", "token_mismatch"),
        refused("confirm.token_garbage", "a token of any text that does not match is a mismatch", ["HND-123"],
                confirm_input(token="please restart now"), "confirm", "token_mismatch"),
        refused("confirm.token_spent", "a spent token never confirms again", ["HND-124"],
                confirm_input(pending=pending(spent_at=CONFIRMED_AT)), "confirm", "token_spent"),
        refused("confirm.token_expired", "a token one millisecond past expires_at is refused", ["HND-125"],
                confirm_input(now="2026-05-04T10:05:00.001Z"), "confirm", "token_expired"),
        refused("confirm.other_incarnation", "a warning from an earlier process confirms nothing", ["HND-126"],
                confirm_input(incarnation="boot-8c1d"), "confirm", "token_other_incarnation"),
        refused("confirm.order_spent_first", "spent, expired and foreign at once: spent is answered", ["HND-120", "HND-124"],
                confirm_input(pending=pending(spent_at=CONFIRMED_AT), now="2026-05-04T11:00:00Z",
                              incarnation="boot-8c1d"), "confirm", "token_spent"),
        refused("confirm.order_mismatch_before_spent", "a wrong token is answered before a spent one", ["HND-120", "HND-123"],
                confirm_input(pending=pending(spent_at=CONFIRMED_AT), token="hp-ffffffffffffffff"), "confirm",
                "token_mismatch"),
    ]
    bad = [
        ("requester_not_running", "running sessions without the requester", confirm_input(sessions=[{"id": "ses-docs"}], subagents=[]),
         "$.sessions", ["HND-129", "HND-004"]),
        ("duplicate_session", "a subagent with a session's id", confirm_input(subagents=[{"id": "ses-docs", "parent_id": "ses-main"}]),
         "$.subagents[0].id", ["HND-129", "HND-003"]),
        ("unknown_parent", "a subagent under an unknown parent", confirm_input(subagents=[{"id": "a1", "parent_id": "ses-gone"}]),
         "$.subagents[0].parent_id", ["HND-129", "HND-005"]),
        ("cycle", "subagents that are each other's parents",
         confirm_input(subagents=[{"id": "a1", "parent_id": "a2"}, {"id": "a2", "parent_id": "a1"}]),
         "$.subagents", ["HND-129", "HND-006"]),
        ("sessions_empty", "an empty list of running sessions", confirm_input(sessions=[]), "$.sessions", ["HND-101"]),
        ("session_extra", "a running session with an extra member", confirm_input(sessions=[{"id": "ses-main", "model": "m"}]),
         "$.sessions", ["HND-101"]),
        ("token_number", "a token that is not a string", confirm_input(token=12345678), "$.token", ["HND-101"]),
        ("ttl_string", "a handoff time to live given as a string", confirm_input(handoff_ttl_ms="30m"),
         "$.handoff_ttl_ms", ["HND-101"]),
    ]
    cases += [invalid(f"confirm.{name}", f"{text} is invalid input", reqs, given, field)
              for name, text, given, field, reqs in bad]
    return cases


# ---------------------------------------------------------------------------------- replay

REPLAY_NOW = "2026-05-04T10:02:00Z"


def replay_input(document=None, *, text=None, **changes):
    given = {"op": "replay", "now": REPLAY_NOW, "incarnation": "boot-8c1d"}
    if text is not None:
        given["record_text"] = text
    elif document is not None:
        given["record_text"] = json.dumps(document, indent=2)
    given.update(changes)
    return given


def replayed(document, wake, *, at="2026-05-04T10:02:00.000Z"):
    return {
        "outcome": "replay", "op": "replay",
        "handoff_id": document["handoff_id"], "requested_by": document["requested_by"],
        "reason": document["reason"], "continue_prompt": document["continue_prompt"],
        "wake": wake,
        "consumed_record": {**document, "consumed": {"at": at, "by_incarnation": "boot-8c1d"}},
    }


def woken(ident, parent=None, kind="session"):
    return {"id": ident, "parent_id": parent, "kind": kind}


def replay_cases():
    plain = record()
    plain_wake = [woken("ses-main"), woken("ses-docs"), woken("ses-main/tests", "ses-main", "subagent")]
    nested = record(subagents=[
        {"id": "t-leaf", "parent_id": "t-mid"},
        {"id": "t-mid", "parent_id": "ses-main"},
        {"id": "d-one", "parent_id": "ses-docs"},
    ])
    r = refused
    cases = [
        case("replay.wakes_top_down", "sessions in order, then subagents each after its parent",
             ["HND-151", "HND-160", "HND-006"], replay_input(nested),
             replayed(nested, [woken("ses-main"), woken("ses-docs"), woken("t-mid", "ses-main", "subagent"),
                               woken("d-one", "ses-docs", "subagent"), woken("t-leaf", "t-mid", "subagent")]), 0),
        case("replay.plain", "a fresh record from another incarnation is replayed once", ["HND-151", "HND-001", "HND-008"],
             replay_input(plain), replayed(plain, plain_wake), 0),
        case("replay.base64", "a record given as base64 bytes is read the same way", ["HND-151"],
             replay_input(record_base64=base64.b64encode(json.dumps(plain).encode()).decode()),
             replayed(plain, plain_wake), 0),
        case("replay.sha256_digest", "a sha256 digest verifies too", ["HND-008", "HND-151"],
             replay_input({**record(seal=False), "digest": digest(record(seal=False), "sha256")}),
             replayed({**record(seal=False), "digest": digest(record(seal=False), "sha256")}, plain_wake), 0),
        case("replay.at_ttl", "a record exactly its time to live old is still replayed", ["HND-149", "HND-151"],
             replay_input(plain, now="2026-05-04T10:31:00Z"),
             replayed(plain, plain_wake, at="2026-05-04T10:31:00.000Z"), 0),
        case("replay.missing", "no record means nothing to replay, exit 0", ["HND-140", "HND-141", "HND-160"],
             replay_input(), {"outcome": "record_missing", "op": "replay"}, 0),
        r("replay.unreadable", "a record that cannot be read is refused", ["HND-142"],
          replay_input(record_error="EACCES: permission denied"), "replay", "record_unreadable"),
        r("replay.bom_utf8", "a record starting with a UTF-8 byte order mark is refused", ["HND-143"],
          replay_input(text="\ufeff" + json.dumps(plain)), "replay", "record_bom"),
        r("replay.bom_utf16", "a UTF-16 record with its byte order mark is refused", ["HND-143"],
          replay_input(record_base64=base64.b64encode(json.dumps(plain).encode("utf-16")).decode()),
          "replay", "record_bom"),
        r("replay.not_json", "a torn record that is not JSON is malformed", ["HND-144"],
          replay_input(text=json.dumps(plain)[:200]), "replay", "record_malformed"),
        r("replay.empty", "an empty record file is malformed", ["HND-144"],
          replay_input(text=""), "replay", "record_malformed"),
        r("replay.invalid_utf8", "a record that is not UTF-8 is malformed", ["HND-144"],
          replay_input(record_base64=base64.b64encode(b'{"kind": "handoff\xff"}').decode()), "replay",
          "record_malformed"),
        r("replay.repeated_key", "a record repeating a key is malformed", ["HND-144"],
          replay_input(text='{"kind": "handoff", ' + json.dumps(plain)[1:]), "replay", "record_malformed"),
        r("replay.nan", "a record holding NaN is malformed", ["HND-144"],
          replay_input(text=json.dumps(plain).replace("1800000", "NaN")), "replay", "record_malformed"),
        r("replay.array", "a record that is an array is malformed", ["HND-144"],
          replay_input(text="[]"), "replay", "record_malformed"),
        r("replay.other_kind", "a document of another kind is malformed", ["HND-144"],
          replay_input(record(kind="ack")), "replay", "record_malformed"),
        r("replay.too_large", "a record over 256 KiB is malformed", ["HND-144"],
          replay_input(text=json.dumps(plain) + " " * 262144), "replay", "record_malformed"),
        r("replay.digest_missing", "a record without a digest is malformed", ["HND-144", "HND-001"],
          replay_input(record(seal=False)), "replay", "record_malformed"),
        r("replay.extra_member", "a record with a member its version does not have is malformed", ["HND-144", "HND-001"],
          replay_input(record(model="m-1")), "replay", "record_malformed"),
        r("replay.duplicate_session", "a record listing one id twice is malformed", ["HND-144", "HND-003"],
          replay_input(record(sessions=[{"id": "ses-main"}, {"id": "ses-main"}], subagents=[])), "replay",
          "record_malformed"),
        r("replay.requester_not_resumed", "a record whose requester is not a session is malformed", ["HND-144", "HND-004"],
          replay_input(record(requested_by="ses-gone")), "replay", "record_malformed"),
        r("replay.parent_unknown", "a record with an orphan subagent is malformed", ["HND-144", "HND-005"],
          replay_input(record(subagents=[{"id": "a1", "parent_id": "ses-gone"}])), "replay", "record_malformed"),
        r("replay.cycle", "a record whose subagents form a cycle is malformed", ["HND-144", "HND-006"],
          replay_input(record(subagents=[{"id": "a1", "parent_id": "a2"}, {"id": "a2", "parent_id": "a1"}])),
          "replay", "record_malformed"),
        r("replay.bad_day", "a record created on 30 February is malformed", ["HND-144", "HND-007"],
          replay_input(record(created_at="2026-02-30T10:01:00.000Z")), "replay", "record_malformed"),
        r("replay.ttl_zero", "a record with a time to live of 0 is malformed", ["HND-144", "HND-001"],
          replay_input(record(ttl_ms=0)), "replay", "record_malformed"),
        r("replay.version_major", "a record of version 2.0 is refused as a version", ["HND-145"],
          replay_input(record(baton_version="2.0")), "replay", "record_version"),
        r("replay.version_minor", "a record of a newer minor version is refused as a version", ["HND-145"],
          replay_input(record(baton_version="1.1")), "replay", "record_version"),
        r("replay.version_before_shape", "another version is refused before its shape is judged", ["HND-140", "HND-145"],
          replay_input(text=json.dumps({"kind": "handoff", "baton_version": "2.0", "sessions": "all"})),
          "replay", "record_version"),
        r("replay.digest_mismatch", "a record changed after its digest is refused", ["HND-146", "HND-008"],
          replay_input({**plain, "reason": "something else"}), "replay", "record_digest", detail="digest.mismatch"),
        r("replay.digest_malformed", "a blake3 digest of the wrong length is refused", ["HND-146"],
          replay_input({**plain, "digest": "blake3:abc"}), "replay", "record_digest", detail="digest.malformed"),
        r("replay.digest_unknown_algorithm", "a digest Baton cannot compute is refused", ["HND-146"],
          replay_input({**plain, "digest": "md5:d41d8cd98f00b204e9800998ecf8427e"}), "replay", "record_digest",
          detail="digest.unknown_algorithm"),
        r("replay.consumed", "a record already consumed is never replayed again", ["HND-147"],
          replay_input({**plain, "consumed": {"at": "2026-05-04T10:01:30.000Z", "by_incarnation": "boot-8c1d"}}),
          "replay", "record_consumed"),
        r("replay.from_future", "a record created after now cannot be aged and is refused", ["HND-148"],
          replay_input(plain, now="2026-05-04T10:00:59Z"), "replay", "record_from_future"),
        r("replay.expired", "a record one millisecond past its time to live is refused", ["HND-149"],
          replay_input(plain, now="2026-05-04T10:31:00.001Z"), "replay", "record_expired"),
        r("replay.reader_bound", "the reader's smaller maximum age applies", ["HND-149"],
          replay_input(plain, max_ttl_ms=59_999), "replay", "record_expired"),
        r("replay.own_incarnation", "a record the running process wrote is never replayed by it", ["HND-150"],
          replay_input(plain, incarnation="boot-7f3a"), "replay", "record_own_incarnation"),
        r("replay.order_digest_before_expiry", "a changed and expired record is refused for its digest", ["HND-140", "HND-146"],
          replay_input({**plain, "reason": "changed"}, now="2026-05-05T10:00:00Z"), "replay", "record_digest",
          detail="digest.mismatch"),
        r("replay.order_consumed_before_expiry", "a consumed and expired record is refused as consumed", ["HND-140", "HND-147"],
          replay_input({**plain, "consumed": {"at": "2026-05-04T10:01:30.000Z", "by_incarnation": "boot-8c1d"}},
                       now="2026-05-05T10:00:00Z"), "replay", "record_consumed"),
        r("replay.order_expiry_before_incarnation", "an expired record of this process is refused as expired",
          ["HND-140", "HND-149"], replay_input(plain, now="2026-05-05T10:00:00Z", incarnation="boot-7f3a"),
          "replay", "record_expired"),
        r("replay.order_bom_before_json", "a byte order mark is answered before anything else in the bytes",
          ["HND-140", "HND-143"], replay_input(text="\ufeffnot json"), "replay", "record_bom"),
    ]
    bad = [
        ("two_sources", "a record given both as text and as bytes",
         replay_input(plain, record_base64="e30="), "$.record_base64"),
        ("bad_base64", "record bytes that are not base64", replay_input(record_base64="***"), "$.record_base64"),
        ("error_too_long", "a read error of 1,025 characters", replay_input(record_error="e" * 1025), "$.record_error"),
        ("text_number", "record text that is a number", replay_input(record_text=5), "$.record_text"),
        ("max_ttl_zero", "a reader bound of 0", replay_input(max_ttl_ms=0), "$.max_ttl_ms"),
    ]
    cases += [invalid(f"replay.{name}", f"{text} is invalid input", ["HND-101"], given, field)
              for name, text, given, field in bad]
    return cases


def input_cases():
    return [
        invalid("input.not_object", "an input that is not an object is invalid", ["HND-101"], [], "$"),
        invalid("input.op_missing", "an input without an operation is invalid", ["HND-101"], {"now": WARNED_AT}, "$.op"),
        invalid("input.op_unknown", "an unknown operation is invalid", ["HND-101"],
                {"op": "restart", "now": WARNED_AT, "incarnation": "boot-7f3a"}, "$.op"),
        invalid("input.bom", "a byte order mark before the input is invalid", ["HND-101"],
                b"\xef\xbb\xbf" + json.dumps(replay_input()).encode(), "$"),
        invalid("input.repeated_key", "a repeated key in the input is invalid", ["HND-101"],
                '{"op": "replay", "op": "warn"}', "$"),
        invalid("input.nan", "a NaN literal in the input is invalid", ["HND-101"],
                '{"op": "warn", "pending_ttl_ms": NaN}', "$"),
        invalid("input.not_json", "text that is not JSON is invalid", ["HND-101"], "op=replay", "$"),
    ]


def handoff_files():
    return {
        "warn": {"gate": "handoff", "description": "the warning: a token bound to the plan, nothing restarted",
                 "cases": warn_cases()},
        "confirm": {"gate": "handoff", "description": "the confirmation: the warned plan, once, in time, by the same process",
                    "cases": confirm_cases()},
        "replay": {"gate": "handoff", "description": "the replay: missing, unreadable, BOM, malformed, version, digest, consumed, time, incarnation",
                   "cases": replay_cases()},
        "input": {"gate": "handoff", "description": "input rules common to every operation", "cases": input_cases()},
    }
