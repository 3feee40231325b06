"""Every one-line install the docs give works on a fresh machine, tried with the built wheel in
place of the published name and no network (the wheel cache of ``scripts/test-setup``): ``pip install``,
``pip install '...[mcp]'``, ``pipx install``, ``uv tool install`` and ``uvx``. Each install is
run from a folder outside the checkout, and the installed command validates a handoff there."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest
from wheel_support import ROOT, fresh_venv, offline_env, run, tool, wheelhouse

pytestmark = pytest.mark.slow

INITIALIZE = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "install-test", "version": "1"}}})

#: Each install line of the docs and the test below that runs it (the wheel in place of
#: ``passdown`` or ``.``).
TESTED_LINES = {
    "pip install .": "test_pip_install_then_the_mcp_extra",
    "pip install '.[test,docs]'": "the test suite itself (the README's test command, which .ci/run runs)",
    "pip install passdown": "test_pip_install_then_the_mcp_extra",
    "pip install 'passdown[mcp]'": "test_pip_install_then_the_mcp_extra",
    "pipx install passdown": "test_pipx_install",
    "uv tool install passdown": "test_uv_tool_install",
    "uvx passdown validate": "test_uvx_runs_the_command_without_installing_it",
}
INSTALL_LINE = re.compile(r"\b(?:pip3? install|pipx install|uv tool install|uv pip install) [^\s`)&;]+|\buvx [^\s`)&;]+(?: validate)?")


@pytest.fixture
def work(tmp_path):
    """A working folder outside the checkout holding a copy of the example handoff."""
    assert ROOT not in tmp_path.parents
    shutil.copytree(ROOT / "examples" / "handoff", tmp_path / "handoff")
    return tmp_path


def _validates(command, work, env=None):
    result = run([*command, "validate", work / "handoff"], cwd=work, env=env)
    assert (result.returncode, result.stdout.endswith("files checked: no findings\n")) == (0, True), \
        result.stdout + result.stderr


def test_pip_install_then_the_mcp_extra(built_wheel, work):
    wheelhouse("mcp", "click")
    bin_dir = fresh_venv(work / "venv", built_wheel, work)
    _validates([bin_dir / "passdown"], work)
    refused = run([bin_dir / "passdown", "mcp", "--folder", work / "handoff"], cwd=work)
    assert (refused.returncode, refused.stdout) == (2, "")
    assert refused.stderr.endswith("  hint: pip install 'passdown[mcp]'\n")
    assert "mcp.not_installed" in refused.stderr
    added = run([bin_dir / "python", "-m", "pip", "install", "-q", f"{built_wheel}[mcp]"], cwd=work,
                env=offline_env(work))
    assert added.returncode == 0, added.stdout + added.stderr
    served = subprocess.run([str(bin_dir / "passdown"), "mcp", "--folder", str(work / "handoff")], cwd=work,
                            input=INITIALIZE + "\n", capture_output=True, text=True, timeout=60)
    assert served.returncode == 0, served.stderr
    answer = json.loads(served.stdout.splitlines()[0])
    assert answer["result"]["serverInfo"]["name"] == "passdown"


def test_pipx_install(built_wheel, work):
    wheelhouse("click", "pip")
    env = offline_env(work, PIPX_HOME=str(work / "pipx"), PIPX_BIN_DIR=str(work / "bin"),
                      PIPX_MAN_DIR=str(work / "man"))
    added = run([tool("pipx"), "install", built_wheel], cwd=work, env=env)
    assert added.returncode == 0, added.stdout + added.stderr
    assert "installed package passdown" in added.stdout
    _validates([work / "bin" / "passdown"], work)


def test_uv_tool_install(built_wheel, work):
    wheelhouse("click")
    env = offline_env(work, UV_TOOL_DIR=str(work / "tools"), UV_TOOL_BIN_DIR=str(work / "bin"))
    added = run([tool("uv"), "tool", "install", built_wheel], cwd=work, env=env)
    assert added.returncode == 0, added.stdout + added.stderr
    assert "Installed 1 executable: passdown" in added.stderr
    _validates([work / "bin" / "passdown"], work)


def test_uvx_runs_the_command_without_installing_it(built_wheel, work):
    wheelhouse("click")
    _validates([tool("uvx"), "--from", built_wheel, "passdown"], work, env=offline_env(work))


def test_every_install_line_of_the_docs_is_tested():
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), *sorted((ROOT / "spec").rglob("*.md"))]
    found = {}
    for page in pages:
        if page.name == "changelog.md":
            continue
        for line in INSTALL_LINE.findall(page.read_text(encoding="utf-8")):
            found.setdefault(line, page.relative_to(ROOT).as_posix())
    untested = {line: page for line, page in found.items() if line not in TESTED_LINES}
    assert untested == {}
    assert set(TESTED_LINES) <= set(found), "each tested line is one the docs give"


def test_without_the_cache_the_install_tests_skip_and_in_ci_they_fail(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"has no wheel of no-such-dist: fill it with"):
        wheelhouse("click", "no-such-dist")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match=r"no-such-dist.*CI is set, so this fails instead of skipping"):
        wheelhouse("no-such-dist")
