"""The digest and ack gates: their schemas describe every fixture, their modules stay cheap to
import, and the command line answers as the gate does."""

import base64
import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from referencing import Registry, Resource

from passdown.engine import _ecma
from passdown.formats import _ackcheck
from passdown.gates import load

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "schemas" / "v1"


def _registry():
    resources = []
    for path in SCHEMAS.rglob("*.schema.json"):
        schema = json.loads(path.read_text(encoding="utf-8"))
        resources.append((schema["$id"], Resource.from_contents(schema)))
    return Registry().with_resources(resources)


REGISTRY = _registry()


def _validator(relative):
    schema = json.loads((SCHEMAS / relative).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    # patterns read as ECMA-262 reads them (CNF-106): `$` only at the very end
    return jsonschema.Draft202012Validator(_ecma.translate_schema(schema), registry=REGISTRY)


def _fixtures(gate):
    for path in sorted((ROOT / "conformance" / "cases" / gate).glob("*.json")):
        yield from json.loads(path.read_text(encoding="utf-8"))["cases"]


@pytest.mark.parametrize("gate", ["digest", "ack"])
def test_every_expected_output_fits_the_output_schema(gate):
    validator = _validator(f"gates/{gate}.output.schema.json")
    for case in _fixtures(gate):
        errors = list(validator.iter_errors(case["expected"]["output"]))
        assert not errors, (case["id"], errors[0].message if errors else None)


@pytest.mark.parametrize("gate", ["digest", "ack"])
def test_every_answered_input_fits_the_input_schema(gate):
    validator = _validator(f"gates/{gate}.input.schema.json")
    for case in _fixtures(gate):
        output = case["expected"]["output"]
        usable = output.get("outcome") != "unusable" and output.get("error") not in (
            "digest.input_invalid", "digest.input_unreadable")
        if "input" in case and usable:
            errors = list(validator.iter_errors(case["input"]))
            assert not errors, (case["id"], errors[0].message if errors else None)


def test_the_digest_input_schema_refuses_what_the_gate_calls_invalid():
    validator = _validator("gates/digest.input.schema.json")
    for case in _fixtures("digest"):
        if case["expected"]["output"].get("error") == "digest.input_invalid" and "input" in case:
            if case["id"] in ("digest.input.packet_document", "digest.input.syntax_with_document",
                              "digest.input.bad_base64", "digest.strings.algorithm_conflict",
                              "digest.input.raw_document", "digest.input.base64_junk"):
                continue  # combinations a schema cannot express; the gate refuses them
            assert not validator.is_valid(case["input"]), case["id"]


def test_the_ack_output_schema_lists_exactly_the_rule_codes():
    schema = json.loads((SCHEMAS / "gates" / "ack.output.schema.json").read_text(encoding="utf-8"))
    listed = schema["properties"]["codes"]["items"]["enum"]
    assert listed == [*_ackcheck.CODES, "ack.input_invalid", "ack.input_unreadable"]


def test_every_rule_code_is_documented_in_the_spec():
    ack_page = (ROOT / "spec" / "ack.md").read_text(encoding="utf-8")
    for code, requirement, *_ in _ackcheck.RULES:
        assert f"`{code}`" in ack_page and f"**{requirement}**" in ack_page, code
    digest_page = (ROOT / "spec" / "digest.md").read_text(encoding="utf-8")
    for code in load("digest").OUTCOMES:
        if code.startswith("digest.") and code != "digest.match":
            assert f"`{code}`" in digest_page, code


@pytest.mark.parametrize("module", ["passdown.gates.digest", "passdown.gates.ack"])
def test_gate_modules_import_nothing_heavy(module):
    probe = (f"import sys; import {module}; "
             "print(sorted(m for m in ('json', 're', 'typing', 'dataclasses', 'click', 'rfc8785', "
             "'blake3', 'hashlib') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def _gate_cli(name, raw):
    return subprocess.run([sys.executable, "-m", "passdown", "gate", name], input=raw, capture_output=True,
                          check=False)


def test_the_command_line_prints_the_gate_output_and_exit_status():
    raw = json.dumps({"kind": "packet", "text": "GOAL_ID: g\r\nCHECKPOINT_DIGEST: x\r\n"}).encode()
    done = _gate_cli("digest", raw)
    assert done.returncode == 0
    assert json.loads(done.stdout) == load("digest").run(raw).output
    refused = _gate_cli("digest", b'{"kind": "json", "document": {"a": NaN}}')
    assert refused.returncode == 2
    assert json.loads(refused.stdout) == {"error": "digest.non_finite", "path": "$.a"}


def test_the_ack_gate_command_line_exits_1_on_rejection():
    case = next(c for c in _fixtures("ack") if c["id"] == "ack.goal.ack_differs")
    done = _gate_cli("ack", json.dumps(case["input"]).encode())
    assert done.returncode == 1
    assert json.loads(done.stdout) == case["expected"]["output"]


def test_the_digest_gate_refuses_oversized_input_without_reading_it_all():
    module = load("digest")
    big = b'{"kind": "raw", "base64": "' + base64.b64encode(b"\0" * (module.MAX_INPUT_BYTES)) + b'"}'
    assert module.run(big).output == {"error": "digest.input_unreadable"}


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=15)
digest_inputs = st.fixed_dictionaries(
    {"kind": st.sampled_from(["checkpoint", "registry", "ack", "handoff", "json", "yaml", "packet", "raw", "x"])},
    optional={"document": json_values, "text": st.text(max_size=60), "base64": st.text(max_size=20),
              "algorithm": st.sampled_from(["blake3", "sha256", "md5", 3]), "syntax": st.sampled_from(["json", "yaml", 1]),
              "expected": st.text(max_size=70) | st.just("blake3:" + "0" * 64)})


@settings(max_examples=300, deadline=None)
@given(st.one_of(json_values, digest_inputs))
def test_the_digest_gate_answers_any_input_within_its_schema(value):
    decision = load("digest").decide(value)
    assert decision.exit_code in (0, 1, 2)
    assert _validator("gates/digest.output.schema.json").is_valid(decision.output)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(["ack", "packet_text", "registry", "checkout", "dirty", "checkpoint", "now"]),
                       json_values, max_size=7))
def test_the_ack_gate_answers_any_input_within_its_schema(value):
    decision = load("ack").decide(value)
    assert decision.exit_code in (0, 1, 2)
    assert _validator("gates/ack.output.schema.json").is_valid(decision.output)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_both_gates_answer_any_bytes(raw):
    for gate in ("digest", "ack"):
        assert load(gate).run(raw).exit_code in (0, 1, 2)


def _base_readback():
    return next(c for c in _fixtures("ack") if c["id"] == "ack.accept.full_readback")["input"]


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(["ack", "registry", "checkpoint"]), st.data())
def test_the_ack_gate_survives_any_value_in_any_field(part, data):
    import copy

    value = copy.deepcopy(_base_readback())
    node = value[part]
    while True:  # walk down to a random member, then replace it with anything
        keys = list(node) if isinstance(node, dict) else list(range(len(node))) if isinstance(node, list) else []
        if not keys:
            break
        key = data.draw(st.sampled_from(keys))
        if not isinstance(node[key], (dict, list)) or data.draw(st.booleans()):
            node[key] = data.draw(json_values)
            break
        node = node[key]
    decision = load("ack").decide(value)
    assert decision.output["outcome"] in ("accepted", "rejected")
    assert _validator("gates/ack.output.schema.json").is_valid(decision.output)


@pytest.mark.parametrize("gate", ["digest", "ack"])
def test_each_outcome_is_listed_once(gate):
    outcomes = load(gate).OUTCOMES
    assert len(outcomes) == len(set(outcomes))


def _next_action_message(ack_action, packet_action):
    suite = {c["id"]: c for c in json.loads(
        (Path(__file__).parents[2] / "conformance/cases/ack/freshness.json").read_text())["cases"]}
    value = suite["ack.next_action.differs"]["input"]
    stated = "NEXT_SAFE_ACTION: Run the tests in tests/\n  and report the result.\n"
    assert stated in value["packet_text"]
    packet = value["packet_text"].replace(stated, f"NEXT_SAFE_ACTION: {packet_action}\n")
    verdict = _ackcheck.verify({**value["ack"], "first_safe_action": ack_action}, packet,
                               value["registry"])
    return [f.message for f in verdict.failures if f.code == "ack.next_action_mismatch"]


def test_a_next_action_mismatch_shows_both_actions():
    assert _next_action_message("Run the tests.", "Run the linter.") == [
        'the ACK\'s first_safe_action "Run the tests." is not the packet\'s NEXT_SAFE_ACTION '
        '"Run the linter."']


def test_long_next_actions_are_shown_from_just_before_they_differ():
    start = "Read xbrief/continue.xbrief.json, then migrate reports/monthly.py to the new parser"
    [message] = _next_action_message(f"{start} and run pytest -q.", f"{start}  and run pytest -x.")
    assert message == (
        'the ACK\'s first_safe_action "new parser and run pytest -q." (from character 74) '
        'is not the packet\'s NEXT_SAFE_ACTION "new parser and run pytest -x." (from '
        'character 74)')


def test_a_missing_next_action_is_shown_as_json():
    assert _next_action_message(None, "Run the linter.") == [
        'the ACK\'s first_safe_action null is not the packet\'s NEXT_SAFE_ACTION '
        '"Run the linter."']
