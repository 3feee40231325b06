"""A toy gate for the conformance tests: shouts a text back. Outcomes SHOUTED, INVALID."""

import json

from passdown.gates import Decision

NAME = "shout"
VERSION = "1.0.0"
SUMMARY = "shout a text back"
OUTCOMES = ("SHOUTED", "INVALID")
MAX_INPUT_BYTES = 64


def decide(value):
    if not isinstance(value, dict) or not isinstance(value.get("text"), str):
        return Decision({"error": "invalid_input"}, "INVALID", 2)
    output = {"text": value["text"].upper(), "length": len(value["text"])}
    if "scale" in value and isinstance(value["scale"], (int, float)) and not isinstance(value["scale"], bool):
        output["scaled"] = value["scale"] * 1.5
    return Decision(output, "SHOUTED", 0)


def run(raw):
    if len(raw) > MAX_INPUT_BYTES:
        return decide(None)
    try:
        value = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return decide(None)
    return decide(value)
