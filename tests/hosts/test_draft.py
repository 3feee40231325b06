"""``passdown checkpoint from-transcript``: a draft checkpoint from a dead session's tail whose
items are the latest todo list the agent kept, every item marked reconstructed, written once,
never with a secret and within its bounds (spec/hosts.md HST-120 to HST-124)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from passdown.hosts import _draft

DATA = Path(__file__).resolve().parents[1] / "data" / "hosts"
TODOS = DATA / "claude" / "todowrite-1.0.24.jsonl"
CODEX = DATA / "codex" / "rollout-0.125.0.jsonl"
EDITS = DATA / "claude" / "edits-2.1.39.jsonl"
STATUS = {"completed": "completed", "in_progress": "running", "pending": "pending"}


def last_todo_list(path):
    """The last TodoWrite call's todos, read the plain way: every line of the file."""
    found = None
    for line in path.read_text().splitlines():
        record = json.loads(line)
        for block in (record.get("message") or {}).get("content") or []:
            if isinstance(block, dict) and block.get("name") == "TodoWrite":
                found = block["input"]["todos"]
    return [(todo["content"], todo["status"]) for todo in found]


def last_plan(path):
    found = None
    for line in path.read_text().splitlines():
        payload = json.loads(line).get("payload") or {}
        if payload.get("name") == "update_plan":
            found = json.loads(payload["arguments"])["plan"]
    return [(step["step"], step["status"]) for step in found]


def written_paths(path):
    """The ``file_path`` of every main-thread Write and Edit call, newest first, each once,
    read the plain way: every line of the file."""
    found = []
    for line in reversed(path.read_text().splitlines()):
        record = json.loads(line)
        content = (record.get("message") or {}).get("content")
        for block in reversed(content if isinstance(content, list) else []):
            if block.get("name") in ("Write", "Edit") and not record.get("isSidechain") \
                    and block["input"]["file_path"] not in found:
                found.append(block["input"]["file_path"])
    return found


def run(cwd, *args):
    return subprocess.run([sys.executable, "-m", "passdown", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "HOME": str(cwd)})


def test_the_items_are_the_last_todo_list(tmp_path):
    done = run(tmp_path, "checkpoint", "from-transcript", "claude", "--transcript", TODOS)
    assert done.returncode == 0, done.stderr
    document = json.loads((tmp_path / "xbrief" / "continue.xbrief.json").read_text())
    items = document["plan"]["items"]
    assert [(item["title"], item["status"]) for item in items] == \
        [(text, STATUS[status]) for text, status in last_todo_list(TODOS)]
    assert all(item["narrative"]["Provenance"].startswith(
        "reconstructed from the Claude Code session todowrite_session; unverified") for item in items)
    first_pending = next(item for item in items if item["status"] == "pending")
    assert "ResumePoint" in first_pending["narrative"]
    assert document["plan"]["narratives"]["Goal"] == "Can you add a task for security review as well?"
    assert run(tmp_path, "validate", "xbrief/continue.xbrief.json").returncode == 0


def test_codex_plan_and_patched_files(tmp_path):
    document, summary = _draft.reconstruct("codex", CODEX, now="2026-12-04T00:00:00Z")
    items = [(item["title"], item["status"]) for item in document["plan"]["items"]]
    assert items == [(text, STATUS[status]) for text, status in last_plan(CODEX)] + [
        ("Verify the reconstructed state, then continue: let's update the defailt context "
         "compart to 90 in env var", "pending")]
    assert document["plan"]["narratives"]["FilesWritten"].splitlines() == [
        "src/agents/plugins/opencode/opencode.plugin.ts",
        "src/agents/plugins/codemie-code.plugin.ts",
        "src/agents/plugins/__tests__/codemie-code-reasoning.test.ts"]
    assert summary["session_id"] == "019e1625-789d-76c0-80ab-3724b5ddb799"


def test_claude_written_and_edited_files_newest_first(tmp_path):
    done = run(tmp_path, "checkpoint", "from-transcript", "claude", "--transcript", EDITS)
    assert done.returncode == 0, done.stderr
    assert "0 completed and 1 open items, 2 files written" in done.stdout
    document = json.loads((tmp_path / "xbrief" / "continue.xbrief.json").read_text())
    narratives = document["plan"]["narratives"]
    assert narratives["FilesWritten"].splitlines() == written_paths(EDITS)
    assert [path.rsplit("/", 1)[1] for path in written_paths(EDITS)] == [
        "session_live.ex", "transcript_computers.ex"]  # Edit, then Write and Edit of one file
    assert narratives["Goal"].startswith("Work on bead spotter-dov. Run bd show spotter-dov")
    assert [item["id"] for item in document["plan"]["items"]] == ["verify-and-continue"]
    assert run(tmp_path, "validate", "xbrief/continue.xbrief.json").returncode == 0


def test_a_secret_is_refused_and_nothing_written(tmp_path):
    lines = TODOS.read_text().splitlines()
    request = json.loads(lines[0])
    request["message"]["content"] = "deploy with the token ghp_" + "a1B2" * 9
    leaky = tmp_path / "leaky.jsonl"
    leaky.write_text("\n".join(lines + [json.dumps(request)]) + "\n")
    done = run(tmp_path, "checkpoint", "from-transcript", "claude", "--transcript", leaky)
    assert done.returncode == 1
    assert done.stderr.startswith("passdown: authoring.secret: the reconstructed checkpoint "
                                  "would hold a GitHub token ([REDACTED], 40 characters)")
    assert "a1B2" not in done.stderr
    assert not (tmp_path / "xbrief").exists()


def test_an_existing_checkpoint_is_never_overwritten(tmp_path):
    target = tmp_path / "mine.json"
    target.write_bytes(b"{}")
    done = run(tmp_path, "checkpoint", "from-transcript", "claude", "--transcript", TODOS,
               "--output", target)
    assert done.returncode == 1
    assert done.stderr.startswith(f"passdown: authoring.exists: {target} already exists")
    assert target.read_bytes() == b"{}"


def test_the_draft_keeps_its_bounds(tmp_path):
    lines = TODOS.read_text().splitlines()
    call = json.loads(next(line for line in lines if '"TodoWrite"' in line))
    todos = call["message"]["content"][0]["input"]["todos"]
    call["message"]["content"][0]["input"]["todos"] = [
        dict(todos[0], content=f"step {n} " + "x" * 400, status="pending") for n in range(150)]
    many = tmp_path / "many.jsonl"
    many.write_text("\n".join(lines + [json.dumps(call)]) + "\n")
    document, _ = _draft.reconstruct("claude", many, now="2026-12-04T00:00:00Z")
    items = document["plan"]["items"]
    assert len(items) == _draft.MAX_ITEMS
    assert {len(item["title"]) for item in items} == {_draft.MAX_TITLE}


def test_no_todo_list_leaves_one_step_to_verify(tmp_path):
    document, summary = _draft.reconstruct("claude", DATA / "claude" / "sidechain-2.0.46.jsonl",
                                           now="2026-12-04T00:00:00Z")
    assert [item["id"] for item in document["plan"]["items"]] == ["verify-and-continue"]
    assert summary["plan_found"] is False
    assert document["plan"]["narratives"]["Goal"] == "unknown: the tail holds no request of the person"
