"""The runner: comparison, verdicts, selection, expected failures, the reference and
program mode, and the exit status of `baton conformance run`."""

import io
import json
import sys

import pytest
from click.testing import CliRunner

from baton.errors import UsageError
from baton.cli import cli
from baton.conformance import ExpectedFailures, Program, Reference, Selection, run
from baton.conformance._compare import mismatches, same
from baton.conformance._implementations import Answer
from baton.conformance._runner import verdict
from conformance_toy import shout_gate, toy


def by_id(report):
    return {r.case.id: r for r in report.results}


class TestSame:
    @pytest.mark.parametrize("a, b", [
        (1, 1), (1.5, 1.5), ("a", "a"), (None, None), (True, True), ([1, [2]], [1, [2]]),
        ({"a": 1, "b": [1.0]}, {"b": [1.0], "a": 1}),
    ])
    def test_equal(self, a, b):
        assert same(a, b)

    @pytest.mark.parametrize("a, b", [
        (185000, 185000.0), (1, True), (0, False), (0, None), ("1", 1), ([], {}), ([1, 2], [2, 1]),
        ({"a": 1}, {"a": 1, "b": 2}), ({"a": [1]}, {"a": [1.0]}), ([1], [1, 1]),
    ])
    def test_not_equal(self, a, b):
        assert not same(a, b)


class TestVerdict:
    case = toy.suite().cases[0]  # shout.basic.word pins stdout

    def answer(self, output, exit_code=0, stdout=None):
        return Answer("answered", output=output, exit_code=exit_code, stdout=stdout)

    def test_pinned_stdout_must_match_exactly(self):
        good = '{"length": 3, "text": "HEY"}\n'
        assert mismatches(self.case, {"text": "HEY", "length": 3}, 0, good) == ([], None)
        messages, diff = mismatches(self.case, {"text": "HEY", "length": 3}, 0, '{"text": "HEY", "length": 3}\n')
        assert messages == ["the printed text differs"]
        assert '-{"length": 3, "text": "HEY"}' in diff and '+{"text": "HEY", "length": 3}' in diff

    def test_a_missing_newline_is_shown(self):
        messages, diff = mismatches(self.case, {"text": "HEY", "length": 3}, 0, '{"length": 3, "text": "HEY"}')
        assert messages == ["the printed text differs"] and "\\n'" in diff

    def test_missing_stdout_fails_a_pinned_case(self):
        result = verdict(self.case, self.answer({"text": "HEY", "length": 3}), 0.0, None)
        assert result.status == "failed"
        assert result.message == "the case pins the exact printed text, and the implementation gave none"

    def test_int_for_float_is_a_diff(self):
        case = toy.suite().cases[1]
        result = verdict(case, self.answer({"text": "A", "length": 1, "scaled": 3}), 0.0, None)
        assert result.status == "failed" and '-  "scaled": 3.0,' in result.diff and '+  "scaled": 3,' in result.diff

    def test_exit_code(self):
        case = toy.suite().cases[2]
        result = verdict(case, self.answer({"error": "invalid_input"}, 0), 0.0, None)
        assert (result.status, result.message, result.diff) == ("failed", "exit code 0, expected 2", None)

    def test_expected_failure_that_fails_is_xfailed_and_one_that_passes_fails(self):
        case = toy.suite().cases[2]
        wrong = verdict(case, self.answer({"error": "x"}, 2), 0.0, "known bug")
        right = verdict(case, self.answer({"error": "invalid_input"}, 2), 0.0, "known bug")
        errored = verdict(case, Answer("errored", message="boom"), 0.0, "known bug")
        assert (wrong.status, wrong.expected_failure) == ("xfailed", "known bug")
        assert errored.status == "xfailed"
        assert right.status == "failed" and "listed as an expected failure (known bug)" in right.message


class TestSelection:
    cases = toy.suite().cases

    @pytest.mark.parametrize("selection, expected", [
        (Selection(), 6),
        (Selection(gates=("shout",)), 6),
        (Selection(gates=("other",)), 0),
        (Selection(ids=("shout.bytes.*",)), 3),
        (Selection(ids=("*.word", "*.nan")), 2),
        (Selection(requirements=("CNF-901",)), 2),
        (Selection(tags=("input_hygiene",)), 3),
        (Selection(ids=("shout.bytes.*",), tags=("basic",)), 0),
        (Selection(requirements=("CNF-902",), ids=("shout.basic.*",)), 1),
    ])
    def test_selects(self, selection, expected):
        assert len(selection.apply(self.cases)) == expected


class TestExpectedFailures:
    def test_parse(self):
        parsed = ExpectedFailures.parse("# comment\n\nshout.basic.* not done yet\n  shout.bytes.nan  NaN is hard \n", "x")
        assert [(e.pattern, e.reason, e.line) for e in parsed.entries] == [
            ("shout.basic.*", "not done yet", 3), ("shout.bytes.nan", "NaN is hard", 4)]
        assert parsed.reason_for("shout.basic.word") == "not done yet"
        assert parsed.reason_for("shout.bytes.not_utf8") is None

    def test_an_entry_needs_a_reason(self):
        with pytest.raises(UsageError, match="x:2: 'shout.bytes.nan' has no reason"):
            ExpectedFailures.parse("shout.basic.* ok\nshout.bytes.nan\n", "x")

    def test_an_entry_must_match_a_case(self):
        parsed = ExpectedFailures.parse("shout.gone.* removed\n", "list.txt")
        with pytest.raises(UsageError, match="list.txt:1: 'shout.gone.\\*' matches no case"):
            parsed.check_against(c.id for c in toy.suite().cases)

    def test_example_file_parses(self):
        parsed = ExpectedFailures.read(toy.REPO / "conformance" / "examples" / "expected-failures.txt")
        assert len(parsed.entries) == 2 and all(e.reason for e in parsed.entries)


class TestReference:
    def test_passes_the_toy_suite(self):
        report = run(toy.suite().cases, Reference(toy.TABLE), mode="reference")
        assert report.counts() == {"passed": 6, "failed": 0, "errored": 0, "skipped": 0, "xfailed": 0}
        assert report.exit_code == 0 and report.summary_line() == "6 passed, 0 failed, 0 errored, 0 skipped"
        assert {r.answer.outcome for r in report.results} == {"SHOUTED", "INVALID"}

    def test_a_raising_gate_errors_one_case_and_the_run_goes_on(self):
        class Fragile:
            OUTCOMES = shout_gate.OUTCOMES
            run = staticmethod(shout_gate.run)

            @staticmethod
            def decide(value):
                if value == [1, 2]:
                    raise ZeroDivisionError("division by zero")
                return shout_gate.decide(value)

        report = run(toy.suite().cases, Reference({"shout": Fragile}), mode="reference")
        result = by_id(report)["shout.basic.not_object"]
        assert result.status == "errored" and result.message == "the gate raised ZeroDivisionError: division by zero"
        assert "Traceback" in result.answer.context["traceback"]
        assert report.counts()["passed"] == 5 and report.exit_code == 1

    def test_cases_of_gates_outside_the_table_are_skipped(self):
        report = run(toy.suite().cases, Reference({}), mode="reference")
        assert report.counts()["skipped"] == 6
        assert report.ran_nothing and report.exit_code == 1


class TestProgram:
    def program(self, mode="", timeout=5.0):
        return Program(toy.harness_argv(), timeout=timeout, env=toy.env(mode))

    def test_passes_the_toy_suite(self):
        report = run(toy.suite().cases, self.program(), mode="program")
        assert report.summary_line() == "6 passed, 0 failed, 0 errored, 0 skipped"

    def test_wrong_answers_fail_with_a_diff(self):
        result = by_id(run(toy.suite().cases, self.program("wrong"), mode="program"))["shout.basic.float"]
        assert result.status == "failed" and '-  "text": "A"' in result.diff and '+  "text": "a"' in result.diff

    def test_a_crash_errors_with_its_stderr(self):
        report = run(toy.suite().cases[:1], self.program("crash"), mode="program")
        [result] = report.results
        assert result.status == "errored" and result.message == "the process printed nothing (exit status 1)"
        assert result.answer.stderr == "toy: crashing\n"

    def test_a_silent_program_times_out(self):
        [result] = run(toy.suite().cases[:1], self.program("silent", timeout=0.5), mode="program").results
        assert result.status == "errored" and result.message == "no answer within 0.5 s; the process was killed"
        assert result.duration < 5

    def test_output_that_is_not_json_errors(self):
        [result] = run(toy.suite().cases[:1], self.program("garbage"), mode="program").results
        assert result.status == "errored" and "not strict JSON" in result.message
        assert result.answer.context["stdout"] == "not json\n"

    def test_a_missing_program_errors(self, tmp_path):
        program = Program([str(tmp_path / "nothing-here")], timeout=1)
        [result] = run(toy.suite().cases[:1], program, mode="program").results
        assert result.status == "errored" and result.message.startswith("cannot start")


def invoke(*args, env=None):
    return CliRunner().invoke(cli, ["conformance", *args], env=env, catch_exceptions=False)


HARNESS = " ".join(toy.harness_argv())


class TestRunCommand:
    def test_harness_run_passes(self):
        result = invoke("run", "--suite", str(toy.CASES), "--harness", HARNESS)
        assert result.exit_code == 0, result.output
        assert result.output.startswith("baton conformance: toy 0.1 (python), via harness\n")
        assert result.output.endswith("\n6 passed, 0 failed, 0 errored, 0 skipped\n")

    def test_a_failure_exits_1_and_shows_the_diff(self):
        result = invoke("run", "--suite", str(toy.CASES), "--program", HARNESS, env={"TOY_MODE": "wrong"})
        assert result.exit_code == 1
        assert "FAILED shout.basic.float" in result.output and '+  "text": "a"' in result.output
        assert result.output.endswith("4 passed, 2 failed, 0 errored, 0 skipped\n")

    def test_the_exit_status_is_never_the_failure_count(self, tmp_path):
        many = {"gate": "shout", "description": "many failing cases", "cases": [
            {"id": f"shout.many.c{i}", "description": "fails", "requirements": ["CNF-901"], "input": {"text": "a"},
             "expected": {"output": {"text": "B", "length": 1}, "exit_code": 0}} for i in range(256)]}
        (tmp_path / "shout").mkdir()
        (tmp_path / "shout" / "many.json").write_text(json.dumps(many))
        result = invoke("run", "--suite", str(tmp_path), "--harness", HARNESS)
        assert result.exit_code == 1 and result.output.endswith("0 passed, 256 failed, 0 errored, 0 skipped\n")

    def test_selection(self):
        result = invoke("run", "--suite", str(toy.CASES), "--harness", HARNESS, "--id", "shout.bytes.*",
                        "--requirement", "CNF-902")
        assert result.exit_code == 0 and result.output.endswith("3 passed, 0 failed, 0 errored, 0 skipped\n")

    def test_expected_failures_are_strict(self, tmp_path):
        listed = tmp_path / "xfail.txt"
        listed.write_text("shout.basic.float lowercase answers\nshout.basic.word lowercase answers\n")
        failing = invoke("run", "--suite", str(toy.CASES), "--program", HARNESS, "--expected-failures", str(listed),
                         env={"TOY_MODE": "wrong"})
        assert failing.exit_code == 0, failing.output
        assert failing.output.endswith("4 passed, 0 failed, 0 errored, 0 skipped, 2 expected failures\n")
        assert "XFAIL shout.basic.float  (lowercase answers)" in failing.output
        fixed = invoke("run", "--suite", str(toy.CASES), "--program", HARNESS, "--expected-failures", str(listed))
        assert fixed.exit_code == 1
        assert "passed, but it is listed as an expected failure (lowercase answers); remove it from the list" in fixed.output

    @pytest.mark.parametrize("args, message", [
        (["--harness", "x", "--program", "y"], "give --harness or --program, not both"),
        (["--gate", "nope"], "the suite has no cases for a gate named 'nope'"),
        (["--id", "nothing.*"], "no case matches the selection"),
        (["--requirement", "CNF-999"], "CNF-999 is not a requirement of the spec"),
        (["--harness", "'unbalanced"], "--harness: No closing quotation"),
        (["--timeout", "0"], "Invalid value for '--timeout'"),
        (["--timeout", "nan"], "Invalid value for '--timeout': not a number"),
        (["--timeout", "inf"], "Invalid value for '--timeout'"),
        (["--restarts", "-1"], "Invalid value for '--restarts'"),
    ])
    def test_usage_errors_exit_2(self, args, message):
        result = invoke("run", "--suite", str(toy.CASES), *args)
        assert result.exit_code == 2 and message in result.output

    def test_expected_failures_file_errors_exit_2(self, tmp_path):
        stale = tmp_path / "stale.txt"
        stale.write_text("shout.gone reason\n")
        result = invoke("run", "--suite", str(toy.CASES), "--harness", HARNESS, "--expected-failures", str(stale))
        assert result.exit_code == 2 and "matches no case of the suite" in result.output
        result = invoke("run", "--suite", str(toy.CASES), "--harness", HARNESS, "--expected-failures",
                        str(tmp_path / "missing.txt"))
        assert result.exit_code == 2 and "cannot read the expected-failures file" in result.output

    def test_a_broken_suite_exits_2(self, tmp_path):
        (tmp_path / "shout").mkdir()
        (tmp_path / "shout" / "x.json").write_text("{")
        result = invoke("run", "--suite", str(tmp_path))
        assert result.exit_code == 2
        assert "conformance.suite: the suite has 1 broken fixture files or cases" in result.output
        assert "run `baton conformance check`" in result.output
        assert invoke("run", "--suite", str(tmp_path / "missing")).exit_code == 2

    def test_list(self):
        result = invoke("list", "--suite", str(toy.CASES), "--tag", "input_hygiene")
        assert result.exit_code == 0
        lines = result.output.splitlines()
        assert lines[0].split()[:2] == ["shout.bytes.nan", "CNF-902"] and lines[-1] == "3 cases"
        listed = json.loads(invoke("list", "--suite", str(toy.CASES), "--format", "json").output)
        assert [c["id"] for c in listed][:2] == ["shout.basic.word", "shout.basic.float"]
        assert listed[0] == {"id": "shout.basic.word", "gate": "shout",
                             "description": "a word comes back in capitals with its length",
                             "requirements": ["CNF-901"], "tags": ["basic"],
                             "file": str(toy.CASES / "shout" / "basic.json")}


class TestProgress:
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    def test_only_on_a_terminal(self, monkeypatch):
        from baton.conformance import _progress

        monkeypatch.setattr(sys, "stderr", io.StringIO())
        assert _progress.Progress.for_terminal() is None
        monkeypatch.setattr(sys, "stderr", self.Terminal())
        assert isinstance(_progress.Progress.for_terminal(), _progress.Progress)

    def test_draws_after_half_a_second_and_clears(self, monkeypatch):
        from baton.conformance import _progress

        clock = [100.0]
        monkeypatch.setattr(_progress.time, "monotonic", lambda: clock[0])
        stream = io.StringIO()
        bar = _progress.Progress(stream)
        bar(1, 10)
        assert stream.getvalue() == ""  # a short run never shows a bar
        clock[0] += 0.6
        bar(5, 10)
        assert stream.getvalue() == "\r[" + "#" * 15 + "." * 15 + "] 5/10"
        bar(6, 10)  # too soon to redraw
        assert stream.getvalue().endswith("5/10")
        bar(10, 10)  # the last one always draws
        assert stream.getvalue().endswith("] 10/10")
        bar.finish()
        assert stream.getvalue().endswith("\r" + " " * 60 + "\r")

    def test_the_command_draws_nothing_when_stderr_is_not_a_terminal(self):
        result = CliRunner().invoke(cli, ["conformance", "run", "--suite", str(toy.CASES), "--harness", HARNESS])
        assert "\r[" not in result.output


class TestCheckCommand:
    def test_findings_exit_1_in_text_and_json(self, tmp_path):
        (tmp_path / "ack").mkdir()
        (tmp_path / "ack" / "x.json").write_text('{"gate": "ack", "description": "Bad.", "cases": []}')
        text = invoke("check", "--suite", str(tmp_path))
        assert text.exit_code == 1
        assert "x.json::$.cases: error fixture.schema: [] has less than 1 item" in text.output
        assert "suite.gate_without_cases" in text.output and "check failed:" in text.output
        document = json.loads(invoke("check", "--suite", str(tmp_path), "--format", "json").output)
        assert document["status"] == "failed"
        assert {"fixture.schema", "suite.gate_without_cases"} <= {f["code"] for f in document["findings"]}

    def test_a_missing_suite_folder_exits_2(self, tmp_path):
        result = invoke("check", "--suite", str(tmp_path / "missing"))
        assert result.exit_code == 2 and "no suite folder" in result.output
