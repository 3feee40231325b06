"""Every report format, rendered from runs with every kind of verdict, one implementation
or several: text, JSON (valid against the report schemas), JUnit, Markdown, HTML, the badge;
the report stream written as the run goes and read back into the same reports."""

import json
from xml.etree import ElementTree

import jsonschema
import pytest
from click.testing import CliRunner
from referencing import Registry, Resource

from passdown.cli import cli
from passdown.conformance import ExpectedFailures, Harness, Program, Reference, run
from passdown.conformance import _reports, _stream
from passdown.conformance._stream import view_of
from conformance_toy import toy

CONFORMANCE = toy.REPO / "conformance"
HARNESS = " ".join(toy.harness_argv())


def harness_report(mode="", expected=None, case=""):
    harness = Harness(toy.harness_argv(), timeout=5, env=toy.env(mode, case))
    harness.start()
    try:
        return run(toy.suite().cases, harness, mode="harness", expected_failures=expected)
    finally:
        harness.close()


@pytest.fixture(scope="module")
def mixed():
    """wrong answers (2 failed, 1 of them listed), the rest passed."""
    return view_of(harness_report("wrong", ExpectedFailures.parse("shout.basic.word lowercase answers\n", "x")))


@pytest.fixture(scope="module")
def clean():
    return view_of(run(toy.suite().cases, Reference(toy.TABLE), mode="reference"))


@pytest.fixture(scope="module")
def compared():
    """The reference, a wrong harness and a harness that skips one case with an issue link."""
    return view_of(run(toy.suite().cases, Reference(toy.TABLE), mode="reference"),
                   harness_report("wrong"), harness_report("skip", case="shout.basic.float"))


def schema_validator(name):
    resources = []
    for schema_name in ("report", "report-stream"):
        document = json.loads((CONFORMANCE / f"{schema_name}.schema.json").read_text())
        jsonschema.Draft202012Validator.check_schema(document)
        resources.append((document["$id"], Resource.from_contents(document)))
    registry = Registry().with_resources(resources)
    return jsonschema.Draft202012Validator(dict(resources)[f"https://spec.passdown.dev/conformance/{name}.schema.json"].contents,
                                           registry=registry)


def test_counts(mixed):
    [entry] = mixed.entries
    assert entry.counts() == {"passed": 4, "failed": 1, "errored": 0, "skipped": 0, "xfailed": 1}
    assert entry.summary_line() == "4 passed, 1 failed, 0 errored, 0 skipped, 1 expected failures"


class TestText:
    def test_layout(self, mixed):
        text = _reports.text(mixed)
        lines = text.splitlines()
        assert lines[0] == "passdown conformance: toy 0.1 (python), via harness"
        assert lines[1] == "gates implemented: shout (version not stated)"
        assert lines[3].split() == ["gate", "version", "passed", "failed", "errored", "skipped"]
        assert lines[4].split() == ["shout", "1.0.0", "4", "1", "0", "0", "(1", "expected", "failures)"]
        assert "FAILED shout.basic.float  (" in text and "  requirements: CNF-901" in text
        assert '  input: {"text": "a", "scale": 2}' in text
        assert '  $.text: expected "A", got "a"' in text
        assert "XFAIL shout.basic.word  (lowercase answers)" in text
        assert lines[-1] == "4 passed, 1 failed, 0 errored, 0 skipped, 1 expected failures"

    def test_skips_keep_their_issue(self, compared):
        text = _reports.text(compared)
        assert "skipped 1: not today  (issue: https://example.org/toy/issues/7)" in text

    def test_comparison(self, compared):
        lines = _reports.text(compared).splitlines()
        assert lines[0] == "passdown conformance: 3 implementations compared"
        assert [line.split()[:1] + line.split()[-5:] for line in lines[2:6]] == [
            ["name", "passed", "failed", "errored", "skipped", "xfailed"],
            ["reference", "6", "0", "0", "0", "0"],
            ["harness-1", "4", "2", "0", "0", "0"],
            ["harness-2", "5", "0", "0", "1", "0"],
        ]
        assert lines[7].split() == ["gate", "version", "reference", "harness-1", "harness-2"]
        assert lines[8].split() == ["shout", "1.0.0", "6", "passed", "4", "passed,", "2", "failed",
                                    "5", "passed,", "1", "skipped"]
        start = lines.index("cases an implementation failed: 2 (the other 4 passed or were skipped by every implementation)")
        assert [line.split() for line in lines[start + 1:start + 4]] == [
            ["case", "reference", "harness-1", "harness-2"],
            ["shout.basic.word", "passed", "failed", "passed"],
            ["shout.basic.float", "passed", "failed", "skipped"],
        ]
        assert "== harness-1: toy 0.1 (python), via harness" in lines
        assert lines[-3:] == ["reference: 6 passed, 0 failed, 0 errored, 0 skipped",
                              "harness-1: 4 passed, 2 failed, 0 errored, 0 skipped",
                              "harness-2: 5 passed, 0 failed, 0 errored, 1 skipped"]

    def test_a_lone_surrogate_is_shown_escaped(self):
        report = harness_report("wrong")
        poisoned = report.results[0]
        answer = type(poisoned.answer)("errored", message="bad \ud800 text")
        report = type(report)(report.implementation, "harness",
                              (type(poisoned)(poisoned.case, "errored", answer, 0.1, "bad \ud800 text"),), 0.1)
        assert "bad \\ud800 text" in _reports.text(view_of(report))


class TestJson:
    @pytest.mark.parametrize("name", ["mixed", "clean", "compared"])
    def test_valid_against_the_report_schema(self, request, name):
        document = json.loads(_reports.json_text(request.getfixturevalue(name)))
        errors = list(schema_validator("report").iter_errors(document))
        assert errors == [], [e.message for e in errors]

    def test_a_program_run_is_valid_too(self):
        program = run(toy.suite().cases[:2], Program(toy.harness_argv(), timeout=5, env=toy.env("crash")),
                      mode="program")
        document = _reports.to_json(view_of(program))
        assert document["implementation"]["gates"] is None and document["implementation"]["gate_versions"] is None
        assert list(schema_validator("report").iter_errors(document)) == []

    def test_content(self, mixed):
        document = _reports.to_json(mixed)
        assert document["kind"] == "conformance_report" and document["runner"]["mode"] == "harness"
        assert document["summary"]["total"] == 6 and document["summary"]["exit_code"] == 1
        assert document["suite"] == {"gates": {"shout": "1.0.0"}}
        assert document["implementation"]["gate_versions"] == {"shout": None}
        assert document["gates"] == [{"gate": "shout", "gate_version": "1.0.0", "passed": 4, "failed": 1,
                                      "errored": 0, "skipped": 0, "xfailed": 1, "total": 6}]
        failed = next(c for c in document["cases"] if c["status"] == "failed")
        assert failed["id"] == "shout.basic.float" and failed["gate_version"] == "1.0.0"
        assert failed["expected"] == {"output": {"text": "A", "length": 1, "scaled": 3.0}, "exit_code": 0}
        assert failed["actual"] == {"output": {"text": "a", "length": 1, "scaled": 3.0}, "exit_code": 0}
        assert failed["differences"] == [{"path": "$.text", "expected": '"A"', "got": '"a"'}]
        xfailed = next(c for c in document["cases"] if c["status"] == "xfailed")
        assert xfailed["expected_failure"] == "lowercase answers" and xfailed["actual"]["stdout"] is not None
        passed = next(c for c in document["cases"] if c["status"] == "passed")
        assert set(passed) == {"id", "gate", "gate_version", "description", "profile", "status", "requirements", "file",
                               "path", "input_kind", "input_excerpt", "duration_seconds"}

    def test_a_comparison_holds_each_report_and_the_verdicts_side_by_side(self, compared):
        document = _reports.to_json(compared)
        assert document["kind"] == "conformance_comparison" and document["summary"]["exit_code"] == 1
        assert [r["name"] for r in document["reports"]] == ["reference", "harness-1", "harness-2"]
        assert document["cases"][1] == {"id": "shout.basic.float", "gate": "shout", "statuses": {
            "reference": "passed", "harness-1": "failed", "harness-2": "skipped"}}
        skipped = document["reports"][2]["cases"][1]
        assert skipped["skip"] == {"code": "by_implementation", "message": "not today",
                                   "issue_url": "https://example.org/toy/issues/7"}

    def test_schemas_have_titles_and_descriptions_on_properties(self):
        def walk(node, path):
            if isinstance(node, dict):
                for name, sub in node.get("properties", {}).items():
                    if "$ref" not in sub:
                        assert sub.get("title") and sub.get("description"), f"{path}.{name}"
                for key, value in node.items():
                    walk(value, f"{path}.{key}")
            elif isinstance(node, list):
                for item in node:
                    walk(item, path)

        for name in ("report", "report-stream"):
            schema = json.loads((CONFORMANCE / f"{name}.schema.json").read_text())
            assert schema["$id"] == f"https://spec.passdown.dev/conformance/{name}.schema.json"
            walk(schema, name)


class TestJunit:
    def test_parses_and_counts(self, mixed):
        root = ElementTree.fromstring(_reports.junit(mixed))
        assert root.tag == "testsuites"
        assert (root.get("tests"), root.get("failures"), root.get("errors"), root.get("skipped")) == ("6", "1", "0", "1")
        [suite] = root.findall("testsuite")
        assert suite.get("name") == "shout" and len(suite.findall("testcase")) == 6
        assert {p.get("name"): p.get("value") for p in suite.findall("properties/property")} == {
            "gate_version": "1.0.0", "implemented_version": "not stated", "profile.shout": "fails",
            "conforms_to": "none"}
        failure = suite.find("testcase[@name='shout.basic.float']/failure")
        assert failure.get("message") == "the output differs" and failure.text == '$.text: expected "A", got "a"'
        assert suite.find("testcase[@name='shout.basic.word']/skipped").get("message") == "expected failure: lowercase answers"

    def test_a_comparison_has_a_suite_per_implementation_and_gate(self, compared):
        root = ElementTree.fromstring(_reports.junit(compared))
        assert [s.get("name") for s in root.findall("testsuite")] == ["reference.shout", "harness-1.shout", "harness-2.shout"]
        skipped = root.find("testsuite[@name='harness-2.shout']/testcase[@name='shout.basic.float']/skipped")
        assert skipped.get("message") == "not today (issue: https://example.org/toy/issues/7)"

    def test_control_characters_in_stderr_stay_valid_xml(self):
        report = harness_report("error")
        result = report.results[0]
        poisoned = type(result.answer)("errored", message="bad \x00 byte", context={"x": "\x1b[31m"},
                                       stderr="\x00\x07 bell\ud800")
        report = type(report)(report.implementation, "harness", (type(result)(result.case, "errored", poisoned, 0.1,
                                                                              "bad \x00 byte"),), 0.1)
        root = ElementTree.fromstring(_reports.junit(view_of(report)))
        case = root.find("testsuite/testcase")
        assert case.find("error").get("message") == "bad \ufffd byte"
        assert case.find("system-err").text == "\ufffd\ufffd bell\ufffd"


class TestMarkdown:
    def test_table_and_details(self, mixed):
        markdown = _reports.markdown(mixed)
        assert markdown.startswith("## Passdown conformance: toy 0.1 (python), via harness\n")
        assert "**4 passed, 1 failed, 0 errored, 0 skipped, 1 expected failures**" in markdown
        assert "| gate | version | passed | failed | errored | skipped |" in markdown
        assert "| shout | 1.0.0 | 4 | 1 | 0 | 0 |" in markdown
        assert "<summary>failed: <code>shout.basic.float</code>: the output differs</summary>" in markdown
        assert '| path | expected | got |\n|---|---|---|\n| `$.text` | "A" | "a" |' in markdown

    def test_clean_run_has_no_failures_section(self, clean):
        assert "Failures" not in _reports.markdown(clean)

    def test_comparison_and_issue_links(self, compared):
        markdown = _reports.markdown(compared)
        assert markdown.startswith("## Passdown conformance: 3 implementations compared\n")
        assert "| gate | version | reference | harness-1 | harness-2 |" in markdown
        assert "| `shout.basic.float` | passed | failed | skipped |" in markdown
        assert "- 1: not today ([https://example.org/toy/issues/7](<https://example.org/toy/issues/7>))" in markdown


class TestBadge:
    def test_clean(self, clean):
        # every case of the toy suite's one profile (its gate's) ran and passed: the badge names it
        assert _reports.badge(clean) == {"schemaVersion": 1, "label": "passdown conformance",
                                         "message": "shout", "color": "brightgreen"}

    def test_never_green_when_a_case_failed(self, mixed):
        assert _reports.badge(mixed) == {"schemaVersion": 1, "label": "passdown conformance",
                                         "message": "66% passing", "color": "red"}

    def test_ninety_nine_percent_with_a_failure_is_yellow(self, tmp_path):
        cases = [{"id": f"shout.many.c{i}", "description": "d", "requirements": ["CNF-901"], "input": {"text": "a"},
                  "expected": {"output": {"text": "A", "length": 1}, "exit_code": 0}} for i in range(99)]
        cases.append({"id": "shout.many.wrong", "description": "d", "requirements": ["CNF-901"], "input": {"text": "a"},
                      "expected": {"output": {"text": "B", "length": 1}, "exit_code": 0}})
        (tmp_path / "shout").mkdir()
        (tmp_path / "shout" / "many.json").write_text(json.dumps(
            {"gate": "shout", "gate_version": "1.0.0", "description": "d", "cases": cases}))
        from passdown.conformance import load_suite

        view = view_of(run(load_suite(tmp_path).cases, Reference(toy.TABLE), mode="reference"))
        assert _reports.badge(view)["message"] == "99% passing" and _reports.badge(view)["color"] == "yellow"

    def test_expected_failures_alone_are_yellowgreen(self):
        listed = ExpectedFailures.parse("shout.basic.word lowercase\nshout.basic.float lowercase\n", "x")
        view = view_of(harness_report("wrong", listed))
        assert _reports.badge(view)["color"] == "yellowgreen"

    def test_skips_are_not_counted_as_runs_and_are_said(self, compared):
        skipping = view_of(harness_report("skip", case="shout.basic.float"))
        assert _reports.badge(skipping)["message"] == "100% passing, 1 skipped"
        assert _reports.badge(compared) == {
            "schemaVersion": 1, "label": "passdown conformance",
            "message": "reference shout | harness-1 66% passing | harness-2 100% passing", "color": "red"}


class TestHtml:
    def test_one_self_contained_page(self, compared):
        page = _reports.html(compared)
        assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
        for fetching in ("<link", "src=", "@import", "url(", "fetch(", "XMLHttpRequest"):
            assert fetching not in page, fetching
        assert 'id="summary-table"' in page and 'id="filter-gate"' in page and 'id="filter-status"' in page
        assert '<td>$.text</td><td>&quot;A&quot;</td><td>&quot;a&quot;</td>' in page
        assert '<a href="https://example.org/toy/issues/7" rel="noreferrer noopener">' in page

    def test_text_is_escaped(self):
        report = harness_report("error")
        result = report.results[0]
        answer = type(result.answer)("errored", message="<script>alert(1)</script>", context={"t": "</pre>"})
        report = type(report)(report.implementation, "harness",
                              (type(result)(result.case, "errored", answer, 0.1, answer.message),), 0.1)
        page = _reports.html(view_of(report))
        assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page


class TestStream:
    def test_written_as_the_run_goes_valid_and_rendered_again_the_same(self, tmp_path):
        stream = tmp_path / "run.jsonl"
        live = CliRunner().invoke(cli, ["conformance", "run", "--suite", str(toy.CASES), "--reference",
                                        "--harness", f"toy={HARNESS}", "--jsonl", str(stream)],
                                  env={"TOY_MODE": "wrong"})
        lines = [json.loads(line) for line in stream.read_text().splitlines()]
        validator = schema_validator("report-stream")
        for line in lines:
            assert list(validator.iter_errors(line)) == [], line
        assert [line["record"] for line in lines] == (
            ["header", "implementation"] + ["case"] * 6 + ["implementation_end", "implementation"]
            + ["case"] * 6 + ["implementation_end", "footer"])
        assert lines[0]["suite"]["gates"] == {"shout": "1.0.0"} and lines[-1]["exit_code"] == 1
        for output_format in ("text", "markdown", "junit", "badge", "json"):
            again = CliRunner().invoke(cli, ["conformance", "report", str(stream), "--format", output_format])
            assert again.exit_code == 0
            if output_format == "text":
                assert again.output == live.output
        rendered = CliRunner().invoke(cli, ["conformance", "report", str(stream), "--format", "html",
                                            "-o", str(tmp_path / "r.html")])
        assert rendered.exit_code == 0 and (tmp_path / "r.html").read_text().startswith("<!DOCTYPE html>")

    @staticmethod
    def stream_of_a_run(tmp_path):
        stream = tmp_path / "run.jsonl"
        CliRunner().invoke(cli, ["conformance", "run", "--suite", str(toy.CASES), "--harness", HARNESS,
                                 "--jsonl", str(stream)])
        return stream, stream.read_text().splitlines()

    def test_a_stream_cut_short_still_renders_as_unfinished(self, tmp_path):
        stream, lines = self.stream_of_a_run(tmp_path)
        stream.write_text("\n".join(lines[:4]) + "\n")
        view = _stream.read(stream)
        assert not view.finished and view.exit_code == 1 and len(view.entries[0].results) == 2
        assert "the run stopped before this implementation's last case" in _reports.text(view)

    @pytest.mark.parametrize("content, message", [
        ("", "the file is empty"),
        ("{not json}\n", ":1: not a JSON line (load.syntax"),
        ('{"record": "footer", "exit_code": 0, "duration_seconds": 1}\n', ":1: the first line is not the header"),
        ('{"record": "case"}\n', ":1: not a report stream line: $: "),
    ])
    def test_a_broken_stream_is_refused_with_its_line(self, tmp_path, content, message):
        stream = tmp_path / "bad.jsonl"
        stream.write_text(content)
        result = CliRunner().invoke(cli, ["conformance", "report", str(stream)])
        assert result.exit_code == 2 and "conformance.report_file" in result.output and message in result.output

    def test_a_newer_stream_version_and_a_line_after_the_footer_are_refused(self, tmp_path):
        _, lines = self.stream_of_a_run(tmp_path)
        (tmp_path / "after.jsonl").write_text("\n".join(lines + [lines[-1]]) + "\n")
        result = CliRunner().invoke(cli, ["conformance", "report", str(tmp_path / "after.jsonl")])
        assert result.exit_code == 2 and f":{len(lines) + 1}: a line after the footer" in result.output
        header = json.loads(lines[0])
        header["version"] = 2
        (tmp_path / "newer.jsonl").write_text(json.dumps(header) + "\n")
        result = CliRunner().invoke(cli, ["conformance", "report", str(tmp_path / "newer.jsonl")])
        assert result.exit_code == 2 and ":1: not a report stream line" in result.output

    @pytest.mark.skipif(not __import__("os").path.exists("/dev/full"), reason="needs /dev/full")
    def test_a_stream_that_cannot_be_written_is_said_never_a_traceback(self):
        result = CliRunner().invoke(cli, ["conformance", "run", "--suite", str(toy.CASES), "--jsonl", "/dev/full"])
        assert result.exit_code == 2 and result.exception.__class__ is SystemExit
        assert "conformance.report_file: cannot write the report stream /dev/full: No space left on device" in result.output

    def test_a_missing_file_exits_2(self, tmp_path):
        result = CliRunner().invoke(cli, ["conformance", "report", str(tmp_path / "none.jsonl")])
        assert result.exit_code == 2 and "cannot read the report stream" in result.output

    def test_a_fifo_or_a_device_is_refused_not_waited_on(self, tmp_path):
        import os

        os.mkfifo(tmp_path / "fifo")
        for path in (tmp_path / "fifo", "/dev/zero"):
            result = CliRunner().invoke(cli, ["conformance", "report", str(path)])
            assert result.exit_code == 2 and "cannot read the report stream: not a regular file" in result.output


def test_cli_writes_every_report(tmp_path):
    paths = {name: tmp_path / f"report.{name}" for name in ("xml", "md", "badge", "html")}
    result = CliRunner().invoke(cli, [
        "conformance", "run", "--suite", str(toy.CASES), "--harness", HARNESS,
        "--format", "json", "--junit", str(paths["xml"]), "--markdown", str(paths["md"]),
        "--badge", str(paths["badge"]), "--html", str(paths["html"])])
    assert result.exit_code == 0
    assert json.loads(result.output)["summary"]["line"] == "6 passed, 0 failed, 0 errored, 0 skipped"
    assert ElementTree.parse(paths["xml"]).getroot().get("tests") == "6"
    assert paths["md"].read_text().startswith("## Passdown conformance")
    assert json.loads(paths["badge"].read_text())["message"] == "shout"
    assert "6 passed, 0 failed, 0 errored, 0 skipped" in paths["html"].read_text()


@pytest.mark.parametrize("output_format", ["markdown", "html", "junit", "badge"])
def test_every_format_on_stdout(output_format):
    result = CliRunner().invoke(cli, ["conformance", "run", "--suite", str(toy.CASES), "--harness", HARNESS,
                                      "--format", output_format])
    assert result.exit_code == 0 and result.output.strip()
