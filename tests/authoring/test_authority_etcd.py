"""The ``etcd`` ownership authority against a real etcd server (Debian's ``etcd-server``) on a
loopback port (spec/authority.md): racing commits from two machines' registries, the server
stopped in the middle of a transition (committed or not, never both, read back after it
restarts), a lease that expires and is taken back only by its holder, and a source that keeps
writing after the switch, refused every time. One server per module (its own data folder),
one goal per test; the interruption tests stop that server and start it again on its data."""

from __future__ import annotations

import base64
import json
import os
import time

import pytest
from authority_support import (ACK_DIGEST, DIGEST, GOAL, Etcd, acknowledged_registry,
                               etcd_required, finish, free_port, load, passdown, project, race,
                               run)

from passdown.workspace._authority import AuthorityError, Transition
from passdown.workspace._authority_etcd import EtcdAuthority

ROUNDS = 3


@pytest.fixture(scope="module")
def etcd(tmp_path_factory):
    etcd_required()
    server = Etcd(tmp_path_factory.mktemp("etcd")).start()
    yield server
    server.stop()


def options(server, ttl=600):
    return ("--authority", "etcd", "--endpoint", server.endpoint, "--lease-ttl", str(ttl))


def settings(server, ttl=600):
    return {"kind": "etcd", "endpoint": server.endpoint, "prefix": "/passdown/",
            "lease_ttl": ttl}


def owner_key(server, goal=GOAL):
    kvs = server.call("/v3/kv/range", {"key": _b64(f"/passdown/{goal}/owner")}).get("kvs")
    return kvs[0] if kvs else None


def _b64(text):
    return base64.b64encode(text.encode()).decode()


def test_racing_commits_one_wins_each_round_and_the_revision_is_the_token(etcd, tmp_path):
    left, right = tmp_path / "left", tmp_path / "right"
    left.mkdir(), right.mkdir()
    owner = "sess-src"
    for round_ in range(1, ROUNDS + 1):
        targets = (f"left-{round_}", f"right-{round_}")
        paths = [acknowledged_registry(folder, source=owner, target=target,
                                       restart_id=f"r{round_}{side}", epoch=round_ - 1)
                 for folder, target, side in zip((left, right), targets, "lr")]
        results = race(paths, [f"r{round_}l", f"r{round_}r"], *options(etcd))
        assert sorted(code for code, _ in results) == [0, 1]
        won = 0 if results[0][0] == 0 else 1
        lost = 1 - won
        assert results[lost][1]["error"]["code"] == "authority.lost"
        stored = owner_key(etcd)
        assert results[won][1]["result"] == {"state": "committed", "fencing_epoch": round_,
                                             "authority": "etcd",
                                             "token": stored["mod_revision"], "next": (
            f"passdown attempt takeover r{round_}{'lr'[won]} --target-id {targets[won]} (the target)")}
        assert stored["lease"] not in (None, "0")  # the owner key is held by a lease
        winner, loser = load(paths[won]), load(paths[lost])
        assert winner["fencing_epoch"] == round_
        assert winner["policy"]["authority"] == settings(etcd)
        assert loser["attempts"][0]["state"] == "abandoned"
        assert (loser["attempts"][0]["lost_to"]["owner_id"],
                loser["attempts"][0]["lost_to"]["fencing_epoch"]) == (targets[won], round_)
        code, out = run("attempt", "takeover", f"r{round_}{'lr'[lost]}", "--registry",
                        paths[lost], "--target-id", targets[lost], "--fencing-epoch", round_)
        assert (code, out["error"]["code"]) == (1, "authority.not_owner")
        code, out = run("attempt", "takeover", f"r{round_}{'lr'[won]}", "--registry",
                        paths[won], "--target-id", targets[won], "--fencing-epoch", round_)
        assert code == 0, out
        owner = targets[won]



def test_two_transactions_from_one_read_etcd_takes_only_the_first(etcd):
    """Not left to the timing of a race: the left side has read both keys and holds a new
    lease when the right side's transaction lands; the left transaction still compares the
    values and revisions it read, so etcd refuses it, its lease is revoked, and the left side
    learns the winner from the key."""
    goal = "goal-collide"
    mine, theirs = (EtcdAuthority(goal, endpoint=etcd.endpoint, prefix="/passdown/",
                                  lease_ttl=600) for _ in range(2))
    granted, landed, leases = mine._grant, [], []

    def grant_then_lose_the_race():
        leases.append(granted())
        landed.append(theirs.transition(move(goal, "tgt-right", "rr")))
        return leases[-1]

    mine._grant = grant_then_lose_the_race
    with pytest.raises(AuthorityError) as caught:
        mine.transition(move(goal, "tgt-left", "rl"))
    assert caught.value.code == "authority.lost"
    assert (caught.value.winner.owner_id, caught.value.winner.fencing_epoch) == ("tgt-right", 1)
    stored = owner_key(etcd, goal)
    assert (stored["mod_revision"], stored["lease"]) == (landed[0].token, landed[0].lease)
    assert json.loads(base64.b64decode(stored["value"]))["restart_id"] == "rr"
    assert int(etcd.call("/v3/lease/timetolive", {"ID": leases[0]})["TTL"]) == -1  # revoked


def move(goal, target, restart_id):
    return Transition(goal_id=goal, source_id="sess-src", epoch=0, target_id=target,
                      checkpoint_digest=DIGEST, restart_id=restart_id, at="2026-01-01T00:00:00Z")

def test_a_source_that_keeps_writing_after_the_switch_is_refused_every_time(etcd, tmp_path):
    goal_settings = {**settings(etcd)}
    source, target = tmp_path / "source", tmp_path / "target"
    for folder in (source, target):
        folder.mkdir()
        project(folder, "sess-src")
    paths = [acknowledged_registry(folder, source="sess-src", target="tgt", restart_id="r1",
                                   epoch=0, policy_authority=goal_settings, goal="goal-stale")
             for folder in (source, target)]
    assert run("attempt", "commit", "r1", "--registry", paths[1])[0] == 0
    checkpoint = source / "xbrief" / "continue.xbrief.json"
    before = checkpoint.read_bytes(), paths[0].read_bytes()
    for write in (("checkpoint", "decision", "late", "--checkpoint", checkpoint),
                  ("checkpoint", "add-pending", "more", "--checkpoint", checkpoint),
                  ("packet", "render", source, "--source-id", "sess-src"),
                  ("attempt", "abandon", "r1", "--registry", paths[0], "--note", "late"),
                  ("checkpoint", "decision", "late again", "--checkpoint", checkpoint)):
        code, out = run(*write)
        assert (code, out["error"]["code"]) == (1, "authority.fenced"), write
    assert (checkpoint.read_bytes(), paths[0].read_bytes()) == before
    assert run("fence", "check", "--registry", paths[0])[1]["error"]["code"] == "authority.fenced"
    assert run("fence", "check", "--registry", paths[1], "--session-id", "tgt")[0] == 0
    assert run("checkpoint", "decision", "the owner writes",
               "--checkpoint", target / "xbrief" / "continue.xbrief.json")[0] == 0


def test_a_lease_that_expires_fences_the_owner_until_it_renews(etcd, tmp_path):
    goal = "goal-lease"
    target = tmp_path / "target"
    target.mkdir()
    project(target, "sess-src")
    path = acknowledged_registry(target, source="sess-src", target="tgt", restart_id="r1",
                                 epoch=0, goal=goal, policy_authority=settings(etcd, ttl=2))
    assert run("attempt", "commit", "r1", "--registry", path)[0] == 0
    assert run("fence", "renew", "--registry", path, "--session-id", "tgt")[0] == 0
    lease = owner_key(etcd, goal)["lease"]
    deadline = time.monotonic() + 30
    while owner_key(etcd, goal) is not None and time.monotonic() < deadline:
        time.sleep(0.2)  # etcd's lease runs out on its own clock
    assert owner_key(etcd, goal) is None
    checkpoint = target / "xbrief" / "continue.xbrief.json"
    code, out = run("checkpoint", "decision", "after expiry", "--checkpoint", checkpoint)
    assert (code, out["error"]["code"]) == (1, "authority.lease_expired")
    code, out = run("fence", "renew", "--registry", path, "--session-id", "intruder")
    assert (code, out["error"]["code"]) == (1, "authority.not_owner")
    code, out = run("fence", "renew", "--registry", path, "--session-id", "tgt")
    assert code == 0
    assert out["result"]["record"]["lease"] not in (None, lease)
    assert run("checkpoint", "decision", "renewed", "--checkpoint", checkpoint)[0] == 0
    # the owner gives its hold up: the same as an expiry, and the same way back
    assert run("fence", "release", "--registry", path, "--session-id", "intruder")[1][
        "error"]["code"] == "authority.not_owner"
    assert run("fence", "release", "--registry", path, "--session-id", "tgt")[0] == 0
    assert owner_key(etcd, goal) is None
    code, out = run("checkpoint", "decision", "after release", "--checkpoint", checkpoint)
    assert (code, out["error"]["code"]) == (1, "authority.lease_expired")
    assert run("fence", "renew", "--registry", path, "--session-id", "tgt")[0] == 0
    back = json.loads(base64.b64decode(owner_key(etcd, goal)["value"]))
    assert (back["owner_id"], back["fencing_epoch"]) == ("tgt", 1)  # the same record, held again


def test_no_etcd_at_the_endpoint_fails_closed(tmp_path):
    path = acknowledged_registry(tmp_path, source="sess-src", target="tgt", restart_id="r1",
                                 epoch=0)
    before = path.read_bytes()
    code, out = run("attempt", "commit", "r1", "--registry", path, "--authority", "etcd",
                    "--endpoint", f"http://127.0.0.1:{free_port()}")
    assert (code, out["error"]["code"]) == (1, "authority.unreachable")
    assert path.read_bytes() == before


@pytest.mark.parametrize("pause, committed", [("authority.etcd.transaction", False),
                                              ("authority.etcd.committed", True)])
def test_etcd_stopped_in_the_middle_of_a_transition_committed_or_not_never_both(
        etcd, tmp_path, pause, committed):
    goal = f"goal-stopped-{committed}".lower()
    points = tmp_path / "points"
    points.mkdir()
    (points / f"{pause}.pause").touch()
    path = acknowledged_registry(tmp_path, source="sess-src", target="tgt", restart_id="r1",
                                 epoch=0, goal=goal)
    before = path.read_bytes()
    os.environ["PASSDOWN_TEST_POINTS"] = str(points)
    try:
        process = passdown("attempt", "commit", "r1", "--registry", path, *options(etcd),
                           "--format", "json")
    finally:
        del os.environ["PASSDOWN_TEST_POINTS"]
    deadline = time.monotonic() + 60
    while not (points / f"{pause}.reached").exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    etcd.stop()  # the coordinator goes away in the middle of the transition
    try:
        if committed:
            process.kill()  # and so does the committing process, before its registry write
            process.communicate(timeout=30)
        else:
            (points / f"{pause}.go").touch()
            code, out = finish(process)
            assert (code, out["error"]["code"]) == (1, "authority.unreachable")
        assert path.read_bytes() == before  # nothing recorded either way
    finally:
        etcd.start()  # the same data folder: what etcd committed, it still has
    authority = EtcdAuthority(goal, endpoint=etcd.endpoint, prefix="/passdown/", lease_ttl=600)
    record = authority.read()
    if committed:
        assert (record.owner_id, record.fencing_epoch, record.restart_id) == ("tgt", 1, "r1")
    else:
        assert record is None
    # the retry reads back and settles it one way: the registry agrees with etcd
    code, out = run("attempt", "commit", "r1", "--registry", path, *options(etcd))
    assert (code, out["result"]["fencing_epoch"]) == (0, 1)
    assert authority.read().owner_id == "tgt"
    assert load(path)["attempts"][0]["ownership"]["token"] == authority.read().token
    assert load(path)["attempts"][0]["ack"]["ack_digest"] == ACK_DIGEST
