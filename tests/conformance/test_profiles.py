"""Conformance profiles (spec/conformance.md, "Profiles"; CNF-045 to CNF-048): which profile
each case belongs to, each profile's verdict, a skip inside a declared profile failing the run,
and every report format stating the verdicts."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from types import SimpleNamespace
from xml.etree import ElementTree

import pytest
from click.testing import CliRunner

from passdown.cli import cli
from passdown.conformance import load_suite
from passdown.conformance._implementations import ANSWERED, Answer, skipped
from passdown.conformance._runner import Report, Result
from passdown.conformance.profiles import COMPAT_TAG, PROFILES, PYTHON_HELPER_COMPAT, profile_of, totals, verdicts

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "conformance" / "cases"
#: One small fixture file per gate: a suite with every core gate and one of handoff.
SMALL = {"validate": "digest.json", "digest": "raw.json", "ack": "readback.json",
         "restart": "examples.json", "title": "failures.json", "handoff": "input.json"}


@pytest.fixture(scope="module")
def small_suite(tmp_path_factory):
    root = tmp_path_factory.mktemp("suite")
    for gate, name in SMALL.items():
        (root / gate).mkdir()
        shutil.copy(CASES / gate / name, root / gate / name)
    return root


@pytest.fixture(scope="module")
def suite():
    return load_suite(CASES)


def _result(gate, status, tags=()):
    case = SimpleNamespace(gate=gate, tags=tags, profile=profile_of(gate, tags))
    return SimpleNamespace(case=case, status=status)


def test_every_case_of_the_suite_has_one_profile_of_the_table(suite):
    profiles = {case.id: case.profile for case in suite.cases}
    assert set(profiles.values()) == set(PROFILES)
    assert {case.gate for case in suite.cases if case.profile == "core"} == set(PROFILES["core"])
    compat = [case for case in suite.cases if case.profile == PYTHON_HELPER_COMPAT]
    assert compat and {case.gate for case in compat} == {"restart", "title"}
    assert all(COMPAT_TAG in case.tags for case in compat)
    assert sum(totals(suite.cases).values()) == len(suite.cases)


def test_each_gate_is_in_one_profile():
    gates = [gate for profile in PROFILES.values() for gate in profile]
    assert len(gates) == len(set(gates))
    assert profile_of("restart", (COMPAT_TAG,)) == PYTHON_HELPER_COMPAT
    assert profile_of("guard") == "guard" and profile_of("ack") == "core"


def test_a_profile_conforms_only_when_every_case_of_it_ran_and_passed():
    core = [_result(gate, "passed") for gate in PROFILES["core"]]
    assert [r["verdict"] for r in verdicts(core, {"core": 5})] == ["conforms"]
    assert [r["verdict"] for r in verdicts(core, {"core": 6})] == ["incomplete"]  # one left out
    assert [r["verdict"] for r in verdicts(core[:4], {"core": 4})] == ["incomplete"]  # a gate absent
    assert [r["verdict"] for r in verdicts([*core[:4], _result("title", "skipped")], {"core": 5})] == ["incomplete"]
    for status in ("failed", "errored", "xfailed"):
        assert [r["verdict"] for r in verdicts([*core[:4], _result("title", status)], {"core": 5})] == ["fails"]
    rows = verdicts([_result("guard", "skipped")], {"guard": 1}, declared=("guard",))
    assert rows == [{"profile": "guard", "gates": ["guard"], "passed": 0, "failed": 0, "errored": 0,
                     "skipped": 1, "xfailed": 0, "total": 1, "selected": 1, "verdict": "not_run",
                     "declared": True}]


def test_a_skip_inside_a_declared_profile_fails_the_run(suite):
    case = next(c for c in suite.cases if c.gate == "handoff")
    result = Result(case, "skipped", skipped("not today"), 0.0, "not today")
    assert Report({"profiles": ["handoff"]}, "harness", (result,), 0.0).exit_code == 1
    passed = Result(case, "passed", Answer(ANSWERED, exit_code=0), 0.0)
    assert Report({"profiles": ["core"]}, "harness", (result, passed), 0.0).exit_code == 0
    assert Report({"profiles": ["handoff"]}, "harness", (passed,), 0.0).exit_code == 0


def _run(suite, *args):
    return CliRunner().invoke(cli, ["conformance", "run", "--suite", str(suite), *args], catch_exceptions=False)


def test_every_report_states_the_verdict_per_profile(small_suite, tmp_path):
    paths = {name: tmp_path / f"report.{name}" for name in ("xml", "md", "badge", "html")}
    result = _run(small_suite, "--id", "handoff.input.op_*", "--id", "ack.*", "--id", "digest.*", "--id", "restart.*",
                  "--id", "title.*", "--id", "validate.*", "--format", "json", "--junit", str(paths["xml"]),
                  "--markdown", str(paths["md"]), "--badge", str(paths["badge"]), "--html", str(paths["html"]))
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    rows = {row["profile"]: row for row in document["profiles"]}
    assert set(rows) == {"core", "handoff"}
    assert rows["core"]["verdict"] == "conforms" and rows["core"]["declared"] is True
    assert rows["handoff"]["verdict"] == "incomplete" and rows["handoff"]["selected"] < rows["handoff"]["total"]
    assert document["conforms_to"] == ["core"]
    assert json.loads(paths["badge"].read_text())["message"] == "core"
    markdown = paths["md"].read_text()
    assert "Profiles: conforms to core (declares " in markdown and "| core | conforms (declared) |" in markdown
    properties = {p.get("name"): p.get("value") for p in ElementTree.parse(paths["xml"]).getroot().iter("property")}
    assert properties["profile.core"] == "conforms (declared)" and properties["conforms_to"] == "core"
    assert properties["profile.handoff"].startswith("incomplete (")
    page = paths["html"].read_text()
    assert 'id="profile-table"' in page and "conforms to core" in page
    text = _run(small_suite).output
    assert "\nconforms to core + handoff (declares " in text
    assert text.endswith(" passed, 0 failed, 0 errored, 0 skipped\n")


def test_the_profile_option_selects_and_refuses_unknown_names(small_suite):
    result = CliRunner().invoke(cli, ["conformance", "list", "--suite", str(small_suite), "--profile", "handoff",
                                      "--format", "json"])
    listed = json.loads(result.output)
    assert listed and {case["profile"] for case in listed} == {"handoff"}
    refused = _run(small_suite, "--profile", "core+handoff")
    assert refused.exit_code == 2 and "no conformance profile is named 'core+handoff'" in refused.output


@pytest.mark.parametrize("command", ["run", "list"])
def test_the_profile_option_names_every_profile_of_the_table(command):
    """The help of --profile lists the table's profiles, so a profile added to the table (as
    observe was) is offered where a host looks for it."""
    help_text = "".join(CliRunner().invoke(cli, ["conformance", command, "--help"]).output.split())
    assert "".join(f"conformance profile (repeatable): {', '.join(PROFILES)}.".split()) in help_text
