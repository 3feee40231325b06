"""The ``handoff`` gate: the planned restart's three decisions, as pure operations.

Owns the decisions of ``spec/gates/handoff.md``:

- ``warn``: a warning yields a confirmation token bound to the plan, and the pending
  record the host stores;
- ``confirm``: a matching, unspent, unexpired token from this incarnation yields the
  handoff record, built from the plan in the pending record (never from the confirming
  call's own arguments), and the pending record marked spent;
- ``replay``: at the next start, a record is replayed only if it is present, readable,
  well formed, of a known version, intact by its digest, not consumed, not stale and written
  by another incarnation; the answer carries the consumed marker to write before acting.

The gate reads clocks, files and incarnations only from its input: hosts supply them.
"""

from passdown.formats import _handoff_record as records
from passdown.formats._clock import LATEST_MS, format_ms, parse_ms
from passdown.formats._values import integer, is_id
from passdown.gates._table import Invalid
from passdown.gates._inputs import decide_or_refuse, invalid_input, parse_strict
from passdown.gates._table import Decision, InputError, run_strict

NAME = "handoff"
VERSION = "1.0.0"
SUMMARY = "Warn, confirm and replay a planned restart's handoff record (TTL, consumed once)."
SPEC = "spec/gates/handoff.md"
INPUT_SCHEMA = "gates/handoff.input.schema.json"
OUTPUT_SCHEMA = "gates/handoff.output.schema.json"
MAX_INPUT_BYTES = 1024 * 1024

OUTCOMES = (
    "warned",
    "confirmed",
    "replay",
    "record_missing",
    "no_pending_warning",
    "pending_malformed",
    "token_mismatch",
    "token_spent",
    "token_expired",
    "token_other_incarnation",
    "record_unreadable",
    "record_bom",
    "record_malformed",
    "record_version",
    "record_digest",
    "record_consumed",
    "record_from_future",
    "record_expired",
    "record_own_incarnation",
    "invalid_input",
)
#: Outcomes that go ahead (exit 0); every other one but ``invalid_input`` refuses (exit 1).
PROCEED = ("warned", "confirmed", "replay", "record_missing")

DEFAULT_PENDING_TTL_MS = 300_000
DEFAULT_HANDOFF_TTL_MS = 1_800_000
MAX_RECORD_BYTES = 256 * 1024
_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")
_SOURCES = ("record_text", "record_base64", "record_error")
#: A confirming token as given, and a read error message, are at most this long.
_MAX_GIVEN_LENGTH = 1024


def run(raw):
    """Bytes -> :class:`Decision`; unreadable input answers ``invalid_input`` (exit 2)."""
    return run_strict(raw, MAX_INPUT_BYTES, decide, invalid_input)


def decide(value):
    """The answer to one operation; never raises."""
    return decide_or_refuse(_decide, value)


def _decide(value):
    if not isinstance(value, dict):
        raise Invalid("$")
    operation = _OPERATIONS.get(value.get("op")) if isinstance(value.get("op"), str) else None
    if operation is None:
        raise Invalid("$.op")
    return operation(value)


def _answer(op, outcome, **fields):
    output = {"outcome": outcome, "op": op, **fields}
    return Decision(output, outcome, 0 if outcome in PROCEED else 1)


def _now(value):
    now = parse_ms(value.get("now"))
    if now is None:
        raise Invalid("$.now")
    return now


def _incarnation(value):
    incarnation = value.get("incarnation")
    if not is_id(incarnation):
        raise Invalid("$.incarnation")
    return incarnation


def _ttl(value, key, default, limit):
    if value.get(key) is None:
        return default
    ttl = integer(value[key])
    if ttl is None or not 1 <= ttl <= limit:
        raise Invalid(f"$.{key}")
    return ttl


def _check(problem, member):
    """Raise :class:`Invalid` at the deepest part of ``member`` that ``problem`` names."""
    if problem is not None:
        from passdown._text import json_path

        raise Invalid(json_path((member, *problem)))


def _warn(value):
    now = _now(value)
    incarnation = _incarnation(value)
    plan = value.get("plan")
    _check(records.plan_problem(plan), "plan")
    ttl = _ttl(value, "pending_ttl_ms", DEFAULT_PENDING_TTL_MS, records.MAX_PENDING_TTL_MS)
    if now + ttl > LATEST_MS:  # the expiry would fall past 9999-12-31T23:59:59.999Z
        raise Invalid("$.now")
    plan = {key: plan[key] for key in ("requested_by", "reason", "continue_prompt")}
    token = value.get("token")
    if token is None:
        token = _derived_token(now, incarnation, plan)
    elif not records.is_token(token):
        raise Invalid("$.token")
    pending = {
        "passdown_version": records.KNOWN_VERSIONS[-1],
        "kind": records.PENDING_KIND,
        "token": token,
        "plan": plan,
        "created_at": format_ms(now),
        "expires_at": format_ms(now + ttl),
        "writer_incarnation": incarnation,
    }
    return _answer("warn", "warned", token=token, pending=pending)


def _derived_token(now, incarnation, plan):
    """``hp-`` and 32 hex characters of the BLAKE3 hash of the warning's canonical form."""
    from passdown.formats import _digest

    canonical = _digest.canonical_json(
        {"incarnation": incarnation, "now": format_ms(now), "plan": plan})
    return "hp-" + _digest.hexdigest(canonical)[:32]


def _confirm(value):
    now = _now(value)
    incarnation = _incarnation(value)
    token = value.get("token")
    if not isinstance(token, str) or len(token) > _MAX_GIVEN_LENGTH:
        raise Invalid("$.token")
    sessions = value.get("sessions")
    _check(records.sessions_problem(sessions), "sessions")
    subagents = value.get("subagents")
    if subagents is None:
        subagents = []
    _check(records.subagents_problem(subagents), "subagents")
    ttl = _ttl(value, "handoff_ttl_ms", DEFAULT_HANDOFF_TTL_MS, records.MAX_TTL_MS)
    # The confirming call's own plan, if any, is never read: the warned plan is executed.
    pending = value.get("pending")
    if pending is None:
        return _answer("confirm", "no_pending_warning")
    if not (records.pending_shape_ok(pending) and records.expiry_in_order(pending)):
        return _answer("confirm", "pending_malformed")
    if token != pending["token"]:
        return _answer("confirm", "token_mismatch")
    if "spent_at" in pending:
        return _answer("confirm", "token_spent")
    if now > parse_ms(pending["expires_at"]):
        return _answer("confirm", "token_expired")
    if pending["writer_incarnation"] != incarnation:
        return _answer("confirm", "token_other_incarnation")
    plan = pending["plan"]
    problems = records.session_problems(plan["requested_by"], sessions, subagents)
    if problems:
        from passdown._text import json_path

        parts = problems[0][1]
        # the requester is the warned plan's: the running sessions are what lacks it
        raise Invalid("$.sessions" if parts == ("requested_by",) else json_path(parts))
    record = {
        "passdown_version": records.KNOWN_VERSIONS[-1],
        "kind": records.RECORD_KIND,
        "handoff_id": pending["token"],
        "created_at": format_ms(now),
        "ttl_ms": ttl,
        "writer_incarnation": incarnation,
        "requested_by": plan["requested_by"],
        "reason": plan["reason"],
        "continue_prompt": plan["continue_prompt"],
        "sessions": [{"id": s["id"]} for s in sessions],
        "subagents": [{"id": s["id"], "parent_id": s["parent_id"]} for s in subagents],
    }
    record["digest"] = records.digest_of(record)
    spent = {**pending, "spent_at": format_ms(now)}
    return _answer("confirm", "confirmed", record=record, pending=spent)


def _replay(value):
    now = _now(value)
    incarnation = _incarnation(value)
    max_ttl = _ttl(value, "max_ttl_ms", DEFAULT_HANDOFF_TTL_MS, records.MAX_TTL_MS)
    given = [key for key in _SOURCES if value.get(key) is not None]
    if len(given) > 1:
        raise Invalid(f"$.{given[1]}")
    if not given:
        return _answer("replay", "record_missing")
    source = given[0]
    held = value[source]
    if not isinstance(held, str) or (source == "record_error" and len(held) > _MAX_GIVEN_LENGTH):
        raise Invalid(f"$.{source}")
    if source == "record_error":
        return _answer("replay", "record_unreadable")
    if source == "record_base64":
        import binascii

        try:
            raw = binascii.a2b_base64(held.encode("ascii"), strict_mode=True)
        except (ValueError, UnicodeEncodeError):  # binascii.Error is a ValueError
            raise Invalid("$.record_base64") from None
    else:
        try:
            raw = held.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: these are not the file's bytes
            return _answer("replay", "record_malformed")
    if raw.startswith(_BOMS):
        return _answer("replay", "record_bom")
    try:
        record = parse_strict(raw, MAX_RECORD_BYTES)
    except InputError:
        return _answer("replay", "record_malformed")
    if not isinstance(record, dict) or record.get("kind") != records.RECORD_KIND:
        return _answer("replay", "record_malformed")
    if record.get("passdown_version") not in records.KNOWN_VERSIONS:
        return _answer("replay", "record_version")
    if not records.record_shape_ok(record) or records.session_problems(
            record["requested_by"], record["sessions"], record["subagents"]):
        return _answer("replay", "record_malformed")
    problem = records.digest_problem(record)
    if problem is not None:
        return _answer("replay", "record_digest", detail=problem)
    if "consumed" in record:
        return _answer("replay", "record_consumed")
    created = parse_ms(record["created_at"])
    if created > now:
        return _answer("replay", "record_from_future")
    ttl = integer(record["ttl_ms"])
    if now - created > min(ttl, max_ttl):
        return _answer("replay", "record_expired")
    if record["writer_incarnation"] == incarnation:
        return _answer("replay", "record_own_incarnation")
    # the record as read, its TTL written as an integer (GEN-019)
    consumed = {**record, "ttl_ms": ttl,
                "consumed": {"at": format_ms(now), "by_incarnation": incarnation}}
    return _answer(
        "replay", "replay",
        handoff_id=record["handoff_id"],
        requested_by=record["requested_by"],
        reason=record["reason"],
        continue_prompt=record["continue_prompt"],
        wake=records.wake_order(record["sessions"], record["subagents"]),
        consumed_record=consumed,
    )


_OPERATIONS = {"warn": _warn, "confirm": _confirm, "replay": _replay}
