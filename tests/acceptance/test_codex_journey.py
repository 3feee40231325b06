"""The journey once with Codex CLI's hook events (spec/hosts.md HST-300 to HST-307): a real git
repository with ``passdown init`` at its root and real uncommitted work, a Codex rollout of real
shape (tests/data/hosts/MANIFEST.md) growing as the session runs, every hook a process of its
own, each answer validated against the schema Codex publishes for its event
(tests/data/codex_hooks/MANIFEST.json).

SessionStart injects the checkpoint's resume point; PreToolUse, run by a process standing for
the Codex host through ``sh -c`` as Codex runs hooks, denies ``kill -9 $PPID`` and allows
``pkill -f pytest``; PreCompact checks the checkpoint and counts nothing, and the PostCompact
hook after it records the compaction, which ``passdown observe codex`` and
the Stop assessment then report as measured; Stop says nothing while the decision
stays the same, says once that a restart qualifies when the session has grown past the
threshold, and nothing the next time. At the end ``git status`` shows the work untouched."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from ruamel.yaml import YAML
from git_support import git, new_checkout
from hosts_support import run_as_host

from passdown.hosts import _claude_settings, _compactions

DATA = Path(__file__).resolve().parents[1] / "data"
ROLLOUT = DATA / "hosts" / "codex" / "rollout-0.125.0.jsonl"
SCHEMAS = DATA / "codex_hooks"
SCHEMA_OF = {"PreToolUse": "pre-tool-use", "SessionStart": "session-start", "Stop": "stop",
             "PreCompact": "pre-compact", "PostCompact": "post-compact"}
def _answer(event, text):
    """The hook's stdout parsed and validated against Codex's output schema for ``event``."""
    output = json.loads(text)
    schema = json.loads((SCHEMAS / f"{SCHEMA_OF[event]}.command.output.schema.json").read_text())
    jsonschema.Draft7Validator(schema).validate(output)
    return output


def test_codex_hooks_through_a_session(tmp_path):
    if not os.path.isdir("/proc/self"):
        pytest.skip("the host is observed through /proc, which this system lacks")
    lines = ROLLOUT.read_text(encoding="utf-8").splitlines()
    session = json.loads(lines[0])["payload"]["id"]
    repo = new_checkout(tmp_path / "app", {"app.py": "print('hi')\n", "AGENTS.md": "# app\n"})
    env = {**os.environ, "HOME": str(tmp_path / "home"), "CODEX_HOME": str(tmp_path / "codex"),
           "PYTHONDONTWRITEBYTECODE": "1"}

    def run(*args, stdin=None):
        done = subprocess.run([sys.executable, "-m", "passdown", *args], cwd=repo, env=env, input=stdin,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, f"passdown {' '.join(args)}\n{done.stdout}{done.stderr}"
        return done.stdout

    run("init", "--goal-id", "goal-app", "--main-id", session, "--outcome", "app greets the world",
        "--next", "Change the greeting")
    (repo / "app.py").write_text("print('hello')\n")  # the real uncommitted work
    rollout = tmp_path / "codex" / "sessions" / "2026" / "05" / "11" / "rollout-0.125.0.jsonl"
    rollout.parent.mkdir(parents=True)
    rollout.write_text("\n".join(lines[:10]) + "\n")
    base = {"cwd": str(repo), "model": "gpt-5-codex", "session_id": session,
            "transcript_path": str(rollout)}

    def hook(event, **fields):
        return run("hook", "codex", event, stdin=json.dumps({**base, "hook_event_name": event, **fields}))

    stop = {"turn_id": "turn-1", "permission_mode": "default", "stop_hook_active": False,
            "last_assistant_message": "Done."}

    # -- START: the checkpoint's resume point reaches the model ------------------------------
    started = _answer("SessionStart", hook("SessionStart", source="startup"))
    context = started["hookSpecificOutput"]["additionalContext"]
    assert "next: change-the-greeting: Change the greeting" in context
    assert "Resume point (change-the-greeting)" in context

    # -- the guard judges the Codex host ----------------------------------------------------
    command = _claude_settings.hook_command(_claude_settings.hook_launcher(), "PreToolUse", {}, "codex")
    call = {**base, "hook_event_name": "PreToolUse", "permission_mode": "default", "tool_name": "Bash",
            "tool_use_id": "call-1", "turn_id": "turn-1"}
    (tmp_path / "bin").mkdir()
    denied, allowed = run_as_host(tmp_path / "bin", "codex", command,
                                  [{"tool_input": {"command": text}} for text in ("kill -9 $PPID", "pkill -f pytest")],
                                  call, cwd=repo, env=env)
    verdict = _answer("PreToolUse", denied[1])["hookSpecificOutput"]
    assert (denied[0], verdict["permissionDecision"]) == (0, "deny")
    assert verdict["permissionDecisionReason"].endswith("(passdown guard: host_kill)")
    assert allowed == [0, "", ""]

    # -- a compaction is recorded, once, and observed as measured ----------------------------
    # PreCompact checks the checkpoint (current here: silent) and counts nothing; the
    # PostCompact hook that follows it records the compaction, so it is counted once
    assert hook("PreCompact", turn_id="turn-1", trigger="auto") == ""
    assert _compactions.count(str(repo), "codex", session) is None
    assert hook("PostCompact", turn_id="turn-1", trigger="auto") == ""
    assert _compactions.count(str(repo), "codex", session) == 1
    observed = json.loads(run("observe", "codex", "--transcript", str(rollout), "--format", "json"))
    assert observed["fields"]["compactions"] == {
        "value": 1, "basis": "measured",
        "source": "counted by Passdown's PostCompact hook in ./.passdown/compactions.json"}

    # -- Stop: silent while nothing changed; once when a restart qualifies; then silent ------
    assert hook("Stop", **stop) == ""
    recorded = YAML(typ="safe").load((repo / "registry.yaml").read_text())["observation"]
    assert (recorded["inputs"]["compactions"], recorded["basis"]["compactions"]) == (1, "measured")
    last = next(json.loads(line) for line in reversed(lines) if '"token_count"' in line)
    last["payload"]["info"]["last_token_usage"]["input_tokens"] = 220_000  # the session grew
    rollout.write_text("\n".join([*lines, json.dumps(last)]) + "\n")
    said = _answer("Stop", hook("Stop", **stop))
    assert said["decision"] == "block"
    assert said["reason"].startswith("Passdown: a restart qualifies (context pressure: context "
                                     "220,000 tokens of 258,400 (85%)")
    assert "; 1 compactions)" in said["reason"]
    assert hook("Stop", **stop) == ""

    # -- the work is as the session left it ---------------------------------------------------
    status = sorted(line.split() for line in git(repo, "status", "--porcelain", "--untracked-files=all").splitlines())
    # the edit, and the handoff's own files beside it; `.passdown/` ignores itself
    assert status == [["??", "registry.yaml"], ["??", "xbrief/continue.xbrief.json"], ["M", "app.py"]]
    assert (repo / "app.py").read_text() == "print('hello')\n"
