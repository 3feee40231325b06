"""Checkout and dirty-artifact fingerprints read from real git repositories (baton.workspace._git)."""

import hashlib
import os
import subprocess

import pytest
from blake3 import blake3

from baton.workspace import _git
from baton.workspace._git import GitError


GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.invalid", "GIT_CONFIG_NOSYSTEM": "1", "HOME": "/nonexistent"}


def git(repo, *args):
    done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, check=True,
                          env={**os.environ, **GIT_ENV})
    return done.stdout.decode().strip()


def b3(data: bytes) -> str:
    return "blake3:" + blake3(data).hexdigest()


@pytest.fixture
def repo(tmp_path):
    path = tmp_path / "repo"
    path.mkdir()
    git(path, "init", "-q", "-b", "main")
    (path / "kept.txt").write_text("kept\n")
    (path / "edited.txt").write_text("before\n")
    (path / "gone.txt").write_text("gone\n")
    (path / "old-name.txt").write_text("moved\n")
    (path / ".gitignore").write_text("*.log\n")
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", "base")
    return path


def test_a_clean_checkout_has_its_fingerprint_and_no_dirty_paths(repo):
    head = git(repo, "rev-parse", "HEAD")
    assert _git.checkout_fingerprint(repo) == {"repository": os.path.realpath(repo), "branch": "main", "head": head}
    assert _git.dirty_fingerprint(repo) == []


def test_a_subfolder_reports_the_top_level_and_symlinked_paths_resolve(repo, tmp_path):
    (repo / "sub").mkdir()
    link = tmp_path / "link-to-repo"
    link.symlink_to(repo)
    assert _git.checkout_fingerprint(repo / "sub")["repository"] == os.path.realpath(repo)
    assert _git.checkout_fingerprint(link)["repository"] == os.path.realpath(repo)


def test_branch_names_keep_their_slashes_and_a_detached_head_is_head(repo):
    git(repo, "checkout", "-q", "-b", "feature/x")
    assert _git.checkout_fingerprint(repo)["branch"] == "feature/x"
    git(repo, "checkout", "-q", "--detach")
    assert _git.checkout_fingerprint(repo)["branch"] == "HEAD"


def test_every_kind_of_dirty_path_is_listed_with_the_digest_of_its_content(repo):
    (repo / "edited.txt").write_text("after\n")
    (repo / "gone.txt").unlink()
    git(repo, "mv", "old-name.txt", "new-name.txt")
    (repo / "staged.txt").write_text("staged\n")
    git(repo, "add", "staged.txt")
    (repo / "untracked dir").mkdir()
    (repo / "untracked dir" / "file with spaces.txt").write_bytes(b"\x00\xff raw")
    (repo / "debug.log").write_text("ignored\n")
    (repo / "line\nbreak.txt").write_text("odd name\n")
    os.symlink("kept.txt", repo / "alias")
    assert _git.dirty_fingerprint(repo) == [
        {"path": "alias", "digest": b3(b"kept.txt")},
        {"path": "edited.txt", "digest": b3(b"after\n")},
        {"path": "gone.txt", "digest": b3(b"")},
        {"path": "line\nbreak.txt", "digest": b3(b"odd name\n")},
        {"path": "new-name.txt", "digest": b3(b"moved\n")},
        {"path": "old-name.txt", "digest": b3(b"")},
        {"path": "staged.txt", "digest": b3(b"staged\n")},
        {"path": "untracked dir/file with spaces.txt", "digest": b3(b"\x00\xff raw")},
    ]


def test_a_path_can_be_hashed_with_the_algorithm_someone_else_used(repo):
    (repo / "edited.txt").write_text("after\n")
    (repo / "new.txt").write_text("new\n")
    rows = _git.dirty_fingerprint(repo, algorithms={"edited.txt": "sha256"})
    assert rows == [{"path": "edited.txt", "digest": "sha256:" + hashlib.sha256(b"after\n").hexdigest()},
                    {"path": "new.txt", "digest": b3(b"new\n")}]


def test_reading_never_writes_to_the_checkout(repo):
    (repo / "edited.txt").write_text("after\n")
    os.utime(repo / "kept.txt", (1, 1))  # stale stat data: a plain `git status` would refresh the index
    index = repo / ".git" / "index"
    before = (index.read_bytes(), index.stat().st_mtime_ns)
    _git.dirty_fingerprint(repo)
    _git.checkout_fingerprint(repo)
    assert (index.read_bytes(), index.stat().st_mtime_ns) == before
    assert not (repo / ".git" / "index.lock").exists()


def test_inherited_git_variables_cannot_point_the_reader_elsewhere(repo, tmp_path, monkeypatch):
    other = tmp_path / "other"
    other.mkdir()
    git(other, "init", "-q", "-b", "elsewhere")
    monkeypatch.setenv("GIT_DIR", str(other / ".git"))
    monkeypatch.setenv("GIT_WORK_TREE", str(other))
    assert _git.checkout_fingerprint(repo)["branch"] == "main"


def test_a_repository_fsmonitor_hook_is_never_run(repo, tmp_path):
    marker = tmp_path / "hook-ran"
    hook = tmp_path / "hook.sh"
    hook.write_text(f"#!/bin/sh\ntouch {marker}\n")
    hook.chmod(0o755)
    git(repo, "config", "core.fsmonitor", str(hook))
    (repo / "edited.txt").write_text("after\n")
    _git.dirty_fingerprint(repo)
    assert not marker.exists()


@pytest.mark.parametrize(("setup", "code"), [("plain", "git.not_a_repository"), ("missing", "git.not_a_repository"),
                                             ("unborn", "git.no_commit")])
def test_unreadable_checkouts_are_errors_with_codes(tmp_path, setup, code):
    folder = tmp_path / "folder"
    if setup != "missing":
        folder.mkdir()
    if setup == "unborn":
        git(folder, "init", "-q")
    with pytest.raises(GitError) as raised:
        _git.checkout_fingerprint(folder)
    assert raised.value.code == code
    assert raised.value.exit_code == 2


def test_a_git_command_that_overruns_its_bound_is_a_timeout(repo, monkeypatch):
    def too_slow(*args, **kwargs):
        raise subprocess.TimeoutExpired(args[0], kwargs.get("timeout"))

    monkeypatch.setattr(_git.subprocess, "run", too_slow)
    with pytest.raises(GitError) as raised:
        _git.checkout_fingerprint(repo)
    assert raised.value.code == "git.timeout"


def test_a_missing_git_program_is_reported(repo, monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(GitError) as raised:
        _git.checkout_fingerprint(repo)
    assert raised.value.code == "git.not_found"
