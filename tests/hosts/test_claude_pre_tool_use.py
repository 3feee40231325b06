"""``passdown hook claude PreToolUse``: the guard on every tool call, fed the JSON the host sends
(one fixture per tool kind), checked by exact output and exit status; what happens when Passdown
itself fails; how the host's pid is found; and the fast path's light start-up."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from passdown.hosts import _claude_hooks, _hooks
from hosts_support import hook_input, launcher, run_hook


def _deny(reason: str) -> bytes:
    return (b'{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": '
            b'"deny", "permissionDecisionReason": ' + json.dumps(reason).encode() + b'}}\n')


SERVICE_RESTART = ("Denied: this command restarts or stops dsh.service from inside the host, "
                   "which ends this call and the turn with it. Use restart_dsh instead: it "
                   "records a handoff and restarts the host safely. (passdown guard: service_restart)")


def test_the_guard_denies_a_user_service_restart_with_the_documented_json():
    call = hook_input("pre_tool_use_bash", tool_input={"command": "systemctl --user restart dsh.service"})
    done = run_hook("PreToolUse", call, "--service-unit", "dsh.service", "--restart-tool", "restart_dsh")
    assert (done.returncode, done.stdout, done.stderr) == (0, _deny(SERVICE_RESTART), b"")


def test_a_restart_of_a_unit_the_host_is_not_in_passes_silently():
    call = hook_input("pre_tool_use_bash", tool_input={"command": "systemctl --user restart worker.service"})
    done = run_hook("PreToolUse", call)
    assert (done.returncode, done.stdout) == (0, b"")


def test_a_call_the_guard_cannot_read_is_asked_about():
    call = hook_input("pre_tool_use_bash", tool_input={"command": "echo 'open"})
    done = run_hook("PreToolUse", call, "--restart-tool", "restart_dsh")
    output = json.loads(done.stdout)["hookSpecificOutput"]
    assert (done.returncode, output["permissionDecision"]) == (0, "ask")
    assert output["permissionDecisionReason"] == (
        "Ask: the guard cannot read part of this command (a single quote is not closed). Allow "
        "it only if it does not restart, stop or kill the host; to restart the host, use "
        "restart_dsh. (passdown guard: unreadable)")


def test_a_commit_message_that_mentions_kill_is_allowed_silently():
    call = hook_input("pre_tool_use_bash",
                      tool_input={"command": 'git commit -m "guard: never run kill -1 from a hook"'})
    done = run_hook("PreToolUse", call, "--restart-tool", "restart_dsh")
    # Nothing printed: the host's own permission rules still decide; an explicit "allow"
    # would skip them.
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")


@pytest.mark.parametrize(("fixture", "tool_input"), [
    ("pre_tool_use_write", {"content": "To restart, never run `systemctl --user restart dsh.service`; use the tool."}),
    ("pre_tool_use_edit", {"new_string": "# kill -1 would end every process: never do it"}),
    ("pre_tool_use_read", {}),
    ("pre_tool_use_mcp", {"command": "reboot"}),
], ids=["write", "edit", "read", "mcp"])
def test_data_tools_are_judged_as_data_and_pass(fixture, tool_input):
    call = hook_input(fixture, tool_input=tool_input)
    if fixture == "pre_tool_use_mcp":  # the hooks reference's example of an MCP data tool
        call["tool_name"] = "mcp__memory__create_entities"
    done = run_hook("PreToolUse", call)
    assert (done.returncode, done.stdout) == (0, b"")


SHUTDOWN = ("Denied: this command shuts down or reboots the machine the host runs on. To "
            "restart the host, use the restart tool instead. (passdown guard: host_shutdown)")


@pytest.mark.parametrize("tool_name", ["Bash", "PowerShell", "Monitor", "mcp__ide__executeCode",
                                       "mcp__shell__run", "mcp__term__exec_command",
                                       "mcp__box__RunScript", "mcp__shell__shell_execute", "mcp__claude__Bash",
                                       "mcp__desktop-commander__start_process",
                                       "mcp__desktop-commander__interact_with_process"])
def test_execution_channels_are_judged_as_commands(tool_name):
    """Bash, the PowerShell tool, the Monitor tool (a command run in the background), and an
    MCP tool whose name says it executes (``mcp__<server>__exec...``, ``mcp__<server>__run...``)
    carry commands (HST-024)."""
    call = hook_input("pre_tool_use_bash", tool_name=tool_name, tool_input={"command": "shutdown -r now"})
    done = run_hook("PreToolUse", call)
    assert (done.returncode, done.stdout) == (0, _deny(SHUTDOWN))
    assert _hooks.is_execution_channel(tool_name)


@pytest.mark.parametrize(("tool_input", "stdout"), [
    ({"command": "tail -f app.log | grep --line-buffered ERROR", "description": "errors",
      "timeout_ms": 600000, "persistent": False}, b""),
    ({"command": "shutdown -r now", "description": "x", "timeout_ms": 1000}, _deny(SHUTDOWN)),
    ({"description": "watch PR #45 checks", "persistent": True, "command": "gh pr checks 45"}, b""),
    ({"ws": {"url": "wss://x"}, "description": "d", "timeout_ms": 1000}, b""),  # a stream, no command
])
def test_a_monitor_call_is_judged_by_its_command(tool_input, stdout):
    """The Monitor tool's input as sessions record it: its ``command`` runs, the other
    fields are data."""
    done = run_hook("PreToolUse", hook_input("pre_tool_use_bash", tool_name="Monitor", tool_input=tool_input))
    assert (done.returncode, done.stdout) == (0, stdout)


@pytest.mark.parametrize("tool_name", ["mcp__memory__create_entities", "mcp__runner__status",
                                       "mcp____exec", "mcp_x__exec", "Executor", "runbook",
                                       "mcp__github__search_repositories", "mcp__desktop-commander__list_processes",
                                       "mcp__desktop-commander__force_terminate", "mcp__lint__shellcheck"])
def test_other_tools_are_data_channels(tool_name):
    assert not _hooks.is_execution_channel(tool_name)


SELF_SIGNAL = ("Denied: this code signals the host process, its parent or its process group. "
               "To restart the host, use restart_dsh instead. (passdown guard: self_signal)")


@pytest.mark.parametrize(("fixture", "tool_input"), [
    ("pre_tool_use_write", {"file_path": "/home/user/project/stop.py",
                            "content": "import os\nos.kill(os.getppid(), 15)\n"}),
    ("pre_tool_use_edit", {"new_string": "process.kill(process.ppid, 'SIGTERM')"}),
], ids=["write", "edit"])
def test_a_self_signal_in_data_is_denied(fixture, tool_input):
    done = run_hook("PreToolUse", hook_input(fixture, tool_input=tool_input), "--restart-tool", "restart_dsh")
    assert (done.returncode, done.stdout) == (0, _deny(SELF_SIGNAL))


def test_a_tool_named_an_execute_tool_is_judged_as_commands():
    call = hook_input("pre_tool_use_mcp", tool_input={"command": "sudo reboot"})
    done = run_hook("PreToolUse", call, "--execute-tool", "mcp__shell__run", "--restart-tool", "restart_dsh")
    reason = ("Denied: this command shuts down or reboots the machine the host runs on. To "
              "restart the host, use restart_dsh instead. (passdown guard: host_shutdown)")
    assert (done.returncode, done.stdout) == (0, _deny(reason))


def test_host_names_narrow_kills_by_name():
    call = hook_input("pre_tool_use_bash", tool_input={"command": "pkill -f vite"})
    assert run_hook("PreToolUse", call, "--host-name", "claude").stdout == b""
    denied = run_hook("PreToolUse", hook_input("pre_tool_use_bash", tool_input={"command": "pkill claude"}),
                      "--host-name", "claude")
    assert json.loads(denied.stdout)["hookSpecificOutput"]["permissionDecisionReason"].endswith(
        "(passdown guard: process_kill)")


# -- the host's pid ------------------------------------------------------------------------

def test_the_host_is_found_above_the_shell_that_runs_the_hook_command():
    """The host runs hook commands through a shell: the hook walks past it to the host (here,
    this test process), and `kill <host pid>` is denied by literal match."""
    me = os.getpid()
    call = json.dumps(hook_input("pre_tool_use_bash", tool_input={"command": f"kill {me}"}))
    script = f"{launcher()} hook claude PreToolUse; status=$?; exit $status"
    done = subprocess.run(["sh", "-c", script], input=call.encode(), capture_output=True, check=False)
    reason = (f"Denied: this command signals the host process (pid {me}), its parent, its process "
              "group or session, or every process. To restart the host, use the restart tool "
              "instead. (passdown guard: host_kill)")
    assert (done.returncode, done.stdout) == (0, _deny(reason))


@pytest.mark.parametrize(("command", "denied"), [
    ("pkill claude", True), ("killall -9 claude", True), ("taskkill /F /IM claude.exe", True),
    ("pkill -f pytest", False),
])
def test_where_the_system_does_not_say_the_host_s_name_is_its_program_s(monkeypatch, command, denied):
    """Without /proc (macOS, Windows) only the pid is known; the host's name is still claude."""
    monkeypatch.setattr(_hooks._host, "observe", lambda pid=None: {"host_pid": 4242})
    call = json.dumps(hook_input("pre_tool_use_bash", tool_input={"command": command})).encode()
    reply = _claude_hooks.run("PreToolUse", call, _hooks.default_options())
    assert ("process_kill" in reply.stdout) == denied


def test_a_pid_given_by_option_wins():
    call = hook_input("pre_tool_use_bash", tool_input={"command": "kill -9 4242"})
    done = run_hook("PreToolUse", call, "--host-pid", "4242")
    assert json.loads(done.stdout)["hookSpecificOutput"]["permissionDecisionReason"].startswith(
        "Denied: this command signals the host process (pid 4242)")
    assert run_hook("PreToolUse", call, "--host-pid", "4243").stdout == b""


@pytest.mark.parametrize(("tool_input", "code"), [
    ({"pid": 4242}, "host_kill"),
    ({"pid": 4243}, None),
    ({"pid": "4242"}, None),  # not the tool's input: a data call
])
def test_an_mcp_kill_of_a_pid_is_judged_as_the_kill_it_is(tool_input, code):
    """Desktop Commander's ``kill_process`` signals the process whose pid it is given
    (``KillProcessArgsSchema``: ``{pid: number}``, wonderwhy-er/DesktopCommanderMCP
    src/tools/schemas.ts at 1eccc8b09cc09805202a1737fd20d605356c3671)."""
    call = hook_input("pre_tool_use_bash", tool_name="mcp__desktop-commander__kill_process", tool_input=tool_input)
    done = run_hook("PreToolUse", call, "--host-pid", "4242")
    assert done.returncode == 0
    if code is None:
        assert done.stdout == b""
    else:
        reason = json.loads(done.stdout)["hookSpecificOutput"]["permissionDecisionReason"]
        assert reason.endswith(f"(passdown guard: {code})")


def test_input_typed_into_a_running_process_is_judged_as_code_and_shell_text():
    """Desktop Commander's ``interact_with_process`` types its ``input`` into a REPL or shell
    (``InteractWithProcessArgsSchema``: ``pid``, ``input``, ``timeout_ms``, in the same file)."""
    for text in ("import os; os.system('shutdown -r now')", "shutdown -r now"):
        call = hook_input("pre_tool_use_bash", tool_name="mcp__desktop-commander__interact_with_process",
                          tool_input={"pid": 31337, "input": text, "timeout_ms": 8000})
        assert run_hook("PreToolUse", call).stdout == _deny(SHUTDOWN)


def test_a_unit_given_by_option_replaces_the_observed_ones():
    call = hook_input("pre_tool_use_bash", tool_input={"command": "systemctl restart worker"})
    done = run_hook("PreToolUse", call, "--service-unit", "worker.service")
    assert json.loads(done.stdout)["hookSpecificOutput"]["permissionDecisionReason"].endswith(
        "(passdown guard: service_restart)")


# -- when Passdown itself fails ---------------------------------------------------------------

def _ask(reason_start: str, done) -> str:
    assert done.returncode == 0 and done.stderr == b""
    output = json.loads(done.stdout)["hookSpecificOutput"]
    assert (output["hookEventName"], output["permissionDecision"]) == ("PreToolUse", "ask")
    assert output["permissionDecisionReason"].startswith(reason_start), output
    return output["permissionDecisionReason"]


def test_unreadable_input_is_asked_about_never_allowed_nor_blocked_for_good():
    done = run_hook("PreToolUse", b"{not json")
    reason = _ask("Passdown's guard could not judge this call (hook.bad_input: the hook input is "
                  "not readable JSON: invalid JSON: ", done)
    assert reason.endswith("Allow it only if it does not restart, stop or kill the host; to "
                           "restart the host, use the restart tool. To fix the guard: the host "
                           "sends one JSON object on stdin; run the hook from the host.")


def test_exact_ask_output_for_a_bad_option():
    done = run_hook("PreToolUse", hook_input("pre_tool_use_bash"), "--restart-tool")
    assert done.stdout == (
        b'{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask", '
        b'"permissionDecisionReason": "Passdown\'s guard could not judge this call (hook.bad_option: '
        b'--restart-tool needs a value). Allow it only if it does not restart, stop or kill the '
        b'host; to restart the host, use the restart tool. To fix the guard: write '
        b'--restart-tool VALUE."}}\n')


@pytest.mark.parametrize(("payload", "options", "code"), [
    (b"[1, 2]", (), "hook.bad_input"),
    (b'{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_name": "Read", "tool_input": {}}', (), "hook.bad_input"),
    (json.dumps(hook_input("stop")).encode(), (), "hook.wrong_event"),
    (json.dumps({"hook_event_name": "PreToolUse", "tool_input": {}}).encode(), (), "hook.bad_input"),
    (json.dumps(hook_input("pre_tool_use_bash")).encode(), ("--host-pid", "0"), "hook.bad_option"),
    (json.dumps(hook_input("pre_tool_use_bash")).encode(), ("--bogus", "1"), "hook.bad_option"),
    (json.dumps(hook_input("pre_tool_use_bash")).encode(), ("--service-unit", " "), "hook.bad_option"),
], ids=["not-an-object", "duplicate-key", "wrong-event", "no-tool-name", "pid-zero",
        "unknown-option", "blank-unit"])
def test_every_failure_is_an_ask_with_its_code(payload, options, code):
    _ask(f"Passdown's guard could not judge this call ({code}: ", run_hook("PreToolUse", payload, *options))


def test_a_crash_inside_passdown_is_an_ask_too(monkeypatch):
    def broken(name, value):
        raise RuntimeError("the gate table is broken")

    monkeypatch.setattr(_hooks, "run_gate", broken)
    reply = _claude_hooks.run("PreToolUse", json.dumps(hook_input("pre_tool_use_bash")).encode(),
                              _hooks.default_options())
    assert reply.exit_code == 0
    decision = json.loads(reply.stdout)["hookSpecificOutput"]
    assert decision["permissionDecision"] == "ask"
    assert decision["permissionDecisionReason"].startswith(
        "Passdown's guard could not judge this call (hook.internal_error: RuntimeError: the gate "
        "table is broken).")


def test_an_argument_the_guard_cannot_read_is_its_denial_not_a_failure():
    deep: object = "kill -1"
    for _ in range(70):
        deep = [deep]
    done = run_hook("PreToolUse", hook_input("pre_tool_use_bash", tool_input=deep))
    reason = json.loads(done.stdout)["hookSpecificOutput"]
    assert reason["permissionDecision"] == "deny"
    assert reason["permissionDecisionReason"].endswith("(passdown guard: invalid_input)")


# -- the two ways in, and start-up ---------------------------------------------------------

def test_click_answers_exactly_as_the_fast_path(monkeypatch):
    call = hook_input("pre_tool_use_bash", tool_input={"command": "systemctl --user restart dsh.service"})
    options = ["--service-unit", "dsh.service", "--restart-tool", "restart_dsh"]
    from passdown.cli import cli

    via_click = CliRunner().invoke(cli, ["hook", "claude", "PreToolUse", *options], input=json.dumps(call))
    fast = run_hook("PreToolUse", call, *options)
    assert (via_click.exit_code, via_click.stdout_bytes) == (fast.returncode, fast.stdout) == (0, _deny(SERVICE_RESTART))


HEAVY = ("json", "re", "typing", "dataclasses", "click", "jsonschema", "mcp", "enum")


@pytest.mark.parametrize("command", ["git status && make test", "kill -1"])
def test_the_pre_tool_use_path_loads_nothing_heavy(command):
    call = json.dumps(hook_input("pre_tool_use_bash", tool_input={"command": command}))
    code = ("import io, sys\n"
            f"sys.stdin = io.TextIOWrapper(io.BytesIO({call.encode()!r}))\n"
            "from passdown._entry import main\n"
            "status = main(['hook', 'claude', 'PreToolUse'])\n"
            f"print(status, sorted(m for m in {HEAVY!r} if m in sys.modules), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.stderr.strip() == "0 []", done.stderr  # no regular expression on either path


# -- every hook answers within its budget (HST-206) -----------------------------------------

def _big_write(size=16 * 1024 * 1024 - 400):
    """A Write whose 16 MiB content is the shape the guard reads slowest: command words."""
    return json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Write", "tool_input": {
        "file_path": "notes.txt", "content": "kill -9 1; " * (size // 11)}}).encode()


@pytest.mark.parametrize("event", ["PreToolUse", "SessionStart", "PreCompact", "Stop"])
def test_a_hook_out_of_time_answers_in_its_failure_form(event, monkeypatch, tmp_path):
    monkeypatch.setitem(_hooks.BUDGETS, event, 0.001)
    raw = _big_write() if event == "PreToolUse" else json.dumps(
        {"hook_event_name": event, "stop_hook_active": False, "pad": "x" * ((16 << 20) - 200)}).encode()
    reply = _claude_hooks.run(event, raw, {**_hooks.default_options(),
                                           "folder": str(tmp_path)})
    if event == "PreToolUse":
        output = json.loads(reply.stdout)["hookSpecificOutput"]
        assert output["permissionDecision"] == "ask" and "hook.timeout" in output[
            "permissionDecisionReason"]
    else:
        assert (reply.exit_code, reply.stdout) == (1, "")
        assert reply.stderr.startswith("passdown hook: hook.timeout: ")


def test_a_16_mib_tool_call_is_answered(tmp_path):
    """The real command on the largest input it reads: an answer (allow, or ask), whatever
    the machine's speed; the budget is what bounds it."""
    done = run_hook("PreToolUse", _big_write(), "--folder", str(tmp_path))
    assert done.returncode == 0
    assert done.stdout == b"" or json.loads(done.stdout)["hookSpecificOutput"][
        "permissionDecision"] in ("allow", "ask")


@pytest.mark.parametrize(("content", "loaded"), [
    ("never kill -9 $PPID\n", "[]"),
    ("os.kill(os.getppid(), 9)\n", "['passdown.gates._guard_code']"),
])
def test_a_data_tool_call_loads_no_command_reader(content, loaded):
    """A Write (most calls are data tools) is judged for self-signals only: the kernel that
    reads commands stays unloaded, and the code reader loads only for a call that may hold a
    self-signal (``kill`` with a parenthesis or a comma)."""
    call = json.dumps(hook_input("pre_tool_use_write", tool_input={"content": content}))
    code = ("import io, sys\n"
            f"sys.stdin = io.TextIOWrapper(io.BytesIO({call.encode()!r}))\n"
            "from passdown._entry import main\n"
            "status = main(['hook', 'claude', 'PreToolUse'])\n"
            "print(status, sorted(m for m in sys.modules if m.startswith('passdown.gates._guard')), "
            "file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.stderr.strip() == f"0 {loaded}", done.stderr


# -- payloads as a host really sent them ---------------------------------------------------

REAL = Path(__file__).resolve().parents[1] / "data" / "claude_hooks" / "real"
REAL_CALLS = [entry for entry in json.loads((REAL / "MANIFEST.json").read_text())["files"]
              if entry["event"] == "PreToolUse"]


@pytest.mark.parametrize("entry", REAL_CALLS, ids=lambda entry: entry["file"])
def test_a_real_call_that_restarts_nothing_passes_silently(entry):
    """A captured envelope (prompt_id, permission_mode, effort and tool_use_id beside the
    documented fields; a subagent spawn named `Agent`): nothing printed, the host decides."""
    done = run_hook("PreToolUse", (REAL / entry["file"]).read_bytes(), "--restart-tool", "restart_dsh")
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")


def test_the_real_bash_envelope_with_a_host_restart_in_it_is_denied():
    """The captured Bash envelope, its command replaced by one that restarts the host's unit:
    every other member as Claude Code sent it."""
    call = json.loads((REAL / "pre_tool_use_bash_2.1.226.json").read_bytes())
    call["tool_input"]["command"] = "systemctl --user restart dsh.service"
    done = run_hook("PreToolUse", call, "--service-unit", "dsh.service", "--restart-tool", "restart_dsh")
    assert (done.returncode, done.stdout, done.stderr) == (0, _deny(SERVICE_RESTART), b"")
