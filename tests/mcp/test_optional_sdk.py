"""The MCP SDK is an optional extra: without it `passdown mcp` says how to install it, and
nothing on the core or gate path ever imports it."""

from __future__ import annotations

import subprocess
import sys
import tomllib

import pytest
from click.testing import CliRunner

from passdown.cli import cli
from docs_support import ROOT


def test_without_the_sdk_the_command_refuses_with_the_install_hint(tmp_path):
    code = ("import sys; sys.modules['mcp'] = None\n"
            "from passdown._entry import main\n"
            f"sys.exit(main(['mcp', '--folder', {str(tmp_path)!r}]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("passdown: mcp.not_installed: the MCP server needs the mcp package, which "
                           "is not installed\n  hint: pip install 'passdown[mcp]'\n")


def test_an_sdk_of_another_major_version_is_refused(tmp_path, monkeypatch):
    import importlib.metadata

    monkeypatch.setattr(importlib.metadata, "version", lambda name: "1.26.0")
    result = CliRunner().invoke(cli, ["mcp", "--folder", str(tmp_path)])
    assert result.exit_code == 2
    assert result.output == ("passdown: mcp.not_installed: the MCP server needs mcp 2.x, not 1.26.0\n"
                             "  hint: pip install 'passdown[mcp]'\n")


def test_the_extra_is_declared_and_the_tests_install_it():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert [d for d in extras["mcp"] if d.startswith("mcp")] == ["mcp>=2.3,<3"]
    assert "mcp>=2.3,<3" in extras["test"]
    core = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    assert not [d for d in core if d.startswith("mcp")]


@pytest.mark.parametrize("code", [
    "import passdown, passdown.gates, passdown.hosts, passdown.mcp",
    "from passdown.gates import run_gate; run_gate('guard', {'tool': 'execute', 'arguments': 'kill -1', 'host_pid': 3})",
    "from passdown.cli import cli; from click.testing import CliRunner; CliRunner().invoke(cli, ['--help'])",
    "from passdown.mcp import _tools, _resources; _tools.tools(); _resources.resources()",
])
def test_nothing_but_the_server_imports_the_sdk(code):
    script = f"import sys\n{code}\nprint(sorted(m for m in sys.modules if m == 'mcp' or m.startswith('mcp.')))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert (done.returncode, done.stdout.strip()) == (0, "[]"), done.stderr
