"""The relaunch gate's cases about values and bounds (``conformance/cases/relaunch/values.json``):
identifiers, integers, timestamps and text read as spec/index.md says (GEN-016 to GEN-022),
each bound at its value and one past it, and pairs of checks that both fail. Every expected
answer is stated by hand from spec/gates/relaunch.md; the other relaunch files are written
by hand."""

import copy
import json

from gate_cases import case as _case
from gate_probes import INVALID_IDS, VALID_IDS, padded

#: The input of case relaunch.order.relaunch_when_every_guard_holds: every guard holds.
BASE = {
    "now": "2026-10-15T12:00:00Z",
    "seat": {"bound": True, "in_turn": False, "session_id": "sess-lead-7", "command": "claude",
             "session_started_at": "2026-10-15T06:00:00Z", "launch_dir": "/srv/work/lead",
             "home": "/home/owner"},
    "usage": {"source_proven": True, "transcript": "read", "context_tokens": 262144},
    "owner_last_write_at": "2026-10-15T11:30:00Z",
    "draft": "none",
    "launcher": {"under_shell": True, "command": "claude", "harness_pid": 4242, "session_id": "sess-lead-7"},
    "brief": {"asked_at": "2026-10-15T11:50:00Z", "answered_at": "2026-10-15T11:52:00Z"},
}
RELAUNCH = {"decision": "relaunch", "effects": "end_and_launch", "triggers": ["context_tokens"],
            "command": "claude", "signal_pid": 4242}
MAX_INPUT_BYTES = 65536


def given(**paths):
    """BASE with members changed: ``seat__launch_dir="/x"`` sets ``seat.launch_dir``; a value
    of ``...`` removes the member."""
    value = copy.deepcopy(BASE)
    for dotted, new in paths.items():
        *parents, last = dotted.split("__")
        node = value
        for part in parents:
            node = node.setdefault(part, {})
        if new is ...:
            node.pop(last, None)
        else:
            node[last] = new
    return value


def refused(code, **extra):
    return {"decision": "refuse", "code": code, "effects": "none", **extra}


def case(ident, description, requirements, given_value, output, exit_code):
    return _case("relaunch", ident, description, requirements, given_value, output, exit_code)


def invalid(ident, description, given_value, path, requirements=("RLN-001", "RLN-002", "RLN-039", "GEN-022")):
    return case(ident, description, list(requirements), given_value, refused("invalid_input", path=path), 2)


def relaunched(ident, description, requirements, given_value, **changes):
    return case(ident, description, requirements, given_value, {**RELAUNCH, **changes}, 0)


def at_timestamps(now, started, owner, asked, answered):
    return given(now=now, seat__session_started_at=started, owner_last_write_at=owner,
                 brief={"asked_at": asked, "answered_at": answered}, usage__context_tokens=1000)


def value_cases():
    long_dir = "/srv/" + "d" * 4091
    return [
        relaunched("values.session_id_at_bound", "a session id of 512 characters is an identifier",
                   ["RLN-001", "GEN-003"], given(seat__session_id="s" * 512, launcher__session_id="s" * 512)),
        relaunched("values.session_id_astral", "a session id of 512 characters outside the BMP is an identifier",
                   ["RLN-001", "GEN-016"],
                   given(seat__session_id="\U0001F600" * 512, launcher__session_id="\U0001F600" * 512)),
        invalid("values.session_id_too_long", "a session id of 513 characters is invalid input",
                given(seat__session_id="s" * 513, launcher__session_id="s" * 513), "$.seat.session_id"),
        invalid("values.command_c1", "a command holding the C1 control U+0085 is invalid input",
                given(seat__command="claude\x85"), "$.seat.command"),
        invalid("values.command_blank", "a command of U+FEFF alone is blank", given(seat__command="\ufeff"),
                "$.seat.command", ("RLN-001", "GEN-017")),
        relaunched("values.command_mongolian_separator", "a command of U+180E alone is not blank",
                   ["RLN-001", "GEN-017"], given(seat__command="\u180e", launcher__command="\u180e"),
                   command="\u180e"),
        invalid("values.session_id_lone_surrogate", "a session id holding a lone surrogate is invalid input",
                given(seat__session_id="sess\ud800"), "$.seat.session_id", ("RLN-001", "GEN-016")),
        invalid("values.launch_dir_c1", "a launch directory holding a C1 control is invalid input",
                given(seat__launch_dir="/srv/work\x9b"), "$.seat.launch_dir"),
        invalid("values.home_c1", "a home holding a C1 control is invalid input", given(seat__home="/home/o\x80"),
                "$.seat.home"),
        relaunched("values.launch_dir_at_bound", "a launch directory of 4,096 characters", ["RLN-001"],
                   given(seat__launch_dir=long_dir)),
        invalid("values.launch_dir_too_long", "a launch directory of 4,097 characters is invalid input",
                given(seat__launch_dir=long_dir + "d"), "$.seat.launch_dir"),
        invalid("values.home_too_long", "a home of 4,097 characters is invalid input",
                given(seat__home="/home/" + "h" * 4091), "$.seat.home"),
        relaunched("values.evidence_at_bound", "64 evidence strings are read", ["RLN-001"],
                   given(usage__evidence=["e"] * 64)),
        relaunched("values.evidence_item_at_bound", "an evidence string of 4,096 characters is read", ["RLN-001"],
                   given(usage__evidence=["e" * 4096])),
        invalid("values.evidence_too_many", "65 evidence strings are invalid input",
                given(usage__evidence=["e"] * 65), "$.usage.evidence"),
        invalid("values.evidence_too_long", "an evidence string of 4,097 characters is invalid input",
                given(usage__evidence=["e", "e" * 4097]), "$.usage.evidence[1]"),
        invalid("values.evidence_number", "an evidence entry that is a number is invalid input",
                given(usage__evidence=[7]), "$.usage.evidence[0]"),
        invalid("values.evidence_not_list", "evidence given as a string is invalid input",
                given(usage__evidence="none"), "$.usage.evidence"),
        relaunched("values.tokens_written_as_float", "a token count written 262144.0 is the integer 262144",
                   ["RLN-001", "GEN-018"], given(usage__context_tokens=262144.0)),
        invalid("values.tokens_beyond_double", "a token count of 2^53 is invalid input",
                given(usage__context_tokens=2**53), "$.usage.context_tokens", ("RLN-001", "GEN-018")),
        relaunched("values.pid_written_as_float", "a harness pid written 4242.0 is signalled as the integer 4242",
                   ["RLN-030", "RLN-039", "GEN-018"], given(launcher__harness_pid=4242.0)),
        relaunched("values.pid_one", "a harness pid of 1 is the smallest", ["RLN-030"], given(launcher__harness_pid=1),
                   signal_pid=1),
        invalid("values.pid_negative", "a harness pid of -1 is invalid input", given(launcher__harness_pid=-1),
                "$.launcher.harness_pid"),
        relaunched("values.token_budget_one", "a token budget of 1 is the smallest", ["RLN-004"],
                   given(settings={"budget": {"context_tokens": 1}})),
        invalid("values.age_budget_zero", "a session age budget of 0 is invalid input",
                given(settings={"budget": {"session_age_seconds": 0}}), "$.settings.budget.session_age_seconds"),
        invalid("values.budget_unknown", "a budget member the settings do not have is invalid input",
                given(settings={"budget": {"tokens": 1}}), "$.settings.budget.tokens"),
        invalid("values.budget_not_object", "a budget that is a number is invalid input",
                given(settings={"budget": 5}), "$.settings.budget"),
        invalid("values.idle_negative", "an owner idle setting of -1 is invalid input",
                given(settings={"owner_idle_seconds": -1}), "$.settings.owner_idle_seconds"),
        invalid("values.reply_fraction", "a reply window of 1.5 seconds is invalid input",
                given(settings={"brief_reply_seconds": 1.5}), "$.settings.brief_reply_seconds"),
        invalid("values.reask_string", "a re-ask interval given as a string is invalid input",
                given(settings={"brief_reask_seconds": "1h"}), "$.settings.brief_reask_seconds"),
        invalid("values.notice_null", "an owner notice setting of null is invalid input",
                given(settings={"owner_notice_seconds": None}), "$.settings.owner_notice_seconds"),
        invalid("values.lead_restarts_null", "lead_restarts of null is invalid input",
                given(settings={"lead_restarts": None}), "$.settings.lead_restarts"),
        invalid("values.settings_null", "settings of null is invalid input", given(settings=None), "$.settings"),
        relaunched("values.settings_empty", "empty settings take every default", ["RLN-004"], given(settings={})),
        invalid("values.receipt_missing_id", "an open receipt without its id is invalid input",
                given(open_receipt={"outcome": "uncertain"}), "$.open_receipt.receipt_id"),
        invalid("values.receipt_blank_id", "an open receipt with a blank id is invalid input",
                given(open_receipt={"receipt_id": " ", "outcome": "uncertain"}), "$.open_receipt.receipt_id"),
        invalid("values.receipt_not_object", "an open receipt that is a string is invalid input",
                given(open_receipt="rl-1"), "$.open_receipt"),
        invalid("values.seat_not_object", "a seat that is a list is invalid input", given(seat=[]), "$.seat"),
        invalid("values.seat_unknown_member", "a seat member the schema does not have is invalid input",
                given(seat__pane="p-3"), "$.seat.pane"),
        invalid("values.seat_unknown_member_quoted", "a member name that is not a plain name is quoted in the path",
                given(**{"seat__pane id": "p-3"}), '$.seat["pane id"]'),
        invalid("values.seat_unknown_member_digit", "a plain name may hold digits after its first character",
                given(seat__x1="p-3"), "$.seat.x1"),
        invalid("values.seat_unknown_member_every_name_character", "a plain name may use every name character",
                given(**{"seat___azAZ09bcdefghijklmnopqrstuvwxyBCDEFGHIJKLMNOPQRSTUVWXY12345678": 1}),
                "$.seat._azAZ09bcdefghijklmnopqrstuvwxyBCDEFGHIJKLMNOPQRSTUVWXY12345678"),
        invalid("values.seat_unknown_member_escaped", "a quote and a backslash in a member name are escaped",
                given(**{'seat__a"b\\c': 1}), '$.seat["a\\"b\\\\c"]'),
        invalid("values.usage_missing_tokens", "usage without its token count is invalid input",
                given(usage__context_tokens=...), "$.usage.context_tokens"),
        invalid("values.launcher_missing_pid", "a launcher without its harness pid is invalid input",
                given(launcher__harness_pid=...), "$.launcher.harness_pid"),
        invalid("values.launcher_shell_string", "under_shell given as a string is invalid input",
                given(launcher__under_shell="yes"), "$.launcher.under_shell"),
        invalid("values.launcher_session_blank", "a blank session reported by the harness is invalid input",
                given(launcher__session_id=""), "$.launcher.session_id"),
        invalid("values.launcher_command_number", "a launcher command that is a number is invalid input",
                given(launcher__command=5), "$.launcher.command"),
        invalid("values.in_turn_null", "in_turn of null is invalid input", given(seat__in_turn=None), "$.seat.in_turn"),
        invalid("values.source_proven_string", "source_proven given as a string is invalid input",
                given(usage__source_proven="true"), "$.usage.source_proven"),
        invalid("values.brief_not_object", "a brief that is a list is invalid input", given(brief=[]), "$.brief"),
        invalid("values.brief_missing_answer", "a brief without answered_at is invalid input",
                given(brief__answered_at=...), "$.brief.answered_at"),
        invalid("values.draft_null", "a draft state of null is invalid input", given(draft=None), "$.draft"),
        invalid("values.transcript_number", "a transcript state that is a number is invalid input",
                given(usage__transcript=1), "$.usage.transcript"),
    ]


def time_cases():
    bad = [
        ("now_non_digit", "now with a letter in its hour", "now", "2026-10-15T1x:00:00Z"),
        ("now_fullwidth", "now written with fullwidth digits", "now", "２０２６-10-15T12:00:00Z"),
        ("now_year_zero", "now in year 0000", "now", "0000-10-15T12:00:00Z"),
        ("now_feb_29_common", "now on 29 February 2100", "now", "2100-02-29T12:00:00Z"),
        ("now_no_offset", "now without an offset", "now", "2026-10-15T12:00:00"),
        ("now_compact_offset", "now with an offset without its colon", "now", "2026-10-15T14:00:00+0200"),
        ("now_after_9999", "now past year 9999 once its offset is applied", "now", "9999-12-31T23:30:00-01:00"),
        ("started_day_32", "a session start on day 32", "seat__session_started_at", "2026-10-32T06:00:00Z"),
        ("started_leap_second", "a session start at a leap second", "seat__session_started_at", "2016-12-31T23:59:60Z"),
        ("owner_month_13", "an owner write in month 13", "owner_last_write_at", "2026-13-15T11:30:00Z"),
        ("owner_minute_60", "an owner write at minute 60", "owner_last_write_at", "2026-10-15T11:60:00Z"),
        ("asked_hour_24", "a brief request at hour 24", "brief__asked_at", "2026-10-15T24:00:00Z"),
        ("answered_day_zero", "a brief answer on day 00", "brief__answered_at", "2026-10-00T11:52:00Z"),
        ("due_offset_hour_24", "a due time with an offset of 24 hours", "due_since", "2026-10-15T11:00:00+24:00"),
        ("due_number", "a due time given as a number", "due_since", 1760529600),
    ]
    cases = [invalid(f"time.{name}", f"{text} is invalid input", given(**{member: value}),
                     "$." + member.replace("__", "."), ("RLN-001", "RLN-002", "GEN-004"))
             for name, text, member, value in bad]
    cases += [
        relaunched("time.fraction_truncated", "an owner write at 11:45:00.0009 is 900 s before noon: idle",
                   ["RLN-005", "RLN-039", "GEN-021"], given(owner_last_write_at="2026-10-15T11:45:00.0009Z")),
        case("time.fraction_one_millisecond_short", "an owner write at 11:45:00.001 is 899.999 s before noon: active",
             ["RLN-026", "GEN-021"], given(owner_last_write_at="2026-10-15T11:45:00.001Z"), refused("owner_active"), 1),
        relaunched("time.age_across_month_end", "twelve hours from 28 February to 1 March make the seat due",
                   ["RLN-016", "GEN-004"],
                   at_timestamps("2026-03-01T00:00:00Z", "2026-02-28T12:00:00Z", "2026-02-28T23:30:00Z",
                                 "2026-02-28T23:50:00Z", "2026-02-28T23:52:00Z"), triggers=["session_age"]),
        relaunched("time.age_across_leap_day", "twelve hours from 28 February to 29 February 2024 make the seat due",
                   ["RLN-016", "GEN-004"],
                   at_timestamps("2024-02-29T00:00:00Z", "2024-02-28T12:00:00Z", "2024-02-28T23:30:00Z",
                                 "2024-02-28T23:50:00Z", "2024-02-28T23:52:00Z"), triggers=["session_age"]),
        relaunched("time.age_across_year_end", "twelve hours across the end of 2099 make the seat due",
                   ["RLN-016", "GEN-004"],
                   at_timestamps("2100-01-01T00:00:00Z", "2099-12-31T12:00:00Z", "2099-12-31T23:30:00Z",
                                 "2099-12-31T23:50:00Z", "2099-12-31T23:52:00Z"), triggers=["session_age"]),
        relaunched("time.age_across_2000", "twelve hours from 29 February 2000, a leap day, make the seat due",
                   ["RLN-016", "GEN-004"],
                   at_timestamps("2000-03-01T00:00:00+02:00", "2000-02-29T10:00:00Z", "2000-02-29T21:30:00Z",
                                 "2000-02-29T21:50:00Z", "2000-02-29T21:52:00Z"), triggers=["session_age"]),
        case("time.age_one_millisecond_short", "a session started 43,199.999 s ago is not due", ["RLN-018", "GEN-021"],
             at_timestamps("2026-03-01T00:00:00Z", "2026-02-28T12:00:00.001Z", "2026-02-28T23:30:00Z",
                           "2026-02-28T23:50:00Z", "2026-02-28T23:52:00Z"), refused("below_budget"), 1),
        relaunched("time.lowercase_and_space", "a lowercase z and a space separator are read", ["RLN-001", "GEN-004"],
                   given(now="2026-10-15 12:00:00z")),
        relaunched("time.year_one", "a session started in year 0001 is old enough", ["RLN-016", "GEN-020"],
                   given(seat__session_started_at="0001-01-01T00:00:00Z"), triggers=["context_tokens", "session_age"]),
    ]
    return cases


#: Owner writes well before noon, each a form of timestamp the gate reads (stated by hand).
OWNER_WRITES = (
    ("half_hour_offset", "2026-10-15T16:30:00+05:30", "an offset of +05:30"),
    ("largest_offset", "2026-10-16T11:29:00+23:59", "an offset of +23:59"),
    ("negative_minutes_offset", "2026-10-15T10:30:59-00:59", "an offset of -00:59"),
    ("one_fraction_digit", "2026-10-15T11:44:59.5Z", "a fraction of one digit"),
    ("sixty_four_characters", "2026-10-15T11:30:00." + "9" * 43 + "Z", "64 characters"),
    ("last_minute_and_second", "2026-10-15T11:44:59Z", "minute and second 59"),
)
BAD_WRITES = (
    ("leap_year_feb_30", "2024-02-30T11:30:00Z", "30 February of a leap year"),
    ("month_zero", "2026-00-15T11:30:00Z", "month 00"),
    ("year_zero_in_range", "0000-12-31T23:30:00-01:00", "year 0000, though its instant is in year 0001"),
    ("slashes", "2026/10/15T11:30:00Z", "a date with slashes"),
    ("underscore", "2026-10-15_11:30:00Z", "an underscore between date and time"),
    ("empty_fraction", "2026-10-15T11:30:00.Z", "a dot and no fraction digits"),
    ("offset_seconds", "2026-10-15T13:30:00+02:00:00", "an offset with seconds"),
    ("offset_minutes_60", "2026-10-15T12:30:00+01:60", "an offset of 60 minutes"),
    ("second_60", "2026-10-15T11:30:60Z", "second 60"),
    ("fraction_no_offset", "2026-10-15T11:30:00.123", "a fraction and no offset"),
)


def probe_cases():
    cases = []
    for name, ident, shows in VALID_IDS:
        cases.append(relaunched(f"probe.session_{name}", f"a session id: {shows}", ["RLN-039", "GEN-003"],
                                given(seat__session_id=ident, launcher__session_id=ident)))
    for name, ident, shows in INVALID_IDS:
        cases.append(invalid(f"probe.session_{name}", f"a session id: {shows}",
                             given(seat__session_id=ident, launcher__session_id=ident), "$.seat.session_id"))
    for name, when, shows in OWNER_WRITES:
        cases.append(relaunched(f"probe.owner_{name}", f"an owner write at {when} ({shows}) is idle long enough",
                                ["RLN-039", "GEN-004"], given(owner_last_write_at=when)))
    for name, when, wrong in BAD_WRITES:
        cases.append(invalid(f"probe.owner_{name}", f"an owner write with {wrong} is invalid input",
                             given(owner_last_write_at=when), "$.owner_last_write_at"))
    day = ["2026-10-15T06:00:00.001Z", "2026-10-15T05:30:00Z", "2026-10-15T05:50:00Z", "2026-10-15T05:52:00Z"]
    cases += [
        case("probe.age_across_midnight_short", "a session started 11:59:59.999 before, across midnight, is young",
             ["RLN-018", "GEN-021"], at_timestamps("2026-10-15T06:00:00Z", "2026-10-14T18:00:00.001Z", *day[1:]),
             refused("below_budget"), 1),
        case("probe.age_across_2100_short", "a session started 11:59:59.999 before, across 28 February 2100",
             ["RLN-018", "GEN-004"],
             at_timestamps("2100-03-01T00:00:00Z", "2100-02-28T12:00:00.001Z", "2100-02-28T23:30:00Z",
                           "2100-02-28T23:50:00Z", "2100-02-28T23:52:00Z"), refused("below_budget"), 1),
        case("probe.age_across_2000_short", "a session started 11:59:59.999 before, across 29 February 2000",
             ["RLN-018", "GEN-004"],
             at_timestamps("2000-03-01T00:00:00Z", "2000-02-29T12:00:00.001Z", "2000-02-29T23:30:00Z",
                           "2000-02-29T23:50:00Z", "2000-02-29T23:52:00Z"), refused("below_budget"), 1),
        case("probe.age_across_2024_short", "a session started 11:59:59.999 before, across 29 February 2024",
             ["RLN-018", "GEN-004"],
             at_timestamps("2024-03-01T00:00:00Z", "2024-02-29T12:00:00.001Z", "2024-02-29T23:30:00Z",
                           "2024-02-29T23:50:00Z", "2024-02-29T23:52:00Z"), refused("below_budget"), 1),
        relaunched("probe.age_with_mixed_offsets", "now with an offset and a start in UTC are twelve hours apart",
                   ["RLN-016", "GEN-004"],
                   at_timestamps("2026-10-15T17:30:00+05:30", "2026-10-15T00:00:00Z", "2026-10-15T11:30:00Z",
                                 "2026-10-15T11:50:00Z", "2026-10-15T11:52:00Z"), triggers=["session_age"]),
        relaunched("probe.start_at_end_of_time", "a start at 9999-12-31T23:59:59.999Z is in the future: young",
                   ["RLN-006", "GEN-020"], given(seat__session_started_at="9999-12-31T23:59:59.999Z")),
        case("probe.brief_spent_at_default_reask", "a brief kept exactly 3,600 s ago is spent: ask again",
             ["RLN-032", "RLN-004"], given(brief={"asked_at": "2026-10-15T10:55:00Z", "answered_at": "2026-10-15T11:00:00Z"}),
             {"decision": "ask_brief", "effects": "ask_brief", "triggers": ["context_tokens"]}, 0),
        relaunched("probe.brief_kept_within_default_reask", "a brief kept 3,599.999 s ago is still usable",
                   ["RLN-032", "RLN-004"],
                   given(brief={"asked_at": "2026-10-15T10:55:00Z", "answered_at": "2026-10-15T11:00:00.001Z"})),
        case("probe.fractions_of_two_lengths", "fractions of two and one digits are milliseconds: 899.9 s is active",
             ["RLN-026", "GEN-021"], given(now="2026-10-15T12:00:00.50Z", owner_last_write_at="2026-10-15T11:45:00.6Z"),
             refused("owner_active"), 1),
        case("probe.request_within_default_reply", "a request 599 s ago is within the default reply window",
             ["RLN-023", "RLN-004"], given(brief={"asked_at": "2026-10-15T11:50:01Z", "answered_at": None}),
             {"decision": "wait", "effects": "none", "triggers": ["context_tokens"]}, 0),
        case("probe.home_with_dotdot", "a home holding a .. segment is not provably a home", ["RLN-020"],
             given(seat__home="/home/../owner"),
             refused("trust_required", owner_action="set_workdir_outside_home_or_trust"), 1),
        case("probe.home_relative", "a relative home proves nothing", ["RLN-020"], given(seat__home="home/owner"),
             refused("trust_required", owner_action="set_workdir_outside_home_or_trust"), 1),
        case("probe.home_dot_segment", "a home with a . segment is the same home", ["RLN-020"],
             given(seat__home="/home/./owner", seat__launch_dir="/home/owner/work"),
             refused("trust_required", owner_action="set_workdir_outside_home_or_trust"), 1),
        relaunched("probe.home_at_bound", "a home of 4,096 characters", ["RLN-001"],
                   given(seat__home="/home/" + "h" * 4090)),
    ]
    return cases


def order_cases():
    return [
        case("order.draft_unreadable_before_ask", "an unreadable draft and no brief: the draft is answered",
             ["RLN-010", "RLN-028"], given(draft="unreadable", brief={"asked_at": None, "answered_at": None}),
             refused("draft_unreadable"), 1),
        case("order.owner_before_unreadable_draft", "an active owner and an unreadable draft: the owner is answered",
             ["RLN-010", "RLN-026"], given(draft="unreadable", owner_last_write_at="2026-10-15T11:59:00Z"),
             refused("owner_active"), 1),
        case("order.in_turn_before_unreadable_draft", "a seat in a turn with an unreadable draft: the turn is answered",
             ["RLN-010", "RLN-025"], given(draft="unreadable", seat__in_turn=True), refused("in_turn"), 1),
        case("order.invalid_before_receipt", "an open receipt with an invalid seat: the input is answered",
             ["RLN-010", "RLN-001"], given(open_receipt={"receipt_id": "rl-1", "outcome": "uncertain"},
                                           seat__bound="yes"), refused("invalid_input", path="$.seat.bound"), 2),
        case("order.changed_pid_before_wait", "a missing harness process during a pending request: changed agent",
             ["RLN-010", "RLN-022"], given(launcher__harness_pid=None,
                                           brief={"asked_at": "2026-10-15T11:55:00Z", "answered_at": None}),
             refused("changed_agent"), 1),
    ]


def size_cases():
    return [
        padded(relaunched("input.at_size_bound", "an input of exactly 65,536 bytes is read", ["RLN-001"],
                          json.dumps(BASE)), MAX_INPUT_BYTES),
        padded(case("input.past_size_bound", "an input of 65,537 bytes is invalid input", ["RLN-001", "RLN-002"],
                    json.dumps(BASE), refused("invalid_input", path="$"), 2), MAX_INPUT_BYTES + 1),
    ]


def relaunch_files():
    return {"values": {"gate": "relaunch",
                       "description": "values and bounds: identifiers, integers, timestamps and sizes; adjacent checks",
                       "cases": value_cases() + time_cases() + probe_cases() + order_cases()
                                + size_cases()}}
