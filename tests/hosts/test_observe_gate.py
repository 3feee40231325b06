"""``passdown observe`` reads a real session file with the observe gate's rules (HST-132): for
every case of conformance/cases/observe/ cut from the real samples, a session file made of the
case's head and tail gives the observer the gate's expected context size, model, capacity,
session id and start."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from passdown.hosts import _observe

CASES = Path(__file__).resolve().parents[2] / "conformance" / "cases" / "observe"
READ = [case for name in ("claude.json", "codex.json")
        for case in json.loads((CASES / name).read_text(encoding="utf-8"))["cases"]
        if case["expected"]["output"]["outcome"] != "not_a_session"]


def test_the_cases_read_here_cover_every_outcome_of_a_session():
    assert {case["expected"]["output"]["outcome"] for case in READ} == {
        "measured", "compacted", "no_call"}
    assert len(READ) == 13


@pytest.mark.parametrize("case", READ, ids=[case["id"] for case in READ])
def test_the_observer_reads_a_file_as_the_gate_reads_its_text(tmp_path, case):
    given, expected = case["input"], case["expected"]["output"]
    path = tmp_path / "session.jsonl"
    path.write_text((given.get("head") or "") + given["tail"], encoding="utf-8")
    found = _observe.observe(given["host"], str(path), folder=str(tmp_path),
                             now="2026-12-04T00:00:00Z")
    fields = found["fields"]
    assert fields["current_input_tokens"]["value"] == expected["current_input_tokens"]["value"]
    assert fields["current_input_tokens"]["basis"] == expected["current_input_tokens"]["basis"]
    assert fields["context_capacity_tokens"]["value"] == expected["context_capacity_tokens"]["value"]
    for name in ("model", "session_id", "started_at"):
        assert (found[name]["value"], found[name]["basis"]) == (
            expected[name]["value"], expected[name]["basis"]), name
