"""Shared by the host and MCP tests: the hook inputs the host sends, running the real
command, and a fresh project to serve.

The inputs in ``tests/data/claude_hooks/`` follow the shapes of the Claude Code hooks
reference: the common fields (``session_id``, ``transcript_path``, ``cwd``,
``permission_mode``, ``hook_event_name``) plus each event's own, one file per event and per
tool kind.
"""

from __future__ import annotations

import copy
import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data" / "claude_hooks"
#: The MAIN session of :func:`new_project`.
MAIN = "sess-main-1"

#: The SessionStart context of the project in ``DATA / "project"`` (its checkpoint at revision 6),
#: as every host's hook gives it.
RESUME = (
    "Passdown: this project has a continue checkpoint, xbrief/continue.xbrief.json (revision 6, "
    "written 2026-10-14T09:00:00Z). The checkpoint, not the conversation, is the source of "
    "truth for this work: where the conversation (or a summary of it) disagrees with the "
    "checkpoint, trust the checkpoint, and read the file itself before you act.\n\n"
    "Move the CSV parser [running] goal goal-parser\n"
    "  [completed] extract-the-parser-into-ledger-parsing-csv-py: Extract the parser into "
    "ledger/parsing/csv.py\n"
    "  [pending] migrate: Migrate the callers\n"
    "next: migrate: Open reports/monthly.py and replace the parse_rows import\n\n"
    "Resume point (migrate): Open reports/monthly.py and replace the parse_rows import\n"
    "First safe action: Open reports/monthly.py and replace the parse_rows import\n"
    "Required inputs: reports/monthly.py")


def new_project(folder: Path) -> Path:
    """``passdown init`` in ``folder``: a checkpoint with one pending step, and a registry."""
    from click.testing import CliRunner

    from passdown.cli import cli

    result = CliRunner().invoke(cli, [
        "init", str(folder), "--goal-id", "goal-parser", "--main-id", MAIN, "--outcome",
        "ledger.parsing.csv is the only parser", "--next", "Extract the parser"])
    assert result.exit_code == 0, result.output
    return folder


def hook_input(name: str, **changes) -> dict:
    """The fixture ``name`` (``pre_tool_use_bash``), top-level fields replaced by ``changes``;
    ``tool_input`` given as a dict replaces the tool's input fields one by one."""
    value = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    for key, new in changes.items():
        if key == "tool_input" and isinstance(new, dict):
            value["tool_input"] = {**value["tool_input"], **new}
        else:
            value[key] = copy.deepcopy(new)
    return value


def launcher() -> str:
    """The ``passdown`` launcher of this environment (the command the hooks run)."""
    found = Path(sys.executable).with_name("passdown")
    return str(found) if found.is_file() else "passdown"


def run_hook(event: str, payload, *options: str, env: dict | None = None, cwd=None,
             via: list[str] | None = None) -> subprocess.CompletedProcess:
    """``passdown hook claude EVENT OPTIONS`` with ``payload`` (a dict, or raw bytes) on stdin."""
    raw = payload if isinstance(payload, bytes) else json.dumps(payload).encode("utf-8")
    command = [*(via or [launcher()]), "hook", "claude", event, *options]
    environment = {**os.environ, **(env or {})}
    return subprocess.run(command, input=raw, capture_output=True, cwd=cwd, env=environment,
                          timeout=120, check=False)


def documented_output(event: str, stdout: bytes) -> dict:
    """``stdout`` parsed, checked to have exactly the shape Claude Code's hooks reference
    documents for ``event`` (``tests/data/claude_hooks/output_forms.json``): the same members
    at every level, strings where it has strings, its constants equal; the parsed output."""
    form = json.loads((DATA / "output_forms.json").read_text(encoding="utf-8"))["forms"][event]
    output = json.loads(stdout)

    def same(value, documented, path):
        if isinstance(documented, dict):
            assert isinstance(value, dict) and set(value) == set(documented), (path, value)
            for key in documented:
                same(value[key], documented[key], f"{path}.{key}".lstrip("."))
        else:
            assert isinstance(value, str) and value, (path, value)
            if path in form["constants"]:
                assert value == documented, (path, value)

    same(output, form["documented"], "")
    return output


#: The host's stand-in: runs the hook command through ``sh -c`` once per call, as Claude Code
#: and Codex CLI run hooks, each call's fields over the base input (``{pid}`` in a command
#: is the stand-in's own pid), and prints the replies as ``[status, stdout, stderr]``.
_HOST_STAND_IN = r"""
import json, os, subprocess, sys
command, calls, base = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
replies = []
for fields in calls:
    call = dict(base, **fields)
    call["tool_input"] = {"command": fields["tool_input"]["command"].replace("{pid}", str(os.getpid()))}
    done = subprocess.run(["/bin/sh", "-c", command], input=json.dumps(call).encode(), capture_output=True)
    replies.append([done.returncode, done.stdout.decode(), done.stderr.decode()])
print(json.dumps(replies))
"""


def run_as_host_in_tmux(folder: Path, name: str, command: str, calls: list[dict], base: dict) -> list:
    """As :func:`run_as_host`, with the host started from bash in a tmux session of a private
    server: the session's leader is that bash, held by the tmux server, as when a person runs
    the host in tmux. The server is ended before the replies are returned."""
    host = folder / name
    host.symlink_to(os.path.realpath(sys.executable))
    (folder / "args.json").write_text(json.dumps([command, json.dumps(calls), json.dumps(base)]))
    (folder / "stand_in.py").write_text("import json, sys\nsys.argv[1:] = json.load(open('args.json'))\n"
                                        + _HOST_STAND_IN)
    # two commands, so that bash waits for the host rather than becoming it
    (folder / "session.sh").write_text(f"cd {shlex.quote(str(folder))}\n"
                                       f"./{name} stand_in.py > replies.tmp 2> errors.txt\n"
                                       "mv replies.tmp replies.json\n")
    server = ["tmux", "-L", f"passdown-test-{os.getpid()}", "-f", "/dev/null"]
    session = "bash " + shlex.quote(str(folder / "session.sh"))
    subprocess.run(server + ["new-session", "-d", "-s", "host", session], check=True, timeout=30,
                   capture_output=True)
    try:
        deadline = time.monotonic() + 120
        while not (folder / "replies.json").exists():
            if time.monotonic() > deadline:
                errors = folder / "errors.txt"
                raise TimeoutError(errors.read_text() if errors.exists() else "the host wrote nothing")
            time.sleep(0.05)
        return json.loads((folder / "replies.json").read_text())
    finally:
        subprocess.run(server + ["kill-server"], timeout=30, capture_output=True)


def run_as_host(folder: Path, name: str, command: str, calls: list[dict], base: dict, **options) -> list:
    """The replies to ``calls`` of the hook ``command`` run by a process named ``name`` (a
    link to this interpreter in ``folder``) standing for the host; ``options`` go to
    :func:`subprocess.run` (``cwd``, ``env``)."""
    host = folder / name
    host.symlink_to(os.path.realpath(sys.executable))
    done = subprocess.run([str(host), "-c", _HOST_STAND_IN, command, json.dumps(calls), json.dumps(base)],
                          capture_output=True, text=True, check=True, timeout=120, **options)
    return json.loads(done.stdout)
