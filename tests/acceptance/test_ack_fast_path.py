"""The fast path of ``passdown ack verify`` (``_fast_paths.ack_verify``: no click, one ``git status``)
prints exactly what the click command prints, with the same exit status: on every ACK
conformance case written as files, in text (plain, ``-q``, ``-v``) and JSON, on a real
checkout with dirty files, and on hostile inputs (no git on PATH, not a repository, a FIFO in
the tree, a symbolic link, an unreadable file, a branch named like a detached HEAD). It
answers ``None`` (leaving the whole work to click) for every option it does not read."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from git_support import git, new_checkout

from passdown import _entry, _fast_paths
from passdown.cli import cli

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "conformance" / "cases" / "ack"


def _click(args, capsys):
    try:
        status = cli.main(args=list(args), prog_name="passdown")
    except SystemExit as exit_:
        status = exit_.code
    captured = capsys.readouterr()
    return status or 0, captured.out, captured.err


def _fast(args, capsys):
    status = _fast_paths.ack_verify(list(args)[2:])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _main(args, capsys):
    try:
        status = _entry.main(list(args))
    except SystemExit as exit_:
        status = exit_.code
    captured = capsys.readouterr()
    return status or 0, captured.out, captured.err


def _write_case(folder: Path, case: dict) -> list[str]:
    """The case's inputs as the files a source reads; the arguments naming them."""
    given = case.get("input")
    if not isinstance(given, dict):  # the whole input is not an object, or not JSON at all
        given = {"ack": given}
    folder.mkdir(parents=True)
    (folder / "ack.json").write_bytes(case["input_text"].encode("utf-8", "surrogatepass")
                                      if "input_text" in case
                                      else json.dumps(given.get("ack")).encode())
    text = given.get("packet_text")
    packet = folder / "continuation.packet.txt"
    packet.write_bytes(text.encode("utf-8", "surrogatepass") if isinstance(text, str)
                       else json.dumps(text).encode())
    (folder / "registry.json").write_text(json.dumps(given.get("registry")), encoding="utf-8")
    args = ["ack", "verify", str(folder / "ack.json"), "--packet", str(packet),
            "--registry", str(folder / "registry.json")]
    if given.get("checkpoint") is not None:
        checkpoint = folder / "xbrief" / "continue.xbrief.json"
        checkpoint.parent.mkdir()
        checkpoint.write_text(json.dumps(given["checkpoint"]), encoding="utf-8")
        args += ["--checkpoint", str(checkpoint)]
    return args


@pytest.fixture(scope="module")
def case_args(tmp_path_factory) -> list[list[str]]:
    folder = tmp_path_factory.mktemp("ack-cases")
    written = []
    for cases_file in sorted(CASES.glob("*.json")):
        for number, case in enumerate(json.loads(cases_file.read_text("utf-8"))["cases"]):
            written.append(_write_case(folder / f"{cases_file.stem}-{number}", case))
    return written


def test_every_ack_case_prints_what_click_prints(case_args, capsys, monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    outcomes = set()
    for args in case_args:
        for extra in ([], ["-q"], ["-v"], ["--format", "json"], ["--format=json", "-q"]):
            expected = _click(args + extra, capsys)
            assert _fast(args + extra, capsys) == expected, args + extra
            outcomes.add(expected[0])
    assert len(case_args) >= 100 and outcomes == {0, 1, 2}


@pytest.fixture(scope="module")
def prepared(tmp_path_factory) -> Path:
    """A checkout with a handoff (init, packet render, attempt created), each step through the
    command; copied for each test."""
    repo = new_checkout(tmp_path_factory.mktemp("ack-handoff") / "repo",
                        {"README": "base\n", "src/kept.txt": "kept\n"})
    for args in (["init", "--goal-id", "goal-a", "--main-id", "sess-a", "--outcome", "done",
                  "--next", "step"],
                 ["packet", "render", "--source-id", "sess-a", "--restart-id", "r1"],
                 ["attempt", "created", "r1", "--target-id", "sess-b"]):
        done = subprocess.run([sys.executable, "-m", "passdown", *args], cwd=repo,
                              capture_output=True, timeout=60)
        assert done.returncode == 0, (args, done.stderr)
    return repo


@pytest.fixture
def handoff(prepared, tmp_path, monkeypatch, capsys):
    """The prepared handoff, with dirty files and the target's ACK, the current folder."""
    repo = tmp_path / "repo"
    shutil.copytree(prepared, repo, symlinks=True)
    monkeypatch.chdir(repo)
    (repo / "src" / "kept.txt").write_text("changed\n")
    for n in range(40):  # enough for the files the ACK lists to be hashed while git runs
        (repo / "src" / f"new{n}.txt").write_text(f"new {n}\n")
    assert _click(["ack", "write", "--target-id", "sess-b"], capsys)[0] == 0
    return repo


VERIFY = ["ack", "verify", "ack.json", "--workspace", "."]


def _same(args, capsys):
    expected = _click(args, capsys)
    assert _fast(args, capsys) == expected, args
    assert _main(args, capsys) == expected, args
    return expected


def test_a_real_checkout_is_accepted_then_rejected_alike(handoff, capsys):
    assert _same(VERIFY, capsys) == (0, "ack.json: accepted\n", "")
    assert _same(VERIFY + ["-v"], capsys)[0] == 0
    (handoff / "src" / "new3.txt").write_text("edited after the ACK\n")
    (handoff / "src" / "late.txt").write_text("new after the ACK\n")
    status, out, _ = _same(VERIFY, capsys)
    assert status == 1 and "ack.dirty_mismatch" in out
    assert "src/late.txt" in out and "src/new3.txt" in out
    status, out, _ = _same(VERIFY + ["--format", "json"], capsys)
    assert status == 1 and json.loads(out)["codes"] == ["ack.dirty_mismatch"]


def test_from_a_folder_below_the_handoff_is_the_same(handoff, capsys, monkeypatch):
    monkeypatch.chdir(handoff / "src")
    status, out, err = _same(["ack", "verify", "../ack.json", "--workspace", ".."], capsys)
    assert (status, out) == (0, "../ack.json: accepted\n")
    assert err == f"passdown: using the handoff folder {handoff}\n"


def test_no_git_on_path(handoff, capsys, monkeypatch):
    monkeypatch.setenv("PATH", str(handoff / "no-such-bin"))
    status, out, err = _same(VERIFY, capsys)
    assert (status, out) == (2, "") and "git.not_found" in err


def test_not_a_repository(handoff, capsys, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    status, _, err = _same(["ack", "verify", "ack.json", "--workspace", str(outside)], capsys)
    assert status == 2 and "git.not_a_repository" in err
    status, out, _ = _same(["ack", "verify", "ack.json", "--workspace", str(outside),
                            "--format", "json"], capsys)
    assert status == 2 and json.loads(out)["codes"] == ["git.not_a_repository"]


def test_a_fifo_in_the_tree(handoff, capsys):
    os.mkfifo(handoff / "src" / "new5.txt.pipe")  # git lists no FIFO: nothing changes
    assert _same(VERIFY, capsys) == (0, "ack.json: accepted\n", "")
    os.unlink(handoff / "src" / "kept.txt")
    os.mkfifo(handoff / "src" / "kept.txt")  # a tracked file the ACK lists, now a FIFO
    status, out, err = _same(VERIFY, capsys)
    assert (status, out) == (2, "") and "git.not_regular" in err and "src/kept.txt" in err


def test_a_symbolic_link_is_hashed_as_its_target_text(handoff, capsys):
    os.unlink(handoff / "src" / "new7.txt")
    os.symlink("/etc/passwd", handoff / "src" / "new7.txt")
    status, out, _ = _same(VERIFY, capsys)
    assert status == 1 and "changed since the ACK was read: src/new7.txt" in out
    (handoff / "linked").symlink_to(handoff / "src")
    status, _, _ = _same(["ack", "verify", "ack.json", "--workspace", "linked"], capsys)
    assert status == 1


def test_an_unreadable_file(handoff, capsys):
    target = handoff / "src" / "new8.txt"
    target.chmod(0)
    try:
        status, out, err = _same(VERIFY, capsys)
    finally:
        target.chmod(0o644)
    if os.geteuid() == 0:  # root reads it anyway: accepted, as the ACK read it
        assert (status, out) == (0, "ack.json: accepted\n")
    else:
        assert status == 2 and "git.failed" in err and "src/new8.txt" in err


def test_an_unreadable_ack_and_a_missing_packet(handoff, capsys):
    (handoff / "ack.json").chmod(0)
    try:
        expected = _same(VERIFY, capsys)
    finally:
        (handoff / "ack.json").chmod(0o644)
    assert expected[0] == (0 if os.geteuid() == 0 else 2)
    (handoff / "continuation.packet.txt").unlink()
    assert _same(VERIFY, capsys) == (2, "", "passdown: load.unreadable: continuation.packet.txt: "
                                             "cannot read the file: No such file or directory\n"
                                             "  hint: check that the path exists and is readable\n")


def test_a_branch_named_like_a_detached_head(handoff, capsys):
    git(handoff, "checkout", "-q", "-b", "(detached)")
    status, out, _ = _same(VERIFY, capsys)
    assert status == 1 and "ack.checkout_mismatch" in out and "(detached)" in out
    git(handoff, "checkout", "-q", "--detach")
    status, out, _ = _same(VERIFY + ["--format", "json"], capsys)
    assert status == 1 and "ack.checkout_mismatch" in json.loads(out)["codes"]


@pytest.mark.parametrize("extra", [
    ["--clock-skew", "5"], ["--color", "never"], ["-qv"], ["--"], ["--packet"],
    ["--format", "yaml"], ["--workspace", "README"], ["--packet", "src"], ["second.json"],
    ["--packet=continuation.packet.txt", "--packet=continuation.packet.txt"], ["--help"],
])
def test_what_the_fast_path_leaves_to_click(handoff, capsys, extra):
    args = VERIFY + extra
    assert _fast(args, capsys) == (None, "", "")
    assert _main(args, capsys) == _click(args, capsys)


def test_a_directory_as_the_ack_is_left_to_click(handoff, capsys):
    args = ["ack", "verify", "src"]
    assert _fast(args, capsys) == (None, "", "")
    status, _, err = _main(args, capsys)
    assert status == 2 and "is a directory" in err


def test_the_launcher_prints_what_click_prints(handoff):
    """Whole processes: ``bin/passdown`` against the click command in the same interpreter."""
    launcher = Path(sys.executable).with_name("passdown")
    if not launcher.is_file():
        pytest.fail(f"no passdown launcher beside {sys.executable}: install the package here")
    env = {**os.environ, "NO_COLOR": "1"}
    click_only = ("import sys; from passdown.cli import cli; "
                  "cli.main(args=sys.argv[1:], prog_name='passdown')")
    (handoff / "src" / "late.txt").write_text("late\n")
    for args in (VERIFY, VERIFY + ["--format", "json"]):
        fast = subprocess.run([str(launcher), *args], capture_output=True, env=env, timeout=60)
        slow = subprocess.run([sys.executable, "-c", click_only, *args], capture_output=True,
                              env=env, timeout=60)
        assert (fast.returncode, fast.stdout, fast.stderr) == (slow.returncode, slow.stdout,
                                                               slow.stderr)
        assert fast.returncode == 1
