"""The handoff gate: the whole planned restart (warn, confirm, exit, replay, consumed), the
hand-written shape checks agreeing with the JSON Schemas, and every input answered with a
documented outcome."""

import base64
import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from passdown.formats import _handoff_record as records
from passdown.gates import handoff
from passdown.formats._clock import format_ms, parse_ms
from passdown.gates._table import Decision

PLAN = {"requested_by": "ses-main", "reason": "apply the new configuration",
        "continue_prompt": "Continue with step 4."}
SESSIONS = [{"id": "ses-main"}, {"id": "ses-docs"}]


def _warn(now="2026-05-04T10:00:00Z", incarnation="boot-1", plan=PLAN, **extra):
    return handoff.decide({"op": "warn", "now": now, "incarnation": incarnation, "plan": plan, **extra})


def _confirm(warning, now="2026-05-04T10:01:00Z", incarnation="boot-1", **extra):
    given = {"op": "confirm", "now": now, "incarnation": incarnation,
             "token": warning.output["token"], "pending": warning.output["pending"],
             "sessions": SESSIONS, **extra}
    return handoff.decide(given)


def _replay(record_text, now="2026-05-04T10:02:00Z", incarnation="boot-2", **extra):
    return handoff.decide({"op": "replay", "now": now, "incarnation": incarnation,
                           "record_text": record_text, **extra})


def test_a_planned_restart_from_warning_to_consumed_record():
    warning = _warn()
    assert warning.outcome == "warned" and warning.exit_code == 0
    confirmation = _confirm(warning)
    assert confirmation.outcome == "confirmed"
    assert confirmation.output["pending"]["spent_at"] == "2026-05-04T10:01:00.000Z"
    written = json.dumps(confirmation.output["record"], indent=2)
    # The same process never replays its own record...
    assert _replay(written, incarnation="boot-1").outcome == "record_own_incarnation"
    # ...the next one does, once.
    replay = _replay(written)
    assert replay.outcome == "replay"
    assert replay.output["continue_prompt"] == PLAN["continue_prompt"]
    consumed = json.dumps(replay.output["consumed_record"])
    assert _replay(consumed, incarnation="boot-3").outcome == "record_consumed"
    # The spent pending record never confirms again.
    spent = dict(warning.output)
    spent["pending"] = confirmation.output["pending"]
    assert _confirm(Decision(spent, "warned")).outcome == "token_spent"


def test_the_token_is_deterministic_and_bound_to_the_plan():
    assert _warn().output["token"] == _warn().output["token"]
    assert _warn().output["token"] != _warn(plan={**PLAN, "reason": "other"}).output["token"]
    assert _warn().output["token"] != _warn(incarnation="boot-9").output["token"]
    assert records.is_token(_warn().output["token"])


def test_a_confirmation_executes_the_warned_plan_not_its_own_arguments():
    confirmation = _confirm(_warn(), plan={"requested_by": "ses-docs", "reason": "x",
                                           "continue_prompt": "rm -rf the work"})
    record = confirmation.output["record"]
    assert (record["requested_by"], record["reason"], record["continue_prompt"]) == (
        PLAN["requested_by"], PLAN["reason"], PLAN["continue_prompt"])


def test_a_newer_warning_replaces_the_older_token():
    first, second = _warn(), _warn(now="2026-05-04T10:00:30Z")
    stale = {"op": "confirm", "now": "2026-05-04T10:01:00Z", "incarnation": "boot-1",
             "token": first.output["token"], "pending": second.output["pending"], "sessions": SESSIONS}
    assert handoff.decide(stale).outcome == "token_mismatch"


def test_the_digest_is_verified_with_the_digest_module():
    record = _confirm(_warn()).output["record"]
    assert records.digest_problem(record) is None
    assert records.digest_problem({**record, "reason": "changed"}) == "digest.mismatch"
    assert records.digest_problem({**record, "consumed": {"at": "x", "by_incarnation": "y"}}) is None
    assert records.digest_of(record) == record["digest"]


def test_every_refusal_exits_1_and_invalid_input_exits_2():
    cases = json.loads((ROOT / "conformance" / "cases" / "handoff" / "replay.json").read_text())["cases"]
    cases += json.loads((ROOT / "conformance" / "cases" / "handoff" / "confirm.json").read_text())["cases"]
    seen = set()
    for case in cases:
        outcome = case["expected"]["output"]["outcome"]
        seen.add(outcome)
        expected = 0 if outcome in handoff.PROCEED else 2 if outcome == "invalid_input" else 1
        assert case["expected"]["exit_code"] == expected, case["id"]
    assert seen >= set(handoff.OUTCOMES) - {"warned"}


# -------------------------------------------------------------------------------------------
# The hand-written shape checks agree with the schemas (on values a schema can judge: real
# days, no lone surrogates, which the schemas cannot express).

ROOT = Path(__file__).resolve().parents[2]
_SCHEMAS = ROOT / "schemas" / "v1"


def _validator(name):
    """The packaged schema's reference validator, its patterns read as ECMA-262 (GEN-017,
    CNF-106): a plain Python validator lets ``$`` match before a final line feed."""
    from passdown.engine._schemas import store

    Draft202012Validator.check_schema(json.loads((_SCHEMAS / name).read_text()))
    return store().reference_validator(name)


RECORD_SCHEMA = _validator("handoff.schema.json")
PENDING_SCHEMA = _validator("handoff-pending.schema.json")

stamps = st.datetimes(min_value=datetime(1000, 1, 1), max_value=datetime(9998, 1, 1),
                      timezones=st.just(timezone.utc)).map(lambda moment: moment.isoformat())
text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
odd_values = st.one_of(st.none(), st.booleans(), st.integers(-2, 2**40), text, st.just([]), st.just({}),
                       st.just("2026-05-04T10:00:00Z"), st.just(" "), st.just("a\nb"), st.just("x" * 600))


@st.composite
def mutated(draw, document):
    """``document`` with a few members replaced, removed or added."""
    result = json.loads(json.dumps(document))
    for _ in range(draw(st.integers(0, 3))):
        action = draw(st.sampled_from(["replace", "remove", "add", "nested"]))
        key = draw(st.sampled_from(sorted(result)))
        if action == "replace":
            result[key] = draw(st.one_of(odd_values, stamps))
        elif action == "remove":
            result.pop(key)
        elif action == "add":
            result[draw(st.sampled_from(["extra", "consumed", "spent_at"]))] = draw(
                st.one_of(odd_values, stamps, st.just({"at": "2026-05-04T10:00:00Z", "by_incarnation": "b"})))
        elif isinstance(result[key], list) and result[key]:
            result[key][0] = draw(st.one_of(odd_values, st.just({"id": draw(text)}),
                                            st.just({"id": "x", "parent_id": draw(text)})))
        elif isinstance(result[key], dict) and result[key]:
            inner = draw(st.sampled_from(sorted(result[key])))
            result[key][inner] = draw(odd_values)
        if not result:
            break
    return result


BASE_RECORD = json.loads(json.dumps(_confirm(_warn()).output["record"]))
BASE_PENDING = _warn().output["pending"]


@settings(max_examples=1500, deadline=None)
@given(mutated(BASE_RECORD))
def test_the_record_check_agrees_with_the_record_schema(document):
    assume(all(parse_ms(v) is not None for v in _timestamps(document)))
    assert records.record_shape_ok(document) == RECORD_SCHEMA.is_valid(document)


@settings(max_examples=1500, deadline=None)
@given(mutated(BASE_PENDING))
def test_the_pending_check_agrees_with_the_pending_schema(document):
    assume(all(parse_ms(v) is not None for v in _timestamps(document)))
    assert records.pending_shape_ok(document) == PENDING_SCHEMA.is_valid(document)


def _timestamps(document):
    """Strings in timestamp positions that look like timestamps to the schema's pattern."""
    if not isinstance(document, dict):
        return []
    found = [document.get(k) for k in ("created_at", "expires_at", "spent_at")]
    consumed = document.get("consumed")
    if isinstance(consumed, dict):
        found.append(consumed.get("at"))
    return [v for v in found if isinstance(v, str) and len(v) > 18 and v[4:5] == "-"]


# -------------------------------------------------------------------------------------------
# The clock: RFC 3339 to milliseconds and back, as datetime reads it.

@settings(max_examples=1000)
@given(st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30)),
       st.integers(-23 * 60 - 59, 23 * 60 + 59), st.sampled_from(["T", "t", " "]))
def test_timestamps_read_as_datetime_reads_them(moment, offset_minutes, separator):
    zone = timezone(timedelta(minutes=offset_minutes))
    aware = moment.replace(tzinfo=zone)
    written = aware.isoformat(sep=separator, timespec="milliseconds")
    expected = (aware - datetime(1970, 1, 1, tzinfo=timezone.utc)) // timedelta(milliseconds=1)
    assert parse_ms(written) == expected
    utc_text = written if offset_minutes else written.replace("+00:00", "Z")
    assert parse_ms(utc_text) == expected


@settings(max_examples=1000)
@given(st.integers(parse_ms("0001-01-01T00:00:00Z"), parse_ms("9999-12-31T23:59:59.999Z")))
def test_formatting_milliseconds_reads_back_the_same(millis):
    text = format_ms(millis)
    assert parse_ms(text) == millis
    assert datetime.fromisoformat(text.replace("Z", "+00:00")).isoformat(timespec="milliseconds") == (
        text.replace("Z", "+00:00"))


@pytest.mark.parametrize("text", [
    "2026-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-05-04T24:00:00Z", "2026-05-04T10:60:00Z",
    "2026-05-04T10:00:60Z", "2026-05-04T10:00:00", "2026-05-04T10:00:00+24:00", "2026-05-04T10:00:00.Z",
    "2026-05-04X10:00:00Z", "0000-01-01T00:00:00Z", "２０２６-05-04T10:00:00Z", "2026-05-04T10:00:00+0200",
    "2026-05-04T10:00:00Z" + "0" * 60, None, 1777888800000,
])
def test_what_is_not_a_timestamp(text):
    assert parse_ms(text) is None


# -------------------------------------------------------------------------------------------
# Anything at all: a documented outcome, never an exception.

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | text,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(
        st.sampled_from(["op", "now", "incarnation", "plan", "token", "pending", "sessions",
                         "subagents", "record_text", "record_base64", "record_error", "id",
                         "parent_id", "requested_by", "reason", "continue_prompt"]) | text,
        children, max_size=6),
    max_leaves=30,
)


@settings(max_examples=500)
@given(json_values, st.sampled_from(["warn", "confirm", "replay", None]))
def test_arbitrary_json_values_give_a_documented_outcome(value, op):
    if op is not None and isinstance(value, dict):
        value = {**value, "op": op, "now": "2026-05-04T10:00:00Z", "incarnation": "boot-1"}
    decision = handoff.decide(value)
    assert decision.outcome in handoff.OUTCOMES


@settings(max_examples=300)
@given(st.one_of(json_values.map(json.dumps), text))
def test_arbitrary_record_text_gives_a_documented_replay_outcome(record_text):
    decision = _replay(record_text)
    assert decision.outcome in handoff.OUTCOMES
    assert decision.outcome != "replay"


@given(st.binary(max_size=300))
def test_arbitrary_bytes_give_a_documented_outcome(raw):
    decision = handoff.run(raw)
    assert isinstance(decision, Decision)
    assert decision.outcome in handoff.OUTCOMES
    replay = handoff.decide({"op": "replay", "now": "2026-05-04T10:00:00Z", "incarnation": "b",
                             "record_base64": base64.b64encode(raw).decode()})
    assert replay.outcome in handoff.OUTCOMES
