"""``passdown registry recover``: a lost registry rebuilt from the packet and the checkpoint,
recording only what they prove (spec/authoring.md, AUT-078), and the protocol goes on from
it: the unknown creation is reconciled, never retried; no ACK of the recovered attempt is
accepted; a new packet is rendered once it is settled."""

from __future__ import annotations

import contextlib
import json

import pytest
from authoring_support import checkpoint_of, errors_in, load, make_project, run, run_json

from passdown.authoring import SourceFacts, render_packet, update_checkpoint


def passdown(folder, *args):
    with contextlib.chdir(folder):
        return run_json(*args)


@pytest.fixture
def lost(tmp_path):
    """A project whose registry was lost after the packet was rendered and sent."""
    project = make_project(tmp_path)
    update_checkpoint(checkpoint_of(project), "set", "epoch", 3)
    render_packet(project, source=SourceFacts(source_id="sess-a"), restart_id="r1")
    original = load(project / "registry.yaml")
    (project / "registry.yaml").unlink()
    return project, original


def test_the_registry_holds_what_the_packet_and_checkpoint_prove(lost):
    project, original = lost
    report = run("validate", project, "--format", "json")
    assert report.exit_code == 1
    assert [f["code"] for f in json.loads(report.stdout)["findings"] if f["severity"] == "error"] \
        == ["crossfile.no_registry"]
    code, out = passdown(project, "registry", "recover")
    assert code == 0, out
    assert out["result"]["restart_id"] == "r1" and out["result"]["state"] == "creation_unknown"
    registry = load(project / "registry.yaml")
    policy = registry["policy"]
    for key in ("goal_id", "main_id", "checkpoint_path", "mode", "authorization_scope",
                "archive_consent"):
        assert policy[key] == original["policy"][key], key
    assert registry["fencing_epoch"] == 4  # one above the checkpoint's epoch (REG-029)
    assert registry["recovered"]["epoch_evidence"] == [
        {"file": "xbrief/continue.xbrief.json", "field": "epoch", "epoch": 3}]
    assert registry["recovered"]["recovered_at"] == attempt_of(registry)["registered_at"]
    [attempt] = registry["attempts"]
    assert (attempt["restart_id"], attempt["state"], attempt["source_id"]) == \
        ("r1", "creation_unknown", "sess-a")
    assert attempt["checkpoint_digest"] == original["attempts"][0]["checkpoint_digest"]
    assert "continue_checkpoint_digest" not in attempt  # the rendered-from checkpoint is unknown
    assert attempt["creation"]["status"] == "unknown"
    assert errors_in(project) == []


def attempt_of(registry):
    [attempt] = registry["attempts"]
    return attempt


def test_the_protocol_goes_on_from_a_recovered_registry(lost):
    project, _ = lost
    passdown(project, "registry", "recover")
    code, out = passdown(project, "attempt", "created", "r1", "--target-id", "sess-b")
    assert (code, out["error"]["code"]) == (1, "attempt.reconcile_required")
    code, out = passdown(project, "packet", "render", "--source-id", "sess-a")
    assert (code, out["error"]["code"]) == (1, "attempt.in_flight")
    assert passdown(project, "attempt", "reconcile", "r1", "--absent")[0] == 0
    code, out = passdown(project, "packet", "render", "--source-id", "sess-a")
    assert code == 0 and out["result"]["restart_id"] != "r1"
    assert errors_in(project) == []


def test_refusals_leave_the_folder_as_it_was(lost):
    project, _ = lost
    packet = project / "continuation.packet.txt"
    packet.write_text(packet.read_text().replace("UNKNOWN", "unknown", 1))  # edited after render
    code, out = passdown(project, "registry", "recover")
    assert (code, out["error"]["code"]) == (1, "authoring.packet_unverified")
    assert not (project / "registry.yaml").exists()
    packet.unlink()
    code, out = passdown(project, "registry", "recover")
    assert (code, out["error"]["code"]) == (2, "authoring.missing_identity")
    code, out = passdown(project, "registry", "recover", "--main-id", "sess-a")
    assert code == 0 and out["result"]["restart_id"] is None
    assert load(project / "registry.yaml")["attempts"] == []
    code, out = passdown(project, "registry", "recover", "--main-id", "sess-a")
    assert (code, out["error"]["code"]) == (1, "authoring.exists")
    assert "move it away" in out["error"]["hint"]


def test_init_in_a_folder_that_lost_its_registry_names_recover(lost):
    project, _ = lost
    code, out = passdown(project, "init", "--goal-id", "g", "--main-id", "m", "--outcome", "o",
                      "--next", "n")
    assert (code, out["error"]["code"]) == (1, "authoring.exists")
    assert "passdown registry recover" in out["error"]["hint"]


def test_recover_finds_the_handoff_folder_upward_and_says_which(lost):
    project, _ = lost
    with contextlib.chdir(project / "xbrief"):
        result = run("registry", "recover")
    assert result.exit_code == 0, result.output
    assert result.stderr == f"passdown: using the handoff folder {project}\n"
    assert (project / "registry.yaml").exists() and not (project / "xbrief" / "registry.yaml").exists()


def test_recover_with_no_checkpoint_above_is_refused_naming_the_folder(tmp_path):
    (tmp_path / ".git").mkdir()  # the search stops at the top of a checkout
    with contextlib.chdir(tmp_path):
        code, out = run_json("registry", "recover")
    assert (code, out["error"]["code"]) == (2, "authoring.no_checkpoint")
    assert out["error"]["message"] == f"no checkpoint in {tmp_path} or any folder above it"


# -- REG-018 across a recovery (REG-029) ---------------------------------------------------

@pytest.fixture
def committed(tmp_path):
    """A checkout whose attempt r1 committed ownership to sess-b at fencing epoch 1 and was
    taken over (sess-b's TAKEOVER ACK in takeover.json); then the registry was lost."""
    from git_support import new_checkout

    from passdown.authoring import Identity, Policy, init

    repo = new_checkout(tmp_path / "repo", {"app.py": "print(1)\n"})
    init(repo, Identity(goal_id="goal-r", main_id="sess-a", outcome="o", first_step="s"),
         Policy(mode="adaptive", authorization_scope="restarts of MAIN", archive_consent=True))
    steps = [("packet", "render", "--source-id", "sess-a", "--restart-id", "r1"),
             ("attempt", "created", "r1", "--target-id", "sess-b"),
             ("ack", "write", "--target-id", "sess-b"),
             ("attempt", "ack", "r1", "ack.json"),
             ("attempt", "commit", "r1"),
             ("ack", "write", "--target-id", "sess-b", "--status", "TAKEOVER", "--output",
              "takeover.json"),
             ("attempt", "takeover", "r1", "--target-id", "sess-b", "--fencing-epoch", "1")]
    for step in steps:
        code, out = passdown(repo, *step)
        assert code == 0, (step, out)
    assert load(repo / "registry.yaml")["fencing_epoch"] == 1
    (repo / "registry.yaml").unlink()
    return repo


@pytest.mark.parametrize("evidence, start", [("takeover ACK", 2), ("checkpoint only", 1)])
def test_a_recovered_registry_never_issues_an_epoch_again(committed, evidence, start):
    repo = committed
    if evidence == "checkpoint only":
        (repo / "takeover.json").unlink()
    code, out = passdown(repo, "registry", "recover")
    assert code == 0, out
    registry = load(repo / "registry.yaml")
    assert registry["fencing_epoch"] == start == out["result"]["fencing_epoch"]
    assert "recovered" in registry and f"fencing epoch {start}, above" in out["message"]
    fields = sorted((row["file"], row["field"], row["epoch"])
                    for row in registry["recovered"]["epoch_evidence"])
    assert fields == ([("takeover.json", "takeover.fencing_epoch", 1)] if start == 2 else []) + [
        ("xbrief/continue.xbrief.json", "epoch", 0)]
    # no commit while the attempt that was in flight is not reconciled
    code, out = passdown(repo, "attempt", "commit", "r1")
    assert (code, out["error"]["code"]) == (1, "attempt.state")
    code, out = passdown(repo, "packet", "render", "--source-id", "sess-a", "--restart-id", "r2")
    assert (code, out["error"]["code"]) == (1, "attempt.in_flight")
    # reconciled: the successor exists, but no ACK of the recovered attempt is accepted
    assert passdown(repo, "attempt", "reconcile", "r1", "--target-id", "sess-b")[0] == 0
    assert passdown(repo, "ack", "write", "--target-id", "sess-b")[0] == 0
    code, out = passdown(repo, "attempt", "ack", "r1", "ack.json")
    assert (code, out["error"]["code"]) == (1, "attempt.ack_mismatch")
    assert passdown(repo, "attempt", "abandon", "r1", "--note", "recovered; re-render")[0] == 0
    # the next commit, to another session, issues an epoch nobody holds
    for step in (("packet", "render", "--source-id", "sess-a", "--restart-id", "r2"),
                 ("attempt", "created", "r2", "--target-id", "sess-c"),
                 ("ack", "write", "--target-id", "sess-c"),
                 ("attempt", "ack", "r2", "ack.json")):
        code, out = passdown(repo, *step)
        assert code == 0, (step, out)
    code, out = passdown(repo, "attempt", "commit", "r2")
    assert code == 0, out
    assert out["result"]["fencing_epoch"] == start + 1 > 1  # sess-b holds 1
    assert errors_in(repo) == []


def test_unreadable_and_foreign_json_files_are_no_evidence(lost):
    project, _ = lost
    (project / "broken.json").write_text("{")
    (project / "other-goal.json").write_text(json.dumps(
        {"kind": "ack", "goal_id": "another", "takeover": {"fencing_epoch": 90}}))
    (project / "list.json").write_text("[1]")
    (project / "folder.json").mkdir()
    code, out = passdown(project, "registry", "recover")
    assert code == 0, out
    assert out["result"]["fencing_epoch"] == 4
