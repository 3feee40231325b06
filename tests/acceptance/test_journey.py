"""The whole handoff, source to target, the way a user runs it: one real git repository with
``passdown init`` at its root and real uncommitted source files, the source and the target each
running ``passdown`` in processes of their own, and nothing but ``passdown`` commands (spec/ack.md,
spec/authoring.md). The same journey shows each rejection that matters, and ends with
``passdown validate .`` clean and ``git status`` showing only the user's work and the handoff's
files (AUT-012). Expected values come from git and blake3, never from the code under test."""

from __future__ import annotations

import datetime
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from authority_support import Etcd, etcd_required
from blake3 import blake3
from git_support import git, new_checkout

VERIFY = ("ack", "verify", "ack.json", "--packet", "continuation.packet.txt", "--registry",
          "registry.yaml", "--workspace", ".")


def b3(data: bytes) -> str:
    return "blake3:" + blake3(data).hexdigest()


class Session:
    """One agent session: every ``passdown`` command it runs is a process of its own, started
    from the repository with the session's own environment."""

    def __init__(self, name: str, repo: Path, home: Path, session_id: str | None = None):
        self.name, self.repo = name, repo
        home.mkdir()
        self.env = {**os.environ, "HOME": str(home), "PYTHONDONTWRITEBYTECODE": "1"}
        if session_id is not None:  # the host names the session each process writes for
            self.env["PASSDOWN_SESSION_ID"] = session_id

    def passdown(self, *args, expect: int = 0) -> subprocess.CompletedProcess:
        done = subprocess.run([sys.executable, "-m", "passdown", *map(str, args)], cwd=self.repo,
                              env=self.env, capture_output=True, text=True, timeout=120)
        assert done.returncode == expect, f"{self.name}: passdown {' '.join(map(str, args))}\n" \
                                          f"{done.stdout}{done.stderr}"
        return done

    def json(self, *args, expect: int = 0) -> dict:
        return json.loads(self.passdown(*args, "--format", "json", expect=expect).stdout)


def verdict(session, *args, expect: int, ack="ack.json") -> list[str]:
    out = session.json(*(ack if part == "ack.json" else part for part in VERIFY), *args,
                       expect=expect)
    return out["codes"]


@pytest.fixture
def repo(tmp_path):
    return new_checkout(tmp_path / "ledger", {
        "ledger/parse.py": "def parse(line):\n    return line.split(',')\n", "README.md": "# ledger\n"})


@pytest.fixture(params=["local", "git", "etcd"])
def authority(request, repo, tmp_path):
    """The ownership authority of the journey, as ``passdown init`` options: the registry's
    own lock, the checkout's remote (a bare clone on disk), or a real etcd on loopback."""
    if request.param == "local":
        yield ("--authority", "local")
    elif request.param == "git":
        git(tmp_path, "clone", "-q", "--bare", repo, tmp_path / "remote.git")
        git(repo, "remote", "add", "origin", tmp_path / "remote.git")
        yield ("--authority", "git")
    else:
        etcd_required()
        (tmp_path / "etcd").mkdir()
        server = Etcd(tmp_path / "etcd").start()
        try:
            yield ("--authority", "etcd", "--endpoint", server.endpoint)
        finally:
            server.stop()


def test_the_whole_handoff_in_one_checkout_with_every_rejection(repo, tmp_path, authority):
    source = Session("source", repo, tmp_path / "source-home", "sess-src")
    target = Session("target", repo, tmp_path / "target-home", "sess-tgt")

    # -- the source works: init at the root, updates, real uncommitted work ----------------
    source.passdown("init", "--goal-id", "goal-ledger", "--main-id", "sess-src",
                 "--outcome", "ledger.parse handles quoted fields; tests pass",
                 "--next", "Handle quoted fields in ledger/parse.py",
                 "--mode", "adaptive", "--scope", "restarts of MAIN for goal-ledger",
                 "--archive-consent", *authority)
    (repo / "ledger" / "parse.py").write_text("import csv\n\ndef parse(line):\n"
                                              "    return next(csv.reader([line]))\n")
    (repo / "notes.md").write_text("quoted fields: use csv\n")
    source.passdown("checkpoint", "add-completed", "Switch to the csv module",
                 "--evidence", "ledger/parse.py (uncommitted)")
    source.passdown("checkpoint", "add-pending", "Add tests for quoted fields")
    source.passdown("checkpoint", "decision", "Use the standard library csv module")
    rendered = source.json("packet", "render", "--source-id", "sess-src", "--restart-id", "r1")
    assert rendered["result"]["continue_checkpoint_digest"].startswith("blake3:")
    source.passdown("attempt", "created", "r1", "--target-id", "sess-tgt")

    # -- the target reads everything and writes its ACK --------------------------------------
    written = target.json("ack", "write", "--target-id", "sess-tgt")["result"]["ack"]
    assert written["dirty_artifacts"] == [
        {"path": "ledger/parse.py", "digest": b3((repo / "ledger" / "parse.py").read_bytes())},
        {"path": "notes.md", "digest": b3(b"quoted fields: use csv\n")}]
    assert written["checkout"]["head"] == git(repo, "rev-parse", "HEAD")

    # -- the source verifies it against its own fresh readback -------------------------------
    assert verdict(source, expect=0) == []

    # each rejection that matters, each undone before the next (the readback does not
    # depend on the authority: once, with the default one)
    if authority[1] == "local":
        parse = repo / "ledger" / "parse.py"
        kept = parse.read_bytes()
        parse.write_bytes(kept + b"# edited after the ACK\n")  # a dirty source file changed
        assert verdict(source, expect=1) == ["ack.dirty_mismatch"]
        assert source.json("attempt", "ack", "r1", "ack.json", expect=1)["error"]["code"] == \
            "attempt.ack_mismatch"
        parse.write_bytes(kept)
        assert verdict(source, expect=0) == []

        checkpoint = repo / "xbrief" / "continue.xbrief.json"
        registry = repo / "registry.yaml"
        checkpoint_bytes, registry_bytes = checkpoint.read_bytes(), registry.read_bytes()
        source.passdown("checkpoint", "hazard", "Quoted newlines are not handled yet")
        assert verdict(source, expect=1) == ["ack.checkpoint_changed", "ack.stale"]
        checkpoint.write_bytes(checkpoint_bytes)
        assert verdict(source, expect=0) == []
        # an attempt recorded without the checkpoint's digest (another tool's registry): never
        # accepted, changed checkpoint or not, because nothing confirms the checkpoint
        registry.write_text("".join(line for line in registry_bytes.decode().splitlines(True)
                                    if "continue_checkpoint_digest" not in line))
        assert verdict(source, expect=1) == ["ack.checkpoint_changed"]
        registry.write_bytes(registry_bytes)
        assert verdict(source, expect=0) == []

        later = dict(written, read_at=(datetime.datetime.now(datetime.UTC)
                                       + datetime.timedelta(seconds=60)).isoformat())
        future = tmp_path / "future-ack.json"
        future.write_text(json.dumps(later))
        assert verdict(source, expect=1, ack=future) == ["ack.read_in_future"]
        assert verdict(source, "--clock-skew", "120", expect=0, ack=future) == []

        intruder = tmp_path / "intruder-ack.json"
        target.passdown("ack", "write", "--target-id", "sess-intruder", "--output", intruder)
        assert verdict(source, expect=1, ack=intruder) == ["ack.target_mismatch"]

    # -- acceptance (the checkout compared by default), commit, takeover --------------------
    accepted = source.json("attempt", "ack", "r1", "ack.json")
    assert accepted["result"] == {"state": "acknowledged", "skipped": [], "next": "passdown attempt commit r1"}
    committed = source.json("attempt", "commit", "r1")["result"]
    assert (committed["fencing_epoch"], committed["authority"]) == (1, authority[1])
    if authority[1] == "git":  # the remote's ref is the record, and its commit the token
        assert committed["token"] == git(tmp_path / "remote.git", "rev-parse",
                                         "refs/passdown/goal-ledger/owner")
    assert source.json("fence", "check", "--session-id", "sess-src", expect=1)["error"][
        "code"] == "authority.not_owner"
    assert target.json("fence", "check", "--session-id", "sess-tgt")["result"][
        "fencing_epoch"] == 1
    report = target.json("ack", "write", "--target-id", "sess-tgt", "--status", "TAKEOVER",
                         "--output", tmp_path / "takeover.json")["result"]["ack"]
    assert (report["takeover"]["owner_id"], report["takeover"]["fencing_epoch"]) == ("sess-tgt", 1)
    assert verdict(source, expect=0, ack=tmp_path / "takeover.json") == []
    target.passdown("attempt", "takeover", "r1", "--target-id", "sess-tgt", "--fencing-epoch", "1")
    target.passdown("checkpoint", "set", "epoch", "1", "--epoch", "1")  # the new owner's epoch
    # the source writes on after the switch: refused as a session that no longer owns the
    # goal, and, from a process that does not name its session, by its older epoch
    for write in (("checkpoint", "decision", "a late write"),
                  ("packet", "render", "--source-id", "sess-src")):
        assert source.json(*write, expect=1)["error"]["code"] == "authority.not_owner"
    unnamed = Session("source, unnamed", repo, tmp_path / "unnamed-home")
    stale = unnamed.json("checkpoint", "decision", "a late write", "--epoch", "0", expect=1)
    assert stale["error"]["code"] == "authoring.stale_epoch"
    target.passdown("attempt", "release", "r1")
    target.passdown("attempt", "archive", "r1", "--result", "archived")
    assert target.json("consume")["changed"] is True
    assert target.json("consume")["changed"] is False

    # -- the end: clean, and git shows only the user's work and the handoff's files ----------
    final = target.json("validate", ".")
    assert [f for f in final["findings"] if f["severity"] == "error"] == []
    status = subprocess.run(["git", "-C", repo, "status", "--porcelain", "--untracked-files=all"],
                            check=True, capture_output=True, text=True).stdout.splitlines()
    assert sorted(status) == sorted([
        " M ledger/parse.py", "?? notes.md",  # the user's work
        "?? ack.json", "?? continuation.packet.txt", "?? registry.yaml",
        "?? xbrief/continue.xbrief.json"])  # the handoff's files
    assert (repo / ".passdown" / "registry.yaml.lock").exists()  # the locks, where git never looks
    assert (repo / "xbrief" / ".passdown" / "continue.xbrief.json.lock").exists()
