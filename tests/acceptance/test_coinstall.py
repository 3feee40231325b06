"""Passdown installs beside the packages of the same field that once shared its name, and
neither side breaks the other: each of ``baton-handoff``, ``baton-mcp``, ``baton-pass`` and
``baton-agents`` is installed, with its own dependencies, into an environment that holds our
wheel; our command and import and theirs all work; removing theirs leaves ours whole; and
``passdown init`` in a repository that uses their ``.baton/`` board leaves that folder alone.

Their wheels come from the cache ``scripts/test-setup`` fills (``pip download ... -d .wheelhouse``). The
four clash among themselves (three ship one import package, all four one command), so each is
tried in turn and removed before the next. Their commands and import packages are read from
their own installed metadata, never listed here.
"""

from __future__ import annotations

import hashlib
import json
import subprocess

import pytest
from wheel_support import ROOT, fresh_venv, offline_env, run, wheelhouse

pytestmark = pytest.mark.slow

#: distribution -> what else pip installs with it. baton-mcp's server is written for the 1.x
#: MCP SDK, which its metadata (mcp>=1.2.0) does not pin.
THEIRS = {"baton-handoff": [], "baton-mcp": ["mcp<2"], "baton-pass": [], "baton-agents": []}
#: Run in the environment: a distribution's console scripts, after importing each one's module.
ENTRY_POINTS = """import importlib, importlib.metadata, json, sys
points = [p for p in importlib.metadata.distribution(sys.argv[1]).entry_points if p.group == "console_scripts"]
for point in points:
    importlib.import_module(point.module)
print(json.dumps(sorted(point.name for point in points)))
"""


@pytest.fixture(scope="module")
def ours(built_wheel, tmp_path_factory):
    """(bin folder, working folder) of a fresh environment holding our wheel."""
    wheelhouse(*THEIRS)
    work = tmp_path_factory.mktemp("coinstall")
    assert ROOT not in work.parents
    return fresh_venv(work / "venv", built_wheel, work), work


def _ours_work(bin_dir, work):
    imported = run([bin_dir / "python", "-c", "import passdown, passdown.cli; print(passdown.__version__)"], cwd=work)
    assert imported.returncode == 0 and imported.stdout.strip(), imported.stderr
    version = run([bin_dir / "passdown", "--version"], cwd=work)
    assert version.returncode == 0 and version.stdout.startswith("passdown"), version.stdout + version.stderr
    shown = run([bin_dir / "python", "-m", "pip", "show", "passdown"], cwd=work)
    assert "Name: passdown\n" in shown.stdout


@pytest.mark.parametrize("distribution", list(THEIRS))
def test_theirs_and_ours_work_side_by_side(ours, distribution):
    bin_dir, work = ours
    env = offline_env(work)
    added = run([bin_dir / "python", "-m", "pip", "install", "-q", distribution, *THEIRS[distribution]],
                cwd=work, env=env)
    assert added.returncode == 0, added.stdout + added.stderr
    try:
        _ours_work(bin_dir, work)
        imported = run([bin_dir / "python", "-c", ENTRY_POINTS, distribution], cwd=work)
        assert imported.returncode == 0, imported.stderr
        commands = json.loads(imported.stdout)
        assert commands and "passdown" not in commands
        for command in commands:
            helped = run([bin_dir / command, "--help"], cwd=work, timeout=60)
            assert helped.returncode == 0, (command, helped.stdout + helped.stderr)
            assert "passdown" not in helped.stdout.lower()
    finally:
        removed = run([bin_dir / "python", "-m", "pip", "uninstall", "-y", "-q", distribution], cwd=work, env=env)
        assert removed.returncode == 0, removed.stderr
    _ours_work(bin_dir, work)
    assert not [path for path in commands if (bin_dir / path).exists()]


def _tree(folder):
    return {path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(folder.rglob("*")) if path.is_file()}


def test_passdown_init_leaves_their_board_alone(ours, tmp_path):
    bin_dir, work = ours
    env = offline_env(work)
    added = run([bin_dir / "python", "-m", "pip", "install", "-q", "baton-handoff"], cwd=work, env=env)
    assert added.returncode == 0, added.stdout + added.stderr
    try:
        repo = tmp_path / "repo"
        repo.mkdir()
        subprocess.run(["git", "init", "-q", repo], check=True)
        board = run([bin_dir / "baton", "init"], cwd=repo, timeout=60)
        assert board.returncode == 0 and (repo / ".baton" / "config.json").is_file(), board.stdout + board.stderr
        before = _tree(repo / ".baton")
        made = run([bin_dir / "passdown", "init", "--goal-id", "goal-1", "--main-id", "main-1",
                                "--outcome", "the tests pass", "--next", "write the parser"], cwd=repo)
        assert made.returncode == 0, made.stdout + made.stderr
        assert _tree(repo / ".baton") == before
        assert (repo / ".passdown" / ".gitignore").read_text(encoding="utf-8") == "*\n"
        status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=repo,
                                capture_output=True, text=True, check=True).stdout.splitlines()
        assert "?? .baton/config.json" in status
        assert not [line for line in status if ".passdown/" in line]
    finally:
        run([bin_dir / "python", "-m", "pip", "uninstall", "-y", "-q", "baton-handoff"], cwd=work, env=env)
