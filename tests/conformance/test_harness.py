"""The harness client against misbehaving harnesses: every edge of the protocol ends in a
clear errored case or error, the harness is restarted, and nothing hangs or outlives a run."""

import json
import os
import time

import pytest

from passdown.conformance import Harness, HarnessFailed, load_suite, run
from passdown.conformance import _protocol
from conformance_toy import toy

FLOAT = "shout.basic.float"


def run_toy(mode="", case=FLOAT, timeout=2.0, restarts=10, cases=None, pidfile=None):
    environment = toy.env(mode, case)
    if pidfile:
        environment["TOY_PIDFILE"] = str(pidfile)
    harness = Harness(toy.harness_argv(), timeout=timeout, restarts=restarts, env=environment)
    harness.start()
    try:
        report = run(cases or toy.suite().cases, harness, mode="harness")
    finally:
        harness.close()
    return report


def statuses(report):
    return {r.case.id: r.status for r in report.results}


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().split(") ", 1)[1][0] != "Z"
    except FileNotFoundError:
        return False


class TestHappyPath:
    def test_all_pass_and_metadata_is_read(self):
        report = run_toy()
        assert report.summary_line() == "6 passed, 0 failed, 0 errored, 0 skipped"
        assert report.implementation == {"name": "toy", "language": "python", "version": "0.1", "gates": ["shout"]}
        assert report.versions == {"shout": None}  # the protocol's first form: no versions stated
        assert report.restarts == 0

    def test_cases_of_gates_the_harness_does_not_list_are_not_sent(self, tmp_path):
        other = {"gate": "other", "gate_version": "1.0.0", "description": "another gate", "cases": [{
            "id": "other.one", "description": "d", "requirements": ["CNF-901"], "input": 1,
            "expected": {"output": 1, "exit_code": 0}}]}
        (tmp_path / "other").mkdir()
        (tmp_path / "other" / "x.json").write_text(json.dumps(other))
        # the toy harness would crash on a case of an unknown gate: it is never sent one
        report = run_toy(cases=load_suite(tmp_path).cases)
        [result] = report.results
        assert result.status == "skipped" and result.message == "the other gate is not implemented"
        assert result.answer.skip_code == "gate_not_listed"
        assert report.exit_code == 1 and report.ran_nothing

    def test_skipped_and_errored_replies(self):
        skipped = {r.case.id: r for r in run_toy("skip").results}[FLOAT]
        assert (skipped.status, skipped.message) == ("skipped", "not today")
        assert (skipped.answer.skip_code, skipped.answer.issue_url) == ("by_implementation", "https://example.org/toy/issues/7")
        errored = {r.case.id: r for r in run_toy("error").results}[FLOAT]
        assert (errored.status, errored.message) == ("errored", "boom")
        assert errored.answer.context == {"message": "boom", "traceback": "line 1"}

    def test_a_flood_on_stderr_does_not_block(self):
        report = run_toy("stderr", timeout=5)
        assert report.summary_line() == "6 passed, 0 failed, 0 errored, 0 skipped"


class TestBrokenHarness:
    def test_wrong_answers_fail_with_the_right_differences(self):
        report = run_toy("wrong")
        result = {r.case.id: r for r in report.results}[FLOAT]
        assert result.status == "failed" and result.message == "the output differs"
        assert [d.line() for d in result.mismatch.differences] == ['$.text: expected "A", got "a"']

    def test_a_crash_is_errored_with_stderr_and_the_harness_restarted(self):
        report = run_toy("crash")
        assert statuses(report)[FLOAT] == "errored"
        result = {r.case.id: r for r in report.results}[FLOAT]
        assert result.message == "the harness exited with status 7 before answering; the harness will be restarted"
        assert result.answer.stderr == f"toy: crashing on {FLOAT}\n"
        assert report.restarts == 1
        assert report.summary_line() == "5 passed, 0 failed, 1 errored, 0 skipped"

    def test_a_silent_harness_times_out_and_is_restarted(self):
        began = time.monotonic()
        report = run_toy("silent", timeout=0.5)
        assert time.monotonic() - began < 10
        result = {r.case.id: r for r in report.results}[FLOAT]
        assert result.status == "errored"
        assert result.message == "no result line within 0.5 s; the harness will be restarted"
        assert result.answer.stderr == "toy: going quiet\n"
        assert report.restarts == 1 and report.counts()["passed"] == 5

    def test_a_harness_that_stops_reading_times_out_on_a_large_input(self, tmp_path):
        big = {"gate": "shout", "gate_version": "1.0.0", "description": "a large input", "cases": [{
            "id": "shout.big.one", "description": "a megabyte of text", "requirements": ["CNF-902"],
            "input_text": "x" * (1 << 20), "expected": {"output": {"error": "invalid_input"}, "exit_code": 2}}]}
        (tmp_path / "shout").mkdir()
        (tmp_path / "shout" / "big.json").write_text(json.dumps(big))
        began = time.monotonic()
        [result] = run_toy("deaf", case="", timeout=0.5, cases=load_suite(tmp_path).cases).results
        assert time.monotonic() - began < 10
        assert result.status == "errored" and result.message.startswith("no result line within 0.5 s")

    @pytest.mark.parametrize("mode, message", [
        ("garbage", "protocol error: the line is not strict JSON (load.syntax: not valid JSON: Expecting value at line 1, column 1): "
                    "'debug: about to answer'; the harness will be restarted"),
        ("badseq", "protocol error: the reply carries seq 102, expected 2; the harness will be restarted"),
    ])
    def test_protocol_violations_are_errored_and_restart(self, mode, message):
        report = run_toy(mode)
        result = {r.case.id: r for r in report.results}[FLOAT]
        assert (result.status, result.message) == ("errored", message)
        assert report.restarts == 1 and report.counts()["passed"] == 5

    def test_restarts_are_bounded(self):
        report = run_toy("crash", case="", restarts=2)
        assert [r.status for r in report.results] == ["errored"] * 6
        assert report.restarts == 2
        assert report.results[-1].message.startswith("the harness stopped and was restarted 2 times; giving up")

    @pytest.mark.parametrize("mode, message", [
        ("noready", "the harness did not start: protocol error: not a valid ready message: $.version: 1 was expected"),
        ("slowstart", "the harness did not start: no ready line within 0.5 s"),
        ("crash_always", "the harness did not start: the harness exited with status 3 before answering\n"
                         "  stderr:\n    cannot start: missing dependency"),
    ])
    def test_a_harness_that_does_not_start(self, mode, message):
        harness = Harness(toy.harness_argv(), timeout=0.5, env=toy.env(mode))
        began = time.monotonic()
        with pytest.raises(HarnessFailed) as raised:
            harness.start()
        assert time.monotonic() - began < 10
        assert raised.value.message == message and raised.value.exit_code == 1

    def test_a_command_that_does_not_exist(self, tmp_path):
        with pytest.raises(HarnessFailed, match="cannot start"):
            Harness([str(tmp_path / "missing")], timeout=1).start()

    def test_the_process_group_is_killed(self, tmp_path):
        pidfile = tmp_path / "pid"
        report = run_toy("orphan", case="", pidfile=pidfile)
        assert report.counts()["passed"] == 6
        pid = int(pidfile.read_text())
        deadline = time.monotonic() + 5
        while alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not alive(pid)


class TestSchemas:
    names = ("start", "ready", "run", "result", "stop", "skipped")

    def test_are_valid_with_titles_and_examples(self):
        import jsonschema

        for name in self.names:
            schema = _protocol.schema(name)
            jsonschema.Draft202012Validator.check_schema(schema)
            assert schema["$id"] == f"https://spec.passdown.dev/conformance/protocol/v1/{name}.schema.json"
            assert schema["title"] and schema["description"]
            for example in schema["examples"]:
                assert list(jsonschema.Draft202012Validator(schema).iter_errors(example)) == [], name

    def test_the_runner_s_own_lines_are_valid(self):
        import jsonschema

        case = toy.suite().cases[4]
        for name, line in (("start", _protocol.start()), ("run", _protocol.run(1, case)), ("stop", _protocol.stop())):
            assert line.endswith(b"\n") and b"\n" not in line[:-1]
            jsonschema.validate(json.loads(line), _protocol.schema(name))

    def test_the_example_session_follows_the_protocol(self):
        lines = (toy.REPO / "conformance" / "protocol" / "v1" / "examples" / "session.jsonl").read_bytes().splitlines()
        messages = []
        for line in lines:
            value = json.loads(line)
            name = value["cmd"] if "cmd" in value else "ready" if "ready" in value else "result"
            if name in ("ready", "result"):
                value = _protocol.decode(line, name)
            else:
                import jsonschema

                jsonschema.validate(value, _protocol.schema(name))
            messages.append((name, value))
        assert [n for n, _ in messages[:2]] == ["start", "ready"] and messages[-1][0] == "stop"
        runs = [v["seq"] for n, v in messages if n == "run"]
        results = [v["seq"] for n, v in messages if n == "result"]
        assert runs == results == list(range(1, len(runs) + 1))

    @pytest.mark.parametrize("line, fragment", [
        (b"", "an empty line"),
        (b'{"seq": 1, "output": 1}', "not a valid result message"),
        (b'{"seq": 1, "output": 1, "exit_code": 0, "extra": 1}', "not a valid result message"),
        (b'{"seq": 1, "output": NaN, "exit_code": 0}', "load.non_finite"),
        (b'{"seq": 1, "seq": 1, "output": 1, "exit_code": 0}', "load.duplicate_key"),
        (b'{"seq": 0, "skipped": true}', "not a valid result message"),
        (b'\xff', "load.encoding"),
    ])
    def test_invalid_replies(self, line, fragment):
        with pytest.raises(_protocol.ProtocolError, match=fragment):
            _protocol.decode(line, "result")

    @pytest.mark.parametrize("gates, versions", [
        ({"restart": "2.2.1", "title": "1.0.0"}, {"restart": "2.2.1", "title": "1.0.0"}),
        (["restart"], {"restart": None}),
        ({}, {}),
    ])
    def test_ready_lists_gates_with_versions_or_in_the_first_form(self, gates, versions):
        line = json.dumps({"ready": True, "version": 1, "implementation": {
            "name": "x", "language": "go", "version": "1", "gates": gates}}).encode()
        assert _protocol.gate_versions(_protocol.decode(line, "ready")) == versions

    @pytest.mark.parametrize("gates", [{"restart": "2.2"}, {"restart": "v2.2.1"}, {"Restart": "1.0.0"},
                                       {"restart": "01.0.0"}, ["restart", "restart"]])
    def test_ready_refuses_other_version_shapes(self, gates):
        line = json.dumps({"ready": True, "version": 1, "implementation": {
            "name": "x", "language": "go", "version": "1", "gates": gates}}).encode()
        with pytest.raises(_protocol.ProtocolError, match="not a valid ready message"):
            _protocol.decode(line, "ready")

    def test_an_int_output_stays_an_int(self):
        assert _protocol.decode(b'{"seq": 1, "output": {"n": 1.0, "m": 1}, "exit_code": 0}', "result")["output"] == {
            "n": 1.0, "m": 1}
        value = _protocol.decode(b'{"seq": 1, "output": 1.0, "exit_code": 0}', "result")["output"]
        assert type(value) is float


def test_a_terminated_runner_takes_its_harness_down(tmp_path):
    import signal
    import subprocess
    import sys

    pidfile = tmp_path / "harness.pid"
    environment = toy.env("silent")
    environment["TOY_SELFPIDFILE"] = str(pidfile)
    runner = subprocess.Popen(
        [sys.executable, "-m", "passdown", "conformance", "run", "--suite", str(toy.CASES), "--timeout", "60",
         "--harness", " ".join(toy.harness_argv())], env=environment,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        while not (pidfile.exists() and pidfile.read_text()) and time.monotonic() < deadline:
            time.sleep(0.05)
        harness_pid = int(pidfile.read_text())
        time.sleep(0.5)  # the runner is now waiting on the silent harness
        runner.send_signal(signal.SIGTERM)
        assert runner.wait(timeout=20) == 128 + signal.SIGTERM
    finally:
        runner.kill()
        runner.wait()
    deadline = time.monotonic() + 5
    while alive(harness_pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(harness_pid)


def test_no_child_processes_left_behind():
    # every test above killed what it started: this process has no live children
    children = [p for p in os.listdir("/proc") if p.isdigit() and _parent(p) == os.getpid() and alive(int(p))]
    assert children == []


def _parent(pid):
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return int(handle.read().split(") ", 1)[1].split()[1])
    except (FileNotFoundError, IndexError, ValueError):
        return None
