"""The ``git`` ownership authority between two machines (spec/authority.md): two clones of one
bare remote, each with its own registry and a target that acknowledged the same source, run
``passdown attempt commit --authority git`` at once, round after round. Exactly one wins each
round at the remote's ref, the loser's registry names the winner, its takeover and every later
write are refused, and an unreachable remote refuses the transition while reading goes on.
Expected values come from git itself (the remote's ref and its history)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest

from authority_support import (DIGEST, GOAL, acknowledged_registry, bare_with_clones, load,
                               project, race, run)
from git_support import GIT_ENV, git

from passdown.workspace._authority import AuthorityError, Transition
from passdown.workspace._authority_git import GitAuthority

REF = f"refs/passdown/{GOAL}/owner"
ROUNDS = 3


def test_racing_commits_one_wins_each_round_and_the_loser_learns_the_winner(tmp_path):
    bare, (left, right) = bare_with_clones(tmp_path, ["left", "right"])
    owner, tips = "sess-src", []
    for round_ in range(1, ROUNDS + 1):
        targets = (f"left-{round_}", f"right-{round_}")
        paths = [acknowledged_registry(folder, source=owner, target=target,
                                       restart_id=f"r{round_}{side}", epoch=round_ - 1)
                 for folder, target, side in zip((left, right), targets, "lr")]
        results = race(paths, [f"r{round_}l", f"r{round_}r"], "--authority", "git")

        assert sorted(code for code, _ in results) == [0, 1]
        won = 0 if results[0][0] == 0 else 1
        lost = 1 - won
        assert results[lost][1]["error"]["code"] == "authority.lost"
        tip = git(bare, "rev-parse", REF)
        assert results[won][1]["result"] == {"state": "committed", "fencing_epoch": round_,
                                             "authority": "git", "token": tip, "next": (
            f"passdown attempt takeover r{round_}{'lr'[won]} --target-id {targets[won]} (the target)")}
        record = json.loads(git(bare, "log", "-1", "--format=%b", REF))
        assert (record["owner_id"], record["fencing_epoch"], record["from_id"],
                record["restart_id"]) == (targets[won], round_, owner, f"r{round_}{'lr'[won]}")

        winner, loser = load(paths[won]), load(paths[lost])
        assert winner["fencing_epoch"] == round_
        assert winner["attempts"][0]["ownership"]["token"] == tip
        assert winner["policy"]["authority"] == {"kind": "git", "remote": "origin"}
        assert loser["fencing_epoch"] == round_ - 1
        assert loser["attempts"][0]["state"] == "abandoned"
        assert {key: loser["attempts"][0]["lost_to"][key]
                for key in ("owner_id", "fencing_epoch", "authority")} == {
            "owner_id": targets[won], "fencing_epoch": round_, "authority": "git"}

        code, out = run("attempt", "takeover", f"r{round_}{'lr'[lost]}", "--registry",
                        paths[lost], "--target-id", targets[lost], "--fencing-epoch", round_)
        assert (code, out["error"]["code"]) == (1, "authority.not_owner")
        tips.append(tip)
        owner = targets[won]

    # one commit per round on the remote, each on top of the one it replaced
    assert git(bare, "rev-list", REF).split() == tips[::-1]



def _move(target: str, restart_id: str) -> Transition:
    return Transition(goal_id=GOAL, source_id="sess-src", epoch=0, target_id=target,
                      checkpoint_digest=DIGEST, restart_id=restart_id, at="2026-01-01T00:00:00Z")


def test_two_pushes_from_one_old_value_the_remote_takes_only_the_first(tmp_path):
    """Not left to the timing of a race: the left machine has read the ref and made its
    record commit when the right machine's push lands; the left push still carries the old
    value, so the remote refuses it, and the left machine learns the winner from the ref."""
    bare, (left, right) = bare_with_clones(tmp_path, ["left", "right"])
    mine, theirs = GitAuthority(str(left), GOAL), GitAuthority(str(right), GOAL)
    made, landed = mine._commit, []

    def commit_then_lose_the_race(record, *, parent):
        oid = made(record, parent=parent)
        landed.append(theirs.transition(_move("tgt-right", "rr")))
        return oid

    mine._commit = commit_then_lose_the_race
    with pytest.raises(AuthorityError) as caught:
        mine.transition(_move("tgt-left", "rl"))
    assert caught.value.code == "authority.lost"
    assert (caught.value.winner.owner_id, caught.value.winner.fencing_epoch,
            caught.value.winner.token) == ("tgt-right", 1, landed[0].token)
    assert git(bare, "rev-list", REF).split() == [landed[0].token]

def test_a_clone_the_authority_left_behind_writes_nothing_and_reads_on(tmp_path):
    bare, (left, right) = bare_with_clones(tmp_path, ["left", "right"])
    for folder in (left, right):
        project(folder, "sess-src")
    # the goal's authority chosen up front (`passdown init --authority git`) in both clones
    paths = [acknowledged_registry(folder, source="sess-src", target=f"tgt-{folder.name}",
                                   restart_id=f"r{folder.name[0]}", epoch=0,
                                   policy_authority={"kind": "git", "remote": "origin"})
             for folder in (left, right)]
    assert run("attempt", "commit", "rl", "--registry", paths[0], "--authority", "git")[0] == 0
    # the right clone still says the source owns at epoch 0: it is fenced, and says by whom
    checkpoint = right / "xbrief" / "continue.xbrief.json"
    before = checkpoint.read_bytes(), paths[1].read_bytes()
    for _ in range(3):
        code, out = run("checkpoint", "decision", "a late write", "--checkpoint", checkpoint)
        assert (code, out["error"]["code"]) == (1, "authority.fenced")
        assert "tgt-left at fencing epoch 1" in out["error"]["message"]
    assert run("packet", "render", str(right), "--source-id", "sess-src")[1]["error"]["code"] \
        == "authority.fenced"
    assert run("attempt", "abandon", "rr", "--registry", paths[1], "--note", "x")[1][
        "error"]["code"] == "authority.fenced"
    assert run("ack", "write", "--target-id", "tgt-right", "--registry", paths[1],
               "--packet", right / "continuation.packet.txt")[1]["error"]["code"] \
        == "authority.fenced"
    assert not (right / "ack.json").exists()
    assert (checkpoint.read_bytes(), paths[1].read_bytes()) == before
    code, out = run("fence", "check", "--registry", paths[1])
    assert (code, out["error"]["code"]) == (1, "authority.fenced")
    # reading goes on
    assert run("attempt", "show", "rr", "--registry", paths[1])[0] == 0
    # the winner's clone is current, and the winner owns; the source does not
    code, out = run("fence", "check", "--registry", paths[0], "--session-id", "tgt-left")
    assert (code, out["result"]["owner_id"], out["result"]["fencing_epoch"]) == (0, "tgt-left", 1)
    code, out = run("fence", "check", "--registry", paths[0], "--session-id", "sess-src")
    assert (code, out["error"]["code"]) == (1, "authority.not_owner")
    assert run("checkpoint", "decision", "the owner writes",
               "--checkpoint", left / "xbrief" / "continue.xbrief.json")[0] == 0
    # a commit named with another authority than the recorded one is refused
    code, out = run("attempt", "commit", "rl", "--registry", paths[0], "--authority", "local")
    assert (code, out["error"]["code"]) == (1, "authority.mismatch")


def test_an_unreachable_remote_refuses_the_transition_and_a_retry_after_it_returns_wins(tmp_path):
    bare, (left,) = bare_with_clones(tmp_path, ["left"])
    path = acknowledged_registry(left, source="sess-src", target="tgt", restart_id="r1", epoch=0)
    before = path.read_bytes()
    moved = tmp_path / "away.git"
    shutil.move(bare, moved)
    code, out = run("attempt", "commit", "r1", "--registry", path, "--authority", "git")
    assert (code, out["error"]["code"]) == (1, "authority.unreachable")
    assert path.read_bytes() == before  # nothing recorded: the transition did not happen
    assert run("attempt", "show", "r1", "--registry", path)[0] == 0  # reading goes on
    shutil.move(moved, bare)
    code, out = run("attempt", "commit", "r1", "--registry", path, "--authority", "git")
    assert (code, out["result"]["fencing_epoch"]) == (0, 1)
    # the same commit again changes nothing, at the remote or here
    tip = git(bare, "rev-parse", REF)
    assert run("attempt", "commit", "r1", "--registry", path)[1]["changed"] is False
    assert git(bare, "rev-parse", REF) == tip


def test_a_commit_already_done_at_the_remote_is_recorded_not_repeated(tmp_path):
    """The push landed but the registry was not written (the process ended): the retry finds
    its own record at the remote and records it, without moving the ref again."""
    bare, (left, right) = bare_with_clones(tmp_path, ["left", "right"])
    done = acknowledged_registry(left, source="sess-src", target="tgt", restart_id="r1", epoch=0)
    kept = done.read_bytes()
    assert run("attempt", "commit", "r1", "--registry", done, "--authority", "git")[0] == 0
    tip = git(bare, "rev-parse", REF)
    done.write_bytes(kept)  # as if the registry write never happened
    code, out = run("attempt", "commit", "r1", "--registry", done, "--authority", "git")
    assert (code, out["result"]["token"], out["result"]["fencing_epoch"]) == (0, tip, 1)
    assert git(bare, "rev-list", REF).split() == [tip]



def test_no_program_the_clone_configures_runs_and_git_protocol_is_refused(tmp_path):
    """REG-049: programs planted in the clone's configuration (the pack programs git starts
    for a file:// remote, a proxy for git://, hooks, a monitor, a signing program) never run
    while the authority reads, commits and pushes; plain git on the same clone runs them."""
    bare, (left, proxied) = bare_with_clones(tmp_path, ["left", "proxied"])
    ran, program, hooks = tmp_path / "ran", tmp_path / "program.sh", tmp_path / "hooks"
    program.write_text(f"#!/bin/sh\necho \"$0 $*\" >> {ran}\nexit 1\n")
    program.chmod(0o755)
    hooks.mkdir()
    for name in ("pre-push", "reference-transaction", "post-commit", "post-index-change"):
        shutil.copy(program, hooks / name)
    url = f"file://{bare}"
    git(left, "remote", "set-url", "origin", url)
    for key, value in ((f"remote.{url}.uploadpack", program),
                       (f"remote.{url}.receivepack", program), ("core.hooksPath", hooks),
                       ("core.fsmonitor", program), ("commit.gpgSign", "true"),
                       ("gpg.program", program)):
        git(left, "config", key, value)
    git(proxied, "remote", "set-url", "origin", "git://example.invalid/remote.git")
    git(proxied, "config", "core.gitProxy", program)

    path = acknowledged_registry(left, source="sess-src", target="tgt", restart_id="r1", epoch=0)
    code, out = run("attempt", "commit", "r1", "--registry", path, "--authority", "git")
    assert code == 0, out
    assert out["result"]["token"] == git(bare, "rev-parse", REF)
    path = acknowledged_registry(proxied, source="sess-src", target="tgt", restart_id="r1",
                                 epoch=0, goal="goal-proxied")
    before = path.read_bytes()
    code, out = run("attempt", "commit", "r1", "--registry", path, "--authority", "git")
    assert (code, out["error"]["code"]) == (1, "authority.failed")
    assert "not allowed" in out["error"]["message"]
    assert path.read_bytes() == before
    assert not ran.exists()

    # the control: plain git runs each plant
    for folder, where in ((left, url), (proxied, "git://example.invalid/remote.git")):
        subprocess.run(["git", "-C", folder, "ls-remote", where], capture_output=True,
                       env={**os.environ, **GIT_ENV}, timeout=60)
    assert sorted(line.split()[1] for line in ran.read_text().splitlines()) == [
        str(bare), "example.invalid"]

def test_no_remote_is_a_refusal_that_names_the_fix(tmp_path):
    folder = tmp_path / "alone"
    folder.mkdir()
    git(folder, "init", "-q", "-b", "main")
    path = acknowledged_registry(folder, source="sess-src", target="tgt", restart_id="r1",
                                 epoch=0)
    code, out = run("attempt", "commit", "r1", "--registry", path, "--authority", "git")
    assert (code, out["error"]["code"]) == (1, "authority.no_remote")
    assert "--remote" in out["error"]["hint"]


def test_a_ref_passdown_did_not_write_is_refused_and_nothing_is_recorded(tmp_path):
    bare, (left,) = bare_with_clones(tmp_path, ["left"])
    git(bare, "update-ref", REF, git(bare, "rev-parse", "main"))  # someone's ordinary commit
    path = acknowledged_registry(left, source="sess-src", target="tgt", restart_id="r1", epoch=0)
    before = path.read_bytes()
    code, out = run("attempt", "commit", "r1", "--registry", path, "--authority", "git")
    assert (code, out["error"]["code"]) == (1, "authority.bad_record")
    assert "MANUAL_HANDOFF" in out["error"]["hint"]
    assert path.read_bytes() == before


@pytest.mark.parametrize("authority, code", [
    ("git", "authority.bad_setting"), ([], "authority.bad_setting"),
    ({"kind": "zookeeper"}, "authority.unknown_kind"),
    ({"kind": "git", "remote": 7}, "authority.bad_setting"),
    ({"kind": "etcd", "endpoint": ["x"]}, "authority.bad_setting"),
    ({"kind": "etcd", "endpoint": "http://127.0.0.1:1", "lease_ttl": "600"},
     "authority.bad_setting")])
def test_a_hand_edited_policy_authority_refuses_every_write(tmp_path, authority, code):
    """Never a silent fall back to the local lock, and never a traceback."""
    project(tmp_path, "sess-src")
    path = acknowledged_registry(tmp_path, source="sess-src", target="tgt", restart_id="r1",
                                 epoch=0, policy_authority=authority)
    checkpoint = tmp_path / "xbrief" / "continue.xbrief.json"
    before = checkpoint.read_bytes(), path.read_bytes()
    for args in (("checkpoint", "decision", "x", "--checkpoint", checkpoint),
                 ("attempt", "commit", "r1", "--registry", path),
                 ("fence", "check", "--registry", path)):
        result = run(*args)
        assert (result[0], result[1]["error"]["code"]) == (1, code), args
    assert (checkpoint.read_bytes(), path.read_bytes()) == before
