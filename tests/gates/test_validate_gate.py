"""The ``validate`` gate: the conformance fixture format's validation cases, through the
gate table and ``passdown gate validate``."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from engine_support import ACK, CHECKPOINT, ROOT, isolated  # noqa: F401
from jsonschema import Draft202012Validator

from passdown.formats import _detect
from passdown.engine._schemas import store
from passdown.gates import gate_names, load, run_bytes, run_gate

REAL = store()  # the packaged schemas, whatever a test puts in place of the store


def test_the_gate_is_in_the_table_with_its_contract():
    assert "validate" in gate_names()
    module = load("validate")
    assert module.NAME == "validate" and module.OUTCOMES == ("valid", "invalid", "bad_input")
    for name in (module.INPUT_SCHEMA, module.OUTPUT_SCHEMA):
        Draft202012Validator.check_schema(REAL.contents(name))


def test_the_input_schema_lists_every_kind():
    schema = REAL.contents(load("validate").INPUT_SCHEMA)
    assert schema["properties"]["kind"]["enum"] == list(_detect.kind_names())


def _output_ok(decision):
    schema = REAL.contents(load("validate").OUTPUT_SCHEMA)
    assert list(Draft202012Validator(schema).iter_errors(decision.output)) == []
    return decision


def test_a_valid_document(isolated):
    decision = _output_ok(run_gate("validate", {"kind": "ack", "document": ACK}))
    assert (decision.output, decision.outcome, decision.exit_code) == (
        {"valid": True, "errors": [], "warnings": []}, "valid", 0)


def test_errors_are_sorted_unique_codes(isolated):
    document = {**ACK, "status": "X", "goal_id": 1, "extra": 1, "more": 2}
    decision = _output_ok(run_gate("validate", {"kind": "ack", "name": "ack.json", "document": document}))
    assert decision.output == {"valid": False, "warnings": [], "errors": [
        "schema.additional_properties", "schema.enum", "schema.type"]}
    assert (decision.outcome, decision.exit_code) == ("invalid", 1)


def test_text_keeps_the_loading_rules(isolated):
    for text, code in (('{"a": 1, "a": 1}', "load.duplicate_key"), ("\ufeff{}", "load.bom"),
                       ('{"n": NaN}', "load.non_finite"), ("[" * 5000, "load.too_deep"),
                       ("\ud800", "load.encoding")):
        decision = run_gate("validate", {"kind": "ack", "text": text})
        assert decision.output == {"valid": False, "errors": [code], "warnings": []}, text


def test_a_document_with_nan_read_from_raw_input(isolated):
    raw = b'{"kind": "ack", "document": {"n": NaN}}'
    assert run_bytes("validate", raw).output["errors"] == ["load.non_finite"]


def test_the_name_decides_the_syntax_of_text(isolated):
    text = "kind: registry\nrevision: 1\n"
    decision = run_gate("validate", {"kind": "registry", "name": "registry.yaml", "text": text})
    assert decision.output["valid"] is True
    decision = run_gate("validate", {"kind": "registry", "name": "registry.json", "text": text})
    assert decision.output["errors"] == ["load.syntax"]


def test_a_document_is_json_whatever_its_name(isolated):
    decision = run_gate("validate", {"kind": "registry", "name": "registry.yaml",
                                     "document": {"kind": "registry", "revision": 0}})
    assert decision.output["valid"] is True


@pytest.mark.parametrize("value", [
    [], "ack", {"kind": "ack"}, {"kind": "nope", "document": {}},
    {"kind": "ack", "document": {}, "text": "{}"}, {"kind": "ack", "text": 3},
    {"kind": "ack", "name": "", "document": {}}, {"kind": "ack", "name": 3, "document": {}},
    {"kind": "ack", "document": {}, "extra": 1},
])
def test_bad_input(isolated, value):
    decision = _output_ok(run_gate("validate", value))
    assert (decision.output, decision.outcome, decision.exit_code) == (
        {"valid": False, "errors": ["gate.bad_input"], "warnings": []}, "bad_input", 2)
    assert list(Draft202012Validator(REAL.contents(load("validate").INPUT_SCHEMA))
                .iter_errors(value)) != []


@pytest.mark.parametrize("raw", [b"", b"{", b"\xff", b"[" * 100_000])
def test_unreadable_raw_input(raw):
    decision = run_bytes("validate", raw)
    assert (decision.outcome, decision.exit_code) == ("bad_input", 2)


def test_the_example_handoff_through_the_gate():
    for path in sorted((ROOT / "examples" / "handoff").rglob("*")):
        if not path.is_file():
            continue
        kind = _detect.by_filename(path.name).name
        decision = run_gate("validate", {"kind": kind, "name": path.name,
                                         "text": path.read_text(encoding="utf-8")})
        assert decision.output == {"valid": True, "errors": [], "warnings": []}, path


def test_the_command_fast_path(tmp_path):
    value = {"kind": "checkpoint", "name": "continue.xbrief.json", "document": {"plan": 1}}
    result = subprocess.run([sys.executable, "-m", "passdown", "gate", "validate"], input=json.dumps(value),
                            capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert result.returncode == 1
    output = json.loads(result.stdout)
    assert output["valid"] is False and "schema.required" in output["errors"]
    assert output["errors"] == sorted(set(output["errors"]))


def test_the_gate_module_imports_nothing_heavy():
    script = ("import sys; import passdown.gates.validate\n"
              "print(sorted(m for m in ('json', 're', 'typing', 'dataclasses', 'click') if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT,
                            timeout=60)
    assert result.stdout.strip() == "[]", result.stderr


def test_every_engine_code_is_documented_in_the_spec():
    from passdown.engine._codes import ENGINE_CODES, SCHEMA_KEYWORDS

    spec = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "spec").rglob("*.md"))
    codes = [*ENGINE_CODES, "gate.bad_input", "schema.not_allowed",
             *(f"schema.{keyword}" for keyword in ("required", "type", "enum", "pattern",
                                                    "additional_properties"))]
    assert [code for code in codes if f"`{code}`" not in spec] == []
    assert set(SCHEMA_KEYWORDS) >= {"required", "type", "enum", "pattern", "additional_properties"}


def test_the_gate_names_its_spec_page():
    assert (ROOT / load("validate").SPEC).is_file()
