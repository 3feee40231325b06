"""The ``recovery`` gate: after an unplanned exit, which sessions come back, in which order.

Owns the decision of ``spec/gates/recovery.md``: each candidate session is judged by how its
LAST turn ended (every turn-end kind and abort cause has a row), a torn log, queued inbox
work, its age by the last event, its parent, and the per-start bound. The answer lists the
sessions to wake, top-down and newest first, and every other session with the reason it
stays down.
"""

from passdown.gates._table import Invalid
from passdown.gates._inputs import (
    count,
    decide_or_refuse,
    invalid_input,
    optional_count,
    optional_object,
    required_count,
)
from passdown.formats._values import is_id
from passdown.gates._table import Decision, run_strict

NAME = "recovery"
VERSION = "1.0.0"
SUMMARY = "Which interrupted sessions come back after an unplanned exit, in which order."
SPEC = "spec/gates/recovery.md"
INPUT_SCHEMA = "gates/recovery.input.schema.json"
OUTPUT_SCHEMA = "gates/recovery.output.schema.json"
MAX_INPUT_BYTES = 4 * 1024 * 1024

OUTCOMES = ("recover", "nothing_to_recover", "invalid_input")

#: Why a session comes back, in the order the rows are tried.
RECOVER_REASONS = ("torn_log", "interrupted", "aborted_disposed", "inbox_pending")

#: Why a session stays down, in the order the spec lists them.
LEFT_REASONS = (
    "invalid_session",
    "duplicate_id",
    "already_live",
    "stale_by_mtime",
    "age_unknown",
    "too_old",
    "no_turn",
    "completed",
    "aborted_by_user",
    "aborted_by_parent",
    "aborted_by_hook",
    "aborted_legacy",
    "aborted_cause_unknown",
    "blocked",
    "error",
    "max_tokens",
    "forked",
    "unknown_turn_end",
    "parent_not_live",
    "parent_cycle",
    "over_limit",
)

DEFAULT_MAX_AGE_MS = 7_200_000
DEFAULT_MAX_SESSIONS = 50
DEFAULT_MTIME_SLACK_MS = 60_000
MAX_CANDIDATES = 10_000

_QUEUES = ("next-turn", "next-step")
_LEFT_BY_KIND = {
    "completed": "completed",
    "blocked": "blocked",
    "error": "error",
    "max-tokens": "max_tokens",
    "forked": "forked",
}
_LEFT_BY_CAUSE = {
    "user": "aborted_by_user",
    "parent": "aborted_by_parent",
    "hook": "aborted_by_hook",
    "legacy": "aborted_legacy",
}


def run(raw):
    """Bytes -> :class:`Decision`; unreadable input answers ``invalid_input`` (exit 2)."""
    return run_strict(raw, MAX_INPUT_BYTES, decide, invalid_input)


def decide(value):
    """The recovery plan for one parsed input; never raises."""
    return decide_or_refuse(_decide, value)


def _decide(value):
    if not isinstance(value, dict):
        raise Invalid("$")
    now = required_count(value, "now_ms", "$")
    bounds = optional_object(value, "bounds", "$")
    max_age = optional_count(bounds, "max_age_ms", DEFAULT_MAX_AGE_MS, "$.bounds")
    max_sessions = optional_count(bounds, "max_sessions", DEFAULT_MAX_SESSIONS, "$.bounds")
    slack = optional_count(bounds, "mtime_slack_ms", DEFAULT_MTIME_SLACK_MS, "$.bounds")
    live = value.get("live_session_ids")
    if live is None:
        live = []
    if not isinstance(live, list) or len(live) > MAX_CANDIDATES:
        raise Invalid("$.live_session_ids")
    for position, session_id in enumerate(live):
        if not is_id(session_id):
            raise Invalid(f"$.live_session_ids[{position}]")
    live = set(live)
    sessions = value.get("sessions")
    if not isinstance(sessions, list) or len(sessions) > MAX_CANDIDATES:
        raise Invalid("$.sessions")

    entries = [_Entry(index, item) for index, item in enumerate(sessions)]
    seen = {}
    for entry in entries:
        if entry.reason is None:
            seen[entry.id] = seen.get(entry.id, 0) + 1
    for entry in entries:
        if entry.reason is not None:
            continue
        if seen[entry.id] > 1:
            entry.reason = "duplicate_id"
        elif entry.id in live:
            entry.reason = "already_live"
        else:
            entry.reason = _age_reason(entry, now, max_age, slack) or _criterion(entry)

    candidates = {e.id: e for e in entries if e.reason in RECOVER_REASONS}
    chains = {}
    for entry in candidates.values():
        chain = _ancestors(entry, candidates, live)
        if isinstance(chain, str):
            entry.left = chain
        else:
            chains[entry.id] = chain

    recovered = []
    chosen = set()
    ranked = sorted(chains, key=lambda sid: (-candidates[sid].last_event, sid))
    for session_id in ranked:
        if session_id in chosen:
            continue
        needed = [a for a in reversed(chains[session_id]) if a not in chosen] + [session_id]
        if len(chosen) + len(needed) > max_sessions:
            candidates[session_id].left = "over_limit"
            continue
        for member in needed:
            chosen.add(member)
            candidates[member].left = None
            recovered.append(candidates[member])

    left = []
    for entry in entries:
        if entry.id in chosen and entry.reason in RECOVER_REASONS and entry.left is None:
            continue
        reason = entry.left if entry.reason in RECOVER_REASONS else entry.reason
        left.append({"index": entry.index, "id": entry.id, "reason": reason})
    output = {
        "outcome": "recover" if recovered else "nothing_to_recover",
        "recovered": [
            {"id": e.id, "parent_id": e.parent_id, "reason": e.reason} for e in recovered
        ],
        "left": left,
        "bounds": {"max_age_ms": max_age, "max_sessions": max_sessions, "mtime_slack_ms": slack},
    }
    return Decision(output, output["outcome"], 0)


class _Entry:
    """One candidate session as read from the input; ``reason`` is its verdict before the
    parent and bound rules, ``left`` the rule that later kept a recoverable one down."""

    __slots__ = ("index", "id", "parent_id", "turn_end", "torn", "inbox", "last_event",
                 "mtime", "reason", "left")

    def __init__(self, index, item):
        self.index = index
        self.id = None
        self.parent_id = None
        self.reason = None
        self.left = None
        if not isinstance(item, dict):
            self.reason = "invalid_session"
            return
        session_id = item.get("id")
        if is_id(session_id):
            self.id = session_id
        parent_id = item.get("parent_id")
        turn_end = item.get("last_turn_end")
        torn = item.get("torn_log", False)
        inbox = item.get("inbox")
        last_event = item.get("last_event_ms")
        mtime = item.get("log_mtime_ms")
        if (
            self.id is None
            or not (parent_id is None or is_id(parent_id))
            or not (turn_end is None or (isinstance(turn_end, dict)
                                         and isinstance(turn_end.get("kind"), str)))
            or not isinstance(torn, bool)
            or not (inbox is None or _inbox_ok(inbox))
            or not (last_event is None or count(last_event) is not None)
            or not (mtime is None or count(mtime) is not None)
        ):
            self.reason = "invalid_session"
            return
        self.parent_id = parent_id
        self.turn_end = turn_end
        self.torn = torn
        self.inbox = inbox or {}
        self.last_event = None if last_event is None else count(last_event)
        self.mtime = None if mtime is None else count(mtime)


def _inbox_ok(inbox):
    if not isinstance(inbox, dict):
        return False
    for queue in _QUEUES:
        held = inbox.get(queue)
        if not (held is None or count(held) is not None or isinstance(held, list)):
            return False
    return True


def _age_reason(entry, now, max_age, slack):
    if entry.last_event is None:
        if entry.mtime is not None and now - entry.mtime > max_age + slack:
            return "stale_by_mtime"
        return "age_unknown"
    if entry.last_event > now:
        return "age_unknown"
    if now - entry.last_event > max_age:
        return "too_old"
    return None


def _criterion(entry):
    turn_end = entry.turn_end
    kind = turn_end.get("kind") if turn_end is not None else None
    cause = turn_end.get("cause") if kind == "aborted" else None
    cause_kind = cause.get("kind") if isinstance(cause, dict) else None
    if entry.torn:
        return "torn_log"
    if kind == "interrupted":
        return "interrupted"
    if kind == "aborted" and cause_kind == "disposed":
        return "aborted_disposed"
    if any(_waiting(entry.inbox.get(queue)) for queue in _QUEUES):
        return "inbox_pending"
    if kind is None:
        return "no_turn"
    if kind == "aborted":
        return _LEFT_BY_CAUSE.get(cause_kind, "aborted_cause_unknown")
    return _LEFT_BY_KIND.get(kind, "unknown_turn_end")


def _waiting(held):
    if isinstance(held, list):
        return len(held) > 0
    return held is not None and count(held) > 0


def _ancestors(entry, candidates, live):
    """The non-live ancestors that must come back first, nearest first; or the reason the
    session cannot come back (an ancestor that is neither live nor recoverable, a cycle)."""
    chain = []
    seen = {entry.id}
    parent = entry.parent_id
    while parent is not None and parent not in live:
        if parent in seen:
            return "parent_cycle"
        ancestor = candidates.get(parent)
        if ancestor is None:
            return "parent_not_live"
        seen.add(parent)
        chain.append(parent)
        parent = ancestor.parent_id
    return chain
