"""``passdown init``: the checkpoint and the registry with its policy record, created together or
not at all, valid from the start; an existing file is never replaced."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys

import pytest
from authoring_support import REPO, errors_in, load, run, run_json, subprocess_passdown

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
    assert "--outcome" in out["error"]["message"]
    assert out["error"]["hint"] == "see `passdown init --help`"


def test_without_a_registry_to_take_them_from_the_goal_and_main_are_needed(tmp_path):
    code, out = run_json("init", tmp_path, "--outcome", "o", "--next", "s", "--main-id", "m")
    assert (code, out["error"]["code"]) == (2, "authoring.missing_identity")
    assert out["error"]["message"] == (
        "--goal-id needed: there is no registry here to take it from")
    path, _ = _plain_checkpoint(tmp_path)
    raw = path.read_bytes()
    code, out = run_json("init", tmp_path, "--outcome", "o")
    assert (code, out["error"]["code"]) == (2, "authoring.missing_identity")
    assert out["error"]["message"] == (
        "--goal-id and --main-id needed: there is no registry here to take them from")
    assert path.read_bytes() == raw and sorted(tmp_path.iterdir()) == [tmp_path / "xbrief"]


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
        "run `passdown init --outcome TEXT` in the handoff folder (TEXT: what must be delivered "
        "and how it is checked): it adds the block to the existing checkpoint and keeps every "
        "item; beside a registry it takes the goal, the session and the fencing epoch from the "
        "registry and leaves the registry as it is, and without one it also needs --goal-id and "
        "--main-id and creates the registry")
    assert path.read_bytes() == raw


# -- a plain checkpoint beside a registry (CKP-034, CKP-035, CKP-036) -------------------------

OUTCOME = "ledger.parsing.csv is the only parser"


def _rewritten_as_plain(folder):
    """A Passdown handoff whose checkpoint another tool rewrote as plain xBRIEF: the block is
    gone, every other member is as the tool wrote it, and the registry is untouched."""
    run("init", folder, *ARGS)
    path = folder / "xbrief" / "continue.xbrief.json"
    document = json.loads(path.read_text())
    del document["x-passdown/checkpoint"]
    path.write_text(json.dumps(document, indent=2) + "\n")
    return path


def _named_command(hint):
    """The one `passdown init` command a hint names (CKP-036), as its words."""
    [command] = re.findall(r"`(passdown init[^`]*)`", hint)
    return shlex.split(command)[1:]


def _stop_instruction(folder):
    """What the Claude Code Stop hook continues the turn with (None: it lets the turn end)."""
    hook = {"session_id": "sess-a", "transcript_path": "", "cwd": str(folder),
            "hook_event_name": "Stop", "stop_hook_active": False}
    done = subprocess.run([sys.executable, "-m", "passdown", "hook", "claude", "Stop"],
                          input=json.dumps(hook), capture_output=True, text=True,
                          env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert (done.returncode, done.stderr) == (0, "")
    return json.loads(done.stdout)["reason"] if done.stdout else None


def test_the_hints_lead_out_of_a_plain_checkpoint_beside_a_registry_in_one_command(tmp_path):
    """Walked as a user would: every hint on the way names the same command, and running it
    makes the folder valid with the registry's history byte for byte as it was."""
    path = _rewritten_as_plain(tmp_path)
    registry = tmp_path / "registry.yaml"
    registry_bytes, plain = registry.read_bytes(), json.loads(path.read_text())

    found = subprocess_passdown("validate", tmp_path, "--format", "json")
    assert found.returncode == 1
    [error] = [f for f in json.loads(found.stdout)["findings"] if f["severity"] == "error"]
    assert error["code"] == "crossfile.checkpoint_plain"
    command = _named_command(error["hint"])
    assert command == ["init", "--outcome", "TEXT"]

    code, out = run_json("checkpoint", "add-pending", "Another step", "--checkpoint", path)
    assert (code, out["error"]["code"]) == (1, "authoring.plain_checkpoint")
    assert _named_command(out["error"]["hint"]) == command
    assert _named_command(_stop_instruction(tmp_path)) == command

    code, out = run_json(*[OUTCOME if word == "TEXT" else word for word in command], tmp_path)
    assert code == 0, out
    assert subprocess_passdown("validate", tmp_path).returncode == 0
    assert registry.read_bytes() == registry_bytes
    after = load(path)
    block = after.pop("x-passdown/checkpoint")
    assert after == plain
    policy = load(registry)["policy"]
    assert (block["goal_id"], block["stack_session_id"], block["epoch"], block["outcome"],
            block["revision"]) == (policy["goal_id"], policy["main_id"], 0, OUTCOME, 1)
    assert out["result"] == {
        "checkpoint": str(path), "registry": str(registry), "adopted": True,
        "registry_kept": True, "changes": [], "goal_id": "goal-parser",
        "stack_session_id": "sess-a", "epoch": 0, "incarnation_id": block["incarnation_id"]}
    assert _stop_instruction(tmp_path) is None
    code, out = run_json("checkpoint", "add-pending", "Another step", "--checkpoint", path)
    assert (code, out["revision"]) == (0, 2)


def test_the_adopted_block_takes_the_owner_and_the_fencing_epoch_from_the_registry(tmp_path):
    """After an ownership commit the session that owns the goal's writes is the commit's
    target, and the checkpoint writes at the registry's fencing epoch."""
    folder = tmp_path / "handoff"
    shutil.copytree(REPO / "examples" / "handoff", folder)
    for name in ("continuation.packet.txt", "ack.json"):
        (folder / name).unlink()
    path = folder / "xbrief" / "continue.xbrief.json"
    document = json.loads(path.read_text())
    del document["x-passdown/checkpoint"]
    path.write_text(json.dumps(document, indent=2))
    registry_bytes = (folder / "registry.yaml").read_bytes()
    code, out = run_json("init", folder, "--outcome", OUTCOME, "--session-id", "stk-7f3a9c21")
    assert code == 0, out
    block = load(path)["x-passdown/checkpoint"]
    assert (block["goal_id"], block["stack_session_id"], block["epoch"]) == (
        "goal-ledger-parser-refactor", "stk-7f3a9c21", 4)
    assert (folder / "registry.yaml").read_bytes() == registry_bytes
    code, out = run_json("checkpoint", "add-pending", "Another step", "--checkpoint", path,
                         "--epoch", "3")
    assert (code, out["error"]["code"]) == (1, "authoring.stale_epoch")


@pytest.mark.parametrize(("options", "edit", "code", "status"), [
    (("--goal-id", "another-goal"), None, "authoring.goal_mismatch", 1),
    (("--main-id", "sess-other"), None, "authoring.identity_mismatch", 1),
    ((), lambda r: r.replace(b"checkpoint_path: xbrief/continue.xbrief.json",
                             b"checkpoint_path: other/continue.xbrief.json"),
     "authoring.identity_mismatch", 1),
    ((), lambda r: r.replace(b"fencing_epoch: 0", b"fencing_epoch: -1"),
     "authoring.invalid_input", 1),
    ((), lambda r: b'{"name": "ui", "items": []}', "authoring.exists", 1),
    (("--mode", "daily", "--scope", "restarts"), None, "authoring.bad_value", 2),
], ids=["goal", "main", "checkpoint-path", "invalid-registry", "another-tools-file", "policy"])
def test_an_adoption_that_disagrees_with_the_registry_writes_nothing(tmp_path, options, edit,
                                                                      code, status):
    path = _rewritten_as_plain(tmp_path)
    registry = tmp_path / "registry.yaml"
    if edit is not None:
        registry.write_bytes(edit(registry.read_bytes()))
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    result, out = run_json("init", tmp_path, "--outcome", OUTCOME, *options)
    assert (result, out["error"]["code"]) == (status, code)
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before
    assert "x-passdown/checkpoint" not in json.loads(path.read_text())


def test_two_registries_beside_a_plain_checkpoint_are_named_not_guessed(tmp_path):
    _rewritten_as_plain(tmp_path)
    (tmp_path / "registry.json").write_text("{}")
    code, out = run_json("init", tmp_path, "--outcome", OUTCOME)
    assert (code, out["error"]["code"]) == (2, "authoring.ambiguous_registry")


def test_a_checkpoint_with_its_block_beside_a_registry_is_still_never_replaced(tmp_path):
    run("init", tmp_path, *ARGS)
    code, out = run_json("init", tmp_path, "--outcome", OUTCOME)
    assert (code, out["error"]["code"]) == (1, "authoring.exists")
