"""Checkout and dirty-artifact fingerprints read from real git repositories (passdown.workspace._git)."""

import hashlib
import os
import socket
import subprocess

import pytest
from blake3 import blake3
from git_support import new_checkout

from passdown.workspace import _git
from passdown.workspace._git import GitError


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


def fake_git(tmp_path, monkeypatch, script):
    """Put a ``git`` that runs ``script`` (sh) first on PATH."""
    folder = tmp_path / "fake-bin"
    folder.mkdir()
    program = folder / "git"
    program.write_text(f"#!/bin/sh\n{script}\n")
    program.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")


def test_a_git_command_that_overruns_its_bound_is_a_timeout(repo, tmp_path, monkeypatch):
    fake_git(tmp_path, monkeypatch, "sleep 30")
    monkeypatch.setattr(_git, "TIMEOUT", 0.5)
    with pytest.raises(GitError) as raised:
        _git.checkout_fingerprint(repo)
    assert raised.value.code == "git.timeout"


def test_git_output_beyond_its_bound_is_refused(repo, tmp_path, monkeypatch):
    fake_git(tmp_path, monkeypatch, "head -c 5000000 /dev/zero")
    monkeypatch.setattr(_git, "MAX_OUTPUT_BYTES", 1 << 20)
    with pytest.raises(GitError) as raised:
        _git.toplevel(repo)
    assert raised.value.code == "git.too_large"


def test_a_missing_git_program_is_reported(repo, monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(GitError) as raised:
        _git.checkout_fingerprint(repo)
    assert raised.value.code == "git.not_found"


# -- reading executes nothing from the checkout (ACK-127) ------------------------------------


def marker_program(tmp_path, name):
    """A program that leaves ``<name>.ran`` when it runs and behaves like ``cat``."""
    marker = tmp_path / f"{name}.ran"
    program = tmp_path / f"{name}.sh"
    program.write_text(f"#!/bin/sh\ntouch {marker}\ncat\n")
    program.chmod(0o755)
    return program, marker


def test_no_configured_command_runs_and_the_fingerprints_stay_right(repo, tmp_path, monkeypatch):
    markers = {}

    def program(name):
        path, markers[name] = marker_program(tmp_path, name)
        return str(path)

    # every kind of command a repository's configuration can name, through its own config
    # and through a file it includes
    included = tmp_path / "included.gitconfig"
    included.write_text(f"[filter \"inc\"]\n\tclean = {program('included-clean')}\n"
                        f"\tsmudge = {program('included-smudge')}\n")
    hooks = repo / ".git" / "custom-hooks"
    hooks.mkdir()
    for hook in ("post-index-change", "pre-commit", "post-checkout", "reference-transaction"):
        (hooks / hook).write_text(f"#!/bin/sh\ntouch {tmp_path / (hook + '.ran')}\n")
        (hooks / hook).chmod(0o755)
        markers[hook] = tmp_path / f"{hook}.ran"
    for key, value in (("filter.liar.clean", program("clean")),
                       ("filter.liar.smudge", program("smudge")),
                       ("filter.proc.process", program("process")),
                       ("filter.proc.required", "true"),
                       ("diff.text.textconv", program("textconv")),
                       ("diff.text.command", program("diff-command")),
                       ("diff.external", program("external-diff")),
                       ("core.pager", program("pager")),
                       ("pager.status", program("status-pager")),
                       ("core.fsmonitor", program("fsmonitor")),
                       ("core.hooksPath", str(hooks)),
                       ("core.editor", program("editor")),
                       ("core.askPass", program("askpass")),
                       ("credential.helper", "!" + program("credential")),
                       ("core.sshCommand", program("ssh")),
                       ("include.path", str(included))):
        git(repo, "config", key, value)
    (repo / ".git" / "info" / "attributes").write_text(
        "edited.txt filter=liar diff=text\nkept.txt filter=proc\ngone.txt filter=inc\n")
    monkeypatch.setenv("GIT_EXTERNAL_DIFF", program("env-external-diff"))
    monkeypatch.setenv("GIT_PAGER", program("env-pager"))
    monkeypatch.setenv("PAGER", program("env-plain-pager"))
    monkeypatch.setenv("GIT_ASKPASS", program("env-askpass"))
    monkeypatch.setenv("GIT_CONFIG_PARAMETERS", f"'core.fsmonitor={program('env-fsmonitor')}'")
    (repo / "edited.txt").write_text("after\n")
    (repo / "gone.txt").write_text("gone, changed\n")
    before = {name: path.exists() for name, path in markers.items()}
    assert not any(before.values())
    rows = _git.dirty_fingerprint(repo)
    _git.checkout_fingerprint(repo)
    ran = sorted(name for name, path in markers.items() if path.exists())
    assert ran == []
    assert rows == [{"path": "edited.txt", "digest": b3(b"after\n")},
                    {"path": "gone.txt", "digest": b3(b"gone, changed\n")}]


def test_a_lying_clean_filter_cannot_hide_a_changed_file(repo, tmp_path):
    # the filter answers the committed bytes whatever the file holds; a plain `git status`
    # (run here, as a user would) trusts it and stores the file's new stat data as clean
    liar = tmp_path / "liar.sh"
    liar.write_text("#!/bin/sh\ncat >/dev/null\nprintf 'before\\n'\n")
    liar.chmod(0o755)
    git(repo, "config", "filter.liar.clean", str(liar))
    (repo / ".git" / "info" / "attributes").write_text("edited.txt filter=liar\n")
    (repo / "edited.txt").write_text("BEFORE\n")  # as long as the committed bytes
    assert git(repo, "status", "--porcelain") == ""  # the lie works on git itself
    assert _git.dirty_fingerprint(repo) == [{"path": "edited.txt", "digest": b3(b"BEFORE\n")}]


def test_a_submodule_is_compared_by_its_commit_and_no_git_runs_inside_it(repo, tmp_path):
    inner = new_checkout(tmp_path / "inner", {"f.txt": "a\n"})
    git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(inner), "sub")
    git(repo, "commit", "-q", "-m", "sub")
    program, marker = marker_program(tmp_path, "submodule-clean")
    git(repo / "sub", "config", "filter.s.clean", str(program))
    (repo / ".git" / "modules" / "sub" / "info").mkdir(exist_ok=True)
    (repo / ".git" / "modules" / "sub" / "info" / "attributes").write_text("f.txt filter=s\n")
    (repo / "sub" / "f.txt").write_text("b\n")
    os.utime(repo / "sub" / "f.txt", (1, 1))
    assert _git.dirty_fingerprint(repo) == []
    assert not marker.exists()
    git(repo / "sub", "-c", "filter.s.clean=cat", "commit", "-q", "-am", "moved")
    head = git(repo / "sub", "rev-parse", "HEAD")
    assert _git.dirty_fingerprint(repo) == [{"path": "sub", "digest": b3(head.encode())}]
    assert not marker.exists()


# -- dirty paths are read within bounds, never through a FIFO, device or link (ACK-130) ----


def test_a_dirty_fifo_or_socket_is_reported_never_opened(repo, tmp_path):
    # git lists no untracked FIFO, but one that replaced a tracked file is a modified path
    (repo / "edited.txt").unlink()
    os.mkfifo(repo / "edited.txt")  # opened, it would block until a writer came
    with pytest.raises(GitError) as raised:
        _git.dirty_fingerprint(repo)
    assert raised.value.code == "git.not_regular" and "edited.txt" in raised.value.message
    assert raised.value.exit_code == 2
    os.unlink(repo / "edited.txt")
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(repo / "edited.txt"))
        with pytest.raises(GitError) as raised:
            _git.dirty_fingerprint(repo)
    assert raised.value.code == "git.not_regular"


def test_a_link_to_a_device_is_hashed_as_its_target_text(repo):
    os.symlink("/dev/zero", repo / "zero")
    assert _git.dirty_fingerprint(repo) == [{"path": "zero", "digest": b3(b"/dev/zero")}]


def test_a_path_through_a_symbolic_link_is_never_followed(repo, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("outside\n")
    os.symlink(outside, repo / "linked")
    with pytest.raises(GitError) as raised, _git._Tree(str(repo)) as tree:
        _git._path_digest(tree, b"linked/secret.txt", "blake3", _git._Budget())
    assert raised.value.code == "git.not_regular"


def test_dirty_files_are_hashed_within_the_size_and_time_bounds(repo, monkeypatch):
    (repo / "big.bin").write_bytes(b"x" * 4096)
    monkeypatch.setattr(_git, "MAX_FILE_BYTES", 1024)
    with pytest.raises(GitError) as raised:
        _git.dirty_fingerprint(repo)
    assert raised.value.code == "git.too_large" and "big.bin" in raised.value.message
    monkeypatch.setattr(_git, "MAX_FILE_BYTES", 1 << 30)
    with pytest.raises(GitError) as raised, _git._Tree(str(repo)) as tree:
        _git._path_digest(tree, b"big.bin", "blake3", _git._Budget(seconds=0))
    assert raised.value.code == "git.timeout"


def test_a_filter_driver_whose_name_cannot_be_switched_off_is_refused(repo, tmp_path):
    program, marker = marker_program(tmp_path, "odd-clean")
    git(repo, "config", "filter.a=b.clean", str(program))
    (repo / ".git" / "info" / "attributes").write_text("edited.txt filter=a=b\n")
    (repo / "edited.txt").write_text("after\n")
    with pytest.raises(GitError) as raised:
        _git.dirty_fingerprint(repo)
    assert raised.value.code == "git.failed" and "a=b" in raised.value.message
    assert not marker.exists()


def test_one_readback_runs_git_three_times_and_status_once(repo, monkeypatch):
    """The configuration's drivers, the top level, then one ``git status`` giving the branch,
    HEAD and every dirty path."""
    (repo / "edited.txt").write_text("after\n")
    (repo / "new.txt").write_text("new\n")
    run = _git._run_bounded
    commands = []
    monkeypatch.setattr(_git, "_run_bounded", lambda command, name, *rest: (
        commands.append(name), run(command, name, *rest))[1])
    checkout, rows = _git.readback(repo)
    assert commands == ["config", "rev-parse", "status"]
    assert checkout == {"repository": os.path.realpath(repo), "branch": "main",
                        "head": git(repo, "rev-parse", "HEAD")}
    assert rows == [{"path": "edited.txt", "digest": b3(b"after\n")},
                    {"path": "new.txt", "digest": b3(b"new\n")}]


def test_a_branch_named_like_a_detached_head_is_read_as_a_branch(repo):
    git(repo, "checkout", "-q", "-b", "(detached)")
    assert _git.readback(repo)[0]["branch"] == _git.checkout_fingerprint(repo)["branch"] == "(detached)"
    git(repo, "checkout", "-q", "--detach")
    assert _git.readback(repo)[0]["branch"] == _git.checkout_fingerprint(repo)["branch"] == "HEAD"


def test_a_repository_without_a_commit_has_no_readback(tmp_path):
    git(tmp_path, "init", "-q", "-b", "main")
    (tmp_path / "a.txt").write_text("a\n")
    with pytest.raises(GitError) as raised:
        _git.readback(tmp_path)
    assert raised.value.code == "git.no_commit"


def test_files_an_ack_lists_are_hashed_while_git_runs_with_the_same_digests(repo):
    """With many expected paths, those files are hashed on a thread while ``git status`` runs:
    the rows are those of a readback that expects nothing, whatever the list names (a file
    no longer dirty, a folder, a FIFO, a missing file, a name that is not UTF-8, sha256)."""
    (repo / "many").mkdir()
    for n in range(60):
        (repo / "many" / f"f{n}.txt").write_text(f"{n}\n")
    (repo / "edited.txt").write_text("after\n")
    os.symlink("kept.txt", repo / "link")
    (repo / "folder").mkdir()
    (repo / "folder" / "inside.txt").write_text("in\n")
    (repo / b"caf\xe9.txt".decode("utf-8", "surrogateescape")).write_bytes(b"latin-1 name\n")
    expected = {f"many/f{n}.txt": "blake3" for n in range(60)}
    expected.update({"kept.txt": "blake3", "folder": "blake3", "nowhere.txt": "blake3",
                     "edited.txt": "sha256", "link": "blake3", "caf\\xe9.txt": "blake3"})
    plain = _git.readback(repo, algorithms={"edited.txt": "sha256"})
    assert _git.readback(repo, algorithms=expected) == plain
    assert {"path": "edited.txt", "digest": "sha256:" + hashlib.sha256(b"after\n").hexdigest()} in plain[1]
    assert {"path": "link", "digest": b3(b"kept.txt")} in plain[1]
    os.unlink(repo / "kept.txt")
    os.mkfifo(repo / "kept.txt")  # tracked, listed, and now a FIFO: refused as without the list
    for algorithms in (expected, {}):
        with pytest.raises(GitError) as raised:
            _git.readback(repo, algorithms=algorithms)
        assert raised.value.code == "git.not_regular" and "kept.txt" in raised.value.message
