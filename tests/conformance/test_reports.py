"""Every report format, rendered from one run with every kind of verdict."""

import json
from xml.etree import ElementTree

import jsonschema
import pytest

from baton.conformance import ExpectedFailures, Harness, Program, Reference, run
from baton.conformance import _reports
from conformance_toy import toy


@pytest.fixture(scope="module")
def mixed():
    """wrong answers (2 failed, 1 of them listed), an errored case, the rest passed."""
    harness = Harness(toy.harness_argv(), timeout=5, env=toy.env("wrong"))
    harness.start()
    failures = ExpectedFailures.parse("shout.basic.word lowercase answers\n", "x")
    try:
        return run(toy.suite().cases, harness, mode="harness", expected_failures=failures)
    finally:
        harness.close()


@pytest.fixture(scope="module")
def clean():
    return run(toy.suite().cases, Reference(toy.TABLE), mode="reference")


def test_counts(mixed):
    assert mixed.counts() == {"passed": 4, "failed": 1, "errored": 0, "skipped": 0, "xfailed": 1}
    assert mixed.summary_line() == "4 passed, 1 failed, 0 errored, 0 skipped, 1 expected failures"


class TestText:
    def test_layout(self, mixed):
        text = _reports.text(mixed)
        lines = text.splitlines()
        assert lines[0] == "baton conformance: toy 0.1 (python), via harness"
        assert lines[2].split() == ["gate", "passed", "failed", "errored", "skipped"]
        assert lines[3].split() == ["shout", "4", "1", "0", "0", "(1", "expected", "failures)"]
        assert "FAILED shout.basic.float  (" in text and "  requirements: CNF-901" in text
        assert '  input: {"text": "a", "scale": 2}' in text
        assert "XFAIL shout.basic.word  (lowercase answers)" in text
        assert lines[-1] == "4 passed, 1 failed, 0 errored, 0 skipped, 1 expected failures"


class TestJson:
    def test_valid_against_the_report_schema(self, mixed, clean):
        schema = json.loads((toy.REPO / "conformance" / "report.schema.json").read_text())
        jsonschema.Draft202012Validator.check_schema(schema)
        program = run(toy.suite().cases[:2], Program(toy.harness_argv(), timeout=5, env=toy.env("crash")),
                      mode="program")
        assert program.counts()["errored"] == 2 and program.implementation["gates"] is None
        for report in (mixed, clean, program):
            document = json.loads(_reports.json_text(report))
            errors = list(jsonschema.Draft202012Validator(schema).iter_errors(document))
            assert errors == [], [e.message for e in errors]

    def test_content(self, mixed):
        document = _reports.to_json(mixed)
        assert document["kind"] == "conformance_report" and document["runner"]["mode"] == "harness"
        assert document["summary"]["total"] == 6 and document["summary"]["exit_code"] == 1
        assert document["gates"] == [{"gate": "shout", "passed": 4, "failed": 1, "errored": 0, "skipped": 0,
                                      "xfailed": 1, "total": 6}]
        failed = next(c for c in document["cases"] if c["status"] == "failed")
        assert failed["id"] == "shout.basic.float"
        assert failed["expected"] == {"output": {"text": "A", "length": 1, "scaled": 3.0}, "exit_code": 0}
        assert failed["actual"] == {"output": {"text": "a", "length": 1, "scaled": 3.0}, "exit_code": 0}
        xfailed = next(c for c in document["cases"] if c["status"] == "xfailed")
        assert xfailed["expected_failure"] == "lowercase answers" and xfailed["actual"]["stdout"] is not None
        passed = next(c for c in document["cases"] if c["status"] == "passed")
        assert set(passed) == {"id", "gate", "status", "requirements", "file", "path", "duration_seconds"}

    def test_schema_has_titles_and_descriptions_on_properties(self):
        schema = json.loads((toy.REPO / "conformance" / "report.schema.json").read_text())
        assert schema["$id"] == "https://spec.baton.dev/conformance/report.schema.json"
        for name, sub in schema["properties"].items():
            assert sub.get("title") and sub.get("description"), name


class TestJunit:
    def test_parses_and_counts(self, mixed):
        root = ElementTree.fromstring(_reports.junit(mixed))
        assert root.tag == "testsuites"
        assert (root.get("tests"), root.get("failures"), root.get("errors"), root.get("skipped")) == ("6", "1", "0", "1")
        [suite] = root.findall("testsuite")
        assert suite.get("name") == "shout" and len(suite.findall("testcase")) == 6
        failing = suite.find("testcase[@name='shout.basic.float']")
        failure = failing.find("failure")
        assert failure.get("message") == "the output differs" and '+  "text": "a"' in failure.text
        assert suite.find("testcase[@name='shout.basic.word']/skipped").get("message") == "expected failure: lowercase answers"

    def test_control_characters_in_stderr_stay_valid_xml(self):
        harness = Harness(toy.harness_argv(), timeout=5, env=toy.env("error"))
        harness.start()
        try:
            report = run(toy.suite().cases[:1], harness, mode="harness")
        finally:
            harness.close()
        result = report.results[0]
        poisoned = type(result.answer)("errored", message="bad \x00 byte", context={"x": "\x1b[31m"},
                                       stderr="\x00\x07 bell\ud800")
        report = type(report)(report.implementation, "harness", (type(result)(result.case, "errored", poisoned, 0.1,
                                                                              "bad \x00 byte"),), 0.1)
        root = ElementTree.fromstring(_reports.junit(report))
        case = root.find("testsuite/testcase")
        assert case.find("error").get("message") == "bad \ufffd byte"
        assert case.find("system-err").text == "\ufffd\ufffd bell\ufffd"


class TestMarkdown:
    def test_table_and_details(self, mixed):
        markdown = _reports.markdown(mixed)
        assert markdown.startswith("## Baton conformance: toy 0.1 (python), via harness\n")
        assert "**4 passed, 1 failed, 0 errored, 0 skipped, 1 expected failures**" in markdown
        assert "| gate | passed | failed | errored | skipped |" in markdown
        assert "| shout | 4 | 1 | 0 | 0 |" in markdown
        assert "<summary>failed: <code>shout.basic.float</code>: the output differs</summary>" in markdown
        assert '```diff\n--- expected output\n' in markdown

    def test_clean_run_has_no_failures_section(self, clean):
        assert "### Failures" not in _reports.markdown(clean)


class TestBadge:
    def test_clean(self, clean):
        assert _reports.badge(clean) == {"schemaVersion": 1, "label": "baton conformance",
                                         "message": "100% passing", "color": "brightgreen"}

    def test_rounds_down(self, mixed):
        assert _reports.badge(mixed) == {"schemaVersion": 1, "label": "baton conformance",
                                         "message": "66% passing", "color": "red"}
        assert json.loads(_reports.badge_text(mixed))["message"] == "66% passing"


def test_cli_writes_every_report(tmp_path):
    from click.testing import CliRunner

    from baton.cli import cli

    paths = {name: tmp_path / f"report.{name}" for name in ("xml", "md", "badge")}
    result = CliRunner().invoke(cli, [
        "conformance", "run", "--suite", str(toy.CASES), "--harness", " ".join(toy.harness_argv()),
        "--format", "json", "--junit", str(paths["xml"]), "--markdown", str(paths["md"]),
        "--badge", str(paths["badge"])])
    assert result.exit_code == 0
    assert json.loads(result.output)["summary"]["line"] == "6 passed, 0 failed, 0 errored, 0 skipped"
    assert ElementTree.parse(paths["xml"]).getroot().get("tests") == "6"
    assert paths["md"].read_text().startswith("## Baton conformance")
    assert json.loads(paths["badge"].read_text())["message"] == "100% passing"
