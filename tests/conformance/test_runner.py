"""The runner: comparison and field-level differences, verdicts, selection, gate versions,
expected failures (read and written), the reference and program mode (skips, several cases at
once), and the exit status of `passdown conformance run`."""

import io
import json
import sys

import pytest
from click.testing import CliRunner

from passdown.errors import UsageError
from passdown.cli import cli
from passdown.conformance import ExpectedFailures, Program, Reference, Selection, run
from passdown.conformance._compare import Difference, differences, mismatch, same
from passdown.conformance._implementations import Answer
from passdown.conformance._runner import expected_failures_text, verdict
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


class TestDifferences:
    def test_each_differing_value_by_its_json_path(self):
        expected = {"action": "CREATE_FRESH", "assessment": {"horizon_calls": 3, "basis": "x"}, "list": [1, 2]}
        actual = {"action": "CREATE_FRESH", "assessment": {"horizon_calls": 10, "basis": "x"}, "list": [1, 2.0, 3]}
        assert [d.line() for d in differences(expected, actual)] == [
            "$.assessment.horizon_calls: expected 3, got 10",
            "$.list[1]: expected 2, got 2.0",
            "$.list[2]: expected absent, got 3",
        ]

    def test_missing_and_extra_members_and_type_changes(self):
        found = differences({"a": {"b": 1}, "c": True, "x-y": None}, {"a": [1], "d": "e", "x-y": None, "c": 1})
        assert [d.to_json() for d in found] == [
            {"path": "$.a", "expected": '{"b": 1}', "got": "[1]"},
            {"path": "$.c", "expected": "true", "got": "1"},
            {"path": "$.d", "got": '"e"'},
        ]
        assert Difference.from_json(found[2].to_json()) == found[2]

    def test_keys_that_are_not_names_are_quoted_and_long_values_cut(self):
        [found] = differences({"x-passdown/a b": "s" * 500}, {"x-passdown/a b": "t"})
        assert found.path == '$["x-passdown/a b"]' and len(found.expected) == 300 and found.expected.endswith("...")

    def test_a_root_of_another_type_is_one_difference(self):
        assert differences({"a": 1}, "text") == [Difference("$", '{"a": 1}', '"text"')]
        assert differences([1], [1]) == []

    def test_the_list_is_bounded(self):
        found = mismatch(toy.suite().cases[2], {f"k{i}": i for i in range(150)}, 2, None)
        assert len(found.differences) == 100 and found.more == 51  # 150 extra members and the missing one


class TestVerdict:
    case = toy.suite().cases[0]  # shout.basic.word pins stdout

    def answer(self, output, exit_code=0, stdout=None):
        return Answer("answered", output=output, exit_code=exit_code, stdout=stdout)

    def test_pinned_stdout_must_match_exactly(self):
        good = '{"length": 3, "text": "HEY"}\n'
        assert not mismatch(self.case, {"text": "HEY", "length": 3}, 0, good)
        found = mismatch(self.case, {"text": "HEY", "length": 3}, 0, '{"text": "HEY", "length": 3}\n')
        assert found.messages == ("the printed text differs",) and found.differences == ()
        assert '-{"length": 3, "text": "HEY"}' in found.stdout_diff
        assert '+{"text": "HEY", "length": 3}' in found.stdout_diff

    def test_a_missing_newline_is_shown(self):
        found = mismatch(self.case, {"text": "HEY", "length": 3}, 0, '{"length": 3, "text": "HEY"}')
        assert found.messages == ("the printed text differs",) and "\\n'" in found.stdout_diff

    def test_the_printed_text_diff_is_left_out_when_the_output_differs_too(self):
        found = mismatch(self.case, {"text": "HOY", "length": 3}, 0, '{"length": 3, "text": "HOY"}\n')
        assert found.messages == ("the printed text differs", "the output differs")
        assert found.differences == (Difference("$.text", '"HEY"', '"HOY"'),) and found.stdout_diff is None

    def test_missing_stdout_fails_a_pinned_case(self):
        result = verdict(self.case, self.answer({"text": "HEY", "length": 3}), 0.0, None)
        assert result.status == "failed"
        assert result.message == "the case pins the exact printed text, and the implementation gave none"

    def test_int_for_float_is_a_field_difference(self):
        case = toy.suite().cases[1]
        result = verdict(case, self.answer({"text": "A", "length": 1, "scaled": 3}), 0.0, None)
        assert result.status == "failed"
        assert result.mismatch.differences == (Difference("$.scaled", "3.0", "3"),)
        assert result.mismatch.differences[0].line() == "$.scaled: expected 3.0, got 3"

    def test_exit_code(self):
        case = toy.suite().cases[2]
        result = verdict(case, self.answer({"error": "invalid_input"}, 0), 0.0, None)
        assert (result.status, result.message) == ("failed", "exit code 0, expected 2")
        assert result.mismatch.differences == (Difference("exit_code", "2", "0"),)

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

    def test_wrong_answers_fail_with_their_differences(self):
        result = by_id(run(toy.suite().cases, self.program("wrong"), mode="program"))["shout.basic.float"]
        assert result.status == "failed" and result.mismatch.differences == (Difference("$.text", '"A"', '"a"'),)

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


class TestProgramSkips:
    """Program mode's "not implemented": exit status 77, with or without a skip object."""

    def run_mode(self, mode):
        return run(toy.suite().cases[:2], Program(toy.harness_argv(), timeout=5, env=toy.env(mode)),
                   mode="program")

    def test_a_skip_object_gives_the_reason_and_issue(self):
        report = self.run_mode("skip77")
        assert report.summary_line() == "0 passed, 0 failed, 0 errored, 2 skipped"
        [first, _] = report.results
        assert first.message == "no 1.0.0 here"  # the program was told the cases' gate version
        assert (first.answer.skip_code, first.answer.issue_url) == ("by_implementation", "https://example.org/toy/issues/8")

    def test_exit_77_alone_is_a_skip(self):
        [first, _] = self.run_mode("skip77_bare").results
        assert (first.status, first.message) == ("skipped", "the program does not run this case (exit status 77)")

    def test_exit_77_with_other_output_is_an_error(self):
        [first, _] = self.run_mode("skip77_bad").results
        assert first.status == "errored"
        assert first.message.startswith("exit status 77 means skipped, but stdout is not a skip object: ")
        assert first.answer.context == {"stdout": "nope\n"}


class TestGateVersions:
    """A case is sent only to an implementation of the same major version of its gate, at the
    cases' version or later; the others are skipped with the reason, never failed."""

    def harness_run(self, gates):
        from passdown.conformance import Harness

        environment = toy.env()
        environment["TOY_GATES"] = json.dumps(gates)
        harness = Harness(toy.harness_argv(), timeout=5, env=environment)
        harness.start()
        try:
            return run(toy.suite().cases, harness, mode="harness")
        finally:
            harness.close()

    @pytest.mark.parametrize("version", ["1.0.0", "1.0.7", "1.4.0"])
    def test_the_same_major_at_the_cases_version_or_later_runs(self, version):
        report = self.harness_run({"shout": version})
        assert report.summary_line() == "6 passed, 0 failed, 0 errored, 0 skipped"
        assert report.versions == {"shout": version}

    @pytest.mark.parametrize("version, how", [("0.9.0", "another major version"), ("2.0.0", "another major version")])
    def test_another_major_is_skipped_with_the_reason(self, version, how):
        report = self.harness_run({"shout": version})
        assert report.summary_line() == "0 passed, 0 failed, 0 errored, 6 skipped" and report.exit_code == 1
        result = report.results[0]
        assert result.message == f"the cases are for shout 1.0.0; the implementation implements shout {version}, {how}"
        assert result.answer.skip_code == "version_mismatch"

    def test_an_older_version_is_skipped(self, tmp_path):
        newer = json.loads((toy.CASES / "shout" / "basic.json").read_text())
        newer["gate_version"] = "1.2.0"
        (tmp_path / "shout").mkdir()
        (tmp_path / "shout" / "basic.json").write_text(json.dumps(newer))
        from passdown.conformance import Harness, load_suite

        environment = toy.env()
        environment["TOY_GATES"] = json.dumps({"shout": "1.1.9"})
        harness = Harness(toy.harness_argv(), timeout=5, env=environment)
        harness.start()
        try:
            report = run(load_suite(tmp_path).cases, harness, mode="harness")
        finally:
            harness.close()
        assert {r.message for r in report.results} == {
            "the cases are for shout 1.2.0; the implementation implements shout 1.1.9, an older version"}

    def test_the_first_form_states_no_version_and_runs_everything(self):
        report = self.harness_run(["shout"])
        assert report.versions == {"shout": None}
        assert report.summary_line() == "6 passed, 0 failed, 0 errored, 0 skipped"

    def test_a_gate_not_listed_is_skipped_without_being_sent(self):
        report = self.harness_run({"other": "1.0.0"})
        assert {(r.status, r.message, r.answer.skip_code) for r in report.results} == {
            ("skipped", "the shout gate is not implemented", "gate_not_listed")}

    def test_the_reference_states_every_gate_version(self):
        from passdown.gates import gate_names, load

        reference = Reference()
        assert reference.versions == {name: load(name).VERSION for name in gate_names()}
        assert reference.versions["restart"] == "2.2.1"

    def test_program_mode_states_no_versions(self):
        assert Program(["x"], timeout=1).versions is None


class TestJobs:
    def test_several_at_once_keep_the_suite_order(self):
        cases = toy.suite().cases * 4
        seen = []
        report = run(cases, Program(toy.harness_argv(), timeout=10, env=toy.env()), mode="program", jobs=3,
                     on_result=lambda result: seen.append(result.case.id))
        assert [r.case.id for r in report.results] == [c.id for c in cases] == seen
        assert report.summary_line() == "24 passed, 0 failed, 0 errored, 0 skipped"

    def test_an_implementation_that_cannot_run_cases_at_once_runs_them_one_by_one(self):
        class Counting(Reference):
            busy = 0
            peak = 0

            def answer(self, case):
                Counting.busy += 1
                Counting.peak = max(Counting.peak, Counting.busy)
                try:
                    return super().answer(case)
                finally:
                    Counting.busy -= 1

        run(toy.suite().cases, Counting(toy.TABLE), mode="reference", jobs=4)
        assert Counting.peak == 1


class TestWriteExpectedFailures:
    def test_failures_get_placeholders_and_listed_ones_keep_their_reason(self):
        listed = ExpectedFailures.parse("shout.basic.word lowercase answers\nshout.bytes.nan fixed since\n", "x")
        report = run(toy.suite().cases, Program(toy.harness_argv(), timeout=5, env=toy.env("wrong")),
                     mode="program", expected_failures=listed)
        written = expected_failures_text(report.results, "toy")
        assert written.splitlines()[0] == "# Expected failures of toy:"
        assert written.splitlines()[4:] == [
            "shout.basic.word lowercase answers",
            "shout.basic.float TODO: say why (the output differs)",
        ]  # shout.bytes.nan passes: left out, so the file it writes is strict and right
        parsed = ExpectedFailures.parse(written, "written")
        again = run(toy.suite().cases, Program(toy.harness_argv(), timeout=5, env=toy.env("wrong")),
                    mode="program", expected_failures=parsed)
        assert again.exit_code == 0 and again.counts()["xfailed"] == 2

    def test_a_clean_run_writes_a_file_with_no_entry(self):
        report = run(toy.suite().cases, Reference(toy.TABLE), mode="reference")
        written = expected_failures_text(report.results, "passdown")
        assert ExpectedFailures.parse(written, "x").entries == () and "# (no case failed)" in written

    def test_the_command_writes_it_for_the_named_implementation(self, tmp_path):
        out = tmp_path / "toy-failures.txt"
        result = invoke("run", "--suite", str(toy.CASES), "--reference", "--program", f"toy={HARNESS}",
                        "--write-expected-failures", f"toy={out}", env={"TOY_MODE": "wrong"})
        assert result.exit_code == 1
        assert [line.split()[0] for line in out.read_text().splitlines() if not line.startswith("#")] == [
            "shout.basic.word", "shout.basic.float"]


def invoke(*args, env=None):
    return CliRunner().invoke(cli, ["conformance", *args], env=env, catch_exceptions=False)


HARNESS = " ".join(toy.harness_argv())


class TestRunCommand:
    def test_harness_run_passes(self):
        result = invoke("run", "--suite", str(toy.CASES), "--harness", HARNESS)
        assert result.exit_code == 0, result.output
        assert result.output.startswith("passdown conformance: toy 0.1 (python), via harness\n")
        assert result.output.endswith("\n6 passed, 0 failed, 0 errored, 0 skipped\n")

    def test_a_failure_exits_1_and_shows_the_diff(self):
        result = invoke("run", "--suite", str(toy.CASES), "--program", HARNESS, env={"TOY_MODE": "wrong"})
        assert result.exit_code == 1
        assert "FAILED shout.basic.float" in result.output and '  $.text: expected "A", got "a"' in result.output
        assert result.output.endswith("4 passed, 2 failed, 0 errored, 0 skipped\n")

    def test_the_exit_status_is_never_the_failure_count(self, tmp_path):
        many = {"gate": "shout", "gate_version": "1.0.0", "description": "many failing cases", "cases": [
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
        (["--harness", "x=a", "--program", "x=b"], "two implementations are named 'x'"),
        (["--harness", "a", "--harness", "b", "--write-expected-failures", "out.txt"],
         "--write-expected-failures out.txt: the run has 2 implementations; say which: NAME=FILE"),
        (["-j", "0"], "Invalid value for '-j'"),
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
        assert "run `passdown conformance check`" in result.output
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
                             "requirements": ["CNF-901"], "tags": ["basic"], "profile": "shout",
                             "file": str(toy.CASES / "shout" / "basic.json")}


class TestProgress:
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    def test_only_on_a_terminal(self, monkeypatch):
        from passdown.conformance import _progress

        monkeypatch.setattr(sys, "stderr", io.StringIO())
        assert _progress.Progress.for_terminal() is None
        monkeypatch.setattr(sys, "stderr", self.Terminal())
        assert isinstance(_progress.Progress.for_terminal(), _progress.Progress)

    def test_draws_after_half_a_second_and_clears(self, monkeypatch):
        from passdown.conformance import _progress

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


class TestSeveralImplementations:
    def test_a_harness_that_does_not_start_fails_the_run_and_the_others_still_run(self):
        environment = {"TOY_MODE": "noready"}
        result = CliRunner().invoke(cli, ["conformance", "run", "--suite", str(toy.CASES), "--timeout", "2",
                                          "--harness", f"broken={HARNESS}", "--program", f"toy={HARNESS}"],
                                    env=environment)
        assert result.exit_code == 1
        assert "passdown: conformance.harness_failed: broken: the harness did not start: protocol error" in result.output
        assert "toy: 6 passed, 0 failed, 0 errored, 0 skipped" in result.output
        assert "broken: 0 passed, 0 failed, 0 errored, 0 skipped" in result.output

    def test_names_order_and_defaults(self):
        result = invoke("run", "--suite", str(toy.CASES), "--program", HARNESS, "--program", HARNESS,
                        "--harness", f"h={HARNESS}", "--format", "json")
        document = json.loads(result.output)
        assert [r["name"] for r in document["reports"]] == ["h", "program-1", "program-2"]
        assert [r["runner"]["mode"] for r in document["reports"]] == ["harness", "program", "program"]
        assert result.exit_code == 0

    def test_expected_failures_by_name(self, tmp_path):
        listed = tmp_path / "xfail.txt"
        listed.write_text("shout.basic.float lowercase answers\nshout.basic.word lowercase answers\n")
        result = invoke("run", "--suite", str(toy.CASES), "--program", f"wrong={HARNESS}",
                        "--harness", f"right={HARNESS}", "--expected-failures", f"wrong={listed}",
                        env={"TOY_MODE": "wrong"})
        # both answer wrong here (one environment), and only "wrong" lists its failures
        assert "wrong: 4 passed, 0 failed, 0 errored, 0 skipped, 2 expected failures" in result.output
        assert "right: 4 passed, 2 failed, 0 errored, 0 skipped" in result.output
