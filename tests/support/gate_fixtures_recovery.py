"""The recovery gate's conformance cases. Every expected answer is stated by hand from
spec/gates/recovery.md."""

from gate_cases import case as _case
from gate_probes import INVALID_IDS, VALID_IDS, padded

NOW = 1_777_888_800_000  # 2026-05-04T10:00:00Z
MINUTE = 60_000
DEFAULT_BOUNDS = {"max_age_ms": 7_200_000, "max_sessions": 50, "mtime_slack_ms": 60_000}


def session(ident, *, ago=MINUTE, **fields):
    """A candidate whose last event was ``ago`` ms before NOW."""
    entry = {"id": ident, **fields}
    if ago is not None and "last_event_ms" not in fields:
        entry["last_event_ms"] = NOW - ago
    return entry


def ended(kind, cause=None, **extra):
    turn_end = {"kind": kind, **extra}
    if cause is not None:
        turn_end["cause"] = {"kind": cause}
    return turn_end


def up(ident, reason, parent=None):
    return {"id": ident, "parent_id": parent, "reason": reason}


def down(index, ident, reason):
    return {"index": index, "id": ident, "reason": reason}


def answer(recovered=(), left=(), bounds=None):
    return {
        "outcome": "recover" if recovered else "nothing_to_recover",
        "recovered": list(recovered),
        "left": list(left),
        "bounds": {**DEFAULT_BOUNDS, **(bounds or {})},
    }


def invalid(field):
    return {"outcome": "invalid_input", "field": field}


def case(ident, description, requirements, given, output, *, exit_code=0):
    return _case("recovery", ident, description, requirements, given, output, exit_code)


def one(candidate, **extra):
    return {"now_ms": NOW, "sessions": [candidate], **extra}


def single(ident, description, requirements, candidate, reason, *, recovered):
    """A store of one candidate, recovered or left down with ``reason``."""
    if recovered:
        output = answer([up(candidate["id"], reason, candidate.get("parent_id"))])
    else:
        output = answer(left=[down(0, candidate.get("id"), reason)])
    return case(ident, description, ["REC-010", "REC-070", *requirements], one(candidate), output)


def recovery_files():
    files = {}
    s = single
    files["criterion"] = {
        "gate": "recovery",
        "description": "every turn-end kind and abort cause, the torn log and the inbox rule",
        "cases": [
            s("criterion.torn_log", "a torn log comes back even when an earlier turn completed", ["REC-030"],
              session("a", torn_log=True, last_turn_end=ended("completed")), "torn_log", recovered=True),
            s("criterion.torn_without_end", "a torn log with no ended turn comes back", ["REC-030"],
              session("a", torn_log=True), "torn_log", recovered=True),
            s("criterion.interrupted", "an interrupted last turn comes back", ["REC-031"],
              session("a", last_turn_end=ended("interrupted")), "interrupted", recovered=True),
            s("criterion.aborted_disposed", "a turn aborted because the process was disposed comes back", ["REC-032"],
              session("a", last_turn_end=ended("aborted", "disposed")), "aborted_disposed", recovered=True),
            s("criterion.inbox_next_turn_count", "a queued next-turn prompt brings a completed session back", ["REC-033"],
              session("a", last_turn_end=ended("completed"), inbox={"next-turn": 1}), "inbox_pending", recovered=True),
            s("criterion.inbox_next_step_list", "a queued next-step prompt list brings a session back", ["REC-033"],
              session("a", last_turn_end=ended("error"), inbox={"next-step": ["run the tests"]}), "inbox_pending",
              recovered=True),
            s("criterion.inbox_after_user_abort", "queued work brings back even a session the human stopped", ["REC-033"],
              session("a", last_turn_end=ended("aborted", "user"), inbox={"next-turn": 2}), "inbox_pending",
              recovered=True),
            s("criterion.inbox_empty", "empty queues bring nothing back", ["REC-033", "REC-035"],
              session("a", last_turn_end=ended("completed"), inbox={"next-turn": 0, "next-step": []}), "completed",
              recovered=False),
            s("criterion.no_turn", "a log without any ended turn stays down", ["REC-034"],
              session("a"), "no_turn", recovered=False),
            s("criterion.no_turn_null", "a null last turn end with no torn tail stays down", ["REC-034"],
              session("a", last_turn_end=None, torn_log=False), "no_turn", recovered=False),
            s("criterion.completed", "a completed last turn stays down", ["REC-035"],
              session("a", last_turn_end=ended("completed")), "completed", recovered=False),
            s("criterion.aborted_user", "a turn the human aborted stays down", ["REC-036"],
              session("a", last_turn_end=ended("aborted", "user")), "aborted_by_user", recovered=False),
            s("criterion.aborted_parent", "a turn its parent cancelled stays down", ["REC-037"],
              session("a", last_turn_end=ended("aborted", "parent")), "aborted_by_parent", recovered=False),
            s("criterion.aborted_hook", "a turn a hook stopped stays down", ["REC-038"],
              session("a", last_turn_end={"kind": "aborted", "cause": {"kind": "hook", "reason": "budget"}}),
              "aborted_by_hook", recovered=False),
            s("criterion.aborted_legacy", "an imported log's legacy abort stays down", ["REC-039"],
              session("a", last_turn_end=ended("aborted", "legacy")), "aborted_legacy", recovered=False),
            s("criterion.aborted_no_cause", "an abort without a cause stays down", ["REC-040"],
              session("a", last_turn_end=ended("aborted")), "aborted_cause_unknown", recovered=False),
            s("criterion.aborted_cause_string", "an abort whose cause is a string stays down", ["REC-040"],
              session("a", last_turn_end={"kind": "aborted", "cause": "disposed"}), "aborted_cause_unknown",
              recovered=False),
            s("criterion.aborted_cause_unknown_kind", "an abort with an unknown cause kind stays down", ["REC-040"],
              session("a", last_turn_end=ended("aborted", "timeout")), "aborted_cause_unknown", recovered=False),
            s("criterion.aborted_reason_member", "the harness's own reason member must be passed as cause", ["REC-040"],
              session("a", last_turn_end={"kind": "aborted", "reason": {"kind": "disposed"}}),
              "aborted_cause_unknown", recovered=False),
            s("criterion.blocked", "a policy stop stays down", ["REC-041"],
              session("a", last_turn_end=ended("blocked")), "blocked", recovered=False),
            s("criterion.error", "an error stays down, whatever the error", ["REC-042"],
              session("a", last_turn_end=ended("error", error={"message": "overloaded", "code": 529})), "error",
              recovered=False),
            s("criterion.max_tokens", "a turn that hit its output limit stays down", ["REC-043"],
              session("a", last_turn_end=ended("max-tokens")), "max_tokens", recovered=False),
            s("criterion.forked", "a fork seed stays down", ["REC-044"],
              session("a", last_turn_end=ended("forked")), "forked", recovered=False),
            s("criterion.unknown_kind", "an unknown turn-end kind stays down", ["REC-045"],
              session("a", last_turn_end=ended("paused")), "unknown_turn_end", recovered=False),
            s("criterion.cause_ignored_unless_aborted", "a cause on a completed turn changes nothing", ["REC-035"],
              session("a", last_turn_end=ended("completed", "disposed")), "completed", recovered=False),
        ],
    }
    files["age"] = {
        "gate": "recovery",
        "description": "the age bound: last event time, unknown ages, the modification-time pre-filter",
        "cases": [
            s("age.too_old", "a last event one millisecond past the maximum age stays down", ["REC-020"],
              session("a", ago=7_200_001, last_turn_end=ended("interrupted")), "too_old", recovered=False),
            s("age.exactly_max", "a last event exactly the maximum age old still comes back", ["REC-020"],
              session("a", ago=7_200_000, last_turn_end=ended("interrupted")), "interrupted", recovered=True),
            s("age.old_inbox", "queued work older than the maximum age stays down", ["REC-020", "REC-033"],
              session("a", ago=10_000_000, inbox={"next-turn": 1}), "too_old", recovered=False),
            s("age.unknown", "a session without a last event time stays down", ["REC-021"],
              session("a", ago=None, last_turn_end=ended("interrupted")), "age_unknown", recovered=False),
            s("age.null", "a null last event time is unknown", ["REC-021"],
              session("a", ago=None, last_event_ms=None, torn_log=True), "age_unknown", recovered=False),
            s("age.future", "a last event after now cannot be measured", ["REC-021"],
              session("a", ago=None, last_event_ms=NOW + 1, torn_log=True), "age_unknown", recovered=False),
            s("age.stale_by_mtime", "an unread log modified long ago is stale by its modification time", ["REC-022"],
              session("a", ago=None, log_mtime_ms=NOW - 7_260_001), "stale_by_mtime", recovered=False),
            s("age.mtime_within_slack", "a modification time within the slack leaves the age unknown", ["REC-021", "REC-022"],
              session("a", ago=None, log_mtime_ms=NOW - 7_260_000), "age_unknown", recovered=False),
            s("age.last_event_wins", "a fresh last event decides even when the modification time is stale", ["REC-024"],
              session("a", last_turn_end=ended("interrupted"), log_mtime_ms=NOW - 99_000_000), "interrupted",
              recovered=True),
            case("age.custom_bound", "a smaller maximum age applies to the last event", ["REC-020", "REC-070"],
                 {"now_ms": NOW, "bounds": {"max_age_ms": 30_000},
                  "sessions": [session("a", last_turn_end=ended("interrupted"))]},
                 answer(left=[down(0, "a", "too_old")], bounds={"max_age_ms": 30_000})),
            case("age.checked_before_criterion", "an old completed session is reported as too old", ["REC-010", "REC-020"],
                 one(session("a", ago=9_000_000, last_turn_end=ended("completed"))),
                 answer(left=[down(0, "a", "too_old")])),
        ],
    }
    files["identity"] = {
        "gate": "recovery",
        "description": "repeated ids and sessions that are already live",
        "cases": [
            case("identity.duplicate_id", "two candidates with one id both stay down", ["REC-011"],
                 {"now_ms": NOW, "sessions": [session("a", torn_log=True), session("b", torn_log=True),
                                               session("a", last_turn_end=ended("interrupted"))]},
                 answer([up("b", "torn_log")], [down(0, "a", "duplicate_id"), down(2, "a", "duplicate_id")])),
            case("identity.already_live", "a session already live is never woken again", ["REC-012"],
                 {"now_ms": NOW, "live_session_ids": ["a"], "sessions": [session("a", torn_log=True)]},
                 answer(left=[down(0, "a", "already_live")])),
            case("identity.order_duplicate_before_live", "two records of a live session are both duplicates",
                 ["REC-010", "REC-011"],
                 {"now_ms": NOW, "live_session_ids": ["a"],
                  "sessions": [session("a", torn_log=True), session("a", torn_log=True)]},
                 answer(left=[down(0, "a", "duplicate_id"), down(1, "a", "duplicate_id")])),
            case("identity.order_live_before_age", "a live session too old to recover is left down as live",
                 ["REC-010", "REC-012"],
                 {"now_ms": NOW, "live_session_ids": ["a"], "sessions": [session("a", ago=None, torn_log=True)]},
                 answer(left=[down(0, "a", "already_live")])),
            case("identity.invalid_twin_is_not_a_duplicate", "an invalid entry does not make a valid one a duplicate",
                 ["REC-002", "REC-011"],
                 {"now_ms": NOW, "sessions": [session("a", torn_log=True), {"id": "a", "torn_log": "yes"}]},
                 answer([up("a", "torn_log")], [down(1, "a", "invalid_session")])),
        ],
    }
    files["parents"] = {
        "gate": "recovery",
        "description": "subagents come back only under a live or recovered parent, top-down",
        "cases": [
            case("parents.parent_first", "a child newer than its parent is woken after it", ["REC-050", "REC-061"],
                 {"now_ms": NOW, "sessions": [
                     session("child", parent_id="root", ago=MINUTE, last_turn_end=ended("interrupted")),
                     session("root", ago=5 * MINUTE, last_turn_end=ended("aborted", "disposed"))]},
                 answer([up("root", "aborted_disposed"), up("child", "interrupted", "root")])),
            case("parents.live_parent", "a child under a live parent comes back alone", ["REC-050"],
                 {"now_ms": NOW, "live_session_ids": ["root"], "sessions": [
                     session("child", parent_id="root", torn_log=True)]},
                 answer([up("child", "torn_log", "root")])),
            case("parents.parent_completed", "a child whose parent completed and is not live stays down", ["REC-050", "REC-035"],
                 {"now_ms": NOW, "sessions": [
                     session("root", last_turn_end=ended("completed")),
                     session("child", parent_id="root", torn_log=True)]},
                 answer(left=[down(0, "root", "completed"), down(1, "child", "parent_not_live")])),
            case("parents.parent_absent", "a child whose parent is not among the candidates stays down", ["REC-050"],
                 one(session("child", parent_id="gone", torn_log=True)),
                 answer(left=[down(0, "child", "parent_not_live")])),
            case("parents.grandchild_chain", "a grandchild comes back after its parent and grandparent", ["REC-050", "REC-060", "REC-061"],
                 {"now_ms": NOW, "sessions": [
                     session("g", parent_id="p", ago=MINUTE, torn_log=True),
                     session("p", parent_id="r", ago=3 * MINUTE, torn_log=True),
                     session("r", ago=2 * MINUTE, torn_log=True)]},
                 answer([up("r", "torn_log"), up("p", "torn_log", "r"), up("g", "torn_log", "p")])),
            case("parents.broken_chain", "a grandchild whose grandparent stays down stays down too", ["REC-050"],
                 {"now_ms": NOW, "sessions": [
                     session("g", parent_id="p", torn_log=True),
                     session("p", parent_id="r", torn_log=True),
                     session("r", last_turn_end=ended("aborted", "user"))]},
                 answer(left=[down(0, "g", "parent_not_live"), down(1, "p", "parent_not_live"),
                              down(2, "r", "aborted_by_user")])),
            case("parents.chain_reaches_live", "an ancestor chain may end at a live session", ["REC-050"],
                 {"now_ms": NOW, "live_session_ids": ["r"], "sessions": [
                     session("g", parent_id="p", ago=MINUTE, torn_log=True),
                     session("p", parent_id="r", ago=2 * MINUTE, inbox={"next-step": 1})]},
                 answer([up("p", "inbox_pending", "r"), up("g", "torn_log", "p")])),
            case("parents.cycle", "two candidates that are each other's parent stay down", ["REC-051"],
                 {"now_ms": NOW, "sessions": [session("a", parent_id="b", torn_log=True),
                                               session("b", parent_id="a", torn_log=True)]},
                 answer(left=[down(0, "a", "parent_cycle"), down(1, "b", "parent_cycle")])),
            case("parents.self_parent", "a candidate that is its own parent stays down", ["REC-051"],
                 one(session("a", parent_id="a", torn_log=True)),
                 answer(left=[down(0, "a", "parent_cycle")])),
            case("parents.chain_enters_cycle", "a chain that enters a cycle it does not start in is a cycle too",
                 ["REC-051"],
                 {"now_ms": NOW, "sessions": [session("c", parent_id="a", torn_log=True),
                                               session("a", parent_id="b", torn_log=True),
                                               session("b", parent_id="a", torn_log=True)]},
                 answer(left=[down(0, "c", "parent_cycle"), down(1, "a", "parent_cycle"),
                              down(2, "b", "parent_cycle")])),
            case("parents.ancestor_taken_earlier", "a parent taken with its newer child is passed over when its own turn comes",
                 ["REC-060", "REC-061"],
                 {"now_ms": NOW, "sessions": [
                     session("child", parent_id="root", ago=MINUTE, torn_log=True),
                     session("root", ago=2 * MINUTE, torn_log=True),
                     session("solo", ago=3 * MINUTE, torn_log=True)]},
                 answer([up("root", "torn_log"), up("child", "torn_log", "root"), up("solo", "torn_log")])),
            case("parents.cycle_through_live", "a chain that reaches a live session ends there, whatever is above it",
                 ["REC-050", "REC-051"],
                 {"now_ms": NOW, "live_session_ids": ["r"], "sessions": [
                     session("p", parent_id="r", torn_log=True), session("r", parent_id="p", torn_log=True)]},
                 answer([up("p", "torn_log", "r")], [down(1, "r", "already_live")])),
            case("parents.not_live_before_cycle", "a chain that meets a parent that stays down ends as not live",
                 ["REC-050", "REC-051"],
                 {"now_ms": NOW, "sessions": [session("c", parent_id="p", torn_log=True),
                                               session("p", parent_id="c", last_turn_end=ended("completed"))]},
                 answer(left=[down(0, "c", "parent_not_live"), down(1, "p", "completed")])),
        ],
    }
    files["bound"] = {
        "gate": "recovery",
        "description": "at most max_sessions per start, newest last event first",
        "cases": [
            case("bound.newest_first", "two of three come back, the newest first", ["REC-060", "REC-061"],
                 {"now_ms": NOW, "bounds": {"max_sessions": 2}, "sessions": [
                     session("old", ago=30 * MINUTE, torn_log=True),
                     session("new", ago=MINUTE, torn_log=True),
                     session("mid", ago=10 * MINUTE, torn_log=True)]},
                 answer([up("new", "torn_log"), up("mid", "torn_log")], [down(0, "old", "over_limit")],
                        {"max_sessions": 2})),
            case("bound.ties_by_id", "equal last events are ranked by id", ["REC-060"],
                 {"now_ms": NOW, "bounds": {"max_sessions": 1}, "sessions": [
                     session("b", torn_log=True), session("a", torn_log=True)]},
                 answer([up("a", "torn_log")], [down(0, "b", "over_limit")], {"max_sessions": 1})),
            case("bound.family_does_not_fit", "a child needing its parent too is skipped; a later single fits",
                 ["REC-060", "REC-061"],
                 {"now_ms": NOW, "bounds": {"max_sessions": 2}, "sessions": [
                     session("x", ago=MINUTE, torn_log=True),
                     session("child", parent_id="root", ago=2 * MINUTE, torn_log=True),
                     session("root", ago=20 * MINUTE, torn_log=True),
                     session("y", ago=10 * MINUTE, torn_log=True)]},
                 answer([up("x", "torn_log"), up("y", "torn_log")],
                        [down(1, "child", "over_limit"), down(2, "root", "over_limit")], {"max_sessions": 2})),
            case("bound.family_fits", "a child and its older parent come back together, parent first",
                 ["REC-060", "REC-061"],
                 {"now_ms": NOW, "bounds": {"max_sessions": 3}, "sessions": [
                     session("x", ago=MINUTE, torn_log=True),
                     session("child", parent_id="root", ago=2 * MINUTE, torn_log=True),
                     session("root", ago=20 * MINUTE, torn_log=True),
                     session("y", ago=10 * MINUTE, torn_log=True)]},
                 answer([up("x", "torn_log"), up("root", "torn_log"), up("child", "torn_log", "root")],
                        [down(3, "y", "over_limit")], {"max_sessions": 3})),
            case("bound.ties_by_code_point", "ids that tie are ranked by code point, not by UTF-16 unit",
                 ["REC-060", "GEN-016"],
                 {"now_ms": NOW, "bounds": {"max_sessions": 1}, "sessions": [
                     session("\U0001F600", torn_log=True), session("\uff61", torn_log=True)]},
                 answer([up("\uff61", "torn_log")], [down(0, "\U0001F600", "over_limit")], {"max_sessions": 1})),
            case("bound.exactly_full", "max_sessions 2 recovers two of two", ["REC-060"],
                 {"now_ms": NOW, "bounds": {"max_sessions": 2}, "sessions": [
                     session("a", torn_log=True), session("b", ago=2 * MINUTE, torn_log=True)]},
                 answer([up("a", "torn_log"), up("b", "torn_log")], bounds={"max_sessions": 2})),
            case("bound.written_as_float", "bounds written 2.0 are the integer 2, written back as integers",
                 ["REC-060", "GEN-018"],
                 {"now_ms": float(NOW), "bounds": {"max_sessions": 2.0, "max_age_ms": 7.2e6}, "sessions": [
                     session("a", torn_log=True, last_event_ms=float(NOW - MINUTE)),
                     session("b", ago=2 * MINUTE, torn_log=True), session("c", ago=3 * MINUTE, torn_log=True)]},
                 answer([up("a", "torn_log"), up("b", "torn_log")], [down(2, "c", "over_limit")],
                        bounds={"max_sessions": 2})),
            case("bound.zero", "max_sessions 0 recovers nothing", ["REC-060", "REC-070"],
                 {"now_ms": NOW, "bounds": {"max_sessions": 0}, "sessions": [session("a", torn_log=True)]},
                 answer(left=[down(0, "a", "over_limit")], bounds={"max_sessions": 0})),
            case("bound.default_fifty", "the default bound recovers fifty of fifty-one", ["REC-060"],
                 {"now_ms": NOW, "sessions": [session(f"s{n:02d}", ago=(n + 1) * 1000, torn_log=True)
                                               for n in range(51)]},
                 answer([up(f"s{n:02d}", "torn_log") for n in range(50)], [down(50, "s50", "over_limit")])),
        ],
    }
    bad = [
        ("not_object", "a candidate that is not an object", 7, None),
        ("id_missing", "a candidate without an id", {"torn_log": True, "last_event_ms": NOW}, None),
        ("id_blank", "a candidate whose id is blank", {"id": "  ", "torn_log": True}, None),
        ("id_number", "a candidate whose id is a number", {"id": 12, "torn_log": True}, None),
        ("id_control", "a candidate whose id holds a control character", {"id": "a\u0007b", "torn_log": True}, None),
        ("parent_number", "a parent id that is a number", {"id": "a", "parent_id": 5, "torn_log": True}, "a"),
        ("torn_string", "torn_log given as a string", {"id": "a", "torn_log": "yes"}, "a"),
        ("turn_end_string", "a last turn end that is a string", {"id": "a", "last_turn_end": "interrupted"}, "a"),
        ("turn_end_no_kind", "a last turn end without a kind", {"id": "a", "last_turn_end": {"cause": {}}}, "a"),
        ("inbox_list", "an inbox that is a list", {"id": "a", "inbox": [1]}, "a"),
        ("queue_string", "a queue that is a string", {"id": "a", "inbox": {"next-turn": "1"}}, "a"),
        ("queue_negative", "a negative queue count", {"id": "a", "inbox": {"next-step": -1}}, "a"),
        ("last_event_float", "a last event time with a fraction", {"id": "a", "last_event_ms": 1.5, "torn_log": True}, "a"),
        ("last_event_negative", "a negative last event time", {"id": "a", "last_event_ms": -1, "torn_log": True}, "a"),
        ("mtime_string", "a modification time that is a string", {"id": "a", "log_mtime_ms": "now"}, "a"),
        ("mtime_negative", "a negative modification time", {"id": "a", "log_mtime_ms": -1}, "a"),
        ("last_event_beyond_double", "a last event time of 2^53", {"id": "a", "last_event_ms": 2**53, "torn_log": True}, "a"),
        ("queue_fraction", "a queue count of 0.5", {"id": "a", "inbox": {"next-turn": 0.5}}, "a"),
        ("id_too_long", "a candidate whose id is 513 characters", {"id": "i" * 513, "torn_log": True}, None),
        ("id_c1", "a candidate whose id holds U+0085", {"id": "a\x85", "torn_log": True}, None),
        ("id_delete", "a candidate whose id holds U+007F", {"id": "a\x7f", "torn_log": True}, None),
        ("id_bom_only", "a candidate whose id is one U+FEFF", {"id": "\ufeff", "torn_log": True}, None),
        ("id_lone_surrogate", "a candidate whose id holds a lone surrogate", {"id": "a\udc00", "torn_log": True}, None),
        ("parent_blank", "a parent id that is blank", {"id": "a", "parent_id": "\u2003", "torn_log": True}, "a"),
        ("torn_null_is_not_false", "torn_log given as a number", {"id": "a", "torn_log": 0}, "a"),
    ]
    input_cases = [
        case(f"input.session_{name}", f"{text} is left down as invalid_session", ["REC-002", "REC-070"],
             one(entry), answer(left=[down(0, ident, "invalid_session")]))
        for name, text, entry, ident in bad
    ]
    input_cases += [
        case(f"input.{name}", f"a candidate's id: {shows}", ["REC-002", "GEN-003"],
             one(session(ident, torn_log=True)), answer([up(ident, "torn_log")]))
        for name, ident, shows in VALID_IDS
    ]
    input_cases += [
        case(f"input.{name}", f"a candidate's id: {shows}", ["REC-002", "GEN-003"],
             one(session(ident, torn_log=True)), answer(left=[down(0, None, "invalid_session")]))
        for name, ident, shows in INVALID_IDS
    ]
    input_cases += [
        case("input.others_still_judged", "an invalid candidate does not stop the others", ["REC-002"],
             {"now_ms": NOW, "sessions": [7, session("a", torn_log=True)]},
             answer([up("a", "torn_log")], [down(0, None, "invalid_session")])),
        case("input.no_sessions", "an empty store recovers nothing", ["REC-070"], {"now_ms": NOW, "sessions": []},
             answer()),
        case("input.id_at_bound", "an id of 512 characters outside the BMP is an identifier", ["REC-002", "GEN-016"],
             one(session("\U0001F600" * 512, torn_log=True)), answer([up("\U0001F600" * 512, "torn_log")])),
        case("input.id_mongolian_separator", "an id of U+180E alone is not blank: it is not white space",
             ["REC-002", "GEN-017"], one(session("\u180e", torn_log=True)), answer([up("\u180e", "torn_log")])),
        case("input.nulls_are_absent", "null bounds, live ids, parent, turn end, inbox and times are absent",
             ["REC-001", "REC-002"],
             {"now_ms": NOW, "bounds": None, "live_session_ids": None, "sessions": [
                 session("a", parent_id=None, last_turn_end=None, inbox=None, log_mtime_ms=None, torn_log=True)]},
             answer([up("a", "torn_log")])),
        case("input.now_at_bound", "a now_ms of 2^53 - 1 is an integer", ["REC-001", "GEN-018"],
             {"now_ms": 2**53 - 1, "sessions": [session("a", last_event_ms=2**53 - 2, torn_log=True)]},
             answer([up("a", "torn_log")])),
        case("input.live_at_bound", "10,000 live session ids are read", ["REC-001"],
             {"now_ms": NOW, "live_session_ids": [f"l{n}" for n in range(10_000)],
              "sessions": [session("l9999", torn_log=True)]},
             answer(left=[down(0, "l9999", "already_live")])),
        case("input.unknown_members_ignored", "members the gate does not know are ignored", ["REC-070"],
             {"now_ms": NOW, "host": "web", "sessions": [session("a", torn_log=True, model="m-1")]},
             answer([up("a", "torn_log")])),
    ]
    for name, text, given, field in (
        ("not_object", "an input that is not an object", [], "$"),
        ("now_missing", "a missing now_ms", {"sessions": []}, "$.now_ms"),
        ("now_negative", "a negative now_ms", {"now_ms": -1, "sessions": []}, "$.now_ms"),
        ("now_float", "a now_ms with a fraction", {"now_ms": 1.5, "sessions": []}, "$.now_ms"),
        ("now_boolean", "now_ms true", {"now_ms": True, "sessions": []}, "$.now_ms"),
        ("sessions_missing", "a missing sessions list", {"now_ms": NOW}, "$.sessions"),
        ("sessions_object", "sessions given as an object", {"now_ms": NOW, "sessions": {}}, "$.sessions"),
        ("bounds_list", "bounds given as a list", {"now_ms": NOW, "sessions": [], "bounds": []}, "$.bounds"),
        ("bound_negative", "a negative maximum age", {"now_ms": NOW, "sessions": [], "bounds": {"max_age_ms": -1}},
         "$.bounds.max_age_ms"),
        ("bound_float", "a maximum session count with a fraction",
         {"now_ms": NOW, "sessions": [], "bounds": {"max_sessions": 2.5}}, "$.bounds.max_sessions"),
        ("slack_string", "a slack given as a string",
         {"now_ms": NOW, "sessions": [], "bounds": {"mtime_slack_ms": "1s"}}, "$.bounds.mtime_slack_ms"),
        ("live_not_list", "live sessions given as a string", {"now_ms": NOW, "sessions": [], "live_session_ids": "a"},
         "$.live_session_ids"),
        ("live_blank", "a blank live session id", {"now_ms": NOW, "sessions": [], "live_session_ids": ["a", " "]},
         "$.live_session_ids[1]"),
        ("live_too_many", "10,001 live session ids",
         {"now_ms": NOW, "sessions": [], "live_session_ids": [f"l{n}" for n in range(10_001)]}, "$.live_session_ids"),
        ("sessions_too_many", "10,001 candidates", {"now_ms": NOW, "sessions": [0] * 10_001}, "$.sessions"),
        ("now_beyond_double", "a now_ms of 2^53", {"now_ms": 2**53, "sessions": []}, "$.now_ms"),
        ("bound_beyond_double", "a maximum age of 2^53", {"now_ms": NOW, "sessions": [], "bounds": {"max_age_ms": 2**53}},
         "$.bounds.max_age_ms"),
    ):
        input_cases.append(case(f"input.{name}", f"{text} is invalid input", ["REC-001"], given, invalid(field),
                                exit_code=2))
    input_cases += [
        case("input.bom", "a byte order mark before the input is invalid input", ["REC-001"],
             b'\xef\xbb\xbf{"now_ms": 0, "sessions": []}', invalid("$"), exit_code=2),
        case("input.repeated_key", "a repeated key is invalid input", ["REC-001"],
             '{"now_ms": 0, "now_ms": 1, "sessions": []}', invalid("$"), exit_code=2),
        case("input.now_overflow", "a now_ms of 1e400 is not finite, so not an integer", ["REC-001", "GEN-019"],
             '{"now_ms": 1e400, "sessions": []}', invalid("$.now_ms"), exit_code=2),
        case("input.now_negative_zero", "a now_ms of -0 is the integer 0", ["REC-001", "GEN-018"],
             '{"now_ms": -0, "sessions": [{"id": "a", "torn_log": true, "last_event_ms": 0}]}',
             answer([up("a", "torn_log")]), exit_code=0),
        case("input.nan", "a NaN literal is invalid input", ["REC-001"],
             '{"now_ms": NaN, "sessions": []}', invalid("$"), exit_code=2),
        case("input.not_json", "text that is not JSON is invalid input", ["REC-001"], "sessions: []", invalid("$"),
             exit_code=2),
        padded(case("input.at_size_bound", "an input of exactly 4 MiB is read", ["REC-001"],
                    '{"now_ms": 0, "sessions": []}', answer(), exit_code=0), 4 * 1024 * 1024),
        padded(case("input.past_size_bound", "an input of 4 MiB and one byte is invalid input", ["REC-001"],
                    '{"now_ms": 0, "sessions": []}', invalid("$"), exit_code=2), 4 * 1024 * 1024 + 1),
        case("input.invalid_utf8", "bytes that are not UTF-8 are invalid input", ["REC-001"],
             b'{"now_ms": 0, "sessions": ["\xff"]}', invalid("$"), exit_code=2),
    ]
    files["input"] = {"gate": "recovery", "description": "input rules: the whole input, then each candidate",
                      "cases": input_cases}
    files["examples"] = {
        "gate": "recovery",
        "description": "a store after a crash, as the spec page describes it",
        "cases": [
            case("example.mixed_store", "disposed, live-parented and queued sessions return; stopped, finished, old stay down",
                 ["REC-010", "REC-032", "REC-033", "REC-050", "REC-061", "REC-070"],
                 {"now_ms": NOW, "live_session_ids": ["lead"], "sessions": [
                     session("ses-build", ago=2 * MINUTE, last_turn_end=ended("aborted", "disposed")),
                     session("ses-review", ago=3 * MINUTE, last_turn_end=ended("aborted", "user")),
                     session("ses-lint", parent_id="lead", ago=1 * MINUTE, torn_log=True),
                     session("ses-docs", ago=4 * MINUTE, last_turn_end=ended("completed"),
                             inbox={"next-turn": ["publish the page"]}),
                     session("ses-done", ago=5 * MINUTE, last_turn_end=ended("completed")),
                     session("ses-old", ago=3 * 60 * MINUTE, last_turn_end=ended("interrupted"))]},
                 answer([up("ses-lint", "torn_log", "lead"), up("ses-build", "aborted_disposed"),
                         up("ses-docs", "inbox_pending")],
                        [down(1, "ses-review", "aborted_by_user"), down(4, "ses-done", "completed"),
                         down(5, "ses-old", "too_old")])),
        ],
    }
    return files
