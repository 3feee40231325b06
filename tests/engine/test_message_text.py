"""No finding message or hint shows Python: over every validate and ack case of the
conformance suite, the messages and hints name values as JSON (``null``, ``true``,
``["a", null]``), never as Python reprs (``None``, ``True``, ``['a', None]``)."""

from __future__ import annotations

import pytest

from passdown.conformance._suite import load_suite
from passdown.formats import _detect
from passdown.formats import _ackcheck
from passdown.formats._fastjson import loads
from passdown.gates import validate as validate_gate
from passdown.gates._table import dumps

#: Text only Python writes for a value: reprs of None, booleans, lists and dicts of strings.
PYTHON_ONLY = ("None", "True", "False", "['", "{'")

SUITE = load_suite()


def _value(case):
    raw = case.raw_input()
    try:
        return loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None


def _validate_texts(value):
    if not isinstance(value, dict) or value.get("kind") not in _detect.kind_names():
        return []
    name = value.get("name") if isinstance(value.get("name"), str) else None
    if isinstance(value.get("text"), str):
        raw, syntax = value["text"].encode("utf-8", "surrogatepass"), None
    elif "document" in value:
        raw, syntax = dumps(value["document"]).encode("utf-8", "surrogatepass"), "json"
    else:
        return []
    outcome = validate_gate.check(raw, value["kind"], name, syntax)
    return [text for finding in outcome.findings for text in (finding.message, finding.hint or "")]


def _ack_texts(value):
    if not isinstance(value, dict) or not {"ack", "packet_text", "registry"} <= set(value):
        return []
    verdict = _ackcheck.verify(value["ack"], value["packet_text"], value["registry"],
                               checkout=value.get("checkout"), dirty=value.get("dirty"),
                               checkpoint=value.get("checkpoint"), now=value.get("now"),
                               clock_skew=value.get("clock_skew"))
    return [failure.message for failure in verdict.failures]


READERS = {"validate": _validate_texts, "ack": _ack_texts}
CASES = [case for case in SUITE.cases if case.gate in READERS and case.expected_exit_code != 0]


def test_the_suite_has_invalid_inputs_of_both_gates():
    assert {case.gate for case in CASES} == set(READERS)
    assert len(CASES) > 200


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_no_message_or_hint_shows_a_python_repr(case):
    texts = READERS[case.gate](_value(case))
    shown = [text for text in texts if any(python in text for python in PYTHON_ONLY)]
    assert shown == []


def test_the_readers_see_messages_at_all():
    """The property above is not vacuous: the invalid cases produce messages to judge."""
    counts = {gate: sum(bool(READERS[gate](_value(case))) for case in CASES if case.gate == gate)
              for gate in READERS}
    assert counts["validate"] > 150 and counts["ack"] > 40
