"""The guard's readers: shell text into commands, options as getopt reads them, code into
executor calls, kill patterns into automata, and the bounds that keep all of it linear."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from passdown.gates import _guard_command, guard
from passdown.gates._guard_code import executor_calls, self_signal
from passdown.gates._guard_command import render_printf
from passdown.gates._guard_options import Options, parse
from passdown.gates._guard_pattern import MAX_STATES_FLOOR, MAX_STATES_PER_CHAR, Unsupported, compile_pattern, search
from passdown.gates._guard_shell import escape_at, read, unescape

GATES_DIR = Path(__file__).resolve().parents[2] / "validator" / "passdown" / "gates"


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
    # A parenthesis opens a subshell only where a command starts.
    ("( reboot )", [["reboot"]]),
    ("print(\"reboot\")", [["print(reboot)"]]),
    ("arr=(a b; reboot) ls", [["arr=(a b; reboot)", "ls"]]),
    ("ls !(x|y).log", [["ls", "!(x|y).log"]]),
    ("f() { kill -1; }; f", [["{", "kill", "-1"], ["}"], ["f"]]),
    ("function g () { x; }", [["{", "x"], ["}"]]),
    ("case $x in (a) reboot;; esac", [["case", "$x", "in"], ["a"], ["reboot"], ["esac"]]),
    ("echo a(b", [["echo", "a(b"]]),
    # A descriptor before > belongs to the redirection; ${VAR} stays a word.
    ("{fd}>/tmp/x reboot", [["reboot"]]),
    ("${VAR}>/dev/null reboot", [["${VAR}", "reboot"]]),
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


def test_redirection_targets_are_kept_apart_from_the_words():
    [command] = read("echo b >/proc/sysrq-trigger 2>>err.log < <(ls) <in.txt")
    assert command.words == ["echo", "b"]
    assert command.writes == ["/proc/sysrq-trigger", "err.log"]
    assert command.inputs == [("<(ls)", ["ls"]), ("in.txt", [])]
    [only] = read("> /proc/sysrq-trigger")
    assert only.words == [] and only.writes == ["/proc/sysrq-trigger"]


def test_a_command_with_several_here_documents_is_listed_once():
    commands = read("cat <<A <<B\na\nA\nb\nB\nls")
    assert [c.words for c in commands] == [["cat"], ["ls"]]
    assert commands[0].stdin == ["a", "b"]


@pytest.mark.parametrize(("text", "echo", "expected"), [
    ("\\x72", False, ("r", 4)),
    ("\\0551", False, ("-", 4)),  # $'...' and printf: up to three octal digits
    ("\\0101", True, ("A", 5)),  # echo -e: \0 then up to three octal digits
    ("\\0101", False, ("\b", 4)),
    ("\\162", True, ("r", 4)),
    ("\\n", False, ("\n", 2)),
    ("\\q", False, ("q", 2)),
    ("\\", False, ("\\", 1)),
])
def test_escapes_read_as_the_shell_reads_them(text, echo, expected):
    assert escape_at(text, 0, echo) == expected


def test_echo_escapes():
    assert unescape("cd /\\nreboot") == "cd /\nreboot" and unescape("plain") == "plain"


@pytest.mark.parametrize(("format_text", "arguments", "expected"), [
    ("reboot\\n", [], "reboot\n"),
    ("%s\\n", ["ls", "reboot"], "ls\nreboot\n"),  # the format is reused while arguments remain
    ("kill -%d", ["1"], "kill -1"),
    ("%b", ["a\\tb"], "a\tb"),
    ("100%% %s", [], "100% "),
    ("x%.0s", ["a", "b"], "xx"),
    ("%.3s", ["reboot"], "reb"),
])
def test_printf_prints_what_printf_prints(format_text, arguments, expected):
    assert render_printf(format_text, arguments, 1000) == expected


def test_printf_stops_past_its_limit():
    assert render_printf("x" * 10 + "%s", ["a"] * 10, 50) is None
    assert render_printf("x" * 10 + "%s", ["a"] * 4, 50) == ("x" * 10 + "a") * 4


# -- options ------------------------------------------------------------------------------------

SUDO = Options(values="ug", long_values={"--user"})
SHELL = Options(values="oO", long_payload={"--command"}, flag_payload="c", plus=True)
PERL = Options(values="I", rest="M", digits="l0", payload="eE")
NODE = Options(payload="ep", long_payload={"--eval"}, attached=False)
PKILL = Options(values="u", permute=True)


@pytest.mark.parametrize(("words", "options", "first", "payload", "seen"), [
    (["sudo", "-iu", "root", "reboot"], SUDO, 3, None, {"-i", "-u"}),
    (["sudo", "-u#0", "reboot"], SUDO, 2, None, {"-u"}),
    (["sudo", "--user=root", "reboot"], SUDO, 2, None, {"--user"}),
    (["sudo", "--user", "root", "--", "-x"], SUDO, 4, None, {"--user"}),
    (["bash", "-o", "errexit", "-c", "reboot"], SHELL, 4, "reboot", {"-o", "-c"}),
    (["bash", "+o", "posix", "-ec", "kill -1"], SHELL, 4, "kill -1", {"-o", "-e", "-c"}),
    (["bash", "-c", "--", "reboot"], SHELL, 3, "reboot", {"-c"}),
    (["fish", "--command=reboot"], SHELL, 2, "reboot", {"--command"}),
    (["perl", "-le", "code"], PERL, 3, "code", {"-l", "-e"}),
    (["perl", "-l0e", "code"], PERL, 3, "code", {"-l", "-e"}),
    (["perl", "-Mstrict", "-e", "code"], PERL, 4, "code", {"-M", "-e"}),
    (["perl", "-ecode"], PERL, 2, "code", {"-e"}),
    (["node", "-pe", "code"], NODE, 3, "code", {"-p"}),
    (["node", "--eval", "code"], NODE, 3, "code", {"--eval"}),
    # every value of a payload option given twice is run, in order (GRD-054)
    (["perl", "-e", "one", "-le", "two"], PERL, 5, "one\ntwo", {"-e", "-l"}),
    (["node", "-e", "one", "--eval=two"], NODE, 4, "one\ntwo", {"-e", "--eval"}),
    (["bash", "-c"], SHELL, 2, None, {"-c"}),
])
def test_options_are_read_as_getopt_reads_them(words, options, first, payload, seen):
    parsed = parse(words, 1, options)
    assert (parsed.first, parsed.payload(), parsed.seen) == (first, payload, seen)


def test_a_permuting_command_reads_options_after_its_operands():
    parsed = parse(["pkill", "node", "-u", "me", "-f", "--", "-x"], 1, PKILL)
    assert parsed.operands == [1, 6] and parsed.seen == {"-u", "-f"}


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


def test_every_payload_is_charged_to_the_work_budget(monkeypatch):
    monkeypatch.setattr(_guard_command, "WORK_FACTOR", 1)
    monkeypatch.setattr(_guard_command, "WORK_FLOOR", 0)
    assert _decide("reboot").outcome == "host_shutdown"  # its own length fits exactly
    assert _decide("bash -c reboot").outcome == "too_long"  # the payload costs more
    assert _decide("echo reboot | sh").outcome == "too_long"  # so does what echo prints
    monkeypatch.setattr(_guard_command, "WORK_FACTOR", 3)
    assert _decide("bash -c reboot").outcome == "host_shutdown"


def test_pattern_matching_is_charged_to_the_work_budget(monkeypatch):
    call = {"tool": "execute", "arguments": "pkill nginx", "host_pid": 1, "host_names": ["node"]}
    assert guard.decide(call).outcome == "allow"
    # The text costs its 11 characters; the pattern its 5 characters times "node" plus one
    # separator per name plus one: 30. A budget of 1 * 11 + 30 is just enough.
    monkeypatch.setattr(_guard_command, "WORK_FACTOR", 1)
    monkeypatch.setattr(_guard_command, "WORK_FLOOR", 30)
    assert guard.decide(call).outcome == "allow"
    monkeypatch.setattr(_guard_command, "WORK_FLOOR", 29)
    assert guard.decide(call).outcome == "too_long"


@pytest.mark.parametrize(("arguments", "expected"), [
    ({"command": "bash", "args": ["-c", "reboot"]},
     [("shell", "bash"), ("argv", ["bash", "-c", "reboot"])]),
    ({"command": "bash", "args": ["bash", "-c", "x"]},
     [("shell", "bash"), ("argv", ["bash", "bash", "-c", "x"]), ("argv", ["bash", "-c", "x"])]),
    ({"command": "echo", "args": ["reboot"]}, [("shell", "echo"), ("argv", ["echo", "reboot"])]),
    ({"args": ["sh", "-c", "x"]}, [("argv", ["sh", "-c", "x"])]),
    ({"command": "sudo sh -c", "args": ["it's"]},
     [("shell", "sudo sh -c"), ("argv", ["sudo sh -c", "it's"]), ("shell", "sudo sh -c 'it'\\''s'")]),
    ({"cmd": ["sudo", "kill"], "argv": ["-1"]}, [("argv", ["sudo", "kill"]), ("argv", ["sudo", "kill", "-1"])]),
    ({"code": "x", "commands": ["a", 1, "b"]}, [("source", "x"), ("shell", "a"), ("shell", "b")]),
])
def test_a_spawn_object_is_judged_as_the_command_it_runs(arguments, expected):
    assert guard._programs(arguments) == expected


# -- patterns -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("pattern", "subject", "whole", "found"), [
    ("no.e", "node", False, True),
    ("^nod", "node", False, True),
    ("^ode", "node", False, False),
    ("n[^x]de", "node", False, True),
    ("[[:digit:]]", "node", False, False),
    ("(no)+de", "nonode", True, True),
    ("no{1,2}de", "noode", True, True),
    ("no{3}de", "noode", True, False),
    ("\\<node\\>", "my node js", False, True),
    ("\\bod", "node", False, False),
    ("a|", "xyz", False, True),
    ("(a*)*b", "a" * 3000, False, False),
])
def test_patterns_match_as_extended_regular_expressions(pattern, subject, whole, found):
    assert search(compile_pattern(pattern), subject, False, whole) is found


@pytest.mark.parametrize("pattern", ["(", "a)", "[z-a]", "[a", "*a", "a{1", "a{2,1}", "(a)\\1", "[[.a.]]",
                                     "[[:nope:]]", "x{256}", "a{100}", "(" * 40 + ")" * 40, "a" + "*" * 5000,
                                     "a" + "{1}" * 2000])
def test_a_pattern_outside_the_dialect_is_unsupported(pattern):
    with pytest.raises(Unsupported):
        compile_pattern(pattern)


def test_a_compiled_pattern_stays_within_its_size_bound():
    for pattern in ("(ab|cd){1,8}", "x{5,9}y+", "[a-z]*" * 20, "a?" * 30):
        assert len(compile_pattern(pattern)) <= MAX_STATES_PER_CHAR * len(pattern) + MAX_STATES_FLOOR


def test_case_folding_respects_negated_sets():
    program = compile_pattern("^[^a]$")
    assert search(program, "A", False, False) and not search(program, "A", True, False)
    assert search(compile_pattern("NODE"), "node", True, False)


def test_the_matcher_and_the_readers_import_nothing_heavy():
    for name in ("_guard_pattern", "_guard_options", "_guard_shell", "_guard_command"):
        tree = ast.parse((GATES_DIR / f"{name}.py").read_text(encoding="utf-8"))
        imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        assert all(module.startswith("passdown.gates") or module == "fnmatch" for module in imported), (name, imported)


def test_the_dialect_agrees_with_pythons_reading_of_the_same_patterns():
    patterns = ["no.e", "^n(o|x)+de$", "[n-p]ode", "no?de", "(a|b)*c", "^$", "\\w+", "x{0,2}y"]
    subjects = ["node", "nooode", "pode", "nde", "ababc", "", "a_1", "xxy", "y", "NODE"]
    for pattern in patterns:
        program = compile_pattern(pattern)
        for subject in subjects:
            assert search(program, subject, False, False) == bool(re.search(pattern, subject)), (pattern, subject)
            assert search(program, subject, False, True) == bool(re.fullmatch(pattern, subject)), (pattern, subject)


def test_a_denial_message_names_the_restart_tool_given():
    decision = guard.decide({"tool": "execute", "arguments": "reboot", "host_pid": 1, "restart_tool": "restart_dsh"})
    assert "restart_dsh" in decision.output["message"]
    assert "the restart tool" in _decide("reboot").output["message"]
