"""The lifecycle gate's cases about values, bounds and check order
(``conformance/cases/lifecycle/values.json``): identifiers, integers, timestamps and the
record's context read as spec/index.md says (GEN-016 to GEN-022), each bound at its value and
one past it, and pairs of adjacent checks that both fail. Every expected answer is stated by
hand from spec/gates/lifecycle.md; the other lifecycle files are written by hand."""

import copy
import json

from gate_cases import case as _case

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
    def padded(value, size):
        text = json.dumps(value)
        return text + " " * (size - len(text.encode("utf-8")))

    return [
        case("input.at_size_bound", "an input of exactly 262,144 bytes is read", ["LCY-005"],
             padded(given(read()), MAX_INPUT_BYTES), accepted(record()), 0),
        case("input.past_size_bound", "an input of 262,145 bytes is invalid input", ["LCY-005"],
             padded(given(read()), MAX_INPUT_BYTES + 1), invalid("$"), 2),
    ]


def lifecycle_files():
    return {"values": {"gate": "lifecycle",
                       "description": "values and bounds: identifiers, integers, timestamps, sizes; adjacent checks",
                       "cases": value_cases() + time_cases() + order_cases() + size_cases()}}
