"""The recovery gate: its answer's invariants on generated stores, and every input, however
odd, answered with a documented outcome."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from passdown.gates import recovery
from passdown.gates._table import Decision

NOW = 1_777_888_800_000
KINDS = ["completed", "aborted", "blocked", "error", "max-tokens", "interrupted", "forked", "paused"]
CAUSES = ["user", "parent", "hook", "disposed", "legacy", "timeout", None]
IDS = [f"s{n}" for n in range(8)]


@st.composite
def candidates(draw):
    entry = {"id": draw(st.sampled_from(IDS))}
    if draw(st.booleans()):
        entry["parent_id"] = draw(st.sampled_from(IDS + ["live", "gone"]))
    if draw(st.booleans()):
        kind = draw(st.sampled_from(KINDS))
        turn_end = {"kind": kind}
        cause = draw(st.sampled_from(CAUSES))
        if cause is not None:
            turn_end["cause"] = {"kind": cause}
        entry["last_turn_end"] = turn_end
    if draw(st.booleans()):
        entry["torn_log"] = draw(st.booleans())
    if draw(st.booleans()):
        entry["inbox"] = {"next-turn": draw(st.integers(0, 2)), "next-step": draw(st.lists(st.just("p"), max_size=1))}
    if draw(st.integers(0, 9)):
        entry["last_event_ms"] = NOW - draw(st.integers(-1000, 8_000_000))
    if draw(st.booleans()):
        entry["log_mtime_ms"] = NOW - draw(st.integers(0, 9_000_000))
    if not draw(st.integers(0, 19)):
        entry["torn_log"] = "yes"  # an invalid candidate now and then
    return entry


stores = st.fixed_dictionaries({
    "now_ms": st.just(NOW),
    "sessions": st.lists(candidates(), max_size=10),
    "bounds": st.fixed_dictionaries({"max_sessions": st.integers(0, 6)}),
    "live_session_ids": st.lists(st.sampled_from(["live", "s7"]), max_size=2, unique=True),
})


@settings(max_examples=800, deadline=None)
@given(stores)
def test_every_candidate_is_answered_once_and_the_plan_keeps_its_rules(store):
    decision = recovery.decide(store)
    output = decision.output
    assert decision.exit_code == 0
    assert output["outcome"] == ("recover" if output["recovered"] else "nothing_to_recover")
    assert decision.outcome == output["outcome"]
    sessions = store["sessions"]
    recovered_ids = [entry["id"] for entry in output["recovered"]]
    left_indexes = [entry["index"] for entry in output["left"]]
    # Every candidate exactly once: recovered ids are unique, so they map to single entries.
    assert len(recovered_ids) == len(set(recovered_ids))
    assert sorted(left_indexes) == left_indexes
    assert len(recovered_ids) + len(left_indexes) == len(sessions)
    assert len(recovered_ids) <= store["bounds"]["max_sessions"]
    live = set(store["live_session_ids"])
    woken = set()
    for entry in output["recovered"]:
        assert entry["reason"] in recovery.RECOVER_REASONS
        assert entry["id"] not in live
        # Top-down: a parent is live or was woken earlier in the list.
        assert entry["parent_id"] is None or entry["parent_id"] in live | woken
        woken.add(entry["id"])
        (source,) = [s for i, s in enumerate(sessions)
                     if i not in left_indexes and s.get("id") == entry["id"]]
        assert NOW - source["last_event_ms"] <= 7_200_000
        assert 0 <= NOW - source["last_event_ms"]
    for entry in output["left"]:
        assert entry["reason"] in recovery.LEFT_REASONS


@settings(max_examples=300, deadline=None)
@given(stores)
def test_a_larger_bound_never_changes_the_verdict_of_an_unbounded_plan(store):
    unbounded = {**store, "bounds": {"max_sessions": 10_000}}
    plan = recovery.decide(unbounded).output
    # Without the bound, no candidate is over the limit, and every recoverable one is taken.
    assert all(entry["reason"] != "over_limit" for entry in plan["left"])


def test_the_newest_candidate_wins_the_last_slot():
    store = {"now_ms": NOW, "bounds": {"max_sessions": 1}, "sessions": [
        {"id": "old", "torn_log": True, "last_event_ms": NOW - 5000},
        {"id": "new", "torn_log": True, "last_event_ms": NOW - 10},
    ]}
    output = recovery.decide(store).output
    assert [entry["id"] for entry in output["recovered"]] == ["new"]
    assert output["left"] == [{"index": 0, "id": "old", "reason": "over_limit"}]


def test_every_turn_end_kind_and_cause_has_its_own_reason():
    reasons = set()
    for kind in KINDS:
        for cause in CAUSES:
            turn_end = {"kind": kind, **({"cause": {"kind": cause}} if cause else {})}
            output = recovery.decide({"now_ms": NOW, "sessions": [
                {"id": "a", "last_turn_end": turn_end, "last_event_ms": NOW}]}).output
            entries = output["recovered"] + output["left"]
            reasons.add(entries[0]["reason"])
    assert reasons == {
        "completed", "aborted_by_user", "aborted_by_parent", "aborted_by_hook", "aborted_disposed",
        "aborted_legacy", "aborted_cause_unknown", "blocked", "error", "max_tokens", "interrupted",
        "forked", "unknown_turn_end",
    }


def test_defaults_are_reported_in_the_answer():
    output = recovery.decide({"now_ms": 0, "sessions": []}).output
    assert output["bounds"] == {"max_age_ms": 7_200_000, "max_sessions": 50, "mtime_slack_ms": 60_000}


def test_the_store_bound_is_ten_thousand_candidates():
    many = {"now_ms": NOW, "sessions": [{"id": f"s{n}"} for n in range(10_001)]}
    assert recovery.decide(many).output == {"outcome": "invalid_input", "field": "$.sessions"}
    many["sessions"].pop()
    assert recovery.decide(many).outcome == "nothing_to_recover"


def test_the_command_prints_the_answer_with_sorted_keys():
    decision = recovery.run(json.dumps({"now_ms": NOW, "sessions": [
        {"id": "a", "torn_log": True, "last_event_ms": NOW}]}).encode())
    assert decision.text == (
        '{"bounds": {"max_age_ms": 7200000, "max_sessions": 50, "mtime_slack_ms": 60000}, '
        '"left": [], "outcome": "recover", "recovered": [{"id": "a", "parent_id": null, '
        '"reason": "torn_log"}]}\n'
    )


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(
        st.sampled_from(["now_ms", "sessions", "bounds", "live_session_ids", "id", "parent_id",
                         "last_turn_end", "kind", "cause", "torn_log", "inbox", "next-turn",
                         "last_event_ms", "log_mtime_ms", "max_sessions"]) | st.text(max_size=3),
        children, max_size=6),
    max_leaves=30,
)


@settings(max_examples=500)
@given(json_values)
def test_arbitrary_json_values_give_a_documented_outcome(value):
    decision = recovery.decide(value)
    assert decision.outcome in recovery.OUTCOMES
    assert decision.exit_code == (2 if decision.outcome == "invalid_input" else 0)


@settings(max_examples=300)
@given(st.fixed_dictionaries({"now_ms": st.integers(0, 2 * NOW), "sessions": st.lists(json_values, max_size=5)}))
def test_arbitrary_candidates_give_documented_reasons(store):
    output = recovery.decide(store).output
    assert output["outcome"] in recovery.OUTCOMES
    for entry in output.get("left", []):
        assert entry["reason"] in recovery.LEFT_REASONS


@given(st.binary(max_size=300))
def test_arbitrary_bytes_give_a_documented_outcome(raw):
    decision = recovery.run(raw)
    assert isinstance(decision, Decision)
    assert decision.outcome in recovery.OUTCOMES


def test_hostile_nesting_and_size_are_invalid_input():
    assert recovery.run(b"[" * 100_000 + b"]" * 100_000).output == {"outcome": "invalid_input", "field": "$"}
    assert recovery.run(b" " * (4 * 1024 * 1024 + 1)).output == {"outcome": "invalid_input", "field": "$"}
