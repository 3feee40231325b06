"""The ``ack`` gate: whether an ACK matches a fresh readback.

Input ``{ack, packet_text, registry, checkout, dirty, checkpoint?, now?, clock_skew?}`` (the
readback, as JSON); output ``{outcome, codes, skipped}``: ``accepted`` (exit 0), ``rejected`` with every
failed rule's code (exit 1), or ``unusable`` (exit 2). The rules live in
:mod:`passdown.formats._ackcheck`; this module only reads the gate's input and shapes its output.
"""

from passdown.gates._table import Decision, InputError, parse_input

NAME = "ack"
VERSION = "1.0.0"
SUMMARY = "Whether an ACK matches a fresh readback of packet, registry, checkpoint and checkout."
SPEC = "spec/ack.md"
INPUT_SCHEMA = "gates/ack.input.schema.json"
OUTPUT_SCHEMA = "gates/ack.output.schema.json"
#: A registry and a packet are each bounded to 10 MiB by the loader; the readback holds both (ACK-120).
MAX_INPUT_BYTES = 24 << 20

OUTCOMES = ("accepted", "rejected", "unusable")
_REQUIRED = ("ack", "packet_text", "registry")
_KEYS = frozenset((*_REQUIRED, "checkout", "dirty", "checkpoint", "now", "clock_skew"))


def _unusable(code):
    return Decision({"outcome": "unusable", "codes": [code], "skipped": []}, "unusable", 2)


def run(raw):
    try:
        value = parse_input(raw, MAX_INPUT_BYTES, allow_constants=False)
    except InputError:
        return _unusable("ack.input_unreadable")
    return decide(value)


def decide(value):
    if not isinstance(value, dict) or not set(value) <= _KEYS or not all(k in value for k in _REQUIRED):
        return _unusable("ack.input_invalid")
    from passdown.formats import _ackcheck

    verdict = _ackcheck.verify(value["ack"], value["packet_text"], value["registry"],
                               checkout=value.get("checkout"), dirty=value.get("dirty"),
                               checkpoint=value.get("checkpoint"), now=value.get("now"),
                               clock_skew=value.get("clock_skew"))
    return Decision(verdict.to_dict(), verdict.outcome, verdict.exit_code)
