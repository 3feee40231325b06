"""The agent-hook recipe in examples/hooks/: first use creates the project, every call
writes, lints and digests; a refused change stops the hook with passdown's status and JSON."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

from authoring_support import REPO

from passdown.formats import _digest

SCRIPT = REPO / "examples" / "hooks" / "passdown-checkpoint-hook.sh"


def hook(folder, *args, **env):
    shell = shutil.which("sh")
    assert shell, "a POSIX shell runs the recipe"
    return subprocess.run(
        [shell, str(SCRIPT), *args], capture_output=True, text=True, timeout=120,
        env={**os.environ, "PASSDOWN_DIR": str(folder), "PASSDOWN": f"{sys.executable} -m passdown",
             **env})


def json_lines(stdout):
    return [json.loads(line) for line in stdout.splitlines() if line.startswith("{")]


FIRST_USE = {"PASSDOWN_GOAL_ID": "goal-parser", "PASSDOWN_MAIN_ID": "sess-a",
             "PASSDOWN_OUTCOME": "ledger.parsing.csv is the only parser",
             "PASSDOWN_NEXT": "Extract the parser"}


def test_first_use_creates_then_writes_lints_and_digests(tmp_path):
    result = hook(tmp_path, "add-completed", "Inventory the callers", "--evidence",
                  "notes/callers.txt", **FIRST_USE)
    assert result.returncode == 0, result.stdout + result.stderr
    init, update = json_lines(result.stdout)
    assert (init["command"], init["ok"]) == ("init", True)
    assert (update["command"], update["changed"], update["revision"]) == (
        "checkpoint add-completed", True, 2)
    checkpoint = tmp_path / "xbrief" / "continue.xbrief.json"
    recorded = (tmp_path / "xbrief" / "continue.digest").read_text()
    assert recorded == f"{_digest.digest_file(checkpoint)}  xbrief/continue.xbrief.json\n"
    assert result.stdout.endswith(recorded)
    # the recorded digest checks out, as the next session would verify it
    check = subprocess.run([sys.executable, "-m", "passdown", "digest", "--check",
                            "xbrief/continue.digest"], cwd=tmp_path, capture_output=True,
                           text=True)
    assert check.returncode == 0, check.stdout + check.stderr


def test_later_calls_update_and_a_refusal_stops_the_hook(tmp_path):
    assert hook(tmp_path, "decision", "Use JCS", **FIRST_USE).returncode == 0
    before = (tmp_path / "xbrief" / "continue.digest").read_text()
    result = hook(tmp_path, "hazard", "Never run make golden")
    assert result.returncode == 0, result.stderr
    (update,) = json_lines(result.stdout)
    assert update["revision"] == 3
    assert (tmp_path / "xbrief" / "continue.digest").read_text() != before
    refused = hook(tmp_path, "reorder", "no-such-step")
    assert refused.returncode == 1
    (error,) = json_lines(refused.stdout)
    assert error["error"]["code"] == "authoring.unknown_item"


def test_without_a_checkpoint_or_identity_the_hook_says_what_to_set(tmp_path):
    result = hook(tmp_path, "decision", "x")
    assert result.returncode != 0
    assert "PASSDOWN_GOAL_ID" in result.stderr
    assert not (tmp_path / "xbrief").exists()
