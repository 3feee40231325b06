"""The observing loop end to end, the way a Claude Code session runs it (spec/hosts.md HST-100 to
HST-119, spec/procedure.md PRC-100, PRC-101): a real git repository with ``passdown init`` at
its root, a transcript of real shape (tests/data/hosts/MANIFEST.md) growing in the host's own
folder of transcripts, the hooks and every command each a process of its own.

SessionStart records the first observation; the session grows past the threshold; Stop
recommends the restart once, and says nothing the second time; with the owner's consent
``assess`` answers CREATE_FRESH; the packet is rendered with the checkout's real state, the
command that starts the successor is printed, the target's ACK is written and
verified, the target takes over, and observing the target's session records the calibration
that the next estimate uses. Expected numbers are the samples' own usage counts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import yaml
from git_support import git, new_checkout

DATA = Path(__file__).resolve().parents[1] / "data" / "hosts" / "claude"
SOURCE = "4d5611e5-241a-462a-8d15-5122611a9569"   # claude/session-2.1.39.jsonl
TARGET = "88a8d761-7b9a-4bf1-a8ca-c1febe6bf358"   # claude/sidechain-2.0.46.jsonl
CAPACITY = "120000"


def run(repo, env, *args, stdin=None, expect=0):
    done = subprocess.run([sys.executable, "-m", "passdown", *map(str, args)], cwd=repo, env=env,
                          input=stdin, capture_output=True, text=True, timeout=120)
    assert done.returncode == expect, f"passdown {' '.join(map(str, args))}\n{done.stdout}{done.stderr}"
    return done


def hook(repo, env, event, transcript, session, **extra):
    payload = {"session_id": session, "transcript_path": str(transcript), "cwd": str(repo),
               "hook_event_name": event, **extra}
    return run(repo, env, "hook", "claude", event, "--context-capacity", CAPACITY,
               stdin=json.dumps(payload)).stdout


def registry(repo):
    return yaml.safe_load((repo / "registry.yaml").read_text())


def test_observe_decide_record_hand_over_and_calibrate(tmp_path):
    repo = new_checkout(tmp_path / "app", {"app.py": "print('hi')\n", "CLAUDE.md": "# app\n"})
    env = {**os.environ, "HOME": str(tmp_path / "home"),
           "CLAUDE_CONFIG_DIR": str(tmp_path / "claude"), "PYTHONDONTWRITEBYTECODE": "1"}
    run(repo, env, "init", "--goal-id", "goal-app", "--main-id", SOURCE, "--outcome",
        "app greets the world", "--next", "Change the greeting")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "handoff files")
    folder = Path(env["CLAUDE_CONFIG_DIR"]) / "projects" / str(repo).replace("/", "-")
    folder.mkdir(parents=True)
    transcript = folder / f"{SOURCE}.jsonl"
    lines = (DATA / "session-2.1.39.jsonl").read_bytes().split(b"\n")[:-1]

    # -- START: the first calls of the session; SessionStart records the observation ---------
    transcript.write_bytes(b"\n".join(lines[:10]) + b"\n")
    started = json.loads(hook(repo, env, "SessionStart", transcript, SOURCE, source="startup"))
    assert "Passdown: CHECKPOINT_ONLY (restart_not_authorized" in \
        started["hookSpecificOutput"]["additionalContext"]
    first = registry(repo)
    assert first["observation"]["session_id"] == SOURCE
    assert first["observation"]["inputs"]["current_input_tokens"] == 26450  # 3 + 15,005 + 11,442
    assert first["observation"]["basis"]["current_input_tokens"] == "measured"
    assert first["decision"]["action"] == "CHECKPOINT_ONLY"

    # -- the session grows past 70% of the capacity; Stop recommends once --------------------
    transcript.write_bytes(b"\n".join(lines) + b"\n")
    said = json.loads(hook(repo, env, "Stop", transcript, SOURCE, stop_hook_active=False))
    assert said["decision"] == "block"
    assert said["reason"].startswith("Passdown: a restart qualifies (context pressure: context "
                                     "106,060 tokens of 120,000 (88%)")
    assert hook(repo, env, "Stop", transcript, SOURCE, stop_hook_active=False) == ""
    grown = registry(repo)
    assert grown["recommendations"] == [{"session_id": SOURCE, "condition": "context_pressure",
                                         "recommended_at": grown["recommendations"][0]["recommended_at"]}]
    assert grown["observation"]["inputs"]["current_input_tokens"] == 106060

    # -- the owner consents; assess answers CREATE_FRESH ------------------------------------
    run(repo, env, "registry", "policy", "--mode", "adaptive", "--scope", "restarts of MAIN")
    decided = json.loads(run(repo, env, "assess", "claude", "--session", SOURCE, "--context-capacity",
                             CAPACITY, "--safe-boundary", "--format", "json").stdout)
    assert (decided["decision"]["action"], decided["decision"]["reason"]) == (
        "CREATE_FRESH", "record_identity_and_receipt_before_retry")
    estimate = decided["gate_input"]["fresh_input_tokens"]
    assert decided["basis"]["fresh_input_tokens"] == "estimated"
    assert registry(repo)["calibration"]["pending"]["fresh_input_tokens"] == estimate
    again = run(repo, env, "assess", "claude", "--session", SOURCE, "--context-capacity", CAPACITY,
                "--safe-boundary", "--format", "json")
    assert json.loads(again.stdout)["recorded"] is False  # the same observation: nothing written

    # -- the handoff: packet, ACK, takeover -------------------------------------------------
    rendered = json.loads(run(repo, env, "packet", "render", "--source-id", SOURCE, "--restart-id",
                              "r1", "--format", "json").stdout)
    assert rendered["ok"] is True
    packet = " ".join((repo / "continuation.packet.txt").read_text().split())
    head = git(repo, "rev-parse", "HEAD")
    assert f"session {SOURCE};" in packet and f"HEAD {head}" in packet  # the real working state
    started = run(repo, env, "packet", "prompt", "--host", "claude").stdout
    assert started.startswith(f"cd {repo} && claude 'Passdown handoff: ")  # printed, never run
    assert "continuation.packet.txt" in started
    run(repo, env, "attempt", "created", "r1", "--target-id", TARGET)
    run(repo, env, "ack", "write", "--target-id", TARGET)
    run(repo, env, "ack", "verify", "ack.json", "--packet", "continuation.packet.txt",
        "--registry", "registry.yaml", "--workspace", ".")
    run(repo, env, "attempt", "ack", "r1", "ack.json")
    run(repo, env, "attempt", "commit", "r1")
    run(repo, env, "attempt", "takeover", "r1", "--target-id", TARGET, "--fencing-epoch", "1")

    # -- the target's session: its first call is its observed start-up -----------------------
    target = folder / f"{TARGET}.jsonl"
    target.write_bytes((DATA / "sidechain-2.0.46.jsonl").read_bytes())
    observed = json.loads(run(repo, env, "observe", "claude", "--session", TARGET,
                              "--format", "json").stdout)
    entry = observed["calibration"]
    assert entry["restart_id"] == "r1"
    assert (entry["estimated_fresh_input_tokens"], entry["observed_startup_tokens"]) == (
        estimate, 141275)  # 3 + 141,272 + 0
    assert entry["error_tokens"] == 141275 - estimate
    assert entry["factor"] == round(141275 / estimate, 4)
    recorded = registry(repo)["calibration"]
    assert recorded["pending"] is None and recorded["records"] == [entry]

    # -- the next estimate uses the recorded error ------------------------------------------
    later = json.loads(run(repo, env, "observe", "claude", "--session", TARGET,
                           "--format", "json").stdout)
    assert later["calibration"] is None  # recorded once
    assert later["startup"]["method"].endswith(f"times the calibration factor {entry['factor']:g}")
    run(repo, env, "consume")  # the target resumes from the checkpoint
    checked = run(repo, env, "validate", ".", "--format", "json")
    assert [f for f in json.loads(checked.stdout)["findings"] if f["severity"] == "error"] == []
