"""The lifecycle gate's cases about values, bounds and check order
(``conformance/cases/lifecycle/values.json``): identifiers, integers, timestamps and the
record's context read as spec/index.md says (GEN-016 to GEN-022), each bound at its value and
one past it, and pairs of adjacent checks that both fail. Every expected answer is stated by
hand from spec/gates/lifecycle.md; the other lifecycle files are written by hand."""

import copy
import json

from gate_cases import case as _case
from gate_probes import INVALID_IDS, VALID_IDS, padded

NOW = "2026-10-15T12:00:00Z"
RECORD = {
    "stack_session_id": "stack-42", "seat_id": "seat-lead", "incarnation_id": "inc-7", "epoch": 7,
    "fencing_token": 11, "lease": {"holder": "inc-7", "expires_at": "2026-10-15T12:30:00Z"},
    "checkpoint": {"revision": 30, "validated": True, "current": True}, "state": "active",
    "role": "implementer", "runtime": {"harness": "claude", "model": "opus-4", "provider": "anthropic"},
    "context": {"summary": "parser refactor, step 3 of 5", "open_files": ["src/parse.py"]},
    "task_id": "task-88", "pending": None, "role_history": [],
}
CREDENTIALS = {"incarnation_id": "inc-7", "epoch": 7, "fencing_token": 11}
CONTINUITY = {"path": "continuity", "trigger": "context_utilization",
              "runtime": {"harness": "claude", "model": "opus-4", "provider": "anthropic"}}
ROLE = {"path": "role", "role": "reviewer"}
ENDED = {"role": "planner", "incarnation_id": "inc-3", "stack_session_id": "stack-41",
         "ended_at": "2026-10-14T09:00:00Z"}
MAX_INPUT_BYTES = 262144


def record(**changes):
    value = copy.deepcopy(RECORD)
    value.update(copy.deepcopy(changes))
    return value


def given(event, *, now=NOW, coordinator="available", **changes):
    return {"record": record(**changes), "event": event, "now": now, "coordinator": coordinator}


def write(**credentials):
    return {"type": "write", **CREDENTIALS, **credentials}


def read():
    return {"type": "read"}


def accepted(next_record):
    return {"decision": "accept", "record": next_record}


def rejected(code):
    return {"decision": "reject", "code": code, "effects": "none"}


def invalid(path):
    return {"decision": "reject", "code": "invalid_input", "effects": "none", "path": path}


def case(ident, description, requirements, given_value, output, exit_code):
    return _case("lifecycle", ident, description, requirements, given_value, output, exit_code)


def bad(ident, description, given_value, path, requirements=("LCY-005", "LCY-030", "GEN-022")):
    return case(ident, description, list(requirements), given_value, invalid(path), 2)


def reject(ident, description, requirements, given_value, code):
    return case(ident, description, requirements, given_value, rejected(code), 1)


def launch(**fields):
    return {"type": "launch", "new_incarnation_id": "inc-8", "lease_expires_at": "2026-10-15T13:00:00Z", **fields}


def value_cases():
    history = [{"role": "r", "incarnation_id": f"i{n}", "stack_session_id": f"s{n}",
                "ended_at": "2026-10-14T09:00:00Z"} for n in range(1024)]
    return [
        case("values.read_echoes_context_numbers", "a read writes the context's numbers as RFC 8785 does",
             ["LCY-019", "LCY-030", "GEN-019"],
             given(read(), context={"step": 3.0, "ratio": 0.5, "big": 9007199254740993, "list": [1e2, -0.0]}),
             accepted(record(context={"step": 3, "ratio": 0.5, "big": 9007199254740992, "list": [100, 0]})), 0),
        case("values.epoch_written_as_float", "an epoch written 7.0 is the integer 7, written back as 7",
             ["LCY-030", "GEN-018"], given(write(epoch=7.0), epoch=7.0, fencing_token=11.0), accepted(record()), 0),
        reject("values.history_at_bound", "a role history of 1,024 entries is read (the write's stale epoch answers)",
               ["LCY-031"], given(write(epoch=6), role_history=history), "stale_epoch"),
        bad("values.history_too_long", "a role history of 1,025 entries is invalid input",
            given(read(), role_history=history + [ENDED]), "$.record.role_history", ("LCY-005", "LCY-031")),
        bad("values.history_null", "a role history of null is invalid input", given(read(), role_history=None),
            "$.record.role_history", ("LCY-005", "LCY-031")),
        bad("values.history_object", "a role history that is an object is invalid input",
            given(read(), role_history={}), "$.record.role_history", ("LCY-005", "LCY-031")),
        bad("values.history_entry_blank_role", "a history entry with a blank role is invalid input",
            given(read(), role_history=[dict(ENDED, role=" ")]), "$.record.role_history[0].role"),
        bad("values.history_entry_bad_day", "a history entry ended on 31 September is invalid input",
            given(read(), role_history=[ENDED, dict(ENDED, ended_at="2026-09-31T09:00:00Z")]),
            "$.record.role_history[1].ended_at"),
        bad("values.history_entry_extra", "a history entry with an unknown member is invalid input",
            given(read(), role_history=[dict(ENDED, note="n")]), "$.record.role_history[0].note"),
        case("values.task_null", "a task id of null is no task", ["LCY-031"], given(read(), task_id=None),
             accepted(record(task_id=None)), 0),
        bad("values.seat_too_long", "a seat id of 513 characters is invalid input", given(read(), seat_id="s" * 513),
            "$.record.seat_id"),
        case("values.seat_at_bound", "a seat id of 512 characters is an identifier", ["LCY-030", "GEN-003"],
             given(read(), seat_id="s" * 512), accepted(record(seat_id="s" * 512)), 0),
        bad("values.role_c1", "a role holding a C1 control is invalid input", given(read(), role="impl\x85"),
            "$.record.role"),
        bad("values.role_bom", "a role of U+FEFF alone is blank", given(read(), role="\ufeff"), "$.record.role"),
        bad("values.epoch_fraction", "an epoch of 7.5 is invalid input", given(read(), epoch=7.5), "$.record.epoch"),
        bad("values.epoch_beyond_double", "an epoch of 2^53 is invalid input", given(read(), epoch=2**53),
            "$.record.epoch"),
        bad("values.revision_negative", "a checkpoint revision of -1 is invalid input",
            given(read(), checkpoint={"revision": -1, "validated": True, "current": True}),
            "$.record.checkpoint.revision"),
        bad("values.context_too_deep", "a context nesting 33 levels is invalid input",
            given(read(), context=json.loads('{"a":' * 32 + "1" + "}" * 32)), "$.record.context"),
        case("values.context_at_depth", "a context nesting 32 levels is read", ["LCY-030"],
             given(read(), context=json.loads('{"a":' * 31 + "1" + "}" * 31)),
             accepted(record(context=json.loads('{"a":' * 31 + "1" + "}" * 31))), 0),
        case("values.launch_at_safe_limit", "a launch may raise the epoch and token to 2^53 - 1",
             ["LCY-032", "LCY-011"],
             given(launch(), state="checkpointing", pending=CONTINUITY, epoch=2**53 - 2, fencing_token=2**53 - 2),
             accepted(record(state="relaunching", pending=CONTINUITY, incarnation_id="inc-8", epoch=2**53 - 1,
                             fencing_token=2**53 - 1,
                             lease={"holder": "inc-8", "expires_at": "2026-10-15T13:00:00Z"})), 0),
        bad("values.launch_past_safe_limit", "a launch that would raise the epoch past 2^53 - 1 is invalid input",
            given(launch(), state="checkpointing", pending=CONTINUITY, epoch=2**53 - 1), "$.record.epoch",
            ("LCY-032",)),
        bad("values.acquire_past_safe_limit", "a lease acquisition that would raise the token past 2^53 - 1",
            given({"type": "acquire_lease", "incarnation_id": "inc-7", "epoch": 7, "fencing_token": 2**53 - 1,
                   "expires_at": "2026-10-15T13:00:00Z"},
                  lease={"holder": None, "expires_at": None}, fencing_token=2**53 - 1),
            "$.record.fencing_token", ("LCY-032",)),
    ]


def time_cases():
    bad_times = [
        ("now_non_digit", "now with a letter in its minute", {}, "now", "2026-10-15T12:0x:00Z", "$.now"),
        ("now_day_32", "now on day 32", {}, "now", "2026-10-32T12:00:00Z", "$.now"),
        ("now_leap_second", "now at a leap second", {}, "now", "2016-12-31T23:59:60Z", "$.now"),
        ("now_after_9999", "now past year 9999 once its offset is applied", {}, "now", "9999-12-31T23:30:00-01:00",
         "$.now"),
        ("now_fullwidth", "now written with fullwidth digits", {}, "now", "２０２６-10-15T12:00:00Z", "$.now"),
    ]
    cases = [bad(f"time.{name}", f"{text} is invalid input", given(read(), now=value), path,
                 ("LCY-005", "LCY-030", "GEN-004"))
             for name, text, _, _, value, path in bad_times]
    cases += [
        bad("time.lease_end_feb_30", "a lease ending on 30 February is invalid input",
            given(read(), lease={"holder": "inc-7", "expires_at": "2026-02-30T12:30:00Z"}), "$.record.lease.expires_at",
            ("LCY-005", "GEN-004")),
        bad("time.lease_end_hour_24", "a lease ending at hour 24 is invalid input",
            given(read(), lease={"holder": "inc-7", "expires_at": "2026-10-15T24:00:00Z"}), "$.record.lease.expires_at",
            ("LCY-005", "GEN-004")),
        bad("time.renewal_month_13", "a renewal to month 13 is invalid input",
            given({"type": "renew_lease", **CREDENTIALS, "expires_at": "2026-13-15T13:00:00Z"}), "$.event.expires_at",
            ("LCY-005", "GEN-004")),
        bad("time.launch_lease_offset_24", "a launch lease end with an offset of 24 hours is invalid input",
            given(launch(lease_expires_at="2026-10-15T13:00:00+24:00"), state="checkpointing", pending=CONTINUITY),
            "$.event.lease_expires_at", ("LCY-005", "GEN-004")),
        reject("time.lease_end_truncated", "a lease ending at 12:00:00.0009 has ended at 12:00:00.000",
               ["LCY-014", "LCY-030", "GEN-021"],
               given(write(), lease={"holder": "inc-7", "expires_at": "2026-10-15T12:00:00.0009Z"}), "lease_expired"),
        case("time.lease_one_millisecond_left", "a lease ending at 12:00:00.001 still holds at noon",
             ["LCY-014", "GEN-021"],
             given(write(), lease={"holder": "inc-7", "expires_at": "2026-10-15T12:00:00.001Z"}),
             accepted(record(lease={"holder": "inc-7", "expires_at": "2026-10-15T12:00:00.001Z"})), 0),
        case("time.lease_end_with_offset", "a lease end written with an offset is compared as an instant",
             ["LCY-014", "GEN-004"],
             given(write(), lease={"holder": "inc-7", "expires_at": "2026-10-15T14:00:01+02:00"}),
             accepted(record(lease={"holder": "inc-7", "expires_at": "2026-10-15T14:00:01+02:00"})), 0),
        reject("time.lease_end_offset_expired", "a lease ending at 13:59:59+02:00 has ended at noon UTC",
               ["LCY-014", "GEN-004"],
               given(write(), lease={"holder": "inc-7", "expires_at": "2026-10-15T13:59:59+02:00"}), "lease_expired"),
        case("time.renew_across_month", "a renewal into the next month is later", ["LCY-015", "GEN-004"],
             given({"type": "renew_lease", **CREDENTIALS, "expires_at": "2026-11-01T00:00:00Z"}, now="2026-10-31T23:00:00Z",
                   lease={"holder": "inc-7", "expires_at": "2026-10-31T23:59:59Z"}),
             accepted(record(lease={"holder": "inc-7", "expires_at": "2026-11-01T00:00:00Z"})), 0),
        reject("time.renew_across_leap_day", "a renewal to 1 March 2024 is not later than 29 February plus a day",
               ["LCY-015", "GEN-004"],
               given({"type": "renew_lease", **CREDENTIALS, "expires_at": "2024-03-01T00:00:00Z"},
                     now="2024-02-28T23:00:00Z", lease={"holder": "inc-7", "expires_at": "2024-03-01T00:00:00.001Z"}),
               "lease_expiry_not_later"),
    ]
    return cases


#: (name, lease end, whether it still holds at NOW): each a form of timestamp, stated by hand.
LEASE_ENDS = (
    ("half_hour_offset_held", "2026-10-15T17:30:00.001+05:30", True),
    ("half_hour_offset_ended", "2026-10-15T17:30:00+05:30", False),
    ("largest_offset_held", "2026-10-16T11:59:00.001+23:59", True),
    ("negative_minutes_held", "2026-10-15T11:01:00.001-00:59", True),
    ("negative_minutes_ended", "2026-10-15T11:00:59.999-00:59", False),
    ("one_fraction_digit_held", "2026-10-15T12:00:00.1Z", True),
    ("sixty_four_characters_held", "2026-10-15T12:00:00.001" + "0" * 40 + "Z", True),
)
#: (name, now, lease end, whether it still holds): one millisecond either side of a boundary.
BOUNDARIES = (
    ("month_end_held", "2026-10-31T23:59:59.999Z", "2026-11-01T00:00:00Z", True),
    ("month_end_ended", "2026-11-01T00:00:00Z", "2026-10-31T23:59:59.999Z", False),
    ("year_end_held", "2026-12-31T23:59:59.999Z", "2027-01-01T00:00:00Z", True),
    ("year_end_ended", "2027-01-01T00:00:00Z", "2026-12-31T23:59:59.999Z", False),
    ("feb_2100_held", "2100-02-28T23:59:59.999Z", "2100-03-01T00:00:00Z", True),
    ("feb_2100_ended", "2100-03-01T00:00:00Z", "2100-02-28T23:59:59.999Z", False),
    ("feb_2000_held", "2000-02-29T23:59:59.999Z", "2000-03-01T00:00:00Z", True),
    ("feb_2024_ended", "2024-03-01T00:00:00Z", "2024-02-29T23:59:59.999Z", False),
    ("feb_1600_held", "1600-02-29T23:59:59.999Z", "1600-03-01T00:00:00Z", True),
)
#: Record members, each given a value that breaks its rule, and the path the gate names.
BAD_MEMBERS = (
    ("stack_session_blank", {"stack_session_id": " "}, "$.record.stack_session_id"),
    ("incarnation_number", {"incarnation_id": 7}, "$.record.incarnation_id"),
    ("token_negative", {"fencing_token": -1}, "$.record.fencing_token"),
    ("runtime_not_object", {"runtime": "claude"}, "$.record.runtime"),
    ("runtime_model_blank", {"runtime": {"harness": "claude", "model": "", "provider": "anthropic"}},
     "$.record.runtime.model"),
    ("task_number", {"task_id": 88}, "$.record.task_id"),
    ("lease_not_object", {"lease": None}, "$.record.lease"),
    ("lease_holder_number", {"lease": {"holder": 7, "expires_at": "2026-10-15T12:30:00Z"}}, "$.record.lease.holder"),
    ("checkpoint_not_object", {"checkpoint": []}, "$.record.checkpoint"),
    ("checkpoint_validated_string", {"checkpoint": {"revision": 30, "validated": "yes", "current": True}},
     "$.record.checkpoint.validated"),
    ("checkpoint_current_null", {"checkpoint": {"revision": 30, "validated": True, "current": None}},
     "$.record.checkpoint.current"),
    ("pending_string", {"state": "degraded", "pending": "continuity"}, "$.record.pending"),
    ("pending_path_unknown", {"state": "degraded", "pending": {"path": "other"}}, "$.record.pending.path"),
    ("pending_trigger_unknown", {"state": "degraded", "pending": dict(CONTINUITY, trigger="boredom")},
     "$.record.pending.trigger"),
    ("pending_runtime_blank", {"state": "degraded", "pending": dict(CONTINUITY, runtime={"harness": "x", "model": "m",
                                                                                         "provider": " "})},
     "$.record.pending.runtime.provider"),
    ("pending_role_blank", {"state": "degraded", "pending": {"path": "role", "role": ""}}, "$.record.pending.role"),
    ("history_incarnation_blank", {"role_history": [dict(ENDED, incarnation_id="")]},
     "$.record.role_history[0].incarnation_id"),
    ("history_session_number", {"role_history": [dict(ENDED, stack_session_id=41)]},
     "$.record.role_history[0].stack_session_id"),
    ("record_not_object", None, "$.record"),
    ("record_member_quoted", {"x y": 1}, '$.record["x y"]'),
    ("record_member_escaped", {'q"\\': 1}, '$.record["q\\"\\\\"]'),
)
BAD_EVENTS = (
    ("event_not_object", "read", "$.event"),
    ("event_incarnation_blank", write(incarnation_id=" "), "$.event.incarnation_id"),
    ("event_epoch_string", write(epoch="7"), "$.event.epoch"),
    ("event_revision_fraction", {"type": "checkpoint", **CREDENTIALS, "revision": 31.5, "validated": True},
     "$.event.revision"),
    ("event_validated_null", {"type": "checkpoint", **CREDENTIALS, "revision": 31, "validated": None},
     "$.event.validated"),
    ("event_task_blank", {"type": "assign", "task_id": ""}, "$.event.task_id"),
    ("event_runtime_missing_member", {"type": "request_switch", "runtime": {"harness": "x", "model": "m"}},
     "$.event.runtime.provider"),
    ("event_role_number", {"type": "request_role_change", "role": 5}, "$.event.role"),
    ("event_new_incarnation_blank", launch(new_incarnation_id="\u3000"), "$.event.new_incarnation_id"),
    ("event_new_session_blank", launch(new_stack_session_id=""), "$.event.new_stack_session_id"),
    ("event_restored_negative", {"type": "ready", **CREDENTIALS, "restored_revision": -1,
                                 "proof": dict.fromkeys(("role", "task", "prd_pin", "blockers", "next_action"), True)},
     "$.event.restored_revision"),
)


#: (name, now): times the gate refuses, each breaking one rule of the timestamp form.
BAD_NOWS = (
    ("leap_year_feb_30", "2024-02-30T12:00:00Z"), ("feb_29_1700", "1700-02-29T12:00:00Z"),
    ("month_zero", "2026-00-15T12:00:00Z"), ("day_zero", "2026-10-00T12:00:00Z"),
    ("year_zero_in_range", "0000-12-31T23:30:00-01:00"), ("slashes", "2026/10/15T12:00:00Z"),
    ("underscore", "2026-10-15_12:00:00Z"), ("empty_fraction", "2026-10-15T12:00:00.Z"),
    ("offset_seconds", "2026-10-15T14:00:00+02:00:00"), ("offset_minutes_60", "2026-10-15T13:00:00+01:60"),
    ("offset_hours_24", "2026-10-15T12:00:00+24:00"), ("second_60", "2026-10-15T12:00:60Z"),
    ("minute_60", "2026-10-15T12:60:00Z"), ("fraction_no_offset", "2026-10-15T12:00:00.123"),
    ("too_long", "2026-10-15T12:00:00." + "0" * 44 + "Z"), ("too_short", "2026-10-15T12:00Z"),
    ("before_year_one", "0001-01-01T00:00:00+00:01"), ("number", 1760529600000),
)
#: Times the gate reads (the record's lease holds at each: it ends later).
GOOD_NOWS = (
    ("feb_29_1600", "1600-02-29T12:00:00Z"), ("feb_29_2000", "2000-02-29T12:00:00Z"),
    ("feb_29_2024", "2024-02-29T12:00:00Z"), ("lowercase_z", "2026-10-15t12:00:00z"),
    ("first_instant", "0001-01-01T00:00:00Z"), ("year_one_offset", "0001-01-01T00:59:59+00:59"),
    ("sixty_four_characters", "2026-10-15T12:00:00." + "0" * 43 + "Z"), ("minute_59", "2026-10-15T11:59:59Z"),
)


def probe_cases():
    cases = []
    for name, now in BAD_NOWS:
        cases.append(bad(f"probe.now_{name}", f"now {now} is invalid input", given(read(), now=now), "$.now",
                         ("LCY-005", "LCY-030", "GEN-004")))
    for name, now in GOOD_NOWS:
        cases.append(case(f"probe.now_{name}", f"now {now} is a time the gate reads", ["LCY-030", "GEN-004"],
                          given(write(), now=now), accepted(record()), 0))
    cases.append(case("probe.last_instant", "a lease ending at 9999-12-31T23:59:59.999Z holds a moment before",
                      ["LCY-014", "GEN-020"],
                      given(write(), now="9999-12-31T23:59:59.998Z",
                            lease={"holder": "inc-7", "expires_at": "9999-12-31T23:59:59.999Z"}),
                      accepted(record(lease={"holder": "inc-7", "expires_at": "9999-12-31T23:59:59.999Z"})), 0))
    for name, ident, shows in VALID_IDS:
        cases.append(case(f"probe.seat_{name}", f"a seat id: {shows}", ["LCY-030", "GEN-003"],
                          given(read(), seat_id=ident), accepted(record(seat_id=ident)), 0))
    for name, ident, shows in INVALID_IDS:
        cases.append(bad(f"probe.seat_{name}", f"a seat id: {shows}", given(read(), seat_id=ident), "$.record.seat_id"))
    for name, end, holds in LEASE_ENDS:
        lease = {"holder": "inc-7", "expires_at": end}
        output = accepted(record(lease=lease)) if holds else rejected("lease_expired")
        cases.append(case(f"probe.lease_{name}", f"a lease ending {end} {'holds' if holds else 'has ended'} at noon",
                          ["LCY-014", "LCY-030", "GEN-004"], given(write(), lease=lease), output, 0 if holds else 1))
    for name, now, end, holds in BOUNDARIES:
        lease = {"holder": "inc-7", "expires_at": end}
        output = accepted(record(lease=lease)) if holds else rejected("lease_expired")
        cases.append(case(f"probe.{name}", f"a lease ending {end} {'holds' if holds else 'has ended'} at {now}",
                          ["LCY-014", "GEN-004"], given(write(), now=now, lease=lease), output, 0 if holds else 1))
    for name, changes, path in BAD_MEMBERS:
        value = given(read(), **(changes or {}))
        if changes is None:
            value["record"] = "stack-42"
        cases.append(bad(f"probe.{name}", f"a record with a broken member is invalid input ({name})", value, path))
    for name, event, path in BAD_EVENTS:
        cases.append(bad(f"probe.{name}", f"an event with a broken member is invalid input ({name})", given(event), path))
    every = ("role", "task", "prd_pin", "blockers", "next_action")
    cases += [
        case("probe.zero_counters", "an epoch, fencing token and revision of 0 are allowed", ["LCY-030"],
             given(read(), epoch=0, fencing_token=0, checkpoint={"revision": 0, "validated": True, "current": True}),
             accepted(record(epoch=0, fencing_token=0, checkpoint={"revision": 0, "validated": True, "current": True})), 0),
        bad("probe.context_overflow", "a context number of 1e400 is not finite",
            json.dumps(given(read())).replace('"context": {', '"context": {"n": 1e400, ', 1),
            "$.record.context", ("LCY-030", "GEN-019")),
        bad("probe.context_huge_integer", "a context integer of 400 digits is not finite as a double",
            json.dumps(given(read())).replace('"context": {', '"context": {"n": 1' + "0" * 400 + ", ", 1),
            "$.record.context", ("LCY-030", "GEN-019")),
        case("probe.context_keeps_1e21", "a context number of 1e21 stays a float", ["LCY-030", "GEN-019"],
             given(read(), context={"n": 1e21, "m": 1e20}), accepted(record(context={"n": 1e21, "m": 100000000000000000000})), 0),
        case("probe.trigger_authorized_request", "a relaunch requested on authorized request", ["LCY-023"],
             given({"type": "request_relaunch", "trigger": "authorized_request"}),
             accepted(record(state="relaunch_requested", pending=dict(CONTINUITY, trigger="authorized_request"))), 0),
        case("probe.checkpoint_while_checkpointing", "a further checkpoint while checkpointing stays there", ["LCY-020"],
             given({"type": "checkpoint", **CREDENTIALS, "revision": 31, "validated": False}, state="checkpointing",
                   pending=CONTINUITY),
             accepted(record(state="checkpointing", pending=CONTINUITY,
                             checkpoint={"revision": 31, "validated": False, "current": True})), 0),
        case("probe.switch_from_degraded", "a degraded session may request a switch", ["LCY-023"],
             given({"type": "request_switch", "runtime": {"harness": "codex", "model": "gpt-5", "provider": "openai"}},
                   state="degraded", pending=CONTINUITY),
             accepted(record(state="relaunch_requested", pending={"path": "continuity", "trigger": "runtime_switch",
                                                                  "runtime": {"harness": "codex", "model": "gpt-5",
                                                                              "provider": "openai"}})), 0),
        case("probe.role_change_from_degraded", "a degraded session may request a role change", ["LCY-023"],
             given({"type": "request_role_change", "role": "reviewer"}, state="degraded", pending=CONTINUITY),
             accepted(record(state="relaunch_requested", pending=ROLE)), 0),
        reject("probe.started_during_outage", "a start during an outage is refused", ["LCY-018"],
               given({"type": "started", **CREDENTIALS}, coordinator="unavailable", state="relaunching", pending=CONTINUITY),
               "coordinator_unavailable"),
        reject("probe.ready_during_outage", "a readiness proof during an outage is refused", ["LCY-018"],
               given({"type": "ready", **CREDENTIALS, "restored_revision": 30, "proof": dict.fromkeys(every, True)},
                     coordinator="unavailable", state="restoring", pending=CONTINUITY), "coordinator_unavailable"),
        reject("probe.started_needs_the_lease", "a start under an ended lease is refused", ["LCY-013"],
               given({"type": "started", **CREDENTIALS}, state="relaunching", pending=CONTINUITY,
                     lease={"holder": "inc-7", "expires_at": "2026-10-15T11:00:00Z"}), "lease_expired"),
        reject("probe.ready_needs_the_lease", "a readiness proof under another's lease is refused", ["LCY-013"],
               given({"type": "ready", **CREDENTIALS, "restored_revision": 30, "proof": dict.fromkeys(every, True)},
                     state="restoring", pending=CONTINUITY, lease={"holder": "inc-9", "expires_at": "2026-10-15T12:30:00Z"}),
               "lease_not_held"),
        reject("probe.renew_to_same_end", "a renewal to the lease's current end is not later", ["LCY-015"],
               given({"type": "renew_lease", **CREDENTIALS, "expires_at": "2026-10-15T12:30:00Z"}),
               "lease_expiry_not_later"),
        case("probe.acquire_at_lease_end", "a lease ending exactly now has ended: it may be acquired", ["LCY-014", "LCY-016"],
             given({"type": "acquire_lease", **CREDENTIALS, "expires_at": "2026-10-15T13:00:00Z"},
                   lease={"holder": "inc-7", "expires_at": NOW}),
             accepted(record(fencing_token=12, lease={"holder": "inc-7", "expires_at": "2026-10-15T13:00:00Z"})), 0),
    ]
    return cases


def order_cases():
    role_launch = launch(new_stack_session_id="stack-43")
    return [
        reject("order.epoch_before_token", "a stale epoch and a stale token: the epoch is answered", ["LCY-012", "LCY-028"],
               given(write(epoch=6, fencing_token=10)), "stale_epoch"),
        reject("order.illegal_before_coordinator", "an illegal event during an outage: the state is answered",
               ["LCY-023", "LCY-028"], given({"type": "started", **CREDENTIALS}, coordinator="unavailable"),
               "illegal_transition"),
        reject("order.coordinator_before_lease", "a renewal during an outage under another's lease: the outage",
               ["LCY-018", "LCY-028"],
               given({"type": "renew_lease", **CREDENTIALS, "expires_at": "2026-10-15T13:00:00Z"},
                     coordinator="unavailable", lease={"holder": "inc-9", "expires_at": "2026-10-15T12:30:00Z"}),
               "coordinator_unavailable"),
        reject("order.not_held_before_expired", "a lease held by another and ended: not held is answered",
               ["LCY-013", "LCY-028"], given(write(), lease={"holder": "inc-9", "expires_at": "2026-10-15T11:00:00Z"}),
               "lease_not_held"),
        reject("order.lease_before_revision", "a checkpoint under an ended lease with an old revision: the lease",
               ["LCY-013", "LCY-028"],
               given({"type": "checkpoint", **CREDENTIALS, "revision": 29, "validated": True},
                     lease={"holder": "inc-7", "expires_at": "2026-10-15T11:00:00Z"}), "lease_expired"),
        reject("order.renew_current_before_expiry", "a renewal with a stale checkpoint to an earlier end",
               ["LCY-015", "LCY-028"],
               given({"type": "renew_lease", **CREDENTIALS, "expires_at": "2026-10-15T12:10:00Z"},
                     checkpoint={"revision": 30, "validated": True, "current": False}), "checkpoint_not_current"),
        reject("order.acquire_held_before_current", "an acquisition under a held lease with a stale checkpoint",
               ["LCY-016", "LCY-028"],
               given({"type": "acquire_lease", **CREDENTIALS, "expires_at": "2026-10-15T13:00:00Z"},
                     checkpoint={"revision": 30, "validated": True, "current": False}), "lease_still_held"),
        reject("order.acquire_current_before_expiry", "an acquisition with a stale checkpoint to a past end",
               ["LCY-016", "LCY-028"],
               given({"type": "acquire_lease", **CREDENTIALS, "expires_at": "2026-10-15T11:00:00Z"},
                     lease={"holder": None, "expires_at": None},
                     checkpoint={"revision": 30, "validated": True, "current": False}), "checkpoint_not_current"),
        reject("order.acquire_expiry_at_now", "an acquisition whose lease would end exactly now", ["LCY-016"],
               given({"type": "acquire_lease", **CREDENTIALS, "expires_at": NOW},
                     lease={"holder": None, "expires_at": None}), "lease_expiry_not_later"),
        reject("order.continuity_current_before_session", "a continuity launch: stale checkpoint and a new session id",
               ["LCY-021", "LCY-028"],
               given(launch(new_stack_session_id="stack-43"), state="checkpointing", pending=CONTINUITY,
                     checkpoint={"revision": 30, "validated": True, "current": False}), "checkpoint_not_current"),
        reject("order.continuity_session_before_incarnation", "a continuity launch: a new session id and an old incarnation",
               ["LCY-010", "LCY-028"],
               given(launch(new_stack_session_id="stack-43", new_incarnation_id="inc-7"), state="checkpointing",
                     pending=CONTINUITY), "session_id_must_persist"),
        reject("order.continuity_incarnation_before_expiry", "a continuity launch: an old incarnation and a past lease",
               ["LCY-008", "LCY-028"],
               given(launch(new_incarnation_id="inc-3", lease_expires_at="2026-10-15T11:00:00Z"), state="checkpointing",
                     pending=CONTINUITY, role_history=[ENDED]), "incarnation_not_fresh"),
        reject("order.role_current_before_session_required", "a role launch: stale checkpoint and no new session id",
               ["LCY-021", "LCY-028"],
               given(launch(), state="reconfiguring", pending=ROLE, lease={"holder": None, "expires_at": None},
                     checkpoint={"revision": 30, "validated": True, "current": False}), "checkpoint_not_current"),
        reject("order.role_session_before_incarnation", "a role launch: an old session id and an old incarnation",
               ["LCY-009", "LCY-028"],
               given(launch(new_stack_session_id="stack-41", new_incarnation_id="inc-3"), state="reconfiguring",
                     pending=ROLE, lease={"holder": None, "expires_at": None}, role_history=[ENDED]),
               "session_id_not_fresh"),
        reject("order.role_incarnation_before_expiry", "a role launch: an old incarnation and a past lease",
               ["LCY-008", "LCY-028"],
               given(dict(role_launch, new_incarnation_id="inc-7", lease_expires_at="2026-10-15T11:00:00Z"),
                     state="reconfiguring", pending=ROLE, lease={"holder": None, "expires_at": None}),
               "incarnation_not_fresh"),
        reject("order.role_expiry_at_now", "a role launch whose lease would end exactly now", ["LCY-011"],
               given(dict(role_launch, lease_expires_at=NOW), state="reconfiguring", pending=ROLE,
                     lease={"holder": None, "expires_at": None}), "lease_expiry_not_later"),
        reject("order.reconfigure_validated_before_current", "a reconfiguration with a checkpoint neither validated nor current",
               ["LCY-021", "LCY-028"],
               given({"type": "reconfigure"}, state="relaunch_requested", pending=ROLE,
                     checkpoint={"revision": 30, "validated": False, "current": False}), "checkpoint_not_validated"),
        reject("order.role_ready_context_before_proof", "a role readiness proof with restored context and gaps",
               ["LCY-026", "LCY-028"],
               given({"type": "ready", **CREDENTIALS, "restored_revision": 30,
                      "proof": {"role": False, "task": True, "prd_pin": True, "blockers": True, "next_action": True}},
                     state="restoring", pending=ROLE, context=None), "context_must_be_discarded"),
        reject("order.switch_same_runtime_outage", "a switch to the same runtime during an outage: the outage",
               ["LCY-018", "LCY-028"],
               given({"type": "request_switch", "runtime": RECORD["runtime"]}, coordinator="unavailable"),
               "coordinator_unavailable"),
    ]


def size_cases():
    return [
        padded(case("input.at_size_bound", "an input of exactly 262,144 bytes is read", ["LCY-005"],
                    json.dumps(given(read())), accepted(record()), 0), MAX_INPUT_BYTES),
        padded(case("input.past_size_bound", "an input of 262,145 bytes is invalid input", ["LCY-005"],
                    json.dumps(given(read())), invalid("$"), 2), MAX_INPUT_BYTES + 1),
    ]


def lifecycle_files():
    return {"values": {"gate": "lifecycle",
                       "description": "values and bounds: identifiers, integers, timestamps, sizes; adjacent checks",
                       "cases": value_cases() + time_cases() + probe_cases() + order_cases()
                                + size_cases()}}
