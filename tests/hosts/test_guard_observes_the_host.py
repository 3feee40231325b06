"""The guard under a process standing for the host: named ``claude``, running the hook exactly
as ``passdown hook install claude`` writes it, through ``sh -c`` as Claude Code does. The hook is
given no option: who the host is (pid, name, command line) it observes itself."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from passdown.hosts import _claude_settings
from hosts_support import hook_input

#: The host's stand-in: runs each hook call through ``sh -c`` and prints the replies.
HOST = r"""
import json, os, subprocess, sys
command, calls = sys.argv[1], json.loads(sys.argv[2])
replies = []
for tool, text in calls:
    call = dict(json.loads(sys.argv[3]), tool_name=tool, tool_input={"command": text.replace("{pid}", str(os.getpid()))})
    done = subprocess.run(["/bin/sh", "-c", command], input=json.dumps(call).encode(), capture_output=True)
    replies.append([done.returncode, done.stdout.decode(), done.stderr.decode()])
print(json.dumps(replies))
"""

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
    folder = tmp_path_factory.mktemp("host")
    claude = folder / "claude"
    claude.symlink_to(os.path.realpath(sys.executable))
    command = _claude_settings.hook_command(_claude_settings.default_launcher(), "PreToolUse", {})
    calls = [[tool, text] for tool, text, *_ in DENIED + ALLOWED]
    base = hook_input("pre_tool_use_bash")
    done = subprocess.run([str(claude), "-c", HOST, command, json.dumps(calls), json.dumps(base)],
                          capture_output=True, text=True, check=True, timeout=120)
    return dict(zip((text for _, text, *_ in DENIED + ALLOWED), json.loads(done.stdout)))


@pytest.mark.parametrize(("tool", "text", "code"), DENIED, ids=[t for _, t, _ in DENIED])
def test_what_would_stop_the_observed_host_is_denied(replies, tool, text, code):
    status, stdout, stderr = replies[text]
    output = json.loads(stdout)["hookSpecificOutput"]
    assert (status, stderr, output["permissionDecision"]) == (0, "", "deny")
    assert output["permissionDecisionReason"].endswith(f"(passdown guard: {code})")


@pytest.mark.parametrize(("tool", "text"), ALLOWED, ids=[t for _, t in ALLOWED])
def test_kills_and_restarts_of_anything_else_pass_silently(replies, tool, text):
    assert replies[text] == [0, "", ""]
