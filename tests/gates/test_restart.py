"""The restart gate gives the published helper's answer: the same printed bytes and exit
status as an independent oracle of the reference notes, for generated and chosen inputs."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import published_helpers_model as published
from gate_cases import README
from passdown.gates import restart
from passdown.gates._table import Decision

FLAGS = (
    "remaining_work", "required_budget_unmeasurable", "policy_authorized", "ownership_committed",
    "target_takeover_readback", "ack_matches", "source_retired_readback",
    "source_archived_readback", "archive_authorized", "archive_supported", "explicit_restart",
    "context_pressure", "safe_boundary", "checkpoint_readback", "checkpoint_current",
    "progress_since_restart", "transfer_supported", "fresh_create_supported",
    "target_read_supported",
)
NUMBERS = (
    "current_input_tokens", "fresh_input_tokens", "restart_overhead_tokens", "remaining_calls",
    "context_capacity_tokens", "compactions", "session_age_seconds", "active_writers",
    "pending_operations",
)

# Values of the wrong kind for any field: each must be read as "unset" or "unknown".
odd = st.sampled_from([None, 1, 0, -1, "true", "", "  ", [], {}, [True], {"a": 1}, 1.0, "1"])
boundary_numbers = st.sampled_from([
    0, 1, 2, 3, 3.0, 2.5, 0.5, 86399, 86400, 86400.0, 64000, 64001, 70000, 80000, 100000,
    15000, 10000, 4999, 5000, 20000, 1e308, 1.7976931348623157e308, -0.0, 0.0,
])
numbers = st.one_of(
    boundary_numbers,
    st.integers(min_value=-5, max_value=300000),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.text(max_size=3),
    st.integers(min_value=-(10**400), max_value=10**400),
)
def mostly(good, other):
    """``good`` four times in five: deep steps are reached only when early ones pass."""
    return st.sampled_from((True, True, True, True, False)).flatmap(
        lambda pick: good if pick else other)


flags = mostly(st.just(True), st.one_of(st.just(False), odd))
identity = st.one_of(st.sampled_from(["source", "task", "target", " ", "", "\t", "source "]),
                     st.text(max_size=4), odd)


@st.composite
def observations(draw):
    """Mostly well-formed observations, so that every step is reached, with mixed-in faults."""
    obs = {}
    obs["schema"] = draw(mostly(st.just(1), st.sampled_from([1.0, True, 2, 0, "1", None])))
    obs["source_id"] = draw(mostly(st.just("source"), identity))
    obs["goal_id"] = draw(mostly(st.just("task"), identity))
    obs["target_id"] = draw(mostly(st.sampled_from(["target", None]), identity))
    if obs["target_id"] is None:
        del obs["target_id"]
    obs["mode"] = draw(mostly(st.sampled_from(["adaptive", "daily"]),
                              st.sampled_from(["off", "Daily", None, 1])))
    obs["creation_status"] = draw(mostly(st.sampled_from(["not_sent", "confirmed"]),
                                         st.sampled_from(["unknown", "sent", None])))
    obs["archive_status"] = draw(st.sampled_from(["unknown", "archived", None, 0]))
    for name in FLAGS:
        obs[name] = draw(flags)
    obs["ownership_committed"] = draw(st.one_of(st.just(False), flags))
    obs["explicit_restart"] = draw(st.one_of(st.just(False), flags))
    obs["context_pressure"] = draw(st.one_of(st.just(False), flags))
    obs["required_budget_unmeasurable"] = draw(mostly(st.just(False), flags))
    for name in NUMBERS:
        obs[name] = draw(mostly(boundary_numbers, numbers))
    for name in ("active_writers", "pending_operations"):
        obs[name] = draw(mostly(st.just(0), numbers))
    # Drop some keys entirely: a missing key is not the same text as a null one.
    for name in draw(st.lists(st.sampled_from(sorted(obs)), max_size=3)):
        obs.pop(name, None)
    return obs


def _gate_bytes(raw):
    decision = restart.run(raw)
    return decision.text, decision.exit_code


@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(observations())
def test_generated_observations_match_the_oracle(obs):
    raw = json.dumps(obs).encode()  # NaN and Infinity go through as their literals
    assert _gate_bytes(raw) == published.expected("restart", raw)


@settings(max_examples=1500, deadline=None)
@given(st.fixed_dictionaries({
    name: st.one_of(st.just(README[name]), numbers) for name in NUMBERS if name in README
}).map(lambda changed: {**README, **changed}))
def test_generated_numbers_on_the_readme_example_match_the_oracle(obs):
    raw = json.dumps(obs).encode()
    assert _gate_bytes(raw) == published.expected("restart", raw)


@settings(max_examples=1500, deadline=None)
@given(st.dictionaries(
    st.sampled_from(FLAGS + NUMBERS + ("mode", "creation_status", "target_id", "archive_status")),
    st.one_of(flags, numbers, st.sampled_from(["off", "daily", "confirmed", "unknown", "t"])),
    max_size=4,
).map(lambda changed: {**README, **changed}))
def test_generated_changes_to_the_readme_example_match_the_oracle(obs):
    raw = json.dumps(obs).encode()
    assert _gate_bytes(raw) == published.expected("restart", raw)


@settings(max_examples=500, deadline=None)
@given(observations())
def test_decide_on_a_parsed_value_matches_the_oracle(obs):
    decision = restart.decide(obs)
    assert (decision.text, decision.exit_code) == published.expected_for_value("restart", obs)
    assert json.loads(decision.text) == decision.output


def test_the_readme_example_creates_a_fresh_session():
    decision = restart.decide(README)
    assert decision.output == {
        "action": "CREATE_FRESH",
        "reason": "record_identity_and_receipt_before_retry",
        "assessment": {
            "basis": "estimated_token_proxy_not_billing",
            "context_occupancy": None,
            "context_pressure": False,
            "materially_smaller_start": True,
            "health_rotation_qualified": False,
            "horizon_calls": 3,
            "estimated_net_tokens_saved": 185000,
            "pays_back_with_margin": True,
        },
    }
    assert decision.outcome == "CREATE_FRESH"
    assert decision.exit_code == 0
    assert decision.text == json.dumps(decision.output, sort_keys=True) + "\n"


def test_float_overflow_prints_infinity_like_json_dumps():
    obs = {**README, "current_input_tokens": 1e308, "fresh_input_tokens": 0,
           "restart_overhead_tokens": 0}
    decision = restart.decide(obs)
    assert decision.output["assessment"]["estimated_net_tokens_saved"] == float("inf")
    assert '"estimated_net_tokens_saved": Infinity' in decision.text


def test_an_integer_too_large_for_a_float_is_invalid_input_where_the_helper_crashes():
    obs = {**README, "current_input_tokens": 10**400, "context_capacity_tokens": 1}
    decision = restart.decide(obs)
    assert decision.output == {"action": "BLOCKED", "reason": "invalid_input"}
    assert decision.exit_code == 2
    assert published.answer_value("restart", obs).crash is OverflowError  # RST-043


def test_a_result_too_long_to_print_is_invalid_input_where_the_helper_crashes():
    # 4,300 digits parse; tripled they no longer print (Python's integer string limit): the
    # helper meets that ValueError in its print, after its try block, and dies (RST-045).
    obs = {**README, "current_input_tokens": 1, "fresh_input_tokens": int("9" * 4300),
           "restart_overhead_tokens": 0}
    decision = restart.decide(obs)
    assert decision.text == '{"action": "BLOCKED", "reason": "invalid_input"}\n'
    assert decision.exit_code == 2
    assert published.answer_value("restart", obs).crash is ValueError


def test_blocked_before_the_assessment_has_no_assessment_key():
    decision = restart.decide({**README, "schema": True})
    assert decision.text == '{"action": "BLOCKED", "reason": "unsupported_schema"}\n'
    assert decision.exit_code == 2


@pytest.mark.parametrize("raw", [
    b"", b"[]", b"null", b'"x"', b"{", b"\xef\xbb\xbf\xef\xbb\xbf{}", b"\xff{}", b"{}" + b" " * 65535,
    b"[" * 30000 + b"]" * 30000, b'{"a":' * 10000 + b"1" + b"}" * 10000, b"\xff\xfe{\x00", b"\x001",
])
def test_unreadable_input_is_blocked_invalid_input(raw):
    decision = restart.run(raw)
    assert decision.output == {"action": "BLOCKED", "reason": "invalid_input"}
    assert decision.outcome == "BLOCKED"
    assert decision.exit_code == 2
    assert (decision.text, decision.exit_code) == published.expected("restart", raw)


@pytest.mark.parametrize("raw", [
    b"\xef\xbb\xbf" + json.dumps(README).encode(),
    b"\xff\xfe" + json.dumps(README).encode("utf-16-le"),
    json.dumps(README).encode("utf-16-be"),
    b"\x00\x00\xfe\xff" + json.dumps(README).encode("utf-32-be"),
    json.dumps(README).encode("utf-32-le"),
    json.dumps({**README, "source_id": "\udc80"}, ensure_ascii=False).encode("utf-8", "surrogatepass"),
])
def test_a_mark_utf16_utf32_and_lone_surrogates_are_decided_as_the_helper_does(raw):
    decision = restart.run(raw)
    assert decision.outcome == "CREATE_FRESH"
    assert (decision.text, decision.exit_code) == published.expected("restart", raw)


def test_exactly_the_bound_is_read_and_one_more_byte_is_not():
    raw = json.dumps(README).encode()
    padded = raw + b" " * (65536 - len(raw))
    assert restart.run(padded).outcome == "CREATE_FRESH"
    assert restart.run(padded + b" ").output == {"action": "BLOCKED", "reason": "invalid_input"}


def test_nan_and_infinity_literals_are_unknown_numbers():
    text = json.dumps(README).replace("80000", "NaN").replace('"compactions": 2',
                                                              '"compactions": Infinity')
    decision = restart.run(text.encode())
    # Unmeasured and untriggered (the compaction count is unknown): keep working.
    assert decision.output == {
        "action": "CONTINUE",
        "reason": "no_observed_trigger",
        "assessment": {"context_occupancy": None, "context_pressure": False,
                       "health_rotation_qualified": False, "materially_smaller_start": False},
    }


def test_duplicate_keys_keep_the_last_value():
    text = '{"schema": 2, ' + json.dumps(README)[1:]  # README's own "schema": 1 comes later
    assert restart.run(text.encode()).outcome == "CREATE_FRESH"


@given(st.binary(max_size=300))
def test_arbitrary_bytes_give_a_documented_outcome(raw):
    decision = restart.run(raw)
    assert isinstance(decision, Decision)
    assert decision.outcome in restart.OUTCOMES
    assert decision.output["reason"] in restart.REASONS
    assert decision.exit_code == (2 if decision.outcome == "BLOCKED" else 0)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=5),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(
        st.sampled_from(sorted(README) + ["target_id", "mode"]) | st.text(max_size=3), children,
        max_size=6),
    max_leaves=20,
)


@given(json_values)
def test_arbitrary_json_values_give_a_documented_outcome(value):
    decision = restart.decide(value)
    assert decision.outcome in restart.OUTCOMES
    assert decision.output["reason"] in restart.REASONS


def test_decide_never_raises_on_values_json_cannot_hold():
    class Weird:
        def __eq__(self, other):
            raise RuntimeError("no comparisons")

        __hash__ = object.__hash__

    for value in ({**README, "mode": Weird()}, {**README, "creation_status": Weird()}, Weird()):
        assert restart.decide(value).output == {"action": "BLOCKED", "reason": "invalid_input"}


def test_outcomes_and_reasons_are_the_published_sets():
    assert len(restart.OUTCOMES) == 17 == len(set(restart.OUTCOMES))
    assert len(restart.REASONS) == 30 == len(set(restart.REASONS))


# The real command, in a subprocess: the launcher, the fast path, stdin and the exit status.
PASSDOWN = Path(sys.executable).with_name("passdown")


@pytest.mark.parametrize("raw", [
    json.dumps(README).encode(),
    json.dumps({**README, "remaining_work": False}).encode(),
    json.dumps({**README, "mode": "sometimes"}).encode(),
    b"not json",
    json.dumps(README).encode() + b" " * 70000,
    json.dumps(README).replace("80000", "NaN").encode(),
])
def test_the_command_prints_the_oracle_line_and_exit_status(raw):
    result = subprocess.run([str(PASSDOWN), "gate", "restart"], input=raw, capture_output=True,
                            timeout=60, check=False)
    assert (result.stdout.decode(), result.returncode) == published.expected("restart", raw)
    assert result.stderr == b""


def test_the_command_reads_a_file_argument(tmp_path):
    path = tmp_path / "obs.json"
    path.write_text(json.dumps(README))
    result = subprocess.run([str(PASSDOWN), "gate", "restart", str(path)], capture_output=True,
                            timeout=60, check=False)
    assert result.returncode == 0
    assert json.loads(result.stdout)["action"] == "CREATE_FRESH"
