"""The guard's kernel from inside: the reader's commands, what a command prints, the code
reader's executor calls and self-signals, the glob of units and names, the bounds, and that the
verb table holds every verb the spec names. What the guard answers is the conformance suite's
(conformance/cases/guard/); these are the internal tables worth checking on their own."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from passdown.gates import guard
from passdown.gates._guard_code import MAX_CALLS, executor_calls, self_signal
from passdown.gates._guard_judge import (MAX_READINGS, VERBS, Host, Judge, _extended, _other_readings,
                                        _pattern_hits, glob_match, printed, program_name)
from passdown.gates._guard_read import MAX_DEPTH, Unreadable, decode_escapes, read

ROOT = Path(__file__).resolve().parents[2]


def words(text, dialect="posix"):
    return [[str(w) for w in command.words] for command in read(text, dialect)]


@pytest.mark.parametrize(("text", "dialect", "expected"), [
    ("a b; c && d || e | f & g\nh", "posix", [["a", "b"], ["c"], ["d"], ["e"], ["f"], ["g"], ["h"]]),
    ("echo 'a; b' \"c && d\"", "posix", [["echo", "a; b", "c && d"]]),
    ("echo a\\;b", "posix", [["echo", "a;b"]]),
    ("echo hi # ; reboot", "posix", [["echo", "hi"]]),
    ("echo a#b", "posix", [["echo", "a#b"]]),
    ("kill -1 2>/dev/null >>log 2>&1", "posix", [["kill", "-1"]]),
    ("echo $'it\\'s \\162'", "posix", [["echo", "it's r"]]),
    ("systemctl \\\nrestart x", "posix", [["systemctl", "restart", "x"]]),
    ("kill ${PPID}", "posix", [["kill", "$PPID"]]),
    ("", "posix", []),
    ("Write-Host 'it''s'; Stop-Process `\n -Name x", "powershell", [["Write-Host", "it's"], ["Stop-Process", "-Name", "x"]]),
    ("Get-Process x | Stop-Process <# note #> -Force", "powershell", [["Get-Process", "x"], ["Stop-Process", "-Force"]]),
    ("task^kill /im \"a b.exe\" & echo %PATH%", "cmd", [["taskkill", "/im", "a b.exe"], ["echo", "%PATH%"]]),
])
def test_the_reader_splits_like_its_shell(text, dialect, expected):
    assert words(text, dialect) == expected


@pytest.mark.parametrize("text", ["echo 'open", 'echo "open', "echo $(open", "echo `open", "echo ${open"])
def test_what_the_reader_cannot_close_is_unreadable(text):
    with pytest.raises(Unreadable) as raised:
        read(text)
    assert raised.value.code == "unreadable"


def test_substitutions_pipes_and_here_documents_are_kept_with_their_command():
    first, second = read("cat <<EOF | sh\nreboot $(id)\nEOF\n")
    assert (first.fed, second.piped, len(first.nested)) == (["reboot $(id)\n"], True, 1)
    (quoted,) = read("cat <<'EOF'\n$(id)\nEOF")
    assert (quoted.fed, quoted.nested) == (["$(id)\n"], [])
    (command,) = read("echo b > /proc/sysrq-trigger")
    assert command.writes == ["/proc/sysrq-trigger"]


def test_a_here_document_inside_a_substitution_ends_at_its_delimiter_and_closer():
    (echo,) = read("echo $(sh -s <<'EOF'\nreboot\nEOF)")
    ((shell,),) = echo.nested
    assert shell.fed == ["reboot\n"]
    assert [str(w) for w in echo.words] == ["echo", "$(sh -s <<'EOF'\nreboot\nEOF)"]
    assert words("x=$(cat <<EOF\nhi\nEOF\n); reboot") == [["x=$(cat <<EOF\nhi\nEOF\n)"], ["reboot"]]


def test_a_process_substitution_read_as_input_is_the_command_s_source():
    (shell,) = read("bash < <(echo reboot)")
    (diff,) = read("diff <(sort a) <(sort b)")
    assert ([[str(w) for w in c.words] for c in shell.sources[0]], diff.sources) == ([["echo", "reboot"]], [])


def test_nesting_past_the_bound_is_too_deep():
    read("echo " + "$(echo " * MAX_DEPTH + ")" * MAX_DEPTH)
    with pytest.raises(Unreadable) as raised:
        read("echo " + "$(echo " * (MAX_DEPTH + 1) + ")" * (MAX_DEPTH + 1))
    assert raised.value.code == "too_deep"


@pytest.mark.parametrize(("text", "expected"), [
    ("echo reboot", ["reboot"]),
    ("echo -e 'a\\tb'", ["a\tb"]),
    ("printf '%s\\n' reboot", ["reboot\n"]),
    ("printf '\\162eboot'", ["reboot"]),
    ("cat <<EOF\nhi\nEOF", ["hi\n"]),
    ("sudo echo hi", ["hi"]),
    ("cat notes.txt", []),
])
def test_what_a_command_prints(text, expected):
    (command,) = read(text)
    assert printed(command, Judge(Host(1))) == expected


def test_escapes_decode_as_printf_does():
    assert decode_escapes("\\x72\\0145\\u0062\\n\\q") == "reb\n\\q"


@pytest.mark.parametrize(("code", "expected"), [
    ('os.system("reboot")', [("shell", "reboot")]),
    ('subprocess.run(["kill", "-9", "1"], check=True)', [("argv", ["kill", "-9", "1"])]),
    ("execFile('kill', ['-1'])", [("shell", "kill"), ("argv", ["kill", "-1"])]),
    ('os.execlp("kill", "kill", "-1")', [("shell", "kill"), ("argv", ["kill", "-1"])]),
    ('system "reboot"', [("shell", "reboot")]),
    ("`reboot`", [("shell", "reboot")]),
    ("qx{reboot}; %x(halt)", [("shell", "reboot"), ("shell", "halt")]),
    ('"reboot" | getline', [("shell", "reboot")]),
    ('do shell script "reboot"', [("shell", "reboot")]),
    ('print("reboot"); run(cmd)', []),
    ('system(lc(")"), "reboot")', [("shell", "reboot")]),  # a closer quoted in a skipped value
    ('os.system(x]); system "reboot" %w', [("shell", "reboot")]),  # a stray closer; %w at the end
])
def test_executor_calls_read_back_their_literal_programs(code, expected):
    assert executor_calls(code) == expected


def test_more_executor_calls_than_the_bound_ask():
    executor_calls('system("ls");' * MAX_CALLS)
    with pytest.raises(Unreadable) as raised:
        executor_calls('system("ls");' * (MAX_CALLS + 1))
    assert raised.value.code == "too_long"


@pytest.mark.parametrize(("text", "found"), [
    ("os.kill(os.getppid(), 9)", True),
    ("process.kill(process.ppid)", True),
    ("Process.kill(:TERM, Process.ppid)", True),
    ("posix_kill(posix_getppid(), 15)", True),
    ("kill 'TERM', getppid;", True),
    ("process.kill(-1)", True),
    ("os.killpg(0, 9)", True),
    ("os.kill(4242, 15)", True),
    ("os.kill(pid, 0)", False),
    ("os.killpg(os.getpgid(child.pid), 15)", False),
    ("kill -9 $PPID", False),
    ("skill and killer", False),
    ("psutil.Process(os.getppid()).terminate()", True),
    ("psutil.Process(os.getppid()).send_signal(signal.SIGTERM)", True),
    ("psutil.Process(child).terminate()", False),
    ("exec('kill -9 ' + process.ppid)", True),
    ("use process.ppid to find the parent; kill nothing", False),
])
def test_self_signals_are_code_shaped(text, found):
    assert self_signal(text, 4242) is found
    assert guard._may_signal(text) or not found  # the gate loads the reader for every self-signal


@settings(max_examples=500, deadline=None)
@given(text=st.lists(st.sampled_from(["kill", "killpg", "(", ")", ",", " ", "-1", "0", "4242", "ppid",
                                      "getppid", "os.", "Process.", ";", "'TERM'", "9", "\n", "$pid",
                                      "Process(", ").terminate(", ").send_signal(", ".ppid", "+ "]),
                     max_size=10).map("".join))
def test_every_self_signal_is_a_text_the_gate_reads_for_one(text):
    assert guard._may_signal(text) or not self_signal(text, 4242)


@pytest.mark.parametrize(("pattern", "name", "fold", "found"), [
    ("dsh", "dsh", False, True), ("ds?", "dsh", False, True), ("d*", "dsh", False, True),
    ("[a-e]sh", "dsh", False, True), ("[!d]sh", "dsh", False, False), ("DSH", "dsh", True, True),
    ("DSH", "dsh", False, False), ("*.scope", "app-1.scope", False, True),
])
def test_units_and_windows_names_match_as_globs(pattern, name, fold, found):
    assert glob_match(pattern, name, fold) is found


@pytest.mark.parametrize(("pattern", "name", "fold", "whole", "found"), [
    ("^\\w\\w", "claude_code", False, False, True), ("\\d", "claude", False, False, False),
    ("cli\\.js", "cli.js", False, True, True), ("cli\\.js", "clixjs", False, False, False),
    ("cli.js", "clixjs", False, False, True), ("CLA[U-V]DE", "claude", True, True, True),
    ("\\W", "claude", False, False, False), ("[]x]", "]", False, True, True),
    ("^cl", "claude", False, False, True), ("^cl", "xclaude", False, False, False),
    ("de$", "claude", False, False, True), ("de$", "claudex", False, False, False),
    ("vite|claude", "claude", False, False, True), ("vite|next", "claude", False, False, False),
    ("py.*test", "python -m pytest", False, False, True), ("[^c]laude", "claude", False, False, False),
    ("[!a]", "!", False, True, True), ("a\\*", "xa*", False, False, True),
    ("(^|/)claude(\\s|$)", "/usr/bin/claude --model", False, False, True),
    ("(^|/)claude(\\s|$)", "xclaude", False, False, False),
    ("(chrome)?(--headless)", "x --headless", False, False, True),
    ("(vite|next)", "claude", False, False, False), ("(cl|x)(a|u)ude", "claude", False, True, True),
])
def test_a_kill_pattern_reads_as_the_globs_of_its_alternatives(pattern, name, fold, whole, found):
    assert _pattern_hits(pattern, name, whole, fold, True) is found


def test_a_kill_pattern_that_backtracks_forever_elsewhere_answers_at_once():
    pattern, name = ".*a" * 40 + "x", "a" * 5000
    assert not _pattern_hits(pattern, name, False, False, True)
    assert _pattern_hits(pattern, name + "x", False, False, True)


@pytest.mark.parametrize("pattern", [
    "(a)\\1", "\\bclaude", "\\<claude\\>", "(?i)claude", "(claude", "claude)", "*claude", "a{3}",
    "[[:alpha:]]", "[abc", "claude\\", "cl+aude", "cla?ude", "c^l", "c$l", "x*", "(cl)+aude", "(a|b)*",
    "(a){2}",
])
def test_a_kill_pattern_in_a_form_the_guard_does_not_read_asks(pattern):
    with pytest.raises(Unreadable) as raised:
        _pattern_hits(pattern, "claude", False, False, True)
    assert raised.value.code == "unreadable"


@pytest.mark.parametrize(("words", "stated", "readings"), [
    (["-t", "1", "-m", "reboot"], (), [["reboot"], []]),
    (["-u", "root", "reboot"], ("-u",), []),
    (["--user=root", "reboot"], (), []),
    (["-E", "kill", "-9", "1"], (), [["1"], []]),
])
def test_an_option_the_table_does_not_state_is_read_both_ways(words, stated, readings):
    assert _other_readings(words, frozenset(stated)) == readings


def test_nested_wrappers_share_their_readings_within_a_budget():
    judge = Judge(Host(4242, names=("claude",)))
    assert judge.shell("sudo -E " * 60 + "ls") is None and len(judge.readings) < 64
    options = " ".join(f"-a {n}" for n in range(MAX_READINGS + 1))
    with pytest.raises(Unreadable) as raised:
        Judge(Host(4242)).shell(f"nsenter {options} ls")
    assert raised.value.code == "too_deep"


def test_program_names_drop_paths_and_exe():
    assert [program_name(w) for w in ("/usr/bin/kill", "C:\\Windows\\taskkill.exe", "kill")] == ["kill", "taskkill", "kill"]


def test_a_hostile_text_is_read_whole_and_judged():
    value = {"tool": "execute", "host_pid": 4242, "host_names": ["claude"],
             "arguments": "echo " + "'a' \"b\" $(c) `d` kill, os.kill(x " * 1500}
    assert guard.decide(value).outcome == "allow"


def test_every_verb_the_spec_names_has_a_rule():
    page = (ROOT / "spec" / "gates" / "guard.md").read_text(encoding="utf-8")
    named = set()
    for requirement in ("GRD-065", "GRD-069", "GRD-070", "GRD-072", "GRD-073"):
        line = next(line for line in page.splitlines() if f"**{requirement}**" in line)
        for code in re.findall(r"`([^`]+)`", line):
            verb = code.split()[0].lower()
            if re.fullmatch(r"[a-z][a-z0-9.-]*", verb) and "." not in verb and verb not in (
                    "service_unit", "host_units", "process_kill", "host_kill", "service_restart",
                    "host_shutdown", "start", "isolate", "stop", "restart", "kill", "try-restart",
                    "reload-or-restart", "try-reload-or-restart", "condrestart", "force-reload",
                    "condstop", "reload-or-try-restart", "condreload", "freeze", "disable",
                    "mask", "reboot", "poweroff", "halt", "kexec",
                    "soft-reboot", "rescue", "emergency", "setsid", "command", "exec", "nohup",
                    "ps", "pgrep", "pidof", "grep", "while", "for", "get-process", "get-service", "where-object",
                    "systemd-reboot", "lsof", "get-ciminstance", "get-wmiobject", "kill-window", "kill-pane",
                    "terminate-session", "kill-session", "terminate-user", "kill-user"):
                # peeled keywords, pid and service sources, filters, units
                named.add(verb)
    assert named and named - set(VERBS) == set()


_WINDOWS_HOST = {"host_pid": 4242, "host_names": ["claude"], "host_command_lines": ["claude --model opus"],
                 "host_units": ["dsh.service"], "service_unit": "dsh.service", "restart_tool": "restart_dsh"}


@pytest.mark.parametrize(("shell", "command", "code"), [
    ("cmd", "cmd /ctaskkill /im claude.exe", "process_kill"),
    ("cmd", 'taskkill /fi "PID eq 4242"', "host_kill"),
    ("cmd", "taskkill /im %NAME%", "unreadable"),
    ("powershell", "pwsh Stop-Process -Name claude", "process_kill"),
    ("powershell", "Get-Service | Restart-Service", "service_restart"),
    ("powershell", "Get-Service | Where-Object Status | Stop-Service", "unreadable"),
    # a Where-Object filter is read when each clause (between -or) compares the name
    ("powershell", "Get-Service | Where-Object {$_.Name -eq 'dsh'} | Restart-Service", "service_restart"),
    ("powershell", "gps | where ProcessName -Like cl* | spps", "process_kill"),
    ("powershell", "gps | ? { $_.Name -eq 'vite' -or $_.Name -ieq 'CLAUDE' } | spps", "process_kill"),
    ("powershell", "gps | ? { $_.Name -eq 'claude' -and $_.CPU -gt 9 } | spps", "process_kill"),
    ("powershell", "gps | ? { $_.Name -eq 'node' -and $_.CPU -gt 9 } | spps", None),
    ("powershell", "gps | ? { $_.Name -eq 'node' -or $_.CPU -gt 9 } | spps", "unreadable"),
    ("powershell", "gps | ? { $_.CPU -gt 9 -and $_.Name -eq 'node' } | spps", "unreadable"),
    ("powershell", "gps | ? { $_.Name -ne 'node' } | spps", "unreadable"),
    ("powershell", "gps | ? { $_.Name -eq $name } | spps", "unreadable"),
    ("powershell", "gps | ? { $_.Name -match '(node)+' } | spps", "unreadable"),
    ("powershell", "Get-Process | Where-Object { $_.CommandLine -like '*opus*' } | Stop-Process", "process_kill"),
    # a program file by its name; where the host's file lies is not observed, so a named folder asks
    ("powershell", "Get-Process | ? { $_.Path -like '*habit-tracker*' -or $_.ProcessName -eq 'node' } | spps", None),
    ("powershell", "Get-Process | Where-Object { $_.Path -like '*\\claude.exe' } | Stop-Process", "process_kill"),
    ("powershell", "Get-Process | Where-Object { $_.Path -match 'claude\\.exe$' } | Stop-Process", "process_kill"),
    ("powershell", "Get-Process | Where-Object { $_.Path -like 'C:\\tools\\*' } | Stop-Process", "unreadable"),
    # processes piped into ForEach-Object and stopped there by their id, as if piped into Stop-Process
    ("powershell", "Get-Process node | ForEach-Object { Stop-Process -Id $_.Id }", None),
    ("powershell", "Get-Process | % { spps -Id $PSItem.Id }", "host_kill"),
    ("powershell", "gcim Win32_Process -Filter \"Name like 'clau%'\" | % { spps -Id $_.ProcessId }", "process_kill"),
    ("powershell", "Get-WmiObject Win32_Process -Filter \"ProcessId=4242\" | % { kill -Id $_.ProcessId }",
     "host_kill"),
    ("powershell", "gcim Win32_Process -Filter \"Name='python.exe'\" | ? { $_.CommandLine -like '*opus*' } | "
                   "% { Stop-Process -Id $_.ProcessId }", None),  # python.exe's, and the host is claude
    ("powershell", "Get-CimInstance Win32_Process | % { Stop-Process -Id $_.ProcessId }", "host_kill"),
    ("powershell", "Get-NetTCPConnection -LocalPort 3000 | % { Stop-Process -Id $_.OwningProcess }", None),
    ("powershell", "Get-CimInstance Win32_Service | % { Stop-Process -Id $_.ProcessId }", None),
    # WMI's and .NET's stops are asked about, unless plainly sent to another computer
    ("powershell", "[Diagnostics.Process]::GetProcesses().Kill()", "unreadable"),
    ("powershell", "[Diagnostics.Process]::GetProcessById(4242) | Stop-Process", "unreadable"),
    ("powershell", "(Get-WmiObject Win32_OperatingSystem -ComputerName $s).Win32Shutdown(6)", "unreadable"),
    ("powershell", "(Get-WmiObject Win32_OperatingSystem -ComputerName build-02).Win32Shutdown(6)", None),
    ("powershell", "gcim Win32_Process -cn build-02 | Invoke-CimMethod -MethodName Terminate", None),
    ("powershell", "Get-ChildItem | ForEach-Object { $_.Delete() }", None),
    ("powershell", "(Get-Item notes.txt).Delete()", None),
    ("cmd", "wmic process where processid=4242 call terminate", "unreadable"),
    ("cmd", "wmic /node:localhost os call reboot", "unreadable"),
    ("cmd", "wmic /node:build-02 os call reboot", None),
    ("cmd", "wmic process call create notepad.exe", None),
    ("cmd", "wmic os get caption", None),
    # Start-Process's argument list is split as a command line, a quoted argument one word
    ("powershell", "Start-Process pwsh -Verb RunAs -ArgumentList '-c \"Restart-Service dsh\"'", "service_restart"),
    ("powershell", "Start-Process npm -ArgumentList 'run','dev' -NoNewWindow", None),
    ("powershell", "Stop-Process -Name notepad,'claude'", "process_kill"),
    ("powershell", "icm -cn localhost,build01 { Stop-Process -Name claude }", "process_kill"),
    ("cmd", 'start "api" /d C:\\app /min node server.js', None),
])
def test_windows_stops_no_conformance_case_reaches(shell, command, code):
    """Branches of the Windows rules (stops, asks, and what passes) that no conformance case takes."""
    call = {"tool": "execute", "shell": shell, "arguments": {"command": command}, **_WINDOWS_HOST}
    assert guard.decide(call).output.get("code") == code


def test_a_function_defined_inside_a_substitution_does_not_close_it():
    (echo,) = read("echo $(f() { reboot; }; f)")
    assert [[str(w) for w in command.words] for command in echo.nested[0]] == [["f"], ["{", "reboot"], ["}"], ["f"]]


@pytest.mark.parametrize(("basic", "extended"), [
    ("vite\\|claude", "vite|claude"), ("a|b", "a\\|b"), ("\\(x\\)\\+", "(x)+"), ("(x)", "\\(x\\)"),
    ("[(|)]x", "[(|)]x"), ("a\\.b", "a\\.b"), ("x\\{2\\}", "x{2}"),
])
def test_grep_s_basic_pattern_reads_as_the_extended_one_it_stands_for(basic, extended):
    assert _extended(basic) == extended


@pytest.mark.parametrize(("code", "verdict"), [
    ("[p.kill() for p in psutil.process_iter() if p.name() == 'claude']", "process_kill"),
    ("for p in psutil.process_iter():\n    if p.name() == 'CLAUDE.EXE': p.terminate()", "process_kill"),
    ("for p in psutil.process_iter():\n    if p.name() == 'tmux: server': p.kill()", "process_kill"),
    ("for p in psutil.process_iter():\n    if p.name() == 'node': p.kill()", None),
    ("for p in psutil.process_iter():\n    if 'claude' in p.name(): print(p.pid)", None),  # no kill
    ("os.kill(pid, 9); print('stopping claude now')", None),  # the name only inside a longer text
    ("import subprocess, os\nfor p in subprocess.check_output(['pidof', 'claude']).split(): os.kill(int(p), 9)",
     "process_kill"),
    ("for p in os.popen('pgrep vite').read().split(): os.kill(int(p), 9)", None),
])
def test_code_that_kills_by_the_host_s_name(code, verdict):
    """Code that calls a kill function kills by name what it names: the host's name (or a name
    its session hangs on) as a whole string, in any case, ``.exe`` or not, or the pids a pgrep or
    pidof it runs finds."""
    judge = Judge(Host(4242, names=["claude"], session_names=["tmux: server"]))
    assert judge.code(code, 0) == verdict


@pytest.mark.parametrize(("command", "code"), [
    ("ps -C claude -o pid= | xargs kill", "process_kill"),  # ps -C selects whole command names
    ("kill $(ps -C node,claude -o pid=)", "process_kill"),
    ("ps -C node -o pid= | xargs kill", None),
    ("lsof -t -c clau | xargs kill", "process_kill"),  # lsof -c selects names by their start
    ("kill $(lsof -t -c node)", None),
    ("ps -C $NAME -o pid= | xargs kill", "unreadable"),  # a name in a variable asks, as pkill $NAME does
    ("pidof -o %PPID claude | xargs kill", "process_kill"),  # pidof -o takes a pid to leave out
    ("ps -eo pid,comm | awk '$2 == \"claude\" {print $1}' | xargs kill", "process_kill"),
    ("ps aux | awk '/vite/ {print $2}' | xargs kill", None),
    ("ps aux | awk '$3 > 50.0 {print $2}' | xargs kill", None),
])
def test_pids_selected_by_name_before_a_kill(command, code):
    call = {"tool": "execute", "arguments": {"command": command}, "host_pid": 4242, "host_names": ["claude"]}
    assert guard.decide(call).output.get("code") == code


@pytest.mark.parametrize(("shell", "arguments", "code"), [
    ("cmd", {"command": "shutdown /s /f"}, "host_shutdown"),
    ("cmd", {"command": "dir & taskkill /im claude.exe"}, "process_kill"),
    ("cmd", {"command": "shutdown -r -t 0"}, "host_shutdown"),
    ("posix", {"command": "perl -e 'system(\"reboot\")'"}, "host_shutdown"),
    ("posix", {"command": "php -r 'passthru(\"pkill claude\");'"}, "process_kill"),
    ("powershell", {"command": "iex 'taskkill /im claude.exe /f'"}, "process_kill"),
    ("powershell", {"command": "kill -Name claude"}, "process_kill"),
    ("powershell", {"command": "spps -Id 4242"}, "host_kill"),
    ("powershell", {"command": "Stop-Computer"}, "host_shutdown"),
    ("posix", {"command": "killall -u dev"}, "process_kill"),
    ("posix", {"command": "pidof claude | xargs kill -9"}, "process_kill"),
    ("posix", {"command": "skill claude"}, "process_kill"),
    ("posix", {"source": "require('child_process').execSync('kill -1')"}, "host_kill"),
    ("posix", {"command": "sudo", "args": ["reboot"]}, "host_shutdown"),
    ("posix", {"command": "git rebase -x 'pkill claude' main"}, "process_kill"),
    ("posix", {"command": "git rebase --exec='sudo systemctl restart dsh' main"}, "service_restart"),
])
def test_shapes_whose_vectors_gave_way_are_still_decided(shell, arguments, code):
    """Vectors that showed a rule another vector shows left the suite for new shapes (the suite
    holds at most 420); what they showed still holds."""
    call = {"tool": "execute", "shell": shell, "arguments": arguments, **_WINDOWS_HOST}
    assert guard.decide(call).output.get("code") == code


@pytest.mark.parametrize(("command", "code"), [
    ("python3 -c \"import psutil; psutil.Process().parent().kill()\"", "self_signal"),
    ("python3 -c \"from pathlib import Path; print(Path('x').parent)\"", None),
    ("python3 -c \"import subprocess; subprocess.run(args=['kill', '-9', '4242'])\"", "host_kill"),
    ("python3 -c \"import subprocess; subprocess.run(['ls'], check=True, cwd='/tmp')\"", None),
    ("deno eval \"await new Deno.Command('systemctl', {args: ['--user', 'restart', 'dsh']}).output()\"",
     "service_restart"),
    ("node -e \"require('child_process').spawn('pkill', ['claude'], {stdio: 'inherit'})\"", "process_kill"),
    ("perl -e 'kill \"TERM\", split \" \", `pgrep -x claude`'", "process_kill"),  # Perl's list-form kill
    ("perl -e 'print \"skill level 9\"'", None),
    ("ls src/*.py | entr -r systemctl --user restart dsh", "service_restart"),
    ("ls | entr -s 'pkill claude'", "process_kill"),
    ("npx nodemon --watch config -e toml --exec 'systemctl --user restart dsh'", "service_restart"),
    ("npx nodemon --exec 'python app.py'", None),
])
def test_code_and_runners_found_by_a_fresh_campaign(command, code):
    """Shapes a campaign written from the spec alone found the guard allowing."""
    call = {"tool": "execute", "arguments": {"command": command}, **_WINDOWS_HOST}
    assert guard.decide(call).output.get("code") == code


@pytest.mark.parametrize(("command", "code"), [
    ("tmux kill-window", "process_kill"), ("tmux kill-pane", "process_kill"),  # the host's own pane
    ("tmux kill-window -t build", None), ("tmux kill-pane -t 2", None), ("tmux kill-pane -a", None),
])
def test_ending_the_tmux_pane_the_host_runs_in(command, code):
    call = {"tool": "execute", "arguments": {"command": command}, "host_pid": 4242,
            "host_session_names": ["tmux: server", "tmux"]}
    assert guard.decide(call).output.get("code") == code


@pytest.mark.parametrize(("command", "code"), [
    ("Stop-Process -Id 4242 -WhatIf:$false", "host_kill"),  # what-if turned off: a real stop
    ("Stop-Process -Id 4242 -WhatIf:$true", None),
    ("Stop-Process -Id 0x1092 -Force", "host_kill"),  # 4242 in PowerShell's hexadecimal
    ("Stop-Process -Id 0xZZ", None),
    ("gcim Win32_Process | ? { $_.CommandLine -like '*--model opus*' } | % { Stop-Process -Id $_.ProcessId }",
     "process_kill"),  # a quoted value with a space is one word of the filter
    ("gps | ? { $_.Name -eq 'node' -and $_.Path -like 'C:\\x*' -or $_.Name -eq 'vite' } | spps", None),
])
def test_a_third_campaign_s_windows_shapes(command, code):
    """Shapes a campaign written from the spec alone found the Windows rules misreading."""
    call = {"tool": "execute", "shell": "powershell", "arguments": {"command": command}, **_WINDOWS_HOST}
    assert guard.decide(call).output.get("code") == code


@pytest.mark.parametrize(("command", "code"), [
    # signal 0 only asks whether the named processes run, by name as by pid
    ("pkill -0 -f claude && echo running", None), ("pkill --signal 0 claude", None),
    ("killall -0 claude", None), ("killall -s 0 claude", None), ("killall --signal SIG0 claude", None),
    ("pgrep -x claude | xargs -r kill -0", None), ("kill -s 0 4242", None), ("kill -L", None),
    ("pkill -s 0 claude", "host_kill"),  # pkill's -s is the session, not the signal: 0 is the caller's
    ("killall -s 9 claude", "process_kill"), ("pkill -HUP claude", "process_kill"),
    ("pkill -0 claude; pkill claude", "process_kill"),
    # what only looks up, prints help or names another session's multiplexer
    ("command -v shutdown", None), ("shutdown --help", None), ("tmux -L other kill-server", None),
    ("loginctl terminate-session 4100", "host_kill"),
])
def test_near_misses_a_campaign_wrote_from_the_spec(command, code):
    """Commands that look like stops of the host but only check, print or aim elsewhere; and their
    controls."""
    call = {"tool": "execute", "arguments": {"command": command}, "host_pid": 4242, "host_parent_pid": 4100,
            "host_sid": 4100, "host_names": ["claude"], "host_session_names": ["bash", "tmux: server", "tmux"]}
    assert guard.decide(call).output.get("code") == code


def _nested_sh(depth):
    """``reboot`` inside ``depth`` levels of ``sh -c``, each quoted as a shell quotes it."""
    text = "reboot"
    for _ in range(depth):
        text = "sh -c " + shlex.quote(text)
    return text


@pytest.mark.parametrize(("shell", "arguments", "code"), [
    # arithmetic is read past, quotes in it skipped; left open, it cannot be read
    ("posix", {"command": "echo $((1 + 2)); kill -9 $PPID"}, "host_kill"),
    ("posix", {"command": "echo $(( (1 + 2) * 3 )) $(( ')' ))"}, None),
    ("posix", {"command": "echo $((1 + 2"}, "unreadable"),
    # a PowerShell here-string is text: it runs only when something runs it
    ("powershell", {"command": "@'\nStop-Process -Name claude\n'@ | Set-Content stop.ps1"}, None),
    ("powershell", {"command": "iex @'\nStop-Process -Name claude\n'@"}, "process_kill"),
    ("powershell", {"command": "@'\nStop-Process -Name claude"}, "unreadable"),
    # an interpreter fed nothing; code that kills what an argv pgrep finds
    ("posix", ["python3"], None),
    ("posix", {"command": "python3 -c \"import os, subprocess; "
                          "os.kill(int(subprocess.check_output(['pgrep', '-f', 'cla.de'])), 9)\""}, "process_kill"),
    # a shell's options that take a value, and "-" ending its options before what it is fed
    ("posix", {"command": "bash -o pipefail -c reboot"}, "host_shutdown"),
    ("posix", {"command": "sh - <<'EOF'\nreboot\nEOF"}, "host_shutdown"),
    ("posix", {"command": '$"reboot"'}, "host_shutdown"),  # $"..." is a double quote
    ("posix", {"command": "echo costs 5$; echo $ done"}, None),  # a lone $ is itself
    ("posix", {"command": "pkill -f '(a|b)(a|b)(a|b)(a|b)(a|b)(a|b)(a|b)(a|b)(a|b)'"}, "too_long"),  # 512 globs
    ("posix", {"command": "sudo FOO=1 reboot"}, "host_shutdown"),  # a wrapper's assignments are skipped
    # at and trap run their text later; their listing and reset forms run nothing
    ("posix", {"command": "at -l"}, None), ("posix", {"command": "at -f job.sh now"}, None),
    ("posix", {"command": "echo reboot | at now + 1 minute"}, "host_shutdown"),
    ("posix", {"command": "trap - EXIT"}, None), ("posix", {"command": "trap -l"}, None),
    ("posix", {"command": "trap 'kill -9 $PPID' EXIT"}, "host_kill"),
    # GNU parallel: a dry run prints; fed lines are commands; {} takes each argument
    ("posix", {"command": "parallel --dry-run kill ::: 4242"}, None),
    ("posix", {"command": "printf '%s\\n' 'pkill claude' | parallel"}, "process_kill"),
    ("posix", {"command": "parallel 'kill -9 {}' ::: 4242"}, "host_kill"),
    ("posix", {"command": "parallel 'kill -9 {}' ::: 1234"}, None),
    ("posix", {"command": "git -C repo"}, None),
    ("posix", {"command": "kill --signal=TERM 4242"}, "host_kill"), ("posix", {"command": "kill --signal=0 4242"}, None),
    ("posix", {"command": "ps aux | grep $NAME | awk '{print $2}' | xargs kill"}, "unreadable"),
    ("posix", {"command": "fkill 4242"}, "host_kill"), ("posix", {"command": "npx fkill-cli :3000 node"}, None),
    # a PowerShell or cmd started with no command runs none; a what-if stop stops nothing
    ("powershell", {"command": "pwsh -File cleanup.ps1"}, None), ("powershell", {"command": "pwsh -NoProfile"}, None),
    ("cmd", {"command": "cmd /q"}, None),
    ("powershell", {"command": "Stop-Service -Name dsh -WhatIf"}, None),
    ("powershell", {"command": "Where-Object Name -eq claude | Stop-Process"}, None),  # nothing is piped in
    ("posix", {"command": ["sudo"], "args": ["reboot"]}, "host_shutdown"),  # a spawn's argv command and args
    ("posix", {"command": _nested_sh(7)}, "host_shutdown"),
    ("posix", {"command": _nested_sh(10)}, "too_deep"),
])
def test_readings_no_other_case_decides(shell, arguments, code):
    """Readings the vectors and the corpus reach only by chance: each decided on purpose."""
    host = {"host_pid": 4242, "host_parent_pid": 4100, "host_pgid": 4242, "host_sid": 4100,
            "host_names": ["claude"], "host_command_lines": ["claude --model opus"], "host_units": ["dsh.service"]}
    call = {"tool": "execute", "shell": shell, "arguments": arguments, **host}
    assert guard.decide(call).output.get("code") == code


def test_code_nested_past_the_bound_is_too_deep():
    with pytest.raises(Unreadable) as raised:
        Judge(Host(4242)).code("os.system('make')", MAX_DEPTH)
    assert raised.value.code == "too_deep"


@pytest.mark.parametrize(("shell", "command", "hinted"), [
    ("posix", 'ls -la "C:\\Code\\app\\"', True),  # as agents write a Windows path in Git Bash
    ("posix", 'echo "open', False),
    ("powershell", 'Write-Output "C:\\Code\\app\\" "open', False),  # no backslash escape in PowerShell
])
def test_an_unclosed_quote_behind_a_backslash_says_why(shell, command, hinted):
    """The ask for a double quote left open says when a backslash before it is the cause: the
    person asked sees that the command cannot run as written."""
    output = guard.decide({"tool": "execute", "shell": shell, "arguments": {"command": command},
                           "host_pid": 4242}).output
    assert output["code"] == "unreadable"
    assert ("a backslash before a quote escapes it" in output["message"]) is hinted
