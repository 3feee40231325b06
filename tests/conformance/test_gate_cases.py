"""The relaunch, lifecycle and guard gates against their conformance cases, their schemas
and their spec pages: every case passes exactly, every outcome and every MUST is covered,
outputs match the output schemas, and the input schemas agree with what the gates refuse."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import pytest

from passdown.engine._schemas import store
from passdown.conformance._compare import same
from passdown.conformance.requirements import parse_page
from passdown.gates import load

ROOT = Path(__file__).resolve().parents[2]
GATES = ("relaunch", "lifecycle", "guard")
PAGES = {"relaunch": "spec/gates/relaunch.md", "lifecycle": "spec/gates/lifecycle.md",
         "guard": "spec/gates/guard.md"}
# Where the gate is stricter than its input schema can say (both refuse; only the gate sees it).
STRICTER_THAN_SCHEMA = {
    "relaunch.input.impossible_date",  # a day the calendar does not have
    "lifecycle.input.deep_context",  # an opaque context nests at most 32 levels
    # a real day, no leap second, an instant in the years 0001 to 9999 (GEN-004, GEN-020); a
    # lone surrogate (GEN-016); an answer never past 2^53 - 1 (LCY-032)
    "relaunch.values.session_id_lone_surrogate",
    "relaunch.time.now_year_zero",
    "relaunch.time.now_feb_29_common",
    "relaunch.time.now_after_9999",
    "relaunch.time.started_day_32",
    "relaunch.time.started_leap_second",
    "relaunch.time.owner_month_13",
    "relaunch.time.owner_minute_60",
    "relaunch.time.asked_hour_24",
    "relaunch.time.answered_day_zero",
    "relaunch.time.due_offset_hour_24",
    "relaunch.probe.session_id_last_surrogate",
    "relaunch.probe.session_id_first_surrogate",
    "relaunch.probe.owner_leap_year_feb_30",
    "relaunch.probe.owner_month_zero",
    "relaunch.probe.owner_year_zero_in_range",
    "relaunch.probe.owner_offset_minutes_60",
    "relaunch.probe.owner_second_60",
    "lifecycle.values.history_entry_bad_day",
    "lifecycle.values.launch_past_safe_limit",
    "lifecycle.values.acquire_past_safe_limit",
    "lifecycle.time.now_day_32",
    "lifecycle.time.now_leap_second",
    "lifecycle.time.now_after_9999",
    "lifecycle.time.lease_end_feb_30",
    "lifecycle.time.lease_end_hour_24",
    "lifecycle.time.renewal_month_13",
    "lifecycle.time.launch_lease_offset_24",
    "lifecycle.probe.now_leap_year_feb_30",
    "lifecycle.probe.now_feb_29_1700",
    "lifecycle.probe.now_month_zero",
    "lifecycle.probe.now_day_zero",
    "lifecycle.probe.now_year_zero_in_range",
    "lifecycle.probe.now_offset_minutes_60",
    "lifecycle.probe.now_offset_hours_24",
    "lifecycle.probe.now_second_60",
    "lifecycle.probe.now_minute_60",
    "lifecycle.probe.now_before_year_one",
    "lifecycle.probe.seat_id_last_surrogate",
    "lifecycle.probe.seat_id_first_surrogate",
    "lifecycle.values.context_too_deep",  # 33 levels, as deep_context
}


def _cases(gate):
    for path in sorted((ROOT / "conformance" / "cases" / gate).glob("*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        assert document["gate"] == gate
        for case in document["cases"]:
            yield case


CASES = [case for gate in GATES for case in _cases(gate)]


def _gate_of(case):
    return case["id"].split(".", 1)[0]


def _answer(case):
    module = load(_gate_of(case))
    if "input" in case:
        return module.decide(case["input"])
    if "input_text" in case:
        raw = case["input_text"].encode("utf-8")
        # input_padded_to: spaces up to an exact size (a size bound without a large file)
        return module.run(raw + b" " * max(0, case.get("input_padded_to", 0) - len(raw)))
    return module.run(base64.b64decode(case["input_base64"]))


@pytest.mark.parametrize("case", CASES, ids=lambda case: case["id"])
def test_the_gate_passes_the_case(case):
    decision = _answer(case)
    assert same(case["expected"]["output"], decision.output), decision.output
    assert decision.exit_code == case["expected"]["exit_code"]
    assert decision.outcome in load(_gate_of(case)).OUTCOMES
    assert json.loads(decision.text) == decision.output and decision.text.endswith("\n")


@pytest.mark.parametrize("case", [c for c in CASES if "input" in c], ids=lambda case: case["id"])
def test_bytes_and_value_give_the_same_answer(case):
    module = load(_gate_of(case))
    assert module.run(json.dumps(case["input"]).encode("utf-8")) == module.decide(case["input"])


@pytest.mark.parametrize("case", CASES, ids=lambda case: case["id"])
def test_every_expected_output_matches_the_output_schema(case):
    name = f"gates/{_gate_of(case)}.output"
    errors = list(store().reference_validator(name).iter_errors(case["expected"]["output"]))
    assert not errors, errors[0].message


@pytest.mark.parametrize("case", [c for c in CASES if "input" in c], ids=lambda case: case["id"])
def test_the_input_schema_refuses_exactly_what_the_gate_calls_invalid(case):
    name = f"gates/{_gate_of(case)}.input"
    schema_valid = not list(store().reference_validator(name).iter_errors(case["input"]))
    invalid = case["expected"]["output"].get("code") == "invalid_input"
    if case["id"] in STRICTER_THAN_SCHEMA:
        assert schema_valid and invalid
    else:
        assert schema_valid != invalid


def test_case_ids_are_unique_and_prefixed():
    ids = [case["id"] for case in CASES]
    assert len(ids) == len(set(ids))
    assert all(re.fullmatch(r"(relaunch|lifecycle|guard)(\.[a-z0-9_]+)+", i) for i in ids)


@pytest.mark.parametrize("gate", GATES)
def test_every_outcome_is_expected_by_a_case(gate):
    seen = {_answer(case).outcome for case in _cases(gate)}
    assert seen == set(load(gate).OUTCOMES)


@pytest.mark.parametrize("gate", GATES)
def test_every_outcome_is_in_the_spec_code_table(gate):
    page = (ROOT / PAGES[gate]).read_text(encoding="utf-8")
    table = page.split("## Codes", 1)[1]
    listed = re.findall(r"^\| `([a-z_]+)` \|", table, re.M)
    assert listed == list(load(gate).OUTCOMES)


@pytest.mark.parametrize("gate", GATES)
def test_every_must_of_the_page_has_a_case_and_every_named_requirement_exists(gate):
    requirements, findings = parse_page((ROOT / PAGES[gate]).read_text(encoding="utf-8"), PAGES[gate])
    assert not findings
    common, _ = parse_page((ROOT / "spec" / "index.md").read_text(encoding="utf-8"), "spec/index.md")
    known = {r.id for r in requirements} | {r.id for r in _receipt_requirements()} | {r.id for r in common}
    named = {ident for case in _cases(gate) for ident in case["requirements"]}
    assert named <= known, named - known
    needing = {r.id for r in requirements if r.needs_case}
    assert needing <= named, sorted(needing - named)
    untestable = {r.id for r in requirements if not r.fixture_testable}
    assert not named & untestable


def _receipt_requirements():
    page = "spec/relaunch-receipt.md"
    requirements, findings = parse_page((ROOT / page).read_text(encoding="utf-8"), page)
    assert not findings
    return requirements


def test_the_guard_suite_is_behaviour_vectors_and_an_everyday_corpus():
    """At most about 400 behaviour vectors (none pinning internals), each naming a requirement;
    at least 1,000 everyday commands, every one allowed, each traced to its public source."""
    folder = ROOT / "conformance" / "cases" / "guard"
    assert not list(folder.glob("pinned_*"))
    vectors = [c for c in _cases("guard") if c["id"].split(".")[1] not in ("input", "everyday")]
    assert 150 <= len(vectors) <= 420 and all(c["requirements"] for c in vectors)
    everyday = [c for c in _cases("guard") if c["id"].split(".")[1] == "everyday"]
    assert len(everyday) >= 1000
    assert {json.dumps(c["expected"], sort_keys=True) for c in everyday} == {
        '{"exit_code": 0, "output": {"decision": "allow"}}'}
    rows = (folder / "everyday.sources.tsv").read_text(encoding="utf-8").splitlines()
    assert rows[0].split("\t") == ["id", "repository", "path", "commit"]
    sources = {row.split("\t")[0]: row.split("\t")[1:] for row in rows[1:]}
    assert set(sources) == {c["id"] for c in everyday}
    assert all(len(source) == 3 and re.fullmatch(r"[0-9a-f]{40}", source[2]) for source in sources.values())


def test_the_spec_examples_are_the_answers_of_the_cases_they_name():
    relaunch = (ROOT / PAGES["relaunch"]).read_text(encoding="utf-8")
    guard = (ROOT / PAGES["guard"]).read_text(encoding="utf-8")
    by_id = {case["id"]: case for case in CASES}
    for page, case_id in ((relaunch, "relaunch.order.relaunch_when_every_guard_holds"),
                          (guard, "guard.rules.systemctl_user_restart_host_unit")):
        assert f"`{case_id}`" in page
        shown = [json.loads(block) for block in re.findall(r"```json\n(.*?)```", page, re.S)]
        assert shown == [by_id[case_id]["expected"]["output"]]
    schema_example = store().contents("gates/relaunch.input")["examples"][0]
    assert by_id["relaunch.order.relaunch_when_every_guard_holds"]["input"] == schema_example


def test_the_lifecycle_example_cases_named_in_the_spec_exist():
    page = (ROOT / PAGES["lifecycle"]).read_text(encoding="utf-8")
    named = set(re.findall(r"`(lifecycle\.[a-z0-9_.]+)`", page))
    assert named and named <= {case["id"] for case in CASES}


@pytest.mark.parametrize("name", ["gates/relaunch.input", "gates/relaunch.output", "gates/lifecycle.input",
                                  "gates/lifecycle.output", "gates/guard.input", "gates/guard.output",
                                  "relaunch-receipt"])
def test_schemas_describe_every_property_and_their_examples_validate(name):
    schema = store().contents(name)
    assert schema["$id"] == f"https://spec.passdown.dev/schemas/v1/{name}.schema.json"
    assert schema["title"] and schema["description"]

    def walk(node, where):
        if isinstance(node, dict):
            for key, child in node.get("properties", {}).items():
                assert child.get("title") and child.get("description"), f"{where}.{key}"
            for key, child in node.items():
                if key not in ("if", "then", "else", "not", "allOf"):  # conditions, not properties
                    walk(child, f"{where}/{key}")
        elif isinstance(node, list):
            for index, child in enumerate(node):
                walk(child, f"{where}[{index}]")

    walk(schema, name)
    validator = store().reference_validator(name)
    for example in schema.get("examples", []):
        assert not list(validator.iter_errors(example))
