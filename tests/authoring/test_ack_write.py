"""``passdown ack write``: the target's ACK from a fresh readback, verified by the same readback
``passdown ack verify`` makes (spec/ack.md, "Writing an ACK"). Expected fingerprints are
computed here with git and blake3, never with the code under test."""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

import pytest
from authoring_support import registry_of, run, run_json
from blake3 import blake3
from git_support import git, new_checkout
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from passdown.authoring import Identity, Policy, init, write_ack
from passdown.errors import PassdownError
from passdown.workspace._readback import read_and_verify

def b3(data: bytes) -> str:
    return "blake3:" + blake3(data).hexdigest()


def passdown(folder, *args):
    with contextlib.chdir(folder):
        return run_json(*args)


@pytest.fixture
def handoff(tmp_path):
    """A git checkout with ``passdown init`` at its root, real uncommitted work, the attempt
    ``r1`` rendered and its successor ``sess-b`` created."""
    repo = new_checkout(tmp_path / "repo", {"app.py": "print(1)\n", "lib.py": "x = 1\n"})
    init(repo, Identity(goal_id="goal-ack", main_id="sess-a", outcome="the parser works",
                        first_step="Write the parser in app.py"),
         Policy(mode="adaptive", authorization_scope="restarts of MAIN", archive_consent=True))
    (repo / "app.py").write_text("print(2)\n")
    (repo / "notes.txt").write_text("wip\n")
    assert passdown(repo, "packet", "render", "--source-id", "sess-a", "--restart-id", "r1")[0] == 0
    assert passdown(repo, "attempt", "created", "r1", "--target-id", "sess-b")[0] == 0
    return repo


def verify(repo, ack="ack.json", **options):
    return read_and_verify(str(repo / ack), str(repo / "continuation.packet.txt"),
                           str(repo / "registry.yaml"), workspace=str(repo), **options)


def packet_field(repo, key):
    lines = (repo / "continuation.packet.txt").read_text().split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith(key + ": "))
    value = [lines[start][len(key) + 2:]]
    for line in lines[start + 1:]:
        if not line.startswith("  "):
            break
        value.append(line[2:])
    return "\n".join(value)


def test_the_ack_holds_what_the_target_read_and_verifies_at_once(handoff):
    code, out = passdown(handoff, "ack", "write", "--target-id", "sess-b")
    assert code == 0 and out["path"] == "ack.json"
    ack = json.loads((handoff / "ack.json").read_text())
    assert ack == out["result"]["ack"]
    assert ack["status"] == "READY_READONLY" and ack["target_id"] == "sess-b"
    assert (ack["goal_id"], ack["restart_id"], ack["source_id"]) == ("goal-ack", "r1", "sess-a")
    assert ack["checkpoint_digest"] == packet_field(handoff, "CHECKPOINT_DIGEST")
    assert ack["first_safe_action"] == packet_field(handoff, "NEXT_SAFE_ACTION")  # exactly
    assert ack["checkout"] == {"repository": str(handoff.resolve()), "branch": "main",
                               "head": git(handoff, "rev-parse", "HEAD")}
    # the user's work only: none of the handoff's own files, nor Passdown's locks
    assert ack["dirty_artifacts"] == [{"path": "app.py", "digest": b3(b"print(2)\n")},
                                      {"path": "notes.txt", "digest": b3(b"wip\n")}]
    assert len(ack["read_at"].split(".")[1]) == 7  # microseconds and Z: full precision
    assert verify(handoff).to_dict() == {"outcome": "accepted", "codes": [], "skipped": []}


def test_the_cli_write_then_verify_is_accepted_and_a_changed_dirty_file_rejected(handoff):
    assert passdown(handoff, "ack", "write", "--target-id", "sess-b")[0] == 0
    args = ("ack", "verify", "ack.json", "--packet", "continuation.packet.txt", "--registry",
            "registry.yaml", "--workspace", ".", "--format", "json")
    with contextlib.chdir(handoff):
        result = run(*args)
    assert (result.exit_code, json.loads(result.stdout)["outcome"]) == (0, "accepted")
    (handoff / "notes.txt").write_text("changed after the ACK\n")
    with contextlib.chdir(handoff):
        result = run(*args)
    assert result.exit_code == 1
    assert json.loads(result.stdout)["codes"] == ["ack.dirty_mismatch"]


def test_a_takeover_report_reads_back_the_committed_ownership(handoff):
    assert passdown(handoff, "ack", "write", "--target-id", "sess-b")[0] == 0
    assert passdown(handoff, "attempt", "ack", "r1", "ack.json")[0] == 0
    assert passdown(handoff, "attempt", "commit", "r1")[0] == 0
    code, out = passdown(handoff, "ack", "write", "--target-id", "sess-b", "--status", "TAKEOVER",
                      "--output", "takeover.json")
    assert code == 0
    takeover = out["result"]["ack"]["takeover"]
    assert (takeover["owner_id"], takeover["fencing_epoch"]) == ("sess-b", 1)
    assert takeover["checkpoint_revision"] == json.loads(
        (handoff / "xbrief" / "continue.xbrief.json").read_text())["x-passdown/checkpoint"]["revision"]
    assert verify(handoff, "takeover.json").outcome == "accepted"


def edit_packet(repo):
    path = repo / "continuation.packet.txt"
    path.write_text(path.read_text().replace("GOAL_ID: goal-ack", "GOAL_ID: goal-other"))


def registered_digest(repo, digest):
    path = registry_of(repo)
    text = path.read_text()
    old = next(line for line in text.splitlines() if line.strip().startswith("checkpoint_digest:"))
    path.write_text(text.replace(old, old.split(":")[0] + ": " + digest))


@pytest.mark.parametrize("breaking, arguments, status, code", [
    (lambda repo: (repo / "continuation.packet.txt").unlink(), (), 2, "load.unreadable"),
    (lambda repo: (repo / "continuation.packet.txt").write_bytes(b"\xef\xbb\xbfGOAL_ID: x\n"), (),
     2, "load.bom"),
    (edit_packet, (), 1, "authoring.packet_unverified"),
    (lambda repo: registered_digest(repo, b3(b"another packet")), (), 1,
     "authoring.packet_unverified"),
    (lambda repo: None, ("--status", "TAKEOVER"), 1, "attempt.state"),
    (lambda repo: passdown(repo, "attempt", "abandon", "r1", "--note", "stop"), (), 1, "attempt.state"),
    (lambda repo: None, ("--target-id", " "), 2, "authoring.bad_value"),
    (lambda repo: None, ("--workspace", "/"), 2, "git.not_a_repository"),
], ids=["packet missing", "packet with a BOM", "packet edited", "registered digest differs",
        "takeover before commit", "attempt abandoned", "blank target", "no checkout"])
def test_a_refused_write_writes_nothing(handoff, breaking, arguments, status, code):
    breaking(handoff)
    code_, out = passdown(handoff, "ack", "write", "--target-id", "sess-b", *arguments)
    assert (code_, out["error"]["code"]) == (status, code), out
    assert not (handoff / "ack.json").exists()


def test_a_registered_attempt_not_yet_created_takes_no_ack(handoff):
    assert passdown(handoff, "attempt", "abandon", "r1", "--note", "again")[0] == 0
    assert passdown(handoff, "packet", "render", "--source-id", "sess-a", "--restart-id", "r2")[0] == 0
    code, out = passdown(handoff, "ack", "write", "--target-id", "sess-b")
    assert (code, out["error"]["code"]) == (1, "attempt.state")
    assert out["error"]["message"] == ('attempt "r2" is "registered"; a READY_READONLY ACK needs '
                                    '"created" or "acknowledged"')


NAMES = st.sampled_from(["a.txt", "src/b.py", "deep/er/c.bin", "with space.md", "ünï.txt",
                         "lib.py", "app.py"])


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(files=st.dictionaries(NAMES, st.binary(max_size=64), min_size=1, max_size=5),
       deleted=st.booleans(), data=st.data())
def test_write_then_verify_is_accepted_until_a_dirty_file_changes(handoff, files, deleted, data):
    for name, content in files.items():
        (handoff / name).parent.mkdir(parents=True, exist_ok=True)
        (handoff / name).write_bytes(content)
    if deleted and (handoff / "lib.py").exists():
        (handoff / "lib.py").unlink()
    try:
        write_ack(handoff / "continuation.packet.txt", target_id="sess-b")
        assert verify(handoff).accepted
        dirty = [row["path"] for row in json.loads((handoff / "ack.json").read_text())["dirty_artifacts"]]
        changed = data.draw(st.sampled_from(dirty), label="changed")
        path = handoff / changed
        path.write_bytes((path.read_bytes() if path.exists() else b"") + b"!")
        verdict = verify(handoff)
        assert verdict.outcome == "rejected" and verdict.codes == ["ack.dirty_mismatch"]
    finally:
        git(handoff, "checkout", "-q", "--", "app.py", "lib.py")
        (handoff / "app.py").write_text("print(2)\n")
        for name in files:
            if name not in ("app.py", "lib.py"):
                with contextlib.suppress(FileNotFoundError):
                    (handoff / name).unlink()


def test_the_library_call_returns_data_and_raises_passdown_errors(handoff):
    outcome = write_ack(handoff / "continuation.packet.txt", target_id="sess-b",
                        output_path=str(handoff / "ack.json"))
    assert outcome.to_dict()["result"]["ack"]["restart_id"] == "r1"
    edit_packet(handoff)
    with pytest.raises(PassdownError) as raised:
        write_ack(handoff / "continuation.packet.txt", target_id="sess-b")
    assert raised.value.code == "authoring.packet_unverified"
    assert Path(outcome.path).exists()


def test_ack_write_finds_the_handoff_folder_upward_and_says_which(handoff):
    (handoff / "src").mkdir()
    with contextlib.chdir(handoff / "src"):
        result = run("ack", "write", "--target-id", "sess-b")
        assert result.exit_code == 0, result.output
        assert result.stderr == f"passdown: using the handoff folder {handoff}\n"
        assert json.loads((handoff / "ack.json").read_text())["target_id"] == "sess-b"
        assert not (handoff / "src" / "ack.json").exists()
        code, out = run_json("ack", "write", "--target-id", "sess-b")
    assert (code, out["folder"], out["path"]) == (0, str(handoff), "../ack.json")


def test_ack_write_quiet_prints_nothing_and_verbose_names_folder_and_file(handoff):
    with contextlib.chdir(handoff):
        quiet = run("ack", "write", "--target-id", "sess-b", "-q")
        assert (quiet.exit_code, quiet.stdout) == (0, "")
        verbose = run("ack", "write", "--target-id", "sess-b", "-v")
    assert verbose.exit_code == 0
    assert verbose.stdout.splitlines()[-2:] == [f"  folder: {handoff}", "  file: ack.json"]


# -- the output file: only an untracked ACK of the same handoff is replaced (ACK-135) --------

def _other_ack(repo):
    """An ACK of another handoff (another goal) at other.json."""
    ack = json.loads((repo / "ack.json").read_text())
    (repo / "other.json").write_text(json.dumps({**ack, "goal_id": "goal-other"}))


@pytest.mark.parametrize("output, prepare, what", [
    ("app.py", lambda repo: None, "is not an ACK"),
    (".git/config", lambda repo: None, "is not an ACK"),
    ("xbrief/continue.xbrief.json", lambda repo: None, "is the handoff's packet"),
    ("registry.yaml", lambda repo: None, "is the handoff's packet"),
    ("continuation.packet.txt", lambda repo: None, "is the handoff's packet"),
    ("notes.txt", lambda repo: None, "is not an ACK"),
    ("other.json", _other_ack, "is the ACK of another handoff"),
    ("tracked.json", lambda repo: (git(repo, "add", "tracked.json"),
                                   git(repo, "commit", "-q", "-m", "ack")), "is tracked by git"),
    ("link.json", lambda repo: (repo / "link.json").symlink_to(repo / "ack.json"),
     "is a symbolic link"),
    ("fifo.json", lambda repo: os.mkfifo(repo / "fifo.json"), "is not a regular file"),
], ids=["a source file", "the repository's config", "the checkpoint", "the registry",
        "the packet", "an untracked file", "another handoff's ACK", "a tracked ACK",
        "a symbolic link", "a FIFO"])
def test_ack_write_never_replaces_another_file(handoff, output, prepare, what):
    assert passdown(handoff, "ack", "write", "--target-id", "sess-b")[0] == 0
    (handoff / "tracked.json").write_bytes((handoff / "ack.json").read_bytes())
    prepare(handoff)
    target = handoff / output
    before = target.read_bytes() if target.is_file() and not target.is_symlink() else None
    code, out = passdown(handoff, "ack", "write", "--target-id", "sess-b", "--output", output)
    assert (code, out["error"]["code"]) == (1, "authoring.output_taken"), out
    assert what in out["error"]["message"] and "wrote nothing" in out["error"]["message"]
    if before is not None:
        assert target.read_bytes() == before
    assert git(handoff, "status", "--porcelain", "--", ".git") == ""


def test_ack_write_replaces_its_own_ack_and_writes_a_new_file(handoff):
    assert passdown(handoff, "ack", "write", "--target-id", "sess-b")[0] == 0
    first = (handoff / "ack.json").read_text()
    assert passdown(handoff, "ack", "write", "--target-id", "sess-b")[0] == 0
    assert json.loads((handoff / "ack.json").read_text())["read_at"] != json.loads(first)["read_at"]
    assert passdown(handoff, "ack", "write", "--target-id", "sess-b", "--output",
                    "new/place.json")[0] == 2  # no such folder: an I/O error, nothing made
    assert passdown(handoff, "ack", "write", "--target-id", "sess-b", "--output",
                    "second.json")[0] == 0


def test_the_mcp_tool_refuses_as_the_command_does(handoff):
    from passdown.mcp import _tools
    from passdown.mcp._folder import Folder

    table = {tool.name: tool for tool in _tools.tools()}
    before = (handoff / "app.py").read_bytes()
    reply = _tools.call(table["ack_write"], Folder(str(handoff)),
                        {"target_id": "sess-b", "output": "app.py"})
    assert reply.is_error and reply.structured["error"]["code"] == "authoring.output_taken", reply
    assert (handoff / "app.py").read_bytes() == before
