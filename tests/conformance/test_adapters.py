"""The example adapters (Python and Node.js) against the real suite, against generated
cases, and broken on purpose: a wrong answer is caught with the right diff, a crash is
restarted, a hang times out."""

import json
import os
import pathlib
import shutil
import sys
import time

import pytest
from click.testing import CliRunner

from passdown.cli import cli
from passdown.conformance import Harness, Program, load_suite, run
from conformance_toy import generated, toy

ADAPTERS = toy.REPO / "conformance" / "adapters"
PYTHON = [sys.executable, str(ADAPTERS / "python" / "passdown_adapter.py")]
NODE = [shutil.which("node") or "node", str(ADAPTERS / "node" / "adapter.mjs")]
EXAMPLE = toy.REPO / "conformance" / "examples" / "fixture.json"
MIDNIGHT = "title.example.crosses_midnight"
#: What each adapter says it implements: the Node.js one also the ACK check (ack.mjs), the
#: digest gate (digest.mjs) and the validate gate (validate.mjs), with the packages `npm ci`
#: installs from the committed package-lock.json (scripts/test-setup installs them).
IMPLEMENTS = {"python": ({"restart": "2.2.1", "title": "1.0.0"}, "1.1.0"),
              "node": ({"restart": "2.2.1", "title": "1.0.0", "ack": "1.0.0", "digest": "1.0.0", "recovery": "1.0.0",
                        "observe": "1.0.0", "validate": "1.0.0"},
                       "1.3.0")}


@pytest.fixture(params=["python", "node"])
def adapter(request):
    return {"python": PYTHON, "node": NODE}[request.param]


def _name(adapter):
    return "node" if adapter is NODE else "python"


def fault_env(fault="", case="*"):
    environment = dict(os.environ)
    environment.update(PASSDOWN_ADAPTER_FAULT=fault, PASSDOWN_ADAPTER_FAULT_CASE=case)
    return environment


def harness_run(argv, cases, *, fault="", case="*", timeout=5.0):
    harness = Harness(argv, timeout=timeout, env=fault_env(fault, case))
    harness.start()
    try:
        return run(cases, harness, mode="harness")
    finally:
        harness.close()


@pytest.fixture(scope="module")
def example_cases(tmp_path_factory):
    root = tmp_path_factory.mktemp("example")
    (root / "title").mkdir()
    shutil.copy(EXAMPLE, root / "title" / "example.json")
    return load_suite(root).cases


def test_the_real_suite_passes_for_the_gates_the_adapters_implement(adapter):
    gates = IMPLEMENTS[_name(adapter)][0]
    result = CliRunner().invoke(cli, ["conformance", "run", "--harness", " ".join(adapter),
                                      *(f"--gate={gate}" for gate in gates), "--format", "json"])
    assert result.output.startswith("{"), result.output
    report = json.loads(result.output)
    summary = report["summary"]
    assert summary["total"] > 0 and {g["gate"] for g in report["gates"]} == set(gates)
    assert (summary["passed"], result.exit_code) == (summary["total"], 0), [
        (c["id"], c.get("message"), c.get("differences")) for c in report["cases"] if c["status"] != "passed"][:5]


def test_the_node_adapter_conforms_to_the_profiles_it_declares():
    """The second implementation, written from the spec alone, run by the profiles a host
    states: it conforms to core (every case of its five gates, validate's included), recovery,
    observe and python-helper-compat, which it declares, so a case of them skipped or failed
    would fail the run."""
    result = CliRunner().invoke(cli, ["conformance", "run", "--profile", "core", "--profile", "recovery",
                                      "--profile", "observe", "--profile", "python-helper-compat",
                                      "--harness", " ".join(NODE), "-q"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1].split(", ")[1:] == ["0 failed", "0 errored", "0 skipped"]
    full = CliRunner().invoke(cli, ["conformance", "run", "--profile", "core", "--profile", "recovery",
                                    "--profile", "observe", "--profile", "python-helper-compat",
                                    "--harness", " ".join(NODE)])
    assert "conforms to core + recovery + observe + python-helper-compat (declares core, recovery, observe, " \
           "python-helper-compat)" in full.output


def test_the_node_adapter_without_its_packages_keeps_the_gates_that_need_none(tmp_path, example_cases):
    """An installed package has no node_modules: the adapter still starts and serves restart
    and title (and recovery), lists neither ack nor digest, and a digest case is skipped."""
    copy = tmp_path / "node"
    copy.mkdir()
    for module in (ADAPTERS / "node").glob("*.mjs"):
        shutil.copy(module, copy / module.name)
    argv = [NODE[0], str(copy / "adapter.mjs")]
    report = harness_run(argv, example_cases)
    gates = report.implementation["gates"]
    assert {"restart", "title", "recovery"} <= set(gates) and not {"ack", "digest"} & set(gates)
    assert report.counts()["passed"] == len(example_cases)
    digest = [case for case in load_suite(toy.REPO / "conformance" / "cases").cases if case.gate == "digest"][:3]
    skipped = harness_run(argv, digest)
    assert [r.status for r in skipped.results] == ["skipped"] * 3


def test_generated_cases_pass(adapter, tmp_path):
    written = generated.write_suite(tmp_path)
    report = harness_run(adapter, load_suite(tmp_path).cases)
    assert written > 500
    assert report.counts()["passed"] == written, [
        (r.case.id, r.message, r.mismatch) for r in report.results if r.status != "passed"][:3]


def test_metadata(adapter, example_cases):
    report = harness_run(adapter, example_cases)
    info = report.implementation
    gates, version = IMPLEMENTS[_name(adapter)]
    assert info["gates"] == gates and info["version"] == version
    assert report.versions == gates
    assert info["language"] in ("python", "javascript")


def test_a_wrong_answer_is_caught_with_the_right_diff(adapter, example_cases):
    report = harness_run(adapter, example_cases, fault="wrong")
    results = {r.case.id: r for r in report.results}
    assert results["title.example.blank_title"].status == "passed"
    wrong = results[MIDNIGHT]
    assert wrong.status == "failed" and wrong.message == "the output differs"
    assert [d.line() for d in wrong.mismatch.differences] == [
        '$.display_title: expected "Ship the parser | started 06-09", got "Ship the parser | started 05-09"']
    assert report.exit_code == 1


def test_a_crash_is_restarted(adapter, example_cases):
    report = harness_run(adapter, example_cases, fault="crash", case=MIDNIGHT)
    results = {r.case.id: r for r in report.results}
    crashed = results[MIDNIGHT]
    assert crashed.status == "errored"
    assert crashed.message == "the harness exited with status 70 before answering; the harness will be restarted"
    assert f"crashing on {MIDNIGHT}" in crashed.answer.stderr
    assert results["title.example.blank_title"].status == "passed" and report.restarts == 1


def test_a_hang_times_out(adapter, example_cases):
    began = time.monotonic()
    report = harness_run(adapter, example_cases, fault="hang", case=MIDNIGHT, timeout=1.0)
    assert time.monotonic() - began < 15
    results = {r.case.id: r for r in report.results}
    assert results[MIDNIGHT].message == "no result line within 1 s; the harness will be restarted"
    assert results["title.example.blank_title"].status == "passed" and report.restarts == 1


def test_program_mode(adapter, example_cases):
    passing = run(example_cases, Program(adapter, timeout=10, env=fault_env()), mode="program")
    assert passing.summary_line() == "2 passed, 0 failed, 0 errored, 0 skipped"
    wrong = run(example_cases, Program(adapter, timeout=10, env=fault_env("wrong")), mode="program")
    assert [r.status for r in wrong.results] == ["failed", "passed"]
    crash = run(example_cases, Program(adapter, timeout=10, env=fault_env("crash", MIDNIGHT)), mode="program")
    assert [r.status for r in crash.results] == ["errored", "passed"]
    assert "crashing on title.example.crosses_midnight" in crash.results[0].answer.stderr


def test_program_mode_skips_what_it_does_not_implement_with_exit_status_77(adapter, tmp_path):
    """Run without --gate, an adapter answers the gates it does not implement with exit status
    77: skipped with the reason, never errored."""
    suite = load_suite(toy.REPO / "conformance" / "cases")
    picked = [c for c in suite.cases if c.gate == "guard"][:3] + [c for c in suite.cases if c.gate == "title"][:2]
    report = run(picked, Program(adapter, timeout=10, env=fault_env()), mode="program")
    assert report.summary_line() == "2 passed, 0 failed, 0 errored, 3 skipped"
    assert {r.message for r in report.results if r.status == "skipped"} == {"the guard gate is not implemented"}
    newer = json.loads(EXAMPLE.read_text())
    newer["gate_version"] = "1.1.0"
    (tmp_path / "title").mkdir()
    (tmp_path / "title" / "newer.json").write_text(json.dumps(newer))
    report = run(load_suite(tmp_path).cases, Program(adapter, timeout=10, env=fault_env()), mode="program")
    assert {(r.status, r.message) for r in report.results} == {
        ("skipped", "the cases are for title 1.1.0; this adapter implements title 1.0.0")}


def test_the_adapters_command_names_them_and_its_commands_run(tmp_path):
    listed = json.loads(CliRunner().invoke(cli, ["conformance", "adapters", "--format", "json"]).output)
    assert [a["name"] for a in listed] == ["python", "node"]
    # Installed, the adapters are the package's copies; in a checkout, the repository's own.
    for adapter, source in zip(listed, (PYTHON[1], NODE[1])):
        shipped = pathlib.Path(adapter["path"])
        assert shipped.is_absolute() and shipped.parts[-3:] == pathlib.Path(source).parts[-3:]
        assert shipped.read_bytes() == pathlib.Path(source).read_bytes()
    python_path = listed[0]["path"]
    assert listed[0]["harness_command"] == (
        f"passdown conformance run --harness 'python3 {python_path}' --gate restart --gate title")
    text = CliRunner().invoke(cli, ["conformance", "adapters"]).output
    assert f"python: {python_path}\n" in text and f"  program: passdown conformance run --program 'python3 {python_path}'" in text
    import shlex

    for adapter in listed:
        for key in ("harness_command", "program_command"):
            argv = shlex.split(adapter[key])[1:] + ["--id", "title.worked.*", "--format", "json"]
            result = CliRunner().invoke(cli, argv)
            assert result.exit_code == 0 and json.loads(result.output)["summary"]["failed"] == 0, (adapter, key)
