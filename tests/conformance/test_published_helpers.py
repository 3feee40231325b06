"""The suite run against the published helpers: with the shipped expected-failures lists a
host that wraps the restart helper (v2.2.1) or the title helper passes, the lists name exactly
the cases where a helper has no answer (each with its reason), and a helper whose behaviour
changes anywhere else fails the run.

The helpers are the real programs, verbatim, in ``../shared/reference/published-helpers/``
(its README gives their repository, path and commit); a changed helper is the real one run
through ``tests/support/helper_wrapper.py``, which alters only the bytes it is handed."""

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import shared_reference
from passdown.conformance import ExpectedFailures, load_suite

ROOT = Path(__file__).resolve().parents[2]
PASSDOWN = Path(sys.executable).with_name("passdown")
LISTS = {
    "restart": ROOT / "conformance" / "expected-failures" / "restart-gate-v2.2.1.txt",
    "title": ROOT / "conformance" / "expected-failures" / "session-title.txt",
}
WRAPPER = ROOT / "tests" / "support" / "helper_wrapper.py"
SUITE = load_suite(ROOT / "conformance" / "cases")


def _program(gate, mutation=""):
    helper = shlex.quote(str(shared_reference.helper(gate)))
    python = shlex.quote(sys.executable)
    return f"{python} {shlex.quote(str(WRAPPER))} {helper}" if mutation else f"{python} {helper}"


def _run(gate, expected_failures, *selection, mutation=""):
    """``passdown conformance run`` against the real helper, as a host would run it."""
    argv = [str(PASSDOWN), "conformance", "run", "--gate", gate, "--program", _program(gate, mutation),
            "--expected-failures", str(expected_failures), "--format", "json", *selection]
    env = {**os.environ, "PASSDOWN_HELPER_MUTATION": mutation}
    result = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=600, env=env, check=False)
    assert result.stdout.startswith("{"), result.stdout + result.stderr
    return result.returncode, json.loads(result.stdout)


def _listed(gate):
    return {entry.pattern: entry.reason for entry in ExpectedFailures.read(LISTS[gate]).entries}


def _statuses(report):
    return {case["id"]: case["status"] for case in report["cases"]}


@pytest.mark.parametrize("gate", ["restart", "title"])
def test_the_suite_passes_for_the_helper_with_its_shipped_list(gate):
    status, report = _run(gate, f"conformance/expected-failures/{LISTS[gate].name}")
    statuses = _statuses(report)
    assert status == 0, [(c["id"], c.get("message")) for c in report["cases"] if c["status"] != "passed"][:5]
    assert {ident for ident, state in statuses.items() if state == "xfailed"} == set(_listed(gate))
    assert {ident for ident, state in statuses.items() if state != "xfailed"} == {
        case.id for case in SUITE.cases if case.gate == gate} - set(_listed(gate))
    assert set(statuses.values()) == {"passed", "xfailed"}


def test_a_shipped_list_is_found_by_its_bare_name():
    status, report = _run("restart", "restart-gate-v2.2.1", "--id", "restart.input.*")
    assert status == 0
    assert report["summary"]["xfailed"] == 5


def test_a_helper_that_refuses_the_byte_order_mark_fails_the_run():
    status, report = _run("restart", LISTS["restart"], "--id", "restart.input.*", "--id", "restart.encoding.*",
                          mutation="bom")
    failed = {ident for ident, state in _statuses(report).items() if state == "failed"}
    assert status == 1
    assert failed == {"restart.input.bom", "restart.encoding.utf8_bom"}


def test_a_helper_that_no_longer_crashes_on_deep_nesting_fails_the_run():
    # Strict: the listed cases now pass, so the list no longer describes the helper.
    status, report = _run("restart", LISTS["restart"], "--id", "restart.input.*", "--id", "restart.encoding.*",
                          mutation="nesting")
    failed = {case["id"]: case["message"] for case in report["cases"] if case["status"] == "failed"}
    assert status == 1
    assert set(failed) == {"restart.input.deep_nesting", "restart.encoding.utf16_deep_nesting"}
    assert all("remove it from the list" in message for message in failed.values())


def test_a_title_helper_that_reads_only_utf8_fails_the_run():
    status, report = _run("title", LISTS["title"], mutation="utf8only")
    failed = {ident for ident, state in _statuses(report).items() if state == "failed"}
    assert status == 1
    assert failed and all(ident.startswith(("title.encoding.", "title.input.bom")) for ident in failed)
    assert "title.encoding.utf16_le" in failed and "title.input.bom" in failed


def test_a_title_helper_that_no_longer_crashes_outside_the_calendar_fails_the_run():
    status, report = _run("title", LISTS["title"], mutation="calendar")
    failed = {ident for ident, state in _statuses(report).items() if state == "failed"}
    assert status == 1
    assert failed == {"title.failure.outside_calendar", "title.encoding.utf16_outside_calendar"}


@pytest.mark.parametrize("gate", ["restart", "title"])
def test_without_the_list_the_helper_fails_exactly_the_listed_cases(gate):
    """The list names exactly the cases where the real helper crashes, each reason naming what
    it dies of and the requirement of Passdown's answer there, which the case covers."""
    argv = [str(PASSDOWN), "conformance", "run", "--gate", gate, "--program", _program(gate), "--format", "json"]
    result = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)
    report = json.loads(result.stdout)
    errored = {case["id"]: case for case in report["cases"] if case["status"] != "passed"}
    listed = _listed(gate)
    requirements = {case.id: case.requirements for case in SUITE.cases}
    assert result.returncode == 1
    assert set(errored) == set(listed)
    assert all(not re.search(r"[*?\[]", pattern) for pattern in listed)  # exact ids, no globs
    for ident, case in errored.items():  # a crash: nothing printed, exit status 1, a traceback
        assert case["status"] == "errored"
        assert "printed nothing (exit status 1)" in case["message"]
        assert "Traceback" in case["stderr"]
        error = case["stderr"].rstrip().splitlines()[-1].split(":")[0]
        assert listed[ident].startswith(f"uncaught {error}: "), (ident, error)
        requirement = re.search(r"\(([A-Z]{3}-[0-9]{3})\)$", listed[ident])
        assert requirement and requirement.group(1) in requirements[ident], ident


@pytest.mark.parametrize("output_format", ["text", "json"])
def test_a_failure_whose_expected_output_holds_a_lone_surrogate_is_reported(output_format):
    # The expected title holds U+D800: the report shows it as an escape, never a traceback.
    argv = [str(PASSDOWN), "conformance", "run", "--program", _program("title", "utf8only"), "--format", output_format,
            "--id", "title.encoding.utf16_lone_surrogate_title"]
    env = {**os.environ, "PASSDOWN_HELPER_MUTATION": "utf8only"}
    result = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=600, env=env, check=False)
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    if output_format == "json":
        (case,) = json.loads(result.stdout)["cases"]
        assert case["status"] == "failed"
        assert case["expected"]["output"]["title_base"] == "\ud800 Audit"
    else:
        assert '$.title_base: expected "\\ud800 Audit", got absent' in result.stdout
        assert result.stdout.endswith("0 passed, 1 failed, 0 errored, 0 skipped\n")
