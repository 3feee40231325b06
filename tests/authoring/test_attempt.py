"""``passdown attempt``: each later step of one restart attempt, refused with its code when the
registry's state does not allow it, idempotent for the same content, a conflict for other
content; and the restart gate reads the registry's state the same way."""

from __future__ import annotations

import datetime
import json

import pytest
from authoring_support import (
    POLICY, errors_in, load, make_project, registry_of, run_json,
)

from passdown.formats import _packet
from passdown import run_gate
from passdown.authoring import Policy, SourceFacts, render_packet
from passdown.authoring._attempt import gate_input


@pytest.fixture
def project(tmp_path):
    return make_project(tmp_path)


def step(project, *args):
    """``passdown attempt ARGS``; these projects are no git checkouts, so ``ack`` skips the
    checkout comparison explicitly (tests/acceptance/test_journey.py compares it)."""
    skip = ("--no-workspace",) if args[0] == "ack" else ()
    return run_json("attempt", *args, *skip, "--registry", registry_of(project))


def registered(project):
    return render_packet(project, source=SourceFacts(source_id="sess-a")).result["restart_id"]


def attempt(project, restart_id):
    return next(a for a in load(registry_of(project))["attempts"]
                if a["restart_id"] == restart_id)


def write_ack(project, restart_id, **changes):
    record = attempt(project, restart_id)
    packet = _packet.parse((project / "continuation.packet.txt").read_text()).values()
    ack = {"passdown_version": "1.0", "kind": "ack", "status": "READY_READONLY",
           "goal_id": "goal-parser", "restart_id": restart_id, "source_id": "sess-a",
           "target_id": record["target_id"], "checkpoint_digest": record["checkpoint_digest"],
           "checkout": {"repository": "acme/ledger", "branch": "main", "head": "a" * 40},
           "dirty_artifacts": [], "first_safe_action": packet["NEXT_SAFE_ACTION"],
           "read_at": datetime.datetime.now(datetime.UTC).isoformat(timespec="microseconds")}
    ack.update(changes)
    path = project / "ack.json"
    path.write_text(json.dumps(ack, indent=2))
    return path


def through_ack(project):
    restart_id = registered(project)
    step(project, "created", restart_id, "--target-id", "sess-b")
    assert step(project, "ack", restart_id, write_ack(project, restart_id))[0] == 0
    return restart_id


def gate(project, restart_id=None, **host):
    """The restart gate's action for the registry's state plus ``host`` observations (what
    a hook adds: capabilities and measurements the registry does not hold)."""
    registry = load(registry_of(project))
    chosen = attempt(project, restart_id) if restart_id else None
    return run_gate("restart", {**gate_input(registry, chosen), **host}).output["action"]


def test_the_whole_sequence_to_completed(project):
    restart_id = through_ack(project)
    # before the commit the gate needs the host's observations too (remaining work...)
    assert gate(project, restart_id) == "BLOCKED"
    host = {"remaining_work": True, "transfer_supported": True, "safe_boundary": True,
            "active_writers": 0, "pending_operations": 0, "checkpoint_readback": True,
            "checkpoint_current": True}
    assert gate(project, restart_id, **host) == "COMMIT_TRANSFER"
    code, out = step(project, "commit", restart_id, "--authority", "local")
    assert (code, out["result"]) == (0, {"state": "committed", "fencing_epoch": 1, "authority": "local", "next": (
        f"passdown attempt takeover {restart_id} --target-id sess-b (the target)")})
    registry = load(registry_of(project))
    assert registry["fencing_epoch"] == 1
    assert gate(project, restart_id) == "VERIFY_TAKEOVER"
    assert step(project, "takeover", restart_id, "--target-id", "sess-b",
                "--fencing-epoch", "1")[0] == 0
    assert gate(project, restart_id) == "VERIFY_SOURCE_RELEASE"
    assert step(project, "release", restart_id)[0] == 0
    assert gate(project, restart_id) == "ARCHIVE_PENDING"  # the host did not say it can
    assert gate(project, restart_id, archive_supported=True) == "ARCHIVE_SOURCE"
    assert step(project, "archive", restart_id, "--result", "unknown")[0] == 0
    assert gate(project, restart_id) == "RECONCILE_ARCHIVE"
    code, out = step(project, "archive", restart_id, "--result", "archived")
    assert (code, out["result"]) == (0, {"state": "completed", "archive": "ARCHIVED",
                                       "next": "passdown consume (the target, once it resumed)"})
    assert gate(project, restart_id) == "COMPLETE"
    record = attempt(project, restart_id)
    assert record["ownership"]["from_id"] == "sess-a" and record["ownership"]["to_id"] == "sess-b"
    assert record["takeover"] == {"readback_at": record["takeover"]["readback_at"],
                                  "verified": True, "source_retired": True}
    # the target now owns the goal: the old source can no longer start an attempt
    with pytest.raises(Exception) as caught:
        render_packet(project, source=SourceFacts(source_id="sess-a"))
    assert caught.value.code == "attempt.not_owner"
    # once the new owner resumed from the handed-over checkpoint (PRC-063), the folder is clean
    assert errors_in(registry_of(project)) == ["crossfile.checkpoint_not_consumed"]
    assert run_json("consume", "--checkpoint", project / "xbrief" / "continue.xbrief.json")[0] == 0
    assert errors_in(registry_of(project)) == []


def test_every_step_is_idempotent_and_other_content_conflicts(project):
    restart_id = registered(project)
    calls = [
        (("created", restart_id, "--target-id", "sess-b", "--detail", "host receipt 7"),
         ("created", restart_id, "--target-id", "sess-c")),
    ]
    for same, other in calls:
        assert step(project, *same)[1]["changed"] is True
        code, out = step(project, *same)
        assert (code, out["changed"]) == (0, False)
        code, out = step(project, *other)
        assert (code, out["error"]["code"]) == (1, "attempt.conflict")
        assert out["error"]["message"] == (
            f'attempt "{restart_id}" already recorded its creation receipt as target "sess-b" '
            'with detail "host receipt 7", not target "sess-c" with no detail')
    ack = write_ack(project, restart_id)
    packet = ("--packet", project / "continuation.packet.txt")
    assert step(project, "ack", restart_id, ack, *packet)[1]["changed"] is True
    assert step(project, "ack", restart_id, ack, *packet)[1]["changed"] is False
    other_ack = write_ack(project, restart_id, read_at=datetime.datetime.now(
        datetime.UTC).isoformat(timespec="microseconds"))
    code, out = step(project, "ack", restart_id, other_ack, *packet)
    assert (code, out["error"]["code"]) == (1, "attempt.conflict")
    assert step(project, "commit", restart_id, "--authority", "local")[1]["changed"] is True
    assert step(project, "commit", restart_id, "--authority", "local")[1]["changed"] is False
    assert step(project, "commit", restart_id)[1]["changed"] is False
    assert load(registry_of(project))["policy"]["authority"] == {"kind": "local"}
    code, out = step(project, "commit", restart_id, "--authority", "git")
    assert (code, out["error"]["code"]) == (1, "authority.mismatch")
    assert out["error"]["message"] == ("the registry's policy records the authority local, "
                                       "not git (remote origin)")
    assert load(registry_of(project))["fencing_epoch"] == 1  # committed once
    takeover = ("takeover", restart_id, "--target-id", "sess-b", "--fencing-epoch", "1")
    assert step(project, *takeover)[1]["changed"] is True
    assert step(project, *takeover)[1]["changed"] is False
    assert step(project, *takeover, "--source-retired")[1]["changed"] is True  # progress
    assert step(project, "release", restart_id)[1]["changed"] is False
    assert step(project, "archive", restart_id, "--result", "pending")[1]["changed"] is True
    assert step(project, "archive", restart_id, "--result", "pending")[1]["changed"] is False
    assert step(project, "archive", restart_id, "--result", "archived")[1]["changed"] is True
    code, out = step(project, "archive", restart_id, "--result", "pending")
    assert (code, out["error"]["code"]) == (1, "attempt.conflict")
    assert run_json("consume", "--checkpoint", project / "xbrief" / "continue.xbrief.json")[0] == 0
    assert errors_in(registry_of(project)) == []  # the new owner resumed (PRC-063)


def test_unknown_creation_is_reconciled_never_retried(project):
    restart_id = registered(project)
    code, out = step(project, "created", restart_id, "--unknown")
    assert (code, out["result"]) == (0, {"state": "creation_unknown", "next": (
        f"passdown attempt reconcile {restart_id} --target-id TARGET (or --absent), as the host shows it")})
    assert gate(project, restart_id) == "RECONCILE_TARGET"
    assert step(project, "created", restart_id, "--unknown")[1]["changed"] is False
    for args, status, code in [
        (("created", restart_id, "--target-id", "sess-b"), 1, "attempt.reconcile_required"),
        (("abandon", restart_id, "--note", "give up"), 1, "attempt.reconcile_required"),
    ]:
        result = step(project, *args)
        assert (result[0], result[1]["error"]["code"]) == (status, code), args
    # a second packet cannot start a second successor meanwhile
    with pytest.raises(Exception) as caught:
        render_packet(project, source=SourceFacts(source_id="sess-a", working_state="changed"))
    assert caught.value.code == "attempt.in_flight"
    code, out = step(project, "reconcile", restart_id, "--target-id", "sess-b")
    assert (code, out["result"]) == (0, {"state": "created", "next": (
        f"passdown ack write --target-id sess-b (the target), then passdown attempt ack {restart_id} ack.json")})
    assert step(project, "reconcile", restart_id, "--target-id", "sess-b")[1]["changed"] is False


def test_reconcile_absent_abandons_and_frees_a_new_attempt(project):
    restart_id = registered(project)
    step(project, "created", restart_id, "--unknown")
    code, out = step(project, "reconcile", restart_id, "--absent")
    assert (code, out["result"]) == (0, {"state": "abandoned",
                                         "next": "passdown packet render --source-id sess-a (a new attempt)"})
    assert step(project, "reconcile", restart_id, "--absent")[1]["changed"] is False
    assert registered(project) != restart_id
    code, out = step(project, "reconcile", restart_id)
    assert (code, out["error"]["code"]) == (2, "authoring.bad_value")


@pytest.mark.parametrize(("args", "status", "code"), [
    (("commit", "{id}"), 1, "attempt.state"),
    (("takeover", "{id}", "--target-id", "sess-b", "--fencing-epoch", "1"), 1, "attempt.state"),
    (("release", "{id}"), 1, "attempt.state"),
    (("archive", "{id}", "--result", "archived"), 1, "attempt.state"),
    (("reconcile", "{id}", "--target-id", "sess-b"), 1, "attempt.state"),
    (("created", "{id}", "--target-id", "sess-a"), 1, "attempt.target_identity"),
    (("created", "{id}", "--target-id", "  "), 2, "authoring.bad_value"),
    (("created", "{id}"), 2, "usage"),
    (("created", "ghost", "--target-id", "sess-b"), 1, "attempt.unknown"),
])
def test_steps_out_of_order_are_refused(project, args, status, code):
    restart_id = registered(project)
    before = registry_of(project).read_bytes()
    result = step(project, *(a.replace("{id}", restart_id) for a in args))
    assert (result[0], result[1]["error"]["code"]) == (status, code)
    assert registry_of(project).read_bytes() == before


def test_a_stale_or_mismatched_ack_is_refused(project):
    restart_id = registered(project)
    step(project, "created", restart_id, "--target-id", "sess-b")
    packet = ("--packet", project / "continuation.packet.txt")
    wrong = write_ack(project, restart_id, target_id="sess-x", goal_id="other")
    code, out = step(project, "ack", restart_id, wrong, *packet)
    assert (code, out["error"]["code"]) == (1, "attempt.ack_mismatch")
    assert "ack.goal_mismatch" in out["error"]["message"]
    assert "ack.target_mismatch" in out["error"]["message"]
    # the checkpoint changed after the packet was rendered: acceptance is invalid
    from authoring_support import checkpoint_of

    from passdown.authoring import update_checkpoint

    update_checkpoint(checkpoint_of(project), "hazard", "late change")
    code, out = step(project, "ack", restart_id, write_ack(project, restart_id), *packet)
    assert (code, out["error"]["code"]) == (1, "attempt.ack_mismatch")
    assert "ack.checkpoint_changed" in out["error"]["message"]
    assert attempt(project, restart_id)["state"] == "created"


def test_ack_compares_the_checkout_by_default_and_records_an_explicit_skip(project):
    restart_id = registered(project)
    step(project, "created", restart_id, "--target-id", "sess-b")
    ack = write_ack(project, restart_id)
    before = registry_of(project).read_bytes()
    code, out = run_json("attempt", "ack", restart_id, ack, "--registry", registry_of(project))
    assert (code, out["error"]["code"]) == (2, "git.not_a_repository")
    assert "--no-workspace" in out["error"]["hint"]
    assert registry_of(project).read_bytes() == before
    code, out = run_json("attempt", "ack", restart_id, ack, "--no-workspace", "--registry",
                         registry_of(project))
    assert code == 0
    assert out["result"] == {"state": "acknowledged", "skipped": ["checkout", "dirty_artifacts"],
                             "next": f"passdown attempt commit {restart_id}"}
    assert "not compared: checkout, dirty_artifacts" in out["message"]
    assert attempt(project, restart_id)["ack"]["skipped"] == ["checkout", "dirty_artifacts"]
    assert errors_in(registry_of(project)) == []
    code, out = run_json("attempt", "ack", restart_id, ack, "--no-workspace", "--workspace",
                         project, "--registry", registry_of(project))
    assert (code, out["error"]["code"]) == (2, "usage")


def test_takeover_must_read_back_the_committed_owner_and_epoch(project):
    restart_id = through_ack(project)
    step(project, "commit", restart_id)
    for args in (("--target-id", "sess-x", "--fencing-epoch", "1"),
                 ("--target-id", "sess-b", "--fencing-epoch", "2")):
        code, out = step(project, "takeover", restart_id, *args)
        assert (code, out["error"]["code"]) == (1, "attempt.takeover_mismatch")


def test_archive_needs_release_and_consent(tmp_path):
    project = make_project(tmp_path, policy=Policy(mode="adaptive",
                                                   authorization_scope=POLICY.authorization_scope,
                                                   archive_consent=False))
    restart_id = through_ack(project)
    step(project, "commit", restart_id)
    step(project, "takeover", restart_id, "--target-id", "sess-b", "--fencing-epoch", "1")
    code, out = step(project, "archive", restart_id, "--result", "pending")
    assert (code, out["error"]["code"]) == (1, "attempt.source_not_released")
    step(project, "release", restart_id)
    code, out = step(project, "archive", restart_id, "--result", "archived")
    assert (code, out["error"]["code"]) == (1, "attempt.archive_not_authorized")
    code, out = step(project, "archive", restart_id, "--result", "pending")
    assert (code, out["result"]) == (0, {"state": "taken_over", "archive": "ARCHIVE_PENDING", "next": (
        "passdown consume (the target, once it resumed; the source stays unarchived)")})
    assert gate(project, restart_id) == "ARCHIVE_PENDING"


def test_abandon_before_commit_only(project):
    restart_id = through_ack(project)
    code, out = step(project, "abandon", restart_id, "--note", "owner cancelled")
    assert (code, out["result"]) == (0, {"state": "abandoned",
                                         "next": "passdown packet render --source-id sess-a (a new attempt)"})
    assert attempt(project, restart_id)["note"] == "owner cancelled"
    assert step(project, "abandon", restart_id, "--note", "again")[1]["changed"] is False
    second = registered(project)
    step(project, "created", second, "--target-id", "sess-c")
    step(project, "ack", second, write_ack(project, second), "--packet",
         project / "continuation.packet.txt")
    step(project, "commit", second)
    code, out = step(project, "abandon", second, "--note", "too late")
    assert (code, out["error"]["code"]) == (1, "attempt.committed")


def test_show_and_gate_input(project):
    restart_id = registered(project)
    code, out = run_json("attempt", "show", "--registry", registry_of(project))
    assert code == 0 and out["result"]["attempt"]["restart_id"] == restart_id
    assert out["message"] == (f"attempt {restart_id}: registered (revision {out['revision']})\n  source: sess-a\n  target: (not created yet)\n"
                              "  fencing epoch: 0 (the registry's; none committed by this attempt)")
    assert out["result"]["next"] == (f"passdown attempt created {restart_id} --target-id TARGET (once the host "
                                     "created the target; --unknown if the create call timed out)")
    from authoring_support import run

    result = run("attempt", "show", restart_id, "--registry", registry_of(project),
                 "--gate-input")
    assert json.loads(result.stdout) == {
        "schema": 1, "goal_id": "goal-parser", "mode": "adaptive", "policy_authorized": True,
        "archive_authorized": True, "source_id": "sess-a", "target_id": None,
        "creation_status": "not_sent", "ack_matches": False, "ownership_committed": False,
        "target_takeover_readback": False, "source_retired_readback": False,
        "source_archived_readback": False}
