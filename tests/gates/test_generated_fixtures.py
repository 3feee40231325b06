"""The conformance fixtures of the restart, title, recovery and handoff gates: up to date
with their builders (whose restart and title answers come from the oracles), passed by the
gates, covering every step, action, reason and outcome, and agreeing with the schemas and
with the examples the spec pages show."""

import json
import re
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

import gate_fixtures
from passdown.conformance._suite import load_suite
from passdown.gates import load

ROOT = Path(__file__).resolve().parents[2]
GATES = ("restart", "title", "recovery", "handoff")
SUITE = load_suite(ROOT / "conformance" / "cases")
CASES = [case for case in SUITE.cases if case.gate in GATES]


def test_fixture_files_are_what_the_builders_write():
    for relative, document in gate_fixtures.documents().items():
        path = ROOT / "conformance" / "cases" / relative
        assert path.read_text(encoding="utf-8") == gate_fixtures.render(document), relative


def test_the_suite_loads_without_findings():
    assert [f for f in SUITE.findings if f.file and any(f"/{g}/" in f.file for g in GATES)] == []


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_the_gate_gives_the_expected_answer(case):
    module = load(case.gate)
    decision = module.decide(case.input_value) if case.input_kind == "input" else module.run(
        case.raw_input())
    assert decision.output == case.expected_output
    assert _typed(decision.output) == _typed(case.expected_output)
    assert decision.exit_code == case.expected_exit_code
    if case.expected_stdout is not None:
        assert decision.text == case.expected_stdout
    assert decision.outcome in module.OUTCOMES


@pytest.mark.parametrize("case", [c for c in CASES if c.input_kind == "input"], ids=lambda c: c.id)
def test_a_value_case_gives_the_same_answer_as_its_bytes(case):
    module = load(case.gate)
    assert module.run(case.raw_input()) == module.decide(case.input_value)


def _typed(value):
    """JSON value with its types made visible: 1 and 1.0 and True differ."""
    if isinstance(value, dict):
        return {key: _typed(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_typed(item) for item in value]
    return (type(value).__name__, value)


def _cases(gate):
    return [case for case in CASES if case.gate == gate]


def test_every_gate_outcome_is_expected_by_a_case():
    for gate in GATES:
        module = load(gate)
        seen = set()
        for case in _cases(gate):
            decision = module.decide(case.input_value) if case.input_kind == "input" else module.run(
                case.raw_input())
            seen.add(decision.outcome)
        assert seen == set(module.OUTCOMES), gate


def test_restart_cases_cover_every_action_reason_and_step():
    restart = load("restart")
    actions = {case.expected_output["action"] for case in _cases("restart")}
    reasons = {case.expected_output["reason"] for case in _cases("restart")}
    named = {ident for case in _cases("restart") for ident in case.requirements}
    assert actions == set(restart.OUTCOMES)
    assert reasons == set(restart.REASONS)
    steps = {f"RST-{21 + step:03d}" for step in range(18)}
    assert steps <= named


def test_restart_cases_hold_the_boundary_values():
    inputs = [case.input_value for case in _cases("restart") if case.input_kind == "input"]

    def any_case(**members):
        return any(all(obs.get(k) == v and type(obs.get(k)) is type(v) for k, v in members.items())
                   for obs in inputs if isinstance(obs, dict))

    assert any_case(current_input_tokens=70000, context_capacity_tokens=100000)  # 0.70
    assert any_case(current_input_tokens=80000, fresh_input_tokens=64000)  # 0.80
    assert any_case(current_input_tokens=20000, fresh_input_tokens=10000, restart_overhead_tokens=5000,
                    remaining_calls=1)  # exactly 2x
    assert any_case(remaining_calls=3) and any_case(remaining_calls=10)  # the 3-call horizon
    assert any_case(compactions=2) and any_case(compactions=1)
    assert any_case(session_age_seconds=86400, mode="daily")
    assert any_case(session_age_seconds=86399, mode="daily")


def test_the_readme_example_is_create_fresh_with_horizon_3_and_185000():
    (case,) = [c for c in _cases("restart") if c.id == "restart.example.readme"]
    assert case.expected_output["action"] == "CREATE_FRESH"
    assert case.expected_output["assessment"]["horizon_calls"] == 3
    assert case.expected_output["assessment"]["estimated_net_tokens_saved"] == 185000
    assert case.expected_exit_code == 0


def test_every_unknown_form_has_a_case():
    texts = [case.input_value for case in _cases("restart") if case.input_kind == "input_text"]
    values = [case.input_value for case in _cases("restart") if case.input_kind == "input"]
    current = [v.get("current_input_tokens", "absent") for v in values if isinstance(v, dict)]
    assert "absent" in current and -1 in current and True in current and "80000" in current
    assert any('"current_input_tokens": NaN' in text or "NaN" in text for text in texts)


_SCHEMAS = ROOT / "schemas" / "v1"


def _registry():
    resources = []
    for path in _SCHEMAS.rglob("*.schema.json"):
        document = json.loads(path.read_text(encoding="utf-8"))
        resources.append((document["$id"], Resource.from_contents(document)))
    return Registry().with_resources(resources)


REGISTRY = _registry()


def _validator(relative):
    """The packaged schema's reference validator, its patterns read as ECMA-262 (GEN-017,
    CNF-106): a plain Python validator would read ``\\s`` as Python's white space."""
    from passdown.engine._schemas import store

    document = json.loads((_SCHEMAS / relative).read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(document)
    return store().reference_validator(relative)


@pytest.mark.parametrize("gate", GATES)
def test_every_expected_output_is_valid_against_the_output_schema(gate):
    validator = _validator(load(gate).OUTPUT_SCHEMA)
    for case in _cases(gate):
        errors = list(validator.iter_errors(case.expected_output))
        assert errors == [], (case.id, errors[0].message)


@pytest.mark.parametrize("gate", ("recovery", "handoff"))
def test_inputs_the_gate_accepts_are_valid_against_the_input_schema(gate):
    validator = _validator(load(gate).INPUT_SCHEMA)
    for case in _cases(gate):
        if case.input_kind != "input" or case.expected_output.get("outcome") == "invalid_input":
            continue
        if gate == "recovery" and any(left["reason"] == "invalid_session"
                                      for left in case.expected_output["left"]):
            continue
        errors = list(validator.iter_errors(case.input_value))
        assert errors == [], (case.id, errors[0].message)


#: Refusals a schema cannot state: a timestamp's real day, its instant or an expiry past year
#: 9999, a lone surrogate, the rules between sessions, base64 and the record sources.
BEYOND_SCHEMA = {
    "handoff.confirm.requester_not_running", "handoff.confirm.duplicate_running",
    "handoff.confirm.unknown_parent_second", "handoff.confirm.now_bad_day",
    "handoff.confirm.duplicate_session", "handoff.confirm.unknown_parent", "handoff.confirm.cycle",
    "handoff.replay.two_sources", "handoff.replay.bad_base64", "handoff.replay.base64_non_ascii",
    "handoff.replay.three_sources", "handoff.replay.text_and_error", "handoff.replay.now_bad_day",
    "handoff.warn.reason_lone_surrogate", "handoff.warn.now_day_32", "handoff.warn.now_month_13",
    "handoff.warn.now_hour_24", "handoff.warn.now_feb_29_common", "handoff.warn.now_year_zero",
    "handoff.warn.now_before_year_one", "handoff.warn.now_after_9999",
    "handoff.warn.now_offset_hour_24", "handoff.warn.now_offset_minute_60",
    "handoff.warn.now_bad_day", "handoff.warn.now_leap_second", "handoff.warn.now_end_of_time",
    "handoff.confirm.first_problem_named",
    "handoff.confirm.duplicate_named_before_requester",
    "handoff.warn.incarnation_id_last_surrogate",
    "handoff.warn.incarnation_id_first_surrogate",
    "handoff.warn.now_leap_year_feb_30",
    "handoff.warn.now_month_zero",
    "handoff.warn.now_year_zero_in_range",
    "handoff.warn.now_offset_minutes_60",
    "handoff.warn.now_minute_60",
    "handoff.warn.now_second_61",
    "handoff.warn.now_day_zero",
}


def test_inputs_the_gates_refuse_as_invalid_are_invalid_against_the_input_schema():
    for gate in ("recovery", "handoff"):
        validator = _validator(load(gate).INPUT_SCHEMA)
        for case in _cases(gate):
            if case.input_kind == "input" and case.expected_output.get("outcome") == "invalid_input":
                # A few rules (a lone surrogate, a timestamp's real day, expiry after 9999,
                # a cycle) are beyond a schema; every other refusal is the schema's too.
                if case.id in BEYOND_SCHEMA:
                    continue
                assert not validator.is_valid(case.input_value), case.id


def test_the_restart_input_schema_accepts_the_readme_example():
    (case,) = [c for c in _cases("restart") if c.id == "restart.example.readme"]
    assert _validator("gates/restart.input.schema.json").is_valid(case.input_value)


def test_records_written_by_confirmations_are_valid_handoff_records():
    record_validator = _validator("handoff.schema.json")
    pending_validator = _validator("handoff-pending.schema.json")
    for case in _cases("handoff"):
        output = case.expected_output
        if output["outcome"] in ("confirmed", "warned"):
            assert pending_validator.is_valid(output["pending"]), case.id
        if output["outcome"] == "confirmed":
            assert record_validator.is_valid(output["record"]), case.id
        if output["outcome"] == "replay":
            assert record_validator.is_valid(output["consumed_record"]), case.id


PAGES = ("spec/gates/restart.md", "spec/gates/title.md", "spec/gates/recovery.md",
         "spec/gates/handoff.md", "spec/handoff-record.md")


def _json_blocks(page):
    text = (ROOT / page).read_text(encoding="utf-8")
    return [json.loads(block) for block in re.findall(r"```json\n(.*?)```", text, re.S)]


def _all_values(case):
    yield case.input_value
    yield case.expected_output
    if isinstance(case.expected_output, dict):
        yield from case.expected_output.values()


def test_every_json_example_in_the_spec_pages_is_a_fixture_value():
    values = [value for case in CASES for value in _all_values(case)]
    for page in PAGES:
        for block in _json_blocks(page):
            assert block in values, (page, block)


def test_cases_named_in_the_spec_pages_exist():
    ids = {case.id for case in CASES}
    for page in PAGES:
        text = (ROOT / page).read_text(encoding="utf-8")
        for named in re.findall(r"`((?:restart|title|recovery|handoff)\.[a-z0-9_.]+[a-z0-9_])`", text):
            if named.endswith((".*", ".json")) or named.count(".") < 2:
                continue
            assert named in ids, (page, named)


def test_the_white_space_the_restart_page_lists_is_what_blank_means():
    text = (ROOT / "spec" / "gates" / "restart.md").read_text(encoding="utf-8")
    paragraph = text[text.index("White space, here"):text.index("- **RST-013**")]
    listed = set()
    for first, last in re.findall(r"U\+([0-9A-F]{4})(?: to U\+([0-9A-F]{4}))?", paragraph):
        listed.update(range(int(first, 16), int(last or first, 16) + 1))
    listed.discard(0x200B)  # named as the example of what is not white space
    assert listed == {code for code in range(0x110000) if chr(code).isspace()}
