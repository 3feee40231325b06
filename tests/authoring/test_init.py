"""``passdown init``: the checkpoint and the registry with its policy record, created together or
not at all, valid from the start; an existing file is never replaced."""

from __future__ import annotations

import json

import pytest
from authoring_support import errors_in, load, run, run_json, subprocess_passdown

from passdown.errors import UsageError
from passdown.authoring import Identity, Policy, init

ARGS = ("--goal-id", "goal-parser", "--main-id", "sess-a", "--outcome",
        "ledger.parsing.csv is the only parser", "--next", "Extract the parser")


def test_init_creates_both_files_and_they_validate(tmp_path):
    code, out = run_json("init", tmp_path, *ARGS, "--mode", "adaptive", "--scope",
                         "restarts of MAIN for goal-parser", "--archive-consent",
                         "--timezone", "Europe/Warsaw", "--constraint", "Only ledger/")
    assert code == 0, out
    checkpoint = tmp_path / "xbrief" / "continue.xbrief.json"
    registry = tmp_path / "registry.yaml"
    assert out == {"ok": True, "command": "init", "path": str(tmp_path), "changed": True,
                   "revision": 1, "previous_revision": None,
                   "message": f"created {checkpoint} and {registry}",
                   "result": {"checkpoint": str(checkpoint), "registry": str(registry),
                              "incarnation_id": out["result"]["incarnation_id"]}}
    assert errors_in(tmp_path) == []
    policy = load(registry)["policy"]
    assert {k: v for k, v in policy.items() if k != "recorded_at"} == {
        "mode": "adaptive", "authorization_scope": "restarts of MAIN for goal-parser",
        "archive_consent": True, "main_id": "sess-a", "goal_id": "goal-parser",
        "checkpoint_path": "xbrief/continue.xbrief.json", "timezone": "Europe/Warsaw",
        "timezone_source": "owner"}
    block = load(checkpoint)["x-passdown/checkpoint"]
    assert (block["goal_id"], block["stack_session_id"], block["role"], block["revision"],
            block["constraints"], block["mission"], block["task"]) == (
        "goal-parser", "sess-a", "main", 1, ["Only ledger/"],
        "ledger.parsing.csv is the only parser", "goal-parser")
    assert len(block["incarnation_id"]) == 26  # a ULID


def test_init_output_validates_with_the_validate_command(tmp_path):
    run("init", tmp_path, *ARGS)
    result = subprocess_passdown("validate", tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr


def test_defaults_are_checkpoint_only_and_utc(tmp_path):
    run("init", tmp_path, *ARGS, "--registry-format", "json")
    registry = json.loads((tmp_path / "registry.json").read_text())
    assert registry["revision"] == 1 and registry["fencing_epoch"] == 0
    assert registry["policy"]["mode"] == "off"
    assert registry["policy"]["archive_consent"] is False
    assert (registry["policy"]["timezone"], registry["policy"]["timezone_source"]) == (
        "UTC", "default")
    assert registry["sessions"] == [{"thread_id": "sess-a", "status": "ACTIVE", "role": "MAIN"}]
    assert (registry["attempts"], registry["observation"], registry["decision"]) == ([], None,
                                                                                    None)
    assert errors_in(tmp_path) == []


@pytest.mark.parametrize("existing", ["xbrief/continue.xbrief.json", "registry.yaml",
                                      "registry.json"])
def test_init_refuses_to_overwrite_and_changes_nothing(tmp_path, existing):
    path = tmp_path / existing
    path.parent.mkdir(exist_ok=True)
    path.write_text("keep me")
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    code, out = run_json("init", tmp_path, *ARGS)
    assert (code, out["error"]["code"]) == (1, "authoring.exists")
    assert path.read_text() == "keep me"
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before


def test_a_registry_that_cannot_be_created_rolls_the_checkpoint_back(tmp_path, monkeypatch):
    from passdown.authoring import _store

    real_create = _store.create

    def create(path, data):
        if str(path).endswith("registry.yaml"):  # another writer won the race for it
            raise _store.exists_error(str(path))
        real_create(path, data)

    monkeypatch.setattr(_store, "create", create)
    code, out = run_json("init", tmp_path, *ARGS)
    assert (code, out["error"]["code"]) == (1, "authoring.exists")
    assert list(tmp_path.iterdir()) == []


def test_mode_needs_a_scope(tmp_path):
    code, out = run_json("init", tmp_path, *ARGS, "--mode", "daily")
    assert (code, out["error"]["code"]) == (2, "authoring.no_scope")
    assert list(tmp_path.iterdir()) == []


def test_invalid_values_are_refused_before_anything_is_written(tmp_path):
    code, out = run_json("init", tmp_path, *ARGS[:-2], "--next", "   ")
    assert (code, out["error"]["code"]) == (2, "authoring.bad_value")
    code, out = run_json("init", tmp_path, *ARGS, "--role", "ma\x00in")
    assert (code, out["error"]["code"]) == (1, "authoring.invalid_result")
    assert list(tmp_path.iterdir()) == []


def test_missing_options_are_json_usage_errors_with_format_json(tmp_path):
    result = run("init", tmp_path, "--format", "json")
    assert result.exit_code == 2
    out = json.loads(result.stdout)
    assert out["ok"] is False and out["error"]["code"] == "usage"
    assert "--goal-id" in out["error"]["message"]
    assert out["error"]["hint"] == "see `passdown init --help`"


def test_library_init(tmp_path):
    outcome = init(tmp_path, Identity(goal_id="g", main_id="m", outcome="o", first_step="s",
                                      title="Plan", role="worker"),
                   Policy(mode="off"), registry_format="json")
    assert outcome.changed and outcome.revision == 1
    assert errors_in(tmp_path) == []
    with pytest.raises(UsageError):
        init(tmp_path / "other", Identity(goal_id="g", main_id="m", outcome="o"))


def _plain_checkpoint(folder):
    """A plain xBRIEF continue checkpoint (the continue-here procedure's), with a member and
    another tool's block of its own."""
    path = folder / "xbrief" / "continue.xbrief.json"
    path.parent.mkdir(parents=True)
    document = {
        "xBRIEFInfo": {"version": "0.8", "updated": "2026-10-14T09:00:00Z"},
        "plan": {"title": "Move the CSV parser", "status": "running",
                 "narratives": {"Decisions": "- Dates use fromisoformat",
                                "Hazards": "- make golden must not be run"},
                 "items": [{"id": "extract", "title": "Extract the parser", "status": "completed"},
                           {"id": "migrate", "title": "Migrate the callers", "status": "pending",
                            "narrative": {"ResumePoint": "Open reports/monthly.py"}},
                           {"id": "shim", "title": "Remove the shim", "status": "pending"}]},
        "x-other/notes": {"kept": True}}
    path.write_text(json.dumps(document, indent=4))
    return path, document


def test_init_adds_the_block_to_a_plain_checkpoint_keeping_every_item(tmp_path):
    path, before = _plain_checkpoint(tmp_path)
    code, out = run_json("init", tmp_path, *ARGS[:-2])
    assert code == 0, out
    assert out["result"]["adopted"] is True and out["result"]["changes"] == []
    after = load(path)
    block = after.pop("x-passdown/checkpoint")
    assert after == before
    assert block["next_action"] == {"item_id": "migrate", "summary": "Open reports/monthly.py",
                                    "required_inputs": []}
    assert (block["goal_id"], block["revision"], block["task"]) == (
        "goal-parser", 1, "Move the CSV parser")
    assert path.read_text().startswith('{\n    "xBRIEFInfo"')  # the file's own indentation
    assert (tmp_path / "registry.yaml").is_file()
    assert errors_in(tmp_path) == []


def test_a_command_that_needs_the_block_says_so_and_offers_init(tmp_path):
    path, _ = _plain_checkpoint(tmp_path)
    raw = path.read_bytes()
    code, out = run_json("checkpoint", "add-completed", "Migrate the callers", "--evidence",
                         "commit 1", "--checkpoint", path)
    assert (code, out["error"]["code"]) == (1, "authoring.plain_checkpoint")
    assert out["error"]["hint"] == (
        "run `passdown init` in the handoff folder: it adds the block to the existing "
        "checkpoint, keeps every item, and writes the registry")
    assert path.read_bytes() == raw
