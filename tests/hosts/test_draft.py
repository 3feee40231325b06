"""``passdown checkpoint from-transcript``: a draft checkpoint from a dead session's tail whose
items are the latest task list the agent kept (a todo list, or the fold of Claude Code's task
tools), every item marked reconstructed, written once, never with a secret and within its
bounds (spec/hosts.md HST-120 to HST-124)."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from pathlib import Path

from passdown.hosts import _draft
from passdown.hosts._session_file import SessionFile

DATA = Path(__file__).resolve().parents[1] / "data" / "hosts"
TODOS = DATA / "claude" / "todowrite-1.0.24.jsonl"
CODEX = DATA / "codex" / "rollout-0.125.0.jsonl"
EDITS = DATA / "claude" / "edits-2.1.39.jsonl"
TASKS = DATA / "claude" / "task-tools-shapes.jsonl"
TASK_UPDATES = DATA / "claude" / "taskupdate-2.1.123.jsonl"
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


def test_the_items_are_the_fold_of_the_task_tools(tmp_path):
    """Four creates; task 1 started then completed, task 3 deleted, task 2 started and renamed,
    task 4's completion refused by the host (its result an error): the list, in creation
    order, without the deleted task, the running one not the resume point (CKP-013 puts it on
    the next pending item). The earlier TodoWrite list is not used: the task tools came later."""
    done = run(tmp_path, "checkpoint", "from-transcript", "claude", "--transcript", TASKS)
    assert done.returncode == 0, done.stderr
    assert "1 completed and 2 open items" in done.stdout
    document = json.loads((tmp_path / "xbrief" / "continue.xbrief.json").read_text())
    items = document["plan"]["items"]
    assert [(item["id"], item["title"], item["status"]) for item in items] == [
        ("task-1", "Split the parser", "completed"),
        ("task-2", "Add parser tests for every module", "running"),
        ("task-4", "Benchmark the parser", "pending")]
    completing = next(json.loads(line) for line in TASKS.read_text().splitlines()
                      if '"id":"toolu_u2","name":"TaskUpdate"' in line)
    assert items[0]["completed"] == completing["timestamp"] == "2026-11-30T10:14:00.000Z"
    assert [item["id"] for item in items if "ResumePoint" in item["narrative"]] == ["task-4"]
    assert all(item["narrative"]["Provenance"].startswith(
        "reconstructed from the Claude Code session 7a1c2e9b-0d4f-4e8a-9b6c-3f2d1e0a9b8c; "
        "unverified (task #") for item in items)
    narratives = document["plan"]["narratives"]
    assert narratives["TaskList"].startswith("The items are the task list folded from the 4 "
                                             "task creations and 4 task updates")
    assert "1 calls whose result was an error changed nothing" in narratives["TaskList"]
    assert "may be partial" not in narratives["TaskList"] + narratives["Hazards"]
    assert narratives["Goal"] == "Split the parser into modules and add tests"
    assert run(tmp_path, "validate", "xbrief/continue.xbrief.json").returncode == 0


def test_a_todo_list_written_after_the_task_tools_wins(tmp_path):
    lines = TASKS.read_text().splitlines()
    todo = json.loads(next(line for line in lines if '"TodoWrite"' in line))
    todo["timestamp"] = "2026-11-30T11:00:00.000Z"
    later = tmp_path / "later.jsonl"
    later.write_text("\n".join(lines + [json.dumps(todo)]) + "\n")
    document, summary = _draft.reconstruct("claude", later, now="2026-12-04T00:00:00Z")
    assert [(item["id"], item["title"], item["status"]) for item in document["plan"]["items"]] \
        == [("todo-1", "Read the parser", "completed"), ("todo-2", "Plan the split", "running"),
            ("verify-and-continue", "Verify the reconstructed state, then continue: Split the "
                                    "parser into modules and add tests", "pending")]
    assert summary["plan_source"] == "todo list"
    assert "TaskList" not in document["plan"]["narratives"]


def test_a_failed_tool_result_after_the_todo_list_leaves_it_in_place(tmp_path):
    lines = TODOS.read_text().splitlines()
    failed = {"type": "user", "sessionId": "todowrite_session", "isSidechain": False,
              "message": {"role": "user", "content": [
                  {"type": "tool_result", "tool_use_id": "toolu_bash", "is_error": True,
                   "content": "Exit code 1"}]}}
    later = tmp_path / "later.jsonl"
    later.write_text("\n".join(lines + [json.dumps(failed)]) + "\n")
    document, summary = _draft.reconstruct("claude", later, now="2026-12-04T00:00:00Z")
    assert [(item["title"], item["status"]) for item in document["plan"]["items"]] == \
        [(text, STATUS[status]) for text, status in last_todo_list(TODOS)]
    assert summary["plan_source"] == "todo list"


def test_updates_of_tasks_created_before_the_read_are_never_made_items():
    """A real Claude Code 2.1.123 tail: three TaskUpdate calls of tasks created earlier in the
    session. No subject is known, so no item is made; the draft says the list may be partial."""
    document, summary = _draft.reconstruct("claude", TASK_UPDATES, now="2026-12-04T00:00:00Z")
    assert [item["id"] for item in document["plan"]["items"]] == ["verify-and-continue"]
    assert summary["plan_source"] == "task tools"
    assert summary["plan_partial"] is True
    narratives = document["plan"]["narratives"]
    assert "The list may be partial: updates name tasks whose creation is not in the part read " \
        "(#79, #78, #80)" in narratives["TaskList"]
    assert narratives["Hazards"].endswith("; the task list may be partial (see TaskList)")


def test_a_read_cut_by_its_bound_keeps_only_the_tasks_it_saw(tmp_path, monkeypatch):
    """The tail bound stops the read at the result of task 2's creation: task 1 was created
    before it, so its updates make no item; task 2 comes from the subject its result states."""
    lines = TASKS.read_text().encode().splitlines(keepends=True)
    start = next(index for index, line in enumerate(lines)
                 if b'"tool_use_id":"toolu_c2"' in line)
    # the line feed before it too: a line is read only once its start is seen
    bound = sum(map(len, lines[start:])) + 1
    monkeypatch.setattr(_draft, "SessionFile", functools.partial(SessionFile, tail_bytes=bound))
    document, summary = _draft.reconstruct("claude", TASKS, now="2026-12-04T00:00:00Z")
    assert [(item["id"], item["title"], item["status"]) for item in document["plan"]["items"]] \
        == [("task-2", "Add parser tests for every module", "running"),
            ("task-4", "Benchmark the parser", "pending")]
    assert summary["plan_partial"] is True
    task_list = document["plan"]["narratives"]["TaskList"]
    assert "updates name tasks whose creation is not in the part read (#1)" in task_list
    assert "the read stopped at its bound before the start of the session file" in task_list


def test_the_task_list_keeps_the_item_bound(tmp_path):
    lines = TASKS.read_text().splitlines()
    call = json.loads(next(line for line in lines if '"toolu_c4"' in line))
    creates = []
    for number in range(150):
        block = dict(call["message"]["content"][0], id=f"toolu_many{number}",
                     input={"subject": f"task {number} " + "x" * 400})
        creates.append(json.dumps(dict(call, message=dict(call["message"], content=[block]))))
    many = tmp_path / "many.jsonl"
    many.write_text("\n".join(lines + creates) + "\n")
    document, _ = _draft.reconstruct("claude", many, now="2026-12-04T00:00:00Z")
    items = document["plan"]["items"]
    assert len(items) == _draft.MAX_ITEMS
    assert items[0]["id"] == "task-1" and items[-1]["title"].startswith("task 96 ")
    assert {len(item["title"]) for item in items[3:]} == {_draft.MAX_TITLE}
