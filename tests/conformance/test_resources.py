"""The runner's resources are bounded in every direction, against hostile implementations:
a program whose descendant leaves the session holding stdout, a daemon that drops every mark
of the run, a program that floods stderr before it reads, a harness that stops reading and
floods stdout during a large input. Each case is answered (or errored at the bound), the
runner's memory stays flat, and no process of the implementation is left alive."""

import json
import os
import subprocess
import sys
import time

import pytest

from passdown.conformance import Program, _process, load_suite, run
from passdown.conformance._process import TOKEN_VARIABLE
from conformance_toy import toy

HOSTILE = toy.HERE / "hostile.py"


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(") ", 1)[1][0] not in "ZX"
    except FileNotFoundError:
        return False


def wait_dead(pids, seconds=5.0):
    deadline = time.monotonic() + seconds
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return [pid for pid in pids if alive(pid)]


def marked_processes():
    """Every process carrying a runner's mark, this test process's runs or any other."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as handle:
                if f"{TOKEN_VARIABLE}={os.getpid()}-".encode() in handle.read():
                    found.append(int(name))
        except OSError:
            pass
    return [pid for pid in found if alive(pid)]


def pids_in(folder):
    return [int(name) for name in os.listdir(folder)]


def hostile_env(folder):
    environment = dict(os.environ)
    environment["HOSTILE_PIDS"] = str(folder)
    return environment


pytestmark = pytest.mark.skipif(not os.path.isdir("/proc"), reason="the process table is read from /proc")


def test_a_descendant_in_its_own_session_holding_stdout_delays_no_answer_and_is_ended(tmp_path):
    cases = toy.suite().cases
    program = Program([sys.executable, str(HOSTILE), "setsid_holder"], timeout=5, env=hostile_env(tmp_path))
    try:
        report = run(cases, program, mode="program", jobs=2)
    finally:
        program.close()
    # each case answered when the program exited, none waited for the pipe to close
    assert report.summary_line() == "6 passed, 0 failed, 0 errored, 0 skipped"
    started = pids_in(tmp_path)
    assert len(started) == 6
    assert wait_dead(started) == [] and marked_processes() == []


def test_the_command_ends_a_daemon_that_dropped_every_mark(tmp_path):
    # Only the command adopts orphans: a daemon with an empty environment, in its own
    # session, holding no pipe, is found as the runner's orphan and ended with the run.
    done = subprocess.run(
        [sys.executable, "-m", "passdown", "conformance", "run", "--suite", str(toy.CASES), "--format", "json",
         "--program", f"{sys.executable} {HOSTILE} daemon"],
        env=hostile_env(tmp_path), capture_output=True, text=True, timeout=120)
    assert json.loads(done.stdout)["summary"]["passed"] == 6, done.stderr
    started = pids_in(tmp_path)
    assert len(started) == 6 and wait_dead(started) == []


def test_stderr_is_drained_while_a_large_input_is_written(tmp_path):
    big = {"gate": "shout", "gate_version": "1.0.0", "description": "a large input", "cases": [{
        "id": "shout.big.one", "description": "two megabytes of text", "requirements": ["CNF-902"],
        "input_text": "x" * (2 << 20), "expected": {"output": {"error": "invalid_input"}, "exit_code": 2}}]}
    (tmp_path / "shout").mkdir()
    (tmp_path / "shout" / "big.json").write_text(json.dumps(big))
    program = Program([sys.executable, str(HOSTILE), "chatty"], timeout=10)
    [result] = run(load_suite(tmp_path).cases, program, mode="program").results
    assert result.status == "passed"


_MEASURE = """
import sys
from passdown.cli import cli
try:
    cli.main(args=sys.argv[1:], prog_name="passdown", standalone_mode=True)
except SystemExit as done:
    status = done.code
# VmHWM is this process image's own peak; ru_maxrss would carry over the peak of the process
# that started it (Linux keeps it across exec), which is pytest's own size.
with open("/proc/self/status") as status_file:
    peak = next(int(line.split()[1]) for line in status_file if line.startswith("VmHWM:"))
print(peak, status, file=sys.stderr)
"""


def test_a_harness_that_stops_reading_and_floods_stdout_costs_the_bound_not_gigabytes(tmp_path):
    big = {"gate": "shout", "gate_version": "1.0.0", "description": "a large input", "cases": [{
        "id": "shout.big.one", "description": "three megabytes of text", "requirements": ["CNF-902"],
        "input_text": "x" * (3 << 20), "expected": {"output": {"error": "invalid_input"}, "exit_code": 2}}]}
    (tmp_path / "shout").mkdir()
    (tmp_path / "shout" / "big.json").write_text(json.dumps(big))
    done = subprocess.run(
        [sys.executable, "-c", _MEASURE, "conformance", "run", "--suite", str(tmp_path), "--format", "json",
         "--timeout", "10", "--restarts", "0", "--harness", f"{sys.executable} {HOSTILE} flood"],
        capture_output=True, text=True, timeout=120)
    report = json.loads(done.stdout)
    [case] = report["cases"]
    assert case["status"] == "errored"
    assert case["message"] == ("more than 1048576 bytes of output without a complete result line; "
                               "the harness will be restarted")
    peak_kib, status = done.stderr.split()[-2:]
    assert status == "1"
    # The bound is 1 MiB of stdout; unbounded, ten seconds of flood is gigabytes.
    assert int(peak_kib) < 250 * 1024, f"the runner peaked at {int(peak_kib) // 1024} MiB"
    assert marked_processes() == []


def test_a_sweep_ends_one_implementation_s_processes_and_no_other_s():
    from passdown.conformance._process import Child, family, sweep

    mine, theirs = family(), family()
    sleeping = [sys.executable, "-c", "import time; time.sleep(60)"]
    children = [Child(sleeping, out_limit=1024, family=mark) for mark in (mine, theirs)]
    try:
        sweep(mine)
        assert wait_dead([children[0].pid]) == [] and alive(children[1].pid)
    finally:
        for child in children:
            child.kill()
    assert wait_dead([child.pid for child in children]) == []


def test_a_child_that_closes_stdout_before_it_exits_is_reaped_as_it_ends(monkeypatch):
    """Its exit is waited for on its pidfd, not polled with sleeps (each sleep of a poll held
    a case's slot after its program had ended)."""
    closing = [sys.executable, "-c", "import os, time; os.close(1); time.sleep(0.2); raise SystemExit(3)"]
    child = _process.Child(closing, out_limit=1024)
    if child._pidfd is None:
        child.kill()
        pytest.skip("no pidfd on this system: the exit is polled")
    slept = []
    monkeypatch.setattr(_process.subprocess.time, "sleep", lambda seconds: slept.append(seconds))
    try:
        assert child.communicate(b"", time.monotonic() + 5) == b""
        assert child.wait(5) == 3
    finally:
        child.kill()
    assert slept == []
