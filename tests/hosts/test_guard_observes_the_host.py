"""The guard under a process standing for the host: named ``claude``, running the hook exactly
as ``passdown hook install claude`` writes it, through ``sh -c`` as Claude Code does. The hook is
given no option: who the host is (pid, name, command line) it observes itself."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from passdown.hosts import _claude_settings
from ci_support import missing
from hosts_support import hook_input, run_as_host, run_as_host_in_tmux

DENIED = [
    ("Bash", "pkill claude", "process_kill"),
    ("Bash", "pkill -f claude", "process_kill"),
    ("Bash", "killall claude", "process_kill"),
    ("Bash", "kill -TERM {pid}", "host_kill"),
    ("Bash", "kill -9 $PPID", "host_kill"),
    ("Bash", "taskkill /F /IM claude.exe", "process_kill"),
    ("PowerShell", "Stop-Process -Name claude -Force", "process_kill"),
    ("PowerShell", "Get-Process claude | Stop-Process", "process_kill"),
    ("PowerShell", "Stop-Process -Id {pid}", "host_kill"),
    ("Monitor", "pkill -x claude", "process_kill"),  # a command run in the background
    ("Bash", "taskkill //F //IM claude.exe", "process_kill"),  # as Git Bash passes /F on
]
ALLOWED = [
    ("Bash", "pkill -f pytest"),
    ("Bash", "killall chrome"),
    ("Bash", "sudo systemctl restart nginx"),
    ("Bash", "kill %1"),
    ("PowerShell", "Stop-Process -Name notepad"),
]


@pytest.fixture(scope="module")
def replies(tmp_path_factory):
    if not os.path.isdir("/proc/self"):
        pytest.skip("the host is observed through /proc, which this system lacks")
    command = _claude_settings.hook_command(_claude_settings.hook_launcher(), "PreToolUse", {})
    calls = [{"tool_name": tool, "tool_input": {"command": text}} for tool, text, *_ in DENIED + ALLOWED]
    answered = run_as_host(tmp_path_factory.mktemp("host"), "claude", command, calls,
                           hook_input("pre_tool_use_bash"))
    return dict(zip((text for _, text, *_ in DENIED + ALLOWED), answered))


@pytest.mark.parametrize(("tool", "text", "code"), DENIED, ids=[t for _, t, _ in DENIED])
def test_what_would_stop_the_observed_host_is_denied(replies, tool, text, code):
    status, stdout, stderr = replies[text]
    output = json.loads(stdout)["hookSpecificOutput"]
    assert (status, stderr, output["permissionDecision"]) == (0, "", "deny")
    assert output["permissionDecisionReason"].endswith(f"(passdown guard: {code})")


@pytest.mark.parametrize(("tool", "text"), ALLOWED, ids=[t for _, t in ALLOWED])
def test_kills_and_restarts_of_anything_else_pass_silently(replies, tool, text):
    assert replies[text] == [0, "", ""]


#: Under a host started from bash in tmux, ending tmux or that bash ends the host.
DENIED_IN_TMUX = ["tmux kill-server", "tmux kill-session", "pkill tmux", "killall bash"]
ALLOWED_IN_TMUX = ["tmux kill-session -t another", "tmux ls", "pkill -f pytest"]


@pytest.fixture(scope="module")
def replies_in_tmux(tmp_path_factory):
    if shutil.which("tmux") is None or not os.path.isdir("/proc/self"):
        missing("the host in tmux needs tmux (Debian's tmux) and /proc")
    command = _claude_settings.hook_command(_claude_settings.hook_launcher(), "PreToolUse", {})
    calls = [{"tool_name": "Bash", "tool_input": {"command": text}}
             for text in DENIED_IN_TMUX + ALLOWED_IN_TMUX]
    answered = run_as_host_in_tmux(tmp_path_factory.mktemp("tmux"), "claude", command, calls,
                                   hook_input("pre_tool_use_bash"))
    return dict(zip(DENIED_IN_TMUX + ALLOWED_IN_TMUX, answered))


@pytest.mark.parametrize("text", DENIED_IN_TMUX)
def test_ending_what_the_host_s_session_hangs_on_is_denied(replies_in_tmux, text):
    status, stdout, stderr = replies_in_tmux[text]
    output = json.loads(stdout)["hookSpecificOutput"]
    assert (status, stderr, output["permissionDecision"]) == (0, "", "deny")
    assert output["permissionDecisionReason"].endswith("(passdown guard: process_kill)")


@pytest.mark.parametrize("text", ALLOWED_IN_TMUX)
def test_another_session_or_process_in_tmux_passes(replies_in_tmux, text):
    assert replies_in_tmux[text] == [0, "", ""]
