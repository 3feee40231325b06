"""The real suite: it loads, `passdown conformance check` is clean, and the built-in reference
passes every case of every gate."""

from click.testing import CliRunner

from passdown.cli import cli
from passdown.conformance import Reference, load_suite, run
from passdown.gates import gate_names


def test_the_suite_loads_without_structural_findings():
    suite = load_suite()
    assert [(f.file, f.json_path, f.code, f.message) for f in suite.findings] == []
    assert len(suite.cases) > 0


def test_the_reference_passes_every_case_of_every_gate():
    suite = load_suite()
    assert set(suite.gates()) == set(gate_names()), "every gate of the gate table has cases"
    report = run(suite.cases, Reference(), mode="reference")
    problems = [(r.case.id, r.status, r.message, r.diff) for r in report.results if r.status != "passed"]
    assert problems == []
    assert report.exit_code == 0


def test_check_is_clean():
    result = CliRunner().invoke(cli, ["conformance", "check"])
    assert result.exit_code == 0, result.output[-5000:]
    assert result.output.rstrip().endswith("check passed: 0 errors, 0 warnings")


def test_the_reference_run_exits_0():
    result = CliRunner().invoke(cli, ["conformance", "run"])
    assert result.exit_code == 0, result.output[-3000:]
    assert result.output.endswith(" 0 failed, 0 errored, 0 skipped\n")
