"""The ``passdown-validate`` pre-commit hook: its file pattern agrees with the names the
validator recognises, and pre-commit installs it from this checkout and runs it (a good
checkpoint passes, a bad one fails)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys

import pytest
from authoring_support import REPO, make_project, subprocess_passdown
from ruamel.yaml import YAML

from passdown.formats import _detect


def hook():
    hooks = YAML(typ="safe").load((REPO / ".pre-commit-hooks.yaml").read_text())
    assert [h["id"] for h in hooks] == ["passdown-validate"]
    return hooks[0]


def example_name(pattern: str) -> str:
    return pattern.replace("*", "20261014")


def test_the_pattern_covers_every_artifact_name_and_nothing_else():
    files = re.compile(hook()["files"])
    names = [example_name(p) for kind in _detect.KINDS for p in (*kind.names, *kind.legacy_names)]
    assert names, "the kind table lists file names"
    for name in names:
        assert files.search(name), name
        assert files.search(f"deep/folder/{name}"), name
    for other in ("README.md", "xbrief/active/scope.xbrief.json", "my-registry.json",
                  "ack.json.bak", "continuation.packet.md", "src/handoff.py"):
        assert not files.search(other), other


def test_the_hook_runs_passdown_validate_in_its_own_python_env():
    entry = hook()
    assert entry["entry"] == "passdown validate --"
    assert entry["language"] == "python"


def test_a_file_name_that_looks_like_an_option_is_a_file_name(tmp_path):
    """pre-commit appends the staged file names to the entry: a folder named ``--kind=ack``
    must be read as a path, never as an option."""
    make_project(tmp_path / "--kind=ack")
    names = ["--kind=ack/registry.yaml", "--kind=ack/xbrief/continue.xbrief.json"]
    words = hook()["entry"].split()[1:]
    done = subprocess_passdown(*words, *names, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 files checked" in done.stdout


@pytest.fixture(scope="module")
def pre_commit_home(tmp_path_factory):
    """One pre-commit cache for the module: the hook's environment is built once per revision."""
    return tmp_path_factory.mktemp("pre-commit-home")


def pre_commit_env(home):
    return {**os.environ, "PRE_COMMIT_HOME": str(home),
            "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
            "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid"}


@pytest.mark.slow
def test_pre_commit_fails_a_checkpoint_that_disagrees_with_its_registry(tmp_path, pre_commit_home):
    """The hook names only the checkpoint the commit touches; the folder's cross-file rules
    still run (DIG-058), so the goal that disagrees with the registry fails the commit."""
    git = shutil.which("git")
    assert git, "git is needed to run pre-commit"
    work = tmp_path / "work"
    make_project(work)
    env = pre_commit_env(pre_commit_home)
    subprocess.run([git, "init", "-q", str(work)], check=True, env=env)
    subprocess.run([git, "-C", str(work), "add", "-A"], check=True, env=env)
    subprocess.run([git, "-C", str(work), "commit", "-q", "-m", "handoff"], check=True, env=env)
    path = work / "xbrief" / "continue.xbrief.json"
    document = json.loads(path.read_text())
    document["x-passdown/checkpoint"]["goal_id"] = "goal-other"
    path.write_text(json.dumps(document, indent=2))
    subprocess.run([git, "-C", str(work), "add", "-A"], check=True, env=env)
    hook_run = subprocess.run([sys.executable, "-m", "pre_commit", "try-repo", str(REPO),
                               "passdown-validate", "--files", "xbrief/continue.xbrief.json"],
                              cwd=work, env=env, capture_output=True, text=True, timeout=600)
    assert hook_run.returncode == 1, hook_run.stdout + hook_run.stderr
    assert "Failed" in hook_run.stdout
    assert "error crossfile.goal_mismatch $.policy.goal_id" in hook_run.stdout
    assert "registry.yaml" in hook_run.stdout


@pytest.mark.slow
def test_pre_commit_try_repo_passes_good_and_fails_bad(tmp_path, pre_commit_home):
    git = shutil.which("git")
    assert git, "git is needed to run pre-commit"
    work = tmp_path / "work"
    make_project(work)
    bad = work / "bad" / "xbrief" / "continue.xbrief.json"
    bad.parent.mkdir(parents=True)
    document = json.loads((work / "xbrief" / "continue.xbrief.json").read_text())
    document["xBRIEFInfo"]["version"] = "0.7"
    del document["x-passdown/checkpoint"]["goal_id"]
    bad.write_text(json.dumps(document, indent=2))
    env = pre_commit_env(pre_commit_home)
    subprocess.run([git, "init", "-q", str(work)], check=True, env=env)
    subprocess.run([git, "-C", str(work), "add", "-A"], check=True, env=env)
    pre_commit = [sys.executable, "-m", "pre_commit", "try-repo", str(REPO), "passdown-validate",
                  "--files"]

    good = subprocess.run([*pre_commit, "xbrief/continue.xbrief.json", "registry.yaml"],
                          cwd=work, env=env, capture_output=True, text=True, timeout=600)
    assert good.returncode == 0, good.stdout + good.stderr
    assert "passdown validate" in good.stdout and "Passed" in good.stdout

    failed = subprocess.run([*pre_commit, "bad/xbrief/continue.xbrief.json"], cwd=work,
                            env=env, capture_output=True, text=True, timeout=600)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "Failed" in failed.stdout
    assert "schema." in failed.stdout
