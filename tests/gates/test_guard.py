"""The guard's readers: shell text into commands, code into executor calls, and its bounds."""

from __future__ import annotations

import json

import pytest

from baton.gates import guard
from baton.gates._guard_code import executor_calls, self_signal
from baton.gates._guard_shell import read


def words(text):
    return [command.words for command in read(text)]


@pytest.mark.parametrize(("text", "expected"), [
    ("a b; c && d || e | f & g\nh", [["a", "b"], ["c"], ["d"], ["e"], ["f"], ["g"], ["h"]]),
    ("echo 'a; b' \"c && d\"", [["echo", "a; b", "c && d"]]),
    ("echo a\\;b", [["echo", "a;b"]]),
    ("echo hi # ; reboot", [["echo", "hi"]]),
    ("echo a#b", [["echo", "a#b"]]),
    ("kill -1 2>/dev/null >>log 2>&1", [["kill", "-1"]]),
    ("echo $'it\\'s'", [["echo", "it's"]]),
    ("systemctl \\\nrestart x", [["systemctl", "restart", "x"]]),
    ("echo 'open", [["echo", "open"]]),
    ("echo \"open $(reboot", [["echo", "open $(reboot"]]),
    ("", []),
])
def test_the_reader_splits_like_a_shell(text, expected):
    assert words(text) == expected


def test_substitutions_are_payloads_wherever_they_run():
    [command] = read('x=$(a) echo "$(b)" `c` <(d) \'$(not)\' > "$(e)"')
    assert command.payloads == ["a", "b", "c", "d", "e"]
    assert command.words[0] == "x=$(a)"


def test_a_here_document_is_stdin_and_its_substitutions_run_only_unquoted():
    [quoted] = read("cat <<'EOF'\n$(a)\nkill -1\nEOF")
    assert quoted.stdin == ["$(a)\nkill -1"] and quoted.payloads == []
    [plain, after] = read("cat <<-EOF > f\n\t$(a)\n\tEOF\nls")
    assert plain.payloads == ["a"] and after.words == ["ls"]


def test_a_pipe_links_the_commands_it_joins():
    first, second, third = read("echo x | sh; ls")
    assert second.piped_from is first and third.piped_from is None


@pytest.mark.parametrize(("code", "expected"), [
    ("execSync('pkill -f node')", [("shell", "pkill -f node")]),
    ("cp.spawnSync('kill', ['-1'])", [("shell", "kill"), ("argv", ["kill", "-1"]), ("argv", ["-1"])]),
    ("subprocess.run(['kill', '-1'], check=True)", [("argv", ["kill", "-1"])]),
    ("subprocess.run(args=['reboot'])", [("argv", ["reboot"])]),
    ("os.system(\"kill \\x2d1\")", [("shell", "kill -1")]),
    ("tools.bash({ command: 'reboot', timeout: 5 })", [("shell", "reboot")]),
    ("os.execlp('kill', 'kill', '-1')", [("shell", "kill"), ("argv", ["kill", "-1"])]),
    ("run(r'''reboot''')", [("shell", "reboot")]),
    ("exec(cmd)", []),
    ("print('exec(1)')", []),
])
def test_executor_calls_read_back_their_literal_programs(code, expected):
    assert executor_calls(code) == expected


def test_more_executor_calls_than_the_bound_are_not_read():
    assert executor_calls("exec('ls');" * 64) is not None
    assert executor_calls("exec('ls');" * 65) is None


@pytest.mark.parametrize(("text", "found"), [
    ("os.kill(os.getppid(), signal.SIGTERM)", True),
    ("os . kill ( os . getppid ( ) , 9 )", True),
    ("process.kill(process.ppid)", True),
    ("process.kill(0, 'SIGTERM')", True),
    ("process.kill(4242)", True),
    ("os.kill(4242, 9)", True),
    ("os.kill(42420, 9)", False),
    ("process.kill(child.pid)", False),
    ("kill the parent process", False),
])
def test_self_signals_are_code_shaped(text, found):
    assert self_signal(text, 4242) is found


def _decide(arguments, tool="execute"):
    return guard.decide({"tool": tool, "arguments": arguments, "host_pid": 4242})


def test_input_over_four_mebibytes_is_invalid():
    payload = {"tool": "data", "arguments": "x" * (4 * 1024 * 1024), "host_pid": 1}
    decision = guard.run(json.dumps(payload).encode())
    assert (decision.outcome, decision.exit_code, decision.output["path"]) == ("invalid_input", 2, "$")
    small = dict(payload, arguments="x" * 1024)
    assert guard.run(json.dumps(small).encode()).outcome == "allow"


def test_a_hostile_text_is_judged_in_bounded_time():
    # Every "run(" opens a call whose arguments never close: still read once each, within bounds.
    assert _decide("node -e \"" + "run(" * 20000 + "\"").outcome == "too_long"
    assert _decide("echo " + "$(" * 5000).outcome == "too_deep"
    assert _decide("'" * 60000).outcome == "allow"


def test_a_denial_message_names_the_restart_tool_given():
    decision = guard.decide({"tool": "execute", "arguments": "reboot", "host_pid": 1, "restart_tool": "restart_dsh"})
    assert "restart_dsh" in decision.output["message"]
    assert "the restart tool" in _decide("reboot").output["message"]
