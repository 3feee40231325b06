"""The order of the ACK gate's `codes` and `skipped` is the one ACK-118 and ACK-119 state,
read from the requirement text itself: the spec, the output schema, every fixture and the
reference agree on it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from passdown.conformance._suite import load_suite
from passdown.gates import load

ROOT = Path(__file__).resolve().parents[2]
REQUIREMENTS = {r["id"]: r for r in json.loads(
    (ROOT / "conformance" / "requirements.json").read_text(encoding="utf-8"))["requirements"]}
#: The words by which a requirement states the order; the test reads which one it uses.
ORDERS = {
    "sorted in ascending order of the code's characters (its ASCII bytes)": sorted,
    "sorted in ascending order of its characters (its ASCII bytes)": sorted,
    "in the order of the rules": None,
}
ACK_CASES = [case for case in load_suite(ROOT / "conformance" / "cases").cases if case.gate == "ack"]


def _stated_order(requirement_id):
    text = " ".join(REQUIREMENTS[requirement_id]["text"].split())
    stated = [order for phrase, order in ORDERS.items() if phrase in text]
    assert len(stated) == 1, f"{requirement_id} states no single order: {text}"
    return stated[0]


@pytest.mark.parametrize(("requirement_id", "member"), [("ACK-118", "codes"), ("ACK-119", "skipped")])
def test_every_fixture_lists_in_the_stated_order(requirement_id, member):
    order = _stated_order(requirement_id)
    assert order is sorted, f"{requirement_id} states an order the fixtures cannot show alone"
    listed = [(case.id, case.expected_output[member]) for case in ACK_CASES]
    assert listed and all(values == order(set(values)) for _, values in listed), [
        case_id for case_id, values in listed if values != sorted(set(values))]


def test_a_case_pins_the_order_against_the_rule_order():
    """At least one case fails rules whose run order is not their sorted order, so the order
    is pinned, not only allowed."""
    from passdown.formats._ackcheck import CODES

    rule_order = {code: index for index, code in enumerate(CODES)}
    assert any(
        len(codes) > 1 and sorted(codes, key=rule_order.__getitem__) != sorted(codes)
        for codes in (case.expected_output["codes"] for case in ACK_CASES
                      if case.expected_output["outcome"] == "rejected"))


def test_the_schema_says_the_same_order():
    schema = json.loads((ROOT / "schemas" / "v1" / "gates" / "ack.output.schema.json").read_text(encoding="utf-8"))
    for member, requirement_id in (("codes", "ACK-118"), ("skipped", "ACK-119")):
        description = schema["properties"][member]["description"]
        assert "sorted in ascending order of" in description and requirement_id in description


def test_the_reference_sorts_what_the_rules_find_in_run_order():
    gate = load("ack")
    case = next(case for case in ACK_CASES if case.id == "ack.many.every_code_listed")
    decision = gate.decide(case.input_value)
    assert decision.output["codes"] == ["ack.checkout_mismatch", "ack.digest_mismatch",
                                        "ack.goal_mismatch", "ack.stale"]
