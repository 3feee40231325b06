"""The handoff gate's conformance cases. Expected answers are stated by hand from
spec/gates/handoff.md and spec/handoff-record.md; digests and derived tokens are computed
here with the RFC 8785 and BLAKE3 libraries directly, not with Passdown's own code."""

import base64
import copy
import hashlib
import json

import rfc8785
from blake3 import blake3
from gate_cases import case as _case
from gate_probes import INVALID_IDS, VALID_IDS, padded

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
        "passdown_version": "1.0",
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
        "passdown_version": "1.0",
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


#: (case name, now as given, created_at and expires_at as the gate writes them), stated by hand.
TIME_PROBES = (
    ("time_1600_leap_day", "1600-02-29T12:00:00Z", "1600-02-29T12:00:00.000Z", "1600-02-29T12:05:00.000Z"),
    ("time_1900_not_leap", "1900-02-28T23:58:00Z", "1900-02-28T23:58:00.000Z", "1900-03-01T00:03:00.000Z"),
    ("time_2100_not_leap", "2100-02-28T23:58:00Z", "2100-02-28T23:58:00.000Z", "2100-03-01T00:03:00.000Z"),
    ("time_2400_leap_day", "2400-02-29T23:58:00Z", "2400-02-29T23:58:00.000Z", "2400-03-01T00:03:00.000Z"),
    ("time_year_400_end", "0400-12-31T23:58:00Z", "0400-12-31T23:58:00.000Z", "0401-01-01T00:03:00.000Z"),
    ("time_1999_end", "1999-12-31T23:58:00Z", "1999-12-31T23:58:00.000Z", "2000-01-01T00:03:00.000Z"),
    ("time_2024_leap_day", "2024-02-29T23:58:00Z", "2024-02-29T23:58:00.000Z", "2024-03-01T00:03:00.000Z"),
    ("time_half_hour_offset", "2026-05-04T15:30:00+05:30", "2026-05-04T10:00:00.000Z", "2026-05-04T10:05:00.000Z"),
    ("time_one_fraction_digit", "2026-05-04T10:00:00.5Z", "2026-05-04T10:00:00.500Z", "2026-05-04T10:05:00.500Z"),
    ("time_largest_offset", "2026-05-05T09:59:00+23:59", "2026-05-04T10:00:00.000Z", "2026-05-04T10:05:00.000Z"),
    ("time_negative_minutes_offset", "2026-05-04T09:59:01-00:59", "2026-05-04T10:58:01.000Z",
     "2026-05-04T11:03:01.000Z"),
    ("time_64_characters", "2026-05-04T10:00:00." + "1" * 43 + "Z", "2026-05-04T10:00:00.111Z",
     "2026-05-04T10:05:00.111Z"),
    ("time_year_end", "2026-12-31T23:59:59.999Z", "2026-12-31T23:59:59.999Z", "2027-01-01T00:04:59.999Z"),
    ("time_offset_minute_back", "2025-03-01T00:00:00+00:01", "2025-02-28T23:59:00.000Z", "2025-03-01T00:04:00.000Z"),
    ("time_year_one_offset", "0001-01-01T00:59:59+00:59", "0001-01-01T00:00:59.000Z", "0001-01-01T00:05:59.000Z"),
    ("time_march_31", "2026-03-31T12:00:00Z", "2026-03-31T12:00:00.000Z", "2026-03-31T12:05:00.000Z"),
    ("time_july_1", "2026-07-01T12:00:00Z", "2026-07-01T12:00:00.000Z", "2026-07-01T12:05:00.000Z"),
    ("time_august_31", "2026-08-31T12:00:00Z", "2026-08-31T12:00:00.000Z", "2026-08-31T12:05:00.000Z"),
    ("time_2100_march_1", "2100-03-01T00:00:00Z", "2100-03-01T00:00:00.000Z", "2100-03-01T00:05:00.000Z"),
    ("time_2400_feb_28", "2400-02-28T12:00:00Z", "2400-02-28T12:00:00.000Z", "2400-02-28T12:05:00.000Z"),
    ("time_2000_feb_28", "2000-02-28T12:00:00Z", "2000-02-28T12:00:00.000Z", "2000-02-28T12:05:00.000Z"),
    ("time_2004_feb_28", "2004-02-28T12:00:00Z", "2004-02-28T12:00:00.000Z", "2004-02-28T12:05:00.000Z"),
    ("time_2003_march_1", "2003-03-01T12:00:00Z", "2003-03-01T12:00:00.000Z", "2003-03-01T12:05:00.000Z"),
)
#: (case name, now, what is wrong with it): times the gate refuses.
BAD_TIMES = (
    ("now_leap_year_feb_30", "2024-02-30T10:00:00Z", "30 February of a leap year"),
    ("now_month_zero", "2026-00-10T10:00:00Z", "month 00"),
    ("now_year_zero_in_range", "0000-12-31T23:30:00-01:00", "year 0000, though its instant is in year 0001"),
    ("now_slashes", "2026/05/04T10:00:00Z", "a date with slashes"),
    ("now_fraction_no_offset", "2026-05-04T10:00:00.123", "a fraction and no offset"),
    ("now_offset_minutes_60", "2026-05-04T10:00:00+01:60", "an offset of 60 minutes"),
    ("now_minute_60", "2026-05-04T10:60:00Z", "minute 60"),
    ("now_second_61", "2026-05-04T10:00:61Z", "second 61"),
    ("now_day_zero", "2026-05-00T10:00:00Z", "day 00"),
)


def probe_cases():
    cases = []
    for name, now, created, expires in TIME_PROBES:
        cases.append(case(f"warn.{name}", f"the time {now} is written back as {created}", ["HND-110", "GEN-004"],
                          warn_input(now=now), warned(derived_token(created, "boot-7f3a", PLAN), created_at=created,
                                                      expires_at=expires), 0))
    for name, ident, shows in VALID_IDS:
        cases.append(case(f"warn.incarnation_{name}", f"an incarnation: {shows}", ["HND-101", "GEN-003"],
                          warn_input(incarnation=ident),
                          warned(derived_token(WARNED_AT, ident, PLAN), writer_incarnation=ident), 0))
    for name, ident, shows in INVALID_IDS:
        cases.append(invalid(f"warn.incarnation_{name}", f"an incarnation: {shows}", ["HND-101", "GEN-003"],
                             warn_input(incarnation=ident), "$.incarnation"))
    for name, now, wrong in BAD_TIMES:
        cases.append(invalid(f"warn.{name}", f"a time with {wrong} is invalid input", ["HND-101", "GEN-004"],
                             warn_input(now=now), "$.now"))
    token = "A" + "BCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:-"
    cases.append(case("warn.token_every_character", "a supplied token may use every character of the token alphabet",
                      ["HND-111"], warn_input(token=token), warned(token), 0))
    return cases


def warn_cases():
    token = derived_token(WARNED_AT, "boot-7f3a", PLAN)
    cases = probe_cases() + [
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
        case("warn.expiry_at_end_of_time", "an expiry at exactly 9999-12-31T23:59:59.999Z is written",
             ["HND-114", "HND-110"], warn_input(now="9999-12-31T23:54:59.999Z"),
             warned(derived_token("9999-12-31T23:54:59.999Z", "boot-7f3a", PLAN), created_at="9999-12-31T23:54:59.999Z",
                    expires_at="9999-12-31T23:59:59.999Z"), 0),
        case("warn.fraction_truncated", "a fraction past milliseconds is cut off, never rounded", ["HND-103", "GEN-021"],
             warn_input(now="2026-05-04T10:00:00.9999Z"),
             warned(derived_token("2026-05-04T10:00:00.999Z", "boot-7f3a", PLAN), created_at="2026-05-04T10:00:00.999Z",
                    expires_at="2026-05-04T10:05:00.999Z"), 0),
        case("warn.lowercase_separators", "a lowercase t and z, and a space, are read as T and Z", ["HND-110", "GEN-004"],
             warn_input(now="2026-05-04 10:00:00z"), warned(token), 0),
        case("warn.offset_crosses_day", "an offset that moves the time into the previous day and month",
             ["HND-110", "GEN-004"], warn_input(now="2026-03-01T01:30:00+02:00"),
             warned(derived_token("2026-02-28T23:30:00.000Z", "boot-7f3a", PLAN), created_at="2026-02-28T23:30:00.000Z",
                    expires_at="2026-02-28T23:35:00.000Z"), 0),
        case("warn.negative_offset_crosses_year", "a negative offset that moves the time into the next year",
             ["HND-110", "GEN-004"], warn_input(now="2024-12-31T23:30:00-00:45"),
             warned(derived_token("2025-01-01T00:15:00.000Z", "boot-7f3a", PLAN), created_at="2025-01-01T00:15:00.000Z",
                    expires_at="2025-01-01T00:20:00.000Z"), 0),
        case("warn.leap_day", "29 February of a leap year exists", ["HND-110", "GEN-004"],
             warn_input(now="2000-02-29T23:58:00Z"),
             warned(derived_token("2000-02-29T23:58:00.000Z", "boot-7f3a", PLAN), created_at="2000-02-29T23:58:00.000Z",
                    expires_at="2000-03-01T00:03:00.000Z"), 0),
        case("warn.year_one", "the first instant of year 0001 is a time", ["HND-110", "GEN-020"],
             warn_input(now="0001-01-01T00:00:00Z"),
             warned(derived_token("0001-01-01T00:00:00.000Z", "boot-7f3a", PLAN), created_at="0001-01-01T00:00:00.000Z",
                    expires_at="0001-01-01T00:05:00.000Z"), 0),
        case("warn.ttl_bounds", "a pending time to live of 3,600,000 is the longest allowed", ["HND-110"],
             warn_input(pending_ttl_ms=3_600_000), warned(token, expires_at="2026-05-04T11:00:00.000Z"), 0),
        case("warn.ttl_one", "a pending time to live of 1 is the shortest allowed", ["HND-110"],
             warn_input(pending_ttl_ms=1), warned(token, expires_at="2026-05-04T10:00:00.001Z"), 0),
        case("warn.ttl_written_as_float", "a pending time to live written 60000.0 is the integer 60000",
             ["HND-103", "GEN-018"], warn_input(pending_ttl_ms=60000.0),
             warned(token, expires_at="2026-05-04T10:01:00.000Z"), 0),
        case("warn.ttl_null", "a pending time to live of null takes the default", ["HND-102"],
             warn_input(pending_ttl_ms=None), warned(token), 0),
        case("warn.token_null", "a token of null is derived", ["HND-102", "HND-111"], warn_input(token=None), warned(token), 0),
        case("warn.token_bounds", "a supplied token of 128 characters is used as given", ["HND-111"],
             warn_input(token="t" * 128), warned("t" * 128), 0),
        case("warn.token_eight", "a supplied token of 8 characters is used as given", ["HND-111"],
             warn_input(token="tok-1234"), warned("tok-1234"), 0),
        case("warn.reason_astral", "a reason of 500 characters outside the BMP is within 500 characters",
             ["HND-103", "GEN-016"], warn_input(plan={**PLAN, "reason": "\U0001F600" * 500}),
             warned(derived_token(WARNED_AT, "boot-7f3a", {**PLAN, "reason": "\U0001F600" * 500}),
                    plan={**PLAN, "reason": "\U0001F600" * 500}), 0),
        case("warn.reason_at_bound", "a reason of exactly 500 characters", ["HND-110"],
             warn_input(plan={**PLAN, "reason": "r" * 500}),
             warned(derived_token(WARNED_AT, "boot-7f3a", {**PLAN, "reason": "r" * 500}),
                    plan={**PLAN, "reason": "r" * 500}), 0),
        case("warn.reason_next_line", "the character U+0085 is not white space: a reason of it alone is not blank",
             ["HND-103", "GEN-017"], warn_input(plan={**PLAN, "reason": "\x85"}),
             warned(derived_token(WARNED_AT, "boot-7f3a", {**PLAN, "reason": "\x85"}),
                    plan={**PLAN, "reason": "\x85"}), 0),
        case("warn.prompt_at_bound", "a continue prompt of exactly 16,384 characters", ["HND-110"],
             warn_input(plan={**PLAN, "continue_prompt": "p" * 16384}),
             warned(derived_token(WARNED_AT, "boot-7f3a", {**PLAN, "continue_prompt": "p" * 16384}),
                    plan={**PLAN, "continue_prompt": "p" * 16384}), 0),
        case("warn.requester_at_bound", "a requesting session id of 512 characters", ["HND-110", "GEN-003"],
             warn_input(plan={**PLAN, "requested_by": "s" * 512}),
             warned(derived_token(WARNED_AT, "boot-7f3a", {**PLAN, "requested_by": "s" * 512}),
                    plan={**PLAN, "requested_by": "s" * 512}), 0),
    ]
    bad = [
        ("plan_missing", "a warning without a plan", warn_input(plan=None), "$.plan"),
        ("plan_extra", "a plan with a member the plan does not have", warn_input(plan={**PLAN, "sessions": []}),
         "$.plan.sessions"),
        ("plan_not_object", "a plan that is a string", warn_input(plan="restart"), "$.plan"),
        ("plan_reason_missing", "a plan without a reason", warn_input(plan={"requested_by": "ses-main",
                                                                           "continue_prompt": "go on"}), "$.plan.reason"),
        ("plan_prompt_missing", "a plan without a continue prompt", warn_input(plan={"requested_by": "ses-main",
                                                                                    "reason": "why"}),
         "$.plan.continue_prompt"),
        ("plan_requester_missing", "a plan without a requester", warn_input(plan={"reason": "why", "continue_prompt": "go"}),
         "$.plan.requested_by"),
        ("reason_newline", "a reason spanning two lines", warn_input(plan={**PLAN, "reason": "a\nb"}), "$.plan.reason"),
        ("reason_tab", "a reason holding a tab", warn_input(plan={**PLAN, "reason": "a\tb"}), "$.plan.reason"),
        ("reason_too_long", "a reason of 501 characters", warn_input(plan={**PLAN, "reason": "r" * 501}), "$.plan.reason"),
        ("reason_number", "a reason that is a number", warn_input(plan={**PLAN, "reason": 5}), "$.plan.reason"),
        ("reason_delete", "a reason holding the DEL control character", warn_input(plan={**PLAN, "reason": "a\x7fb"}),
         "$.plan.reason"),
        ("reason_unit_separator", "a reason holding U+001F", warn_input(plan={**PLAN, "reason": "a\x1fb"}),
         "$.plan.reason"),
        ("reason_empty", "an empty reason", warn_input(plan={**PLAN, "reason": ""}), "$.plan.reason"),
        ("reason_bom_only", "a reason of one U+FEFF, which is white space", warn_input(plan={**PLAN, "reason": "\ufeff"}),
         "$.plan.reason"),
        ("reason_lone_surrogate", "a reason holding a lone surrogate", warn_input(plan={**PLAN, "reason": "a\ud800"}),
         "$.plan.reason"),
        ("prompt_blank", "a blank continue prompt", warn_input(plan={**PLAN, "continue_prompt": " \n "}),
         "$.plan.continue_prompt"),
        ("prompt_too_long", "a continue prompt of 16,385 characters", warn_input(plan={**PLAN, "continue_prompt": "p" * 16385}),
         "$.plan.continue_prompt"),
        ("prompt_carriage_return", "a continue prompt holding a carriage return",
         warn_input(plan={**PLAN, "continue_prompt": "a\r\nb"}), "$.plan.continue_prompt"),
        ("requester_blank", "a blank requesting session", warn_input(plan={**PLAN, "requested_by": " "}),
         "$.plan.requested_by"),
        ("requester_c1", "a requesting session holding the C1 control U+0085", warn_input(plan={**PLAN, "requested_by": "a\x85"}),
         "$.plan.requested_by"),
        ("requester_too_long", "a requesting session id of 513 characters", warn_input(plan={**PLAN, "requested_by": "s" * 513}),
         "$.plan.requested_by"),
        ("token_too_long", "a supplied token of 129 characters", warn_input(token="t" * 129), "$.token"),
        ("token_first_dot", "a supplied token starting with a dot", warn_input(token=".tok-12345678"), "$.token"),
        ("token_number", "a supplied token that is a number", warn_input(token=12345678), "$.token"),
        ("ttl_fraction", "a pending time to live of 1.5", warn_input(pending_ttl_ms=1.5), "$.pending_ttl_ms"),
        ("ttl_true", "a pending time to live of true", warn_input(pending_ttl_ms=True), "$.pending_ttl_ms"),
        ("now_non_digit", "a time with a letter in its day", warn_input(now="2026-05-0xT10:00:00Z"), "$.now"),
        ("now_fullwidth", "a time written with fullwidth digits", warn_input(now="２０２６-05-04T10:00:00Z"), "$.now"),
        ("now_day_32", "a time on day 32", warn_input(now="2026-01-32T10:00:00Z"), "$.now"),
        ("now_month_13", "a time in month 13", warn_input(now="2026-13-04T10:00:00Z"), "$.now"),
        ("now_hour_24", "a time at hour 24", warn_input(now="2026-05-04T24:00:00Z"), "$.now"),
        ("now_feb_29_common", "29 February of a common year", warn_input(now="2100-02-29T10:00:00Z"), "$.now"),
        ("now_year_zero", "a time in year 0000", warn_input(now="0000-01-01T00:00:00Z"), "$.now"),
        ("now_before_year_one", "a time whose offset puts it before year 0001", warn_input(now="0001-01-01T00:30:00+01:00"),
         "$.now"),
        ("now_after_9999", "a time whose offset puts it after year 9999", warn_input(now="9999-12-31T23:30:00-01:00"),
         "$.now"),
        ("now_offset_seconds", "an offset with seconds", warn_input(now="2026-05-04T10:00:00+02:00:00"), "$.now"),
        ("now_offset_compact", "an offset without its colon", warn_input(now="2026-05-04T12:00:00+0200"), "$.now"),
        ("now_offset_hour_24", "an offset of 24 hours", warn_input(now="2026-05-04T10:00:00+24:00"), "$.now"),
        ("now_offset_minute_60", "an offset of 60 minutes", warn_input(now="2026-05-04T10:00:00+01:60"), "$.now"),
        ("now_empty_fraction", "a dot without fraction digits", warn_input(now="2026-05-04T10:00:00.Z"), "$.now"),
        ("now_separator", "a date and time joined by an underscore", warn_input(now="2026-05-04_10:00:00Z"), "$.now"),
        ("now_too_long", "a time with a fraction of 60 digits", warn_input(now="2026-05-04T10:00:00." + "0" * 60 + "Z"),
         "$.now"),
        ("now_number", "a time given as epoch milliseconds", warn_input(now=1777888800000), "$.now"),
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
        ("incarnation_too_long", "an incarnation of 513 characters", warn_input(incarnation="b" * 513), "$.incarnation"),
        ("incarnation_c1", "an incarnation holding U+009F", warn_input(incarnation="boot\x9f"), "$.incarnation"),
        ("incarnation_delete", "an incarnation holding U+007F", warn_input(incarnation="boot\x7f"), "$.incarnation"),
        ("incarnation_blank", "an incarnation of white space and U+FEFF", warn_input(incarnation=" \ufeff"), "$.incarnation"),
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
                confirm_input(pending=pending(passdown_version="2.0")), "confirm", "pending_malformed"),
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
        case("confirm.subagents_null", "subagents of null are no subagents", ["HND-102", "HND-128"],
             confirm_input(subagents=None), confirmed(subagents=[]), 0),
        case("confirm.ttl_bounds", "a handoff time to live of 86,400,000 is the longest allowed", ["HND-128"],
             confirm_input(handoff_ttl_ms=86_400_000), confirmed(ttl_ms=86_400_000), 0),
        case("confirm.ttl_one", "a handoff time to live of 1 is the shortest allowed", ["HND-128"],
             confirm_input(handoff_ttl_ms=1), confirmed(ttl_ms=1), 0),
        case("confirm.ttl_written_as_float", "a handoff time to live written 6e4 is written back as 60000",
             ["HND-103", "GEN-018"], confirm_input(handoff_ttl_ms=6e4), confirmed(ttl_ms=60_000), 0),
        case("confirm.at_expiry_truncated", "a confirmation at 10:05:00.0009 is at 10:05:00.000, still in time",
             ["HND-103", "HND-125", "GEN-021"], confirm_input(now="2026-05-04T10:05:00.0009Z"),
             {"outcome": "confirmed", "op": "confirm",
              "record": record(created_at="2026-05-04T10:05:00.000Z"),
              "pending": pending(spent_at="2026-05-04T10:05:00.000Z")}, 0),
        case("confirm.expiry_with_offset", "a pending expiry written with an offset is compared as an instant", ["HND-125"],
             confirm_input(pending=pending(expires_at="2026-05-04T12:05:00+02:00"), now="2026-05-04T10:04:59Z"),
             {"outcome": "confirmed", "op": "confirm", "record": record(created_at="2026-05-04T10:04:59.000Z"),
              "pending": pending(expires_at="2026-05-04T12:05:00+02:00", spent_at="2026-05-04T10:04:59.000Z")}, 0),
        case("confirm.thousand_sessions", "1,000 running sessions are the most a record holds", ["HND-128"],
             confirm_input(sessions=[{"id": "ses-main"}] + [{"id": f"s{i}"} for i in range(999)], subagents=[]),
             confirmed(sessions=[{"id": "ses-main"}] + [{"id": f"s{i}"} for i in range(999)], subagents=[]), 0),
        case("confirm.subagent_chain", "a subagent may be the parent of another", ["HND-128", "HND-005"],
             confirm_input(subagents=[{"id": "a2", "parent_id": "a1"}, {"id": "a1", "parent_id": "ses-main"}]),
             confirmed(subagents=[{"id": "a2", "parent_id": "a1"}, {"id": "a1", "parent_id": "ses-main"}]), 0),
        refused("confirm.order_malformed_before_mismatch", "a malformed pending record is answered before a wrong token",
                ["HND-120", "HND-122"], confirm_input(pending=pending(kind="handoff"), token="hp-ffffffffffffffff"),
                "confirm", "pending_malformed"),
        refused("confirm.order_expired_before_incarnation", "an expired warning of another process is refused as expired",
                ["HND-120", "HND-125"], confirm_input(now="2026-05-04T10:05:00.001Z", incarnation="boot-8c1d"),
                "confirm", "token_expired"),
        refused("confirm.order_refusal_before_sessions", "a spent token is refused before the sessions' rules are judged",
                ["HND-120", "HND-129"], confirm_input(pending=pending(spent_at=CONFIRMED_AT), sessions=[{"id": "ses-docs"}],
                                                      subagents=[]), "confirm", "token_spent"),
        refused("confirm.pending_spent_bad_day", "a pending record spent on 30 February is malformed", ["HND-122", "HND-024"],
                confirm_input(pending=pending(spent_at="2026-02-30T10:00:00.000Z")), "confirm", "pending_malformed"),
        refused("confirm.pending_expiry_bad_day", "a pending record expiring on 31 June is malformed", ["HND-122", "HND-024"],
                confirm_input(pending=pending(expires_at="2026-06-31T10:00:00.000Z")), "confirm", "pending_malformed"),
        refused("confirm.pending_expires_before_created",
                "a pending record that expires before it was created is malformed, though now is before both",
                ["HND-122", "HND-021"],
                confirm_input(now="2026-05-04T09:59:00Z",
                              pending=pending(created_at="2026-05-04T10:05:00.000Z",
                                              expires_at="2026-05-04T10:00:00.000Z")),
                "confirm", "pending_malformed"),
        refused("confirm.pending_expires_when_created",
                "a pending record that expires the millisecond it was created is malformed",
                ["HND-122", "HND-021"],
                confirm_input(now="2026-05-04T09:59:00Z",
                              pending=pending(created_at="2026-05-04T10:00:00.000Z",
                                              expires_at="2026-05-04T10:00:00.000Z")),
                "confirm", "pending_malformed"),
        refused("confirm.pending_leap_second", "a pending record created at a leap second is malformed", ["HND-122", "HND-024"],
                confirm_input(pending=pending(created_at="2016-12-31T23:59:60Z")), "confirm", "pending_malformed"),
        refused("confirm.pending_writer_blank", "a pending record with a blank writer is malformed", ["HND-122"],
                confirm_input(pending=pending(writer_incarnation=" ")), "confirm", "pending_malformed"),
        refused("confirm.pending_token_short", "a pending record with a seven-character token is malformed", ["HND-122"],
                confirm_input(pending=pending(token="tok-123"), token="tok-123"), "confirm", "pending_malformed"),
        refused("confirm.pending_plan_blank", "a pending record with a blank reason is malformed", ["HND-122"],
                confirm_input(pending=pending(plan={**PLAN, "reason": " "})), "confirm", "pending_malformed"),
        refused("confirm.pending_extra", "a pending record with a member its version does not have is malformed",
                ["HND-122", "VER-009"], confirm_input(pending=pending(note="n")), "confirm", "pending_malformed"),
        refused("confirm.pending_no_expiry", "a pending record without expires_at is malformed", ["HND-122"],
                confirm_input(pending={k: v for k, v in pending().items() if k != "expires_at"}), "confirm",
                "pending_malformed"),
        refused("confirm.pending_newer_minor", "a pending record of version 1.1 is refused", ["HND-122", "VER-004"],
                confirm_input(pending=pending(passdown_version="1.1")), "confirm", "pending_malformed"),
        refused("confirm.pending_array", "a pending record that is an array is malformed", ["HND-122"],
                confirm_input(pending=[]), "confirm", "pending_malformed"),
        refused("confirm.token_at_bound", "a confirming token of 1,024 characters that is not the warning's",
                ["HND-123"], confirm_input(token="t" * 1024), "confirm", "token_mismatch"),
        refused("confirm.order_mismatch_before_spent", "a wrong token is answered before a spent one", ["HND-120", "HND-123"],
                confirm_input(pending=pending(spent_at=CONFIRMED_AT), token="hp-ffffffffffffffff"), "confirm",
                "token_mismatch"),
    ]
    bad = [
        ("requester_not_running", "running sessions without the requester", confirm_input(sessions=[{"id": "ses-docs"}], subagents=[]),
         "$.sessions", ["HND-129", "HND-004"]),
        ("duplicate_running", "a running session listed twice", confirm_input(sessions=[{"id": "ses-main"}, {"id": "ses-main"}]),
         "$.sessions[1].id", ["HND-129", "HND-003"]),
        ("unknown_parent_second", "the second subagent under an unknown parent",
         confirm_input(subagents=[{"id": "a1", "parent_id": "ses-main"}, {"id": "a2", "parent_id": "ses-gone"}]),
         "$.subagents[1].parent_id", ["HND-129", "HND-005"]),
        ("session_not_object", "a running session that is a string", confirm_input(sessions=["ses-main"]),
         "$.sessions[0]", ["HND-101"]),
        ("session_id_missing", "a running session without an id", confirm_input(sessions=[{"id": "ses-main"}, {}]),
         "$.sessions[1].id", ["HND-101"]),
        ("session_id_blank", "a running session with a blank id", confirm_input(sessions=[{"id": "ses-main"}, {"id": "\u3000"}]),
         "$.sessions[1].id", ["HND-101"]),
        ("sessions_not_list", "running sessions given as an object", confirm_input(sessions={"id": "ses-main"}),
         "$.sessions", ["HND-101"]),
        ("sessions_too_many", "1,001 running sessions", confirm_input(sessions=[{"id": f"s{i}"} for i in range(1001)],
                                                                       subagents=[]),
         "$.sessions", ["HND-101"]),
        ("subagents_too_many", "1,001 subagents", confirm_input(subagents=[{"id": f"a{i}", "parent_id": "ses-main"}
                                                                           for i in range(1001)]),
         "$.subagents", ["HND-101"]),
        ("subagents_not_list", "subagents given as a string", confirm_input(subagents="none"), "$.subagents", ["HND-101"]),
        ("subagent_parent_missing", "a subagent without a parent", confirm_input(subagents=[{"id": "a1"}]),
         "$.subagents[0].parent_id", ["HND-101"]),
        ("subagent_extra", "a subagent with an extra member",
         confirm_input(subagents=[{"id": "a1", "parent_id": "ses-main", "model": "m"}]), "$.subagents[0].model", ["HND-101"]),
        ("token_too_long", "a confirming token of 1,025 characters", confirm_input(token="t" * 1025), "$.token", ["HND-101"]),
        ("ttl_too_long", "a handoff time to live over a day", confirm_input(handoff_ttl_ms=86_400_001), "$.handoff_ttl_ms",
         ["HND-101"]),
        ("ttl_zero", "a handoff time to live of 0", confirm_input(handoff_ttl_ms=0), "$.handoff_ttl_ms", ["HND-101"]),
        ("ttl_beyond_double", "a handoff time to live of 2^53", confirm_input(handoff_ttl_ms=2**53), "$.handoff_ttl_ms",
         ["HND-101", "GEN-018"]),
        ("now_bad_day", "a confirmation dated 31 April", confirm_input(now="2026-04-31T10:01:00Z"), "$.now", ["HND-101"]),
        ("incarnation_number", "an incarnation that is a number", confirm_input(incarnation=7), "$.incarnation", ["HND-101"]),
        ("first_problem_named", "a requester not running and an unknown parent: the requester is named",
         confirm_input(sessions=[{"id": "ses-docs"}], subagents=[{"id": "a1", "parent_id": "ses-gone"}]),
         "$.sessions", ["HND-129"]),
        ("duplicate_named_before_requester", "a repeated id and a requester not running: the repeated id",
         confirm_input(sessions=[{"id": "ses-docs"}, {"id": "ses-docs"}], subagents=[]),
         "$.sessions[1].id", ["HND-129"]),
        ("order_input_before_pending", "invalid sessions with no pending warning: the input is answered first",
         confirm_input(pending=None, sessions=[]), "$.sessions", ["HND-101", "HND-120"]),
        ("duplicate_session", "a subagent with a session's id", confirm_input(subagents=[{"id": "ses-docs", "parent_id": "ses-main"}]),
         "$.subagents[0].id", ["HND-129", "HND-003"]),
        ("unknown_parent", "a subagent under an unknown parent", confirm_input(subagents=[{"id": "a1", "parent_id": "ses-gone"}]),
         "$.subagents[0].parent_id", ["HND-129", "HND-005"]),
        ("cycle", "subagents that are each other's parents",
         confirm_input(subagents=[{"id": "a1", "parent_id": "a2"}, {"id": "a2", "parent_id": "a1"}]),
         "$.subagents", ["HND-129", "HND-006"]),
        ("sessions_empty", "an empty list of running sessions", confirm_input(sessions=[]), "$.sessions", ["HND-101"]),
        ("session_extra", "a running session with an extra member", confirm_input(sessions=[{"id": "ses-main", "model": "m"}]),
         "$.sessions[0].model", ["HND-101"]),
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
    abc = record(subagents=[{"id": "a", "parent_id": "ses-main"}, {"id": "b", "parent_id": "a"},
                            {"id": "c", "parent_id": "ses-main"}])
    deep = record(subagents=[{"id": "c", "parent_id": "b"}, {"id": "b", "parent_id": "a"},
                             {"id": "a", "parent_id": "ses-main"}])
    late = record(created_at="9999-12-31T23:50:00.000Z")
    ttl_one = record(ttl_ms=1)
    ttl_day = record(ttl_ms=86_400_000)
    lines = record(continue_prompt="Step 4:\n\trerun the tests")
    fine = record(created_at="2026-05-04T10:01:00.9999Z")
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
          replay_input(record(passdown_version="2.0")), "replay", "record_version"),
        r("replay.version_minor", "a record of a newer minor version is refused as a version", ["HND-145"],
          replay_input(record(passdown_version="1.1")), "replay", "record_version"),
        r("replay.version_before_shape", "another version is refused before its shape is judged", ["HND-140", "HND-145"],
          replay_input(text=json.dumps({"kind": "handoff", "passdown_version": "2.0", "sessions": "all"})),
          "replay", "record_version"),
        r("replay.digest_mismatch", "a record changed after its digest is refused", ["HND-146", "HND-008"],
          replay_input({**plain, "reason": "something else"}), "replay", "record_digest", detail="digest.mismatch"),
        r("replay.digest_malformed", "a blake3 digest of the wrong length is refused", ["HND-146"],
          replay_input({**plain, "digest": "blake3:abc"}), "replay", "record_digest", detail="digest.malformed"),
        r("replay.digest_unknown_algorithm", "a digest Passdown cannot compute is refused", ["HND-146"],
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
        r("replay.order_digest_before_consumed", "a consumed record changed after its digest is refused for its digest",
          ["HND-140", "HND-146"],
          replay_input({**plain, "reason": "changed",
                        "consumed": {"at": "2026-05-04T10:01:30.000Z", "by_incarnation": "boot-8c1d"}}),
          "replay", "record_digest", detail="digest.mismatch"),
        r("replay.order_consumed_before_expiry", "a consumed and expired record is refused as consumed", ["HND-140", "HND-147"],
          replay_input({**plain, "consumed": {"at": "2026-05-04T10:01:30.000Z", "by_incarnation": "boot-8c1d"}},
                       now="2026-05-05T10:00:00Z"), "replay", "record_consumed"),
        r("replay.order_expiry_before_incarnation", "an expired record of this process is refused as expired",
          ["HND-140", "HND-149"], replay_input(plain, now="2026-05-05T10:00:00Z", incarnation="boot-7f3a"),
          "replay", "record_expired"),
        case("replay.wake_order_passes", "a subagent whose parent woke earlier in the same pass wakes in that pass",
             ["HND-153", "HND-151"], replay_input(abc),
             replayed(abc, [woken("ses-main"), woken("ses-docs"), woken("a", "ses-main", "subagent"),
                            woken("b", "a", "subagent"), woken("c", "ses-main", "subagent")]), 0),
        case("replay.wake_order_deep", "a chain listed bottom-up takes one pass per level",
             ["HND-153", "HND-151"], replay_input(deep),
             replayed(deep, [woken("ses-main"), woken("ses-docs"), woken("a", "ses-main", "subagent"),
                             woken("b", "a", "subagent"), woken("c", "b", "subagent")]), 0),
        case("replay.ttl_written_as_float", "a time to live written 1800000.0 is read and written back as an integer",
             ["HND-151", "GEN-018"], replay_input(text=json.dumps(plain).replace('"ttl_ms": 1800000', '"ttl_ms": 1800000.0')),
             replayed(plain, plain_wake), 0),
        case("replay.end_after_9999", "a record whose end falls after year 9999 is compared, never written",
             ["HND-149", "GEN-020"], replay_input(late, now="9999-12-31T23:59:59.999Z"),
             replayed(late, plain_wake, at="9999-12-31T23:59:59.999Z"), 0),
        r("replay.past_size_bound", "a record of 256 KiB and one byte is malformed", ["HND-144"],
          replay_input(text=json.dumps(plain) + " " * (262145 - len(json.dumps(plain)))), "replay", "record_malformed"),
        case("replay.at_size_bound", "a record of exactly 256 KiB is read", ["HND-144", "HND-151"],
             replay_input(text=json.dumps(plain) + " " * (262144 - len(json.dumps(plain)))),
             replayed(plain, plain_wake), 0),
        case("replay.fraction_truncated", "a creation time of 10:01:00.9999 is 10:01:00.999, not in the future of it",
             ["HND-148", "GEN-021"], replay_input(fine, now="2026-05-04T10:01:00.999Z"),
             replayed(fine, plain_wake, at="2026-05-04T10:01:00.999Z"), 0),
        case("replay.max_ttl_bound", "a reader bound of 86,400,000 leaves the record's own time to live", ["HND-149"],
             replay_input(plain, max_ttl_ms=86_400_000), replayed(plain, plain_wake), 0),
        case("replay.max_ttl_null", "a reader bound of null takes the default", ["HND-102", "HND-149"],
             replay_input(plain, max_ttl_ms=None), replayed(plain, plain_wake), 0),
        case("replay.error_at_bound", "a read error of 1,024 characters is reported", ["HND-142"],
             replay_input(record_error="e" * 1024), {"outcome": "record_unreadable", "op": "replay"}, 1),
        case("replay.null_sources", "record members given as null count as absent", ["HND-102", "HND-141"],
             replay_input(record_text=None, record_base64=None, record_error=None),
             {"outcome": "record_missing", "op": "replay"}, 0),
        r("replay.at_reader_bound", "a record older than the reader's bound by one millisecond", ["HND-149"],
          replay_input(plain, max_ttl_ms=60_000, now="2026-05-04T10:02:00.001Z"), "replay", "record_expired"),
        r("replay.leap_second", "a record created at a leap second is malformed", ["HND-144", "HND-007"],
          replay_input(record(created_at="2016-12-31T23:59:60.000Z")), "replay", "record_malformed"),
        r("replay.created_year_zero", "a record created in year 0000 is malformed", ["HND-144", "HND-007"],
          replay_input(record(created_at="0000-12-31T10:01:00.000Z")), "replay", "record_malformed"),
        r("replay.consumed_bad_day", "a record consumed on 30 February is malformed", ["HND-144", "HND-007"],
          replay_input({**plain, "consumed": {"at": "2026-02-30T10:01:30.000Z", "by_incarnation": "boot-8c1d"}}),
          "replay", "record_malformed"),
        r("replay.consumed_extra", "a consumed marker with an extra member is malformed", ["HND-144"],
          replay_input({**plain, "consumed": {"at": "2026-05-04T10:01:30.000Z", "by_incarnation": "boot-8c1d", "x": 1}}),
          "replay", "record_malformed"),
        r("replay.consumed_by_blank", "a consumed marker with a blank incarnation is malformed", ["HND-144"],
          replay_input({**plain, "consumed": {"at": "2026-05-04T10:01:30.000Z", "by_incarnation": ""}}),
          "replay", "record_malformed"),
        r("replay.consumed_null", "a consumed marker of null is malformed", ["HND-144"],
          replay_input({**plain, "consumed": None}), "replay", "record_malformed"),
        r("replay.ttl_fraction", "a record with a time to live of 1.5 is malformed", ["HND-144", "GEN-018"],
          replay_input(text=json.dumps(plain).replace('"ttl_ms": 1800000', '"ttl_ms": 1.5')), "replay", "record_malformed"),
        r("replay.ttl_overflow", "a record with a time to live of 1e400 is malformed", ["HND-144", "GEN-019"],
          replay_input(text=json.dumps(plain).replace('"ttl_ms": 1800000', '"ttl_ms": 1e400')), "replay", "record_malformed"),
        r("replay.ttl_too_long", "a record with a time to live over a day is malformed", ["HND-144"],
          replay_input(record(ttl_ms=86_400_001)), "replay", "record_malformed"),
        r("replay.handoff_id_short", "a record whose id is seven characters is malformed", ["HND-144"],
          replay_input(record(handoff_id="hp-1234")), "replay", "record_malformed"),
        r("replay.writer_blank", "a record with a blank writer is malformed", ["HND-144"],
          replay_input(record(writer_incarnation="\u2028")), "replay", "record_malformed"),
        r("replay.requester_c1", "a record whose requester holds a C1 control is malformed", ["HND-144"],
          replay_input(record(requested_by="ses\x80", sessions=[{"id": "ses\x80"}], subagents=[])), "replay",
          "record_malformed"),
        r("replay.reason_blank", "a record with a reason of white space is malformed", ["HND-144"],
          replay_input(record(reason="\u00a0")), "replay", "record_malformed"),
        r("replay.prompt_too_long", "a record with a continue prompt of 16,385 characters is malformed", ["HND-144"],
          replay_input(record(continue_prompt="p" * 16385)), "replay", "record_malformed"),
        r("replay.sessions_empty", "a record with no sessions is malformed", ["HND-144"],
          replay_input(record(sessions=[], subagents=[])), "replay", "record_malformed"),
        r("replay.digest_empty_algorithm", "a digest with no algorithm is malformed", ["HND-144"],
          replay_input({**plain, "digest": ":" + "0" * 64}), "replay", "record_malformed"),
        r("replay.digest_upper_algorithm", "a digest whose algorithm is in capitals is malformed", ["HND-144"],
          replay_input({**plain, "digest": "BLAKE3:" + "0" * 64}), "replay", "record_malformed"),
        r("replay.digest_no_colon", "a digest without a colon is malformed", ["HND-144"],
          replay_input({**plain, "digest": "blake3" + "0" * 64}), "replay", "record_malformed"),
        r("replay.digest_too_long", "a digest of 1,025 characters is malformed", ["HND-144"],
          replay_input({**plain, "digest": "x:" + "0" * 1023}), "replay", "record_malformed"),
        r("replay.digest_number", "a digest that is a number is malformed", ["HND-144"],
          replay_input({**plain, "digest": 5}), "replay", "record_malformed"),
        r("replay.lone_surrogate", "record text holding a lone surrogate is malformed", ["HND-144", "GEN-016"],
          replay_input(record_text='{"kind": "handoff", "x": "\ud800"}'), "replay", "record_malformed"),
        r("replay.kind_missing", "a record without a kind is malformed before its version is read", ["HND-140", "HND-144"],
          replay_input(text=json.dumps({"passdown_version": "2.0"})), "replay", "record_malformed"),
        r("replay.version_missing", "a handoff without a version is refused as a version", ["HND-145"],
          replay_input(text=json.dumps({k: v for k, v in plain.items() if k != "passdown_version"})), "replay",
          "record_version"),
        r("replay.order_malformed_before_digest", "a malformed record with a wrong digest is refused as malformed",
          ["HND-140", "HND-144"], replay_input({**plain, "ttl_ms": 0}), "replay", "record_malformed"),
        r("replay.order_future_before_incarnation", "a record from the future of this process is refused as from the future",
          ["HND-140", "HND-148"], replay_input(plain, now="2026-05-04T10:00:00Z", incarnation="boot-7f3a"),
          "replay", "record_from_future"),
        r("replay.future_by_one_millisecond", "a record created one millisecond after now", ["HND-148"],
          replay_input(plain, now="2026-05-04T10:00:59.999Z"), "replay", "record_from_future"),
        case("replay.ttl_one", "a record with a time to live of 1 is replayed at its creation", ["HND-149", "HND-151"],
             replay_input(ttl_one, now=CONFIRMED_AT), replayed(ttl_one, plain_wake, at=CONFIRMED_AT), 0),
        case("replay.ttl_longest", "a record with a time to live of 86,400,000 is replayed", ["HND-149", "HND-151"],
             replay_input(ttl_day, max_ttl_ms=86_400_000, now="2026-05-05T10:01:00Z"),
             replayed(ttl_day, plain_wake, at="2026-05-05T10:01:00.000Z"), 0),
        case("replay.prompt_lines", "a record whose continue prompt holds a line feed and a tab is replayed",
             ["HND-151"], replay_input(lines), replayed(lines, plain_wake), 0),
        case("replay.digest_at_bound", "a digest of 1,024 characters is read, then refused as unknown",
             ["HND-146"], replay_input({**plain, "digest": "x:" + "0" * 1022}),
             {"outcome": "record_digest", "op": "replay", "detail": "digest.unknown_algorithm"}, 1),
        r("replay.digest_every_algorithm_character",
          "a digest whose algorithm uses every allowed character is read, and names an unknown algorithm",
          ["HND-146"], replay_input({**plain, "digest": "abcdefghijklmnopqrstuvwxyz0123456789+a.b_c-d:x"}), "replay",
          "record_digest", detail="digest.unknown_algorithm"),
        r("replay.digest_separators_in_a_row",
          "an algorithm with two separators in a row breaks the digest grammar: the record is malformed",
          ["HND-144"], replay_input({**plain, "digest": "abcdefghijklmnopqrstuvwxyz0123456789+._-:x"}), "replay",
          "record_malformed"),
        r("replay.reason_newline", "a record whose reason spans two lines is malformed", ["HND-144"],
          replay_input(record(reason="a\nb")), "replay", "record_malformed"),
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
        ("max_ttl_too_long", "a reader bound over a day", replay_input(max_ttl_ms=86_400_001), "$.max_ttl_ms"),
        ("error_number", "a read error that is a number", replay_input(record_error=13), "$.record_error"),
        ("base64_number", "record bytes that are a number", replay_input(record_base64=13), "$.record_base64"),
        ("base64_non_ascii", "record bytes holding a non-ASCII letter", replay_input(record_base64="é30="), "$.record_base64"),
        ("three_sources", "a record given as text, bytes and an error",
         replay_input(plain, record_base64="e30=", record_error="EIO"), "$.record_base64"),
        ("text_and_error", "a record given as text and as an error", replay_input(plain, record_error="EIO"),
         "$.record_error"),
        ("now_bad_day", "a replay dated 29 February 2026", replay_input(now="2026-02-29T10:00:00Z"), "$.now"),
        ("incarnation_blank", "a blank incarnation", replay_input(incarnation=""), "$.incarnation"),
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
        padded(case("input.at_size_bound", "an input of exactly 1 MiB is read", ["HND-101"],
                    json.dumps(replay_input()), {"outcome": "record_missing", "op": "replay"}, 0), 1024 * 1024),
        padded(invalid("input.past_size_bound", "an input of 1 MiB and one byte is invalid", ["HND-101"],
                       json.dumps(replay_input()), "$"), 1024 * 1024 + 1),
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
