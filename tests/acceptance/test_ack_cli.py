"""``passdown ack verify``: a fresh readback of packet, registry, checkpoint and a real git
checkout. Every expected value here is computed with git, blake3 and hand-written canonical
bytes, never with the code under test."""

import json
import os
import subprocess

import pytest
from blake3 import blake3
from click.testing import CliRunner

from passdown.cli import cli

GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.invalid", "GIT_CONFIG_NOSYSTEM": "1", "HOME": "/nonexistent"}


def git(repo, *args):
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, check=True,
                          env={**os.environ, **GIT_ENV}).stdout.decode().strip()


def b3(data: bytes) -> str:
    return "blake3:" + blake3(data).hexdigest()


PACKET_BODY = (
    "GOAL_ID: goal-a\n"
    "OUTCOME / ACCEPTANCE: the parser moved; tests pass\n"
    "AUTHORITY: edit src/ only\n"
    "POLICY: mode adaptive\n"
    "SOURCE: session sess-src, checkout of the repo, branch main\n"
    "WORKING_STATE: dirty: src/a.py, notes.txt\n"
    "PROGRESS: step 1 accepted\n"
    "DECISIONS: none\n"
    "LIVE_WORK: none\n"
    "NEXT_SAFE_ACTION: Run the tests and report.\n"
    "RESTART_ID: rst-1\n")
CHECKPOINT_TEXT = '{"x-passdown/checkpoint": {"written_at": "2026-10-14T08:59:00+02:00", "goal_id": "goal-a", "revision": 4},\n "plan": {"title": "t"}}\n'
CHECKPOINT_JCS = b'{"plan":{"title":"t"},"x-passdown/checkpoint":{"goal_id":"goal-a","revision":4,"written_at":"2026-10-14T08:59:00+02:00"}}'


@pytest.fixture
def handoff(tmp_path):
    repo = tmp_path / "repo"
    (repo / "src").mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    (repo / "src" / "a.py").write_text("a = 1\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    (repo / "src" / "a.py").write_text("a = 2\n")
    (repo / "notes.txt").write_text("notes\n")

    folder = tmp_path / "handoff"
    (folder / "xbrief").mkdir(parents=True)
    digest = b3(PACKET_BODY.encode())
    (folder / "continuation.packet.txt").write_text(PACKET_BODY + f"CHECKPOINT_DIGEST: {digest}\n")
    (folder / "xbrief" / "continue.xbrief.json").write_text(CHECKPOINT_TEXT)
    (folder / "registry.yaml").write_text(f"""\
passdown_version: "1.0"
kind: registry
revision: 3
policy:
  goal_id: goal-a
  checkpoint_path: xbrief/continue.xbrief.json
attempts:
  - restart_id: rst-1
    state: created
    checkpoint_digest: {digest}
    continue_checkpoint_digest: {b3(CHECKPOINT_JCS)}
    source_id: sess-src
    target_id: sess-tgt
    registered_at: "2026-10-14T09:00:00+02:00"
""")
    ack = {"passdown_version": "1.0", "kind": "ack", "status": "READY_READONLY", "goal_id": "goal-a",
           "restart_id": "rst-1", "source_id": "sess-src", "target_id": "sess-tgt", "checkpoint_digest": digest,
           "checkout": {"repository": git(repo, "rev-parse", "--show-toplevel"), "branch": "main",
                        "head": git(repo, "rev-parse", "HEAD")},
           "dirty_artifacts": [{"path": "src/a.py", "digest": b3(b"a = 2\n")},
                               {"path": "notes.txt", "digest": b3(b"notes\n")}],
           "first_safe_action": "Run the tests and report.", "read_at": "2026-10-14T09:02:00+02:00"}
    (folder / "ack.json").write_text(json.dumps(ack, indent=2))
    return folder, repo


def verify(folder, *extra, workspace=None, output="text"):
    args = ["ack", "verify", str(folder / "ack.json"), "--packet", str(folder / "continuation.packet.txt"),
            "--registry", str(folder / "registry.yaml"), "--format", output, *extra]
    if workspace is not None:
        args += ["--workspace", str(workspace)]
    return CliRunner().invoke(cli, args)


def codes_of(result):
    return json.loads(result.stdout)["codes"]


def test_a_matching_ack_is_accepted(handoff):
    folder, repo = handoff
    result = verify(folder, workspace=repo)
    assert (result.exit_code, result.stdout) == (0, f"{folder / 'ack.json'}: accepted\n")


def test_json_output_lists_outcome_codes_and_skipped(handoff):
    folder, repo = handoff
    data = json.loads(verify(folder, workspace=repo, output="json").stdout)
    assert (data["outcome"], data["codes"], data["skipped"], data["failures"]) == ("accepted", [], [], [])


def test_without_a_workspace_the_fingerprints_are_skipped_and_said_so(handoff):
    folder, _ = handoff
    result = verify(folder)
    assert result.exit_code == 0
    assert result.stdout.splitlines()[1:] == [
        "  note: checkout fingerprint not compared (no --workspace)",
        "  note: dirty-artifact fingerprint not compared (no --workspace)",
    ]


def test_a_moved_head_rejects_the_ack(handoff):
    folder, repo = handoff
    git(repo, "commit", "-q", "--allow-empty", "-m", "later")
    result = verify(folder, workspace=repo, output="json")
    assert (result.exit_code, codes_of(result)) == (1, ["ack.checkout_mismatch"])


def test_a_switched_branch_rejects_the_ack(handoff):
    folder, repo = handoff
    git(repo, "checkout", "-q", "-b", "other")
    assert codes_of(verify(folder, workspace=repo, output="json")) == ["ack.checkout_mismatch"]


@pytest.mark.parametrize("change", ["edit", "new", "clean"])
def test_changed_uncommitted_work_rejects_the_ack(handoff, change):
    folder, repo = handoff
    if change == "edit":
        (repo / "src" / "a.py").write_text("a = 3\n")
    elif change == "new":
        (repo / "src" / "b.py").write_text("b\n")
    else:
        (repo / "notes.txt").unlink()
    result = verify(folder, workspace=repo, output="json")
    assert (result.exit_code, codes_of(result)) == (1, ["ack.dirty_mismatch"])


def test_a_changed_checkpoint_rejects_the_ack(handoff):
    folder, repo = handoff
    path = folder / "xbrief" / "continue.xbrief.json"
    path.write_text(CHECKPOINT_TEXT.replace('"title": "t"', '"title": "t2"'))
    assert codes_of(verify(folder, workspace=repo, output="json")) == ["ack.checkpoint_changed"]


def test_a_reformatted_checkpoint_is_not_a_change(handoff):
    folder, repo = handoff
    path = folder / "xbrief" / "continue.xbrief.json"
    path.write_text(json.dumps(json.loads(CHECKPOINT_TEXT), indent=4, sort_keys=True))
    assert verify(folder, workspace=repo).exit_code == 0


def test_an_edited_packet_rejects_the_ack(handoff):
    folder, repo = handoff
    path = folder / "continuation.packet.txt"
    path.write_text(path.read_text().replace("step 1 accepted", "steps 1 and 2 accepted"))
    assert codes_of(verify(folder, workspace=repo, output="json")) == [
        "ack.digest_mismatch", "ack.packet_digest_mismatch", "ack.registry_digest_mismatch"]


def test_a_packet_saved_with_crlf_still_matches(handoff):
    folder, repo = handoff
    path = folder / "continuation.packet.txt"
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    assert verify(folder, workspace=repo).exit_code == 0


def test_an_ack_read_in_the_future_is_refused(handoff):
    folder, repo = handoff
    path = folder / "ack.json"
    path.write_text(path.read_text().replace("2026-10-14T09:02:00+02:00", "2999-01-01T00:00:00Z"))
    assert codes_of(verify(folder, workspace=repo, output="json")) == ["ack.read_in_future"]


def test_the_rejection_text_names_each_failure(handoff):
    folder, repo = handoff
    path = folder / "ack.json"
    path.write_text(path.read_text().replace('"goal_id": "goal-a"', '"goal_id": "goal-b"'))
    result = verify(folder, workspace=repo)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0] == f"{path}: rejected"
    assert lines[1] == ('  ack.goal_mismatch: ack.goal_id: the ACK names goal "goal-b", the packet '
                        'GOAL_ID is "goal-a"')


def test_a_registry_with_no_such_attempt_is_a_rejection_not_unusable(handoff):
    """The registry was read: it holds no attempt the ACK answers, which is a "no" (ACK-103,
    exit 1), as the ack gate answers the same readback; 2 is for input that cannot be read."""
    folder, repo = handoff
    registry = folder / "registry.yaml"
    registry.write_text(registry.read_text().replace("restart_id: rst-1", "restart_id: rst-9"))
    result = verify(folder, workspace=repo)
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        f"{folder / 'ack.json'}: rejected",
        '  ack.restart_mismatch: ack.restart_id: the registry holds no single attempt with '
        'restart id "rst-1"',
        "  note: no single attempt names the ACK's restart id: no checkpoint digest to compare"]
    data = verify(folder, workspace=repo, output="json")
    assert (data.exit_code, codes_of(data), json.loads(data.stdout)["skipped"]) == (
        1, ["ack.restart_mismatch"], ["checkpoint"])


def test_an_explicit_checkpoint_overrides_the_registry_policy(handoff, tmp_path):
    folder, repo = handoff
    other = tmp_path / "other.json"
    other.write_text('{"x-passdown/checkpoint": {"goal_id": "goal-a"}}')
    result = verify(folder, "--checkpoint", str(other), workspace=repo, output="json")
    assert codes_of(result) == ["ack.checkpoint_changed"]


def test_a_packet_projection_is_verified_as_its_text(handoff):
    folder, repo = handoff
    from passdown.formats import _packet  # the grammar's own renderer makes the projection

    text = (folder / "continuation.packet.txt").read_text()
    (folder / "continuation.packet.json").write_text(json.dumps(_packet.projection(_packet.parse(text))))
    result = CliRunner().invoke(cli, ["ack", "verify", str(folder / "ack.json"), "--packet",
                                      str(folder / "continuation.packet.json"), "--registry",
                                      str(folder / "registry.yaml"), "--workspace", str(repo)])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize(("breakage", "code"), [
    ("no_ack", "load.unreadable"), ("ack_not_json", "load.syntax"), ("ack_bom", "load.bom"),
    ("no_checkpoint", "load.unreadable"), ("not_a_repo", "git.not_a_repository"),
    ("ack_not_object", "ack.input_invalid"),
])
def test_unusable_input_exits_2_with_its_code(handoff, tmp_path, breakage, code):
    folder, repo = handoff
    workspace = repo
    if breakage == "no_ack":
        (folder / "ack.json").unlink()
    elif breakage == "ack_not_json":
        (folder / "ack.json").write_text("{")
    elif breakage == "ack_bom":
        (folder / "ack.json").write_bytes(b"\xef\xbb\xbf{}")
    elif breakage == "no_checkpoint":
        (folder / "xbrief" / "continue.xbrief.json").unlink()
    elif breakage == "not_a_repo":
        workspace = tmp_path
    elif breakage == "ack_not_object":
        (folder / "ack.json").write_text("[]")
    text = verify(folder, workspace=workspace)
    assert text.exit_code == 2
    assert f"passdown: {code}:" in text.stderr
    data = verify(folder, workspace=workspace, output="json")
    assert (data.exit_code, json.loads(data.stdout)["outcome"], codes_of(data)) == (2, "unusable", [code])


def test_a_long_list_of_new_dirty_paths_is_cut_in_text_and_whole_in_json(handoff):
    folder, repo = handoff
    names = [f"src/new{n}.py" for n in range(6)]
    for name in names:
        (repo / name).write_text("new\n")
    text = verify(folder, workspace=repo)
    assert text.exit_code == 1
    assert text.stdout.splitlines()[1] == (
        "  ack.dirty_mismatch: ack.dirty_artifacts: dirty now but not in the ACK: src/new0.py, "
        "src/new1.py, src/new2.py and 3 more")
    data = verify(folder, workspace=repo, output="json")
    [failure] = json.loads(data.stdout)["failures"]
    assert failure == {"code": "ack.dirty_mismatch", "field": "ack.dirty_artifacts",
                       "message": "dirty now but not in the ACK: src/new0.py, src/new1.py, "
                                  "src/new2.py and 3 more",
                       "values": names}


def test_quiet_prints_nothing_when_accepted_and_the_failures_only_when_rejected(handoff):
    folder, repo = handoff
    accepted = verify(folder, "-q")
    assert (accepted.exit_code, accepted.stdout) == (0, "")
    path = folder / "ack.json"
    path.write_text(path.read_text().replace('"goal_id": "goal-a"', '"goal_id": "goal-b"'))
    rejected = verify(folder, "-q")
    assert rejected.exit_code == 1
    assert rejected.stdout == (
        f"{path}: rejected\n"
        '  ack.goal_mismatch: ack.goal_id: the ACK names goal "goal-b", the packet GOAL_ID is '
        '"goal-a"\n'
        '  ack.goal_mismatch: ack.goal_id: the ACK names goal "goal-b", the registry '
        'policy.goal_id is "goal-a"\n'
        '  ack.goal_mismatch: ack.goal_id: the ACK names goal "goal-b", the checkpoint goal_id '
        'is "goal-a"\n')


def test_verbose_names_every_file_read_and_color_paints_the_verdict(handoff):
    folder, repo = handoff
    result = verify(folder, "-v", "--color", "always", workspace=repo)
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        f"read ACK: {folder / 'ack.json'}", f"read packet: {folder / 'continuation.packet.txt'}",
        f"read registry: {folder / 'registry.yaml'}",
        "read checkpoint: (the registry policy's checkpoint_path)", f"read workspace: {repo}",
        f"{folder / 'ack.json'}: \x1b[32maccepted\x1b[0m"]
    plain = verify(folder, "--color", "never", workspace=repo)
    assert plain.stdout == f"{folder / 'ack.json'}: accepted\n"
