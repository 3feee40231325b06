"""``passdown assess``: exits as the restart gate does, refuses a session that is not the
registry's source without writing, and the hooks add nothing when they cannot observe
(spec/hosts.md HST-111, HST-112, HST-118)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data" / "hosts" / "claude"
SOURCE = "4d5611e5-241a-462a-8d15-5122611a9569"
TRANSCRIPT = DATA / "session-2.1.39.jsonl"


def run(cwd, *args, stdin=None):
    return subprocess.run([sys.executable, "-m", "passdown", *map(str, args)], cwd=cwd,
                          input=stdin, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "HOME": str(cwd)})


def project(tmp_path, main_id=SOURCE):
    done = run(tmp_path, "init", "--goal-id", "goal-app", "--main-id", main_id, "--outcome",
               "the app works", "--next", "Do the first step", "-q")
    assert done.returncode == 0, done.stderr
    return tmp_path


def test_assess_exits_2_when_the_gate_blocks(tmp_path):
    folder = project(tmp_path)
    (folder / "xbrief" / "continue.xbrief.json").unlink()  # remaining work is unknown
    done = run(folder, "assess", "claude", "--transcript", TRANSCRIPT, "--format", "json")
    assert done.returncode == 2, done.stderr
    found = json.loads(done.stdout)
    assert (found["decision"]["action"], found["decision"]["reason"]) == ("BLOCKED", "remaining_work")


def test_assess_refuses_a_session_that_is_not_the_source(tmp_path):
    folder = project(tmp_path, main_id="another-session")
    before = (folder / "registry.yaml").read_bytes()
    done = run(folder, "assess", "claude", "--transcript", TRANSCRIPT)
    assert done.returncode == 1
    assert done.stderr.startswith(f"passdown: error: assess.not_owner: the observed session "
                                  f"{SOURCE} is not the source the registry assesses "
                                  f"(another-session)\n")
    assert (folder / "registry.yaml").read_bytes() == before


def test_a_hook_that_cannot_observe_adds_nothing(tmp_path):
    folder = project(tmp_path, main_id="another-session")
    before = (folder / "registry.yaml").read_bytes()
    for path in (TRANSCRIPT, folder / "missing.jsonl"):
        payload = {"session_id": SOURCE, "transcript_path": str(path), "cwd": str(folder),
                   "hook_event_name": "Stop", "stop_hook_active": False}
        done = run(folder, "hook", "claude", "Stop", stdin=json.dumps(payload))
        assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert (folder / "registry.yaml").read_bytes() == before


def test_codex_assess_reads_the_capacity_the_rollout_states(tmp_path):
    session = "019e1625-789d-76c0-80ab-3724b5ddb799"
    folder = project(tmp_path, main_id=session)
    rollout = DATA.parent / "codex" / "rollout-0.125.0.jsonl"
    done = run(folder, "assess", "codex", "--transcript", rollout, "--format", "json")
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert (found["gate_input"]["current_input_tokens"], found["gate_input"]["context_capacity_tokens"]) \
        == (131573, 258400)
    assert found["basis"]["context_capacity_tokens"] == "measured"
    assert (found["decision"]["action"], found["decision"]["reason"]) == (
        "CHECKPOINT_ONLY", "restart_not_authorized")
    # 131,573 of 258,400 is 51%: even with consent no trigger, so nothing to recommend
    assert (found["condition"], found["recommend"]) == (None, False)
