"""Shell completion: ``_PASSDOWN_COMPLETE=<shell>_source passdown`` prints a completion script for
bash, zsh and fish, the script's own call completes commands (the lazily loaded ones
included), and the CLI reference says how to install it."""

from __future__ import annotations

import html
import os
import re
import subprocess
import sys

import pytest

from docs_support import built_site


def _passdown(env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "passdown", *args], capture_output=True, text=True,
                          env={**os.environ, **env}, timeout=60)


@pytest.mark.parametrize("shell, marks", [
    ("bash", ("_passdown_completion()", "complete -o nosort -F _passdown_completion passdown")),
    ("zsh", ("#compdef passdown", "_PASSDOWN_COMPLETE=zsh_complete")),
    ("fish", ("function _passdown_completion", "complete --no-files --command passdown")),
])
def test_the_source_call_prints_a_completion_script(shell, marks):
    result = _passdown({"_PASSDOWN_COMPLETE": f"{shell}_source"})
    assert result.returncode == 0 and result.stderr == ""
    for mark in marks:
        assert mark in result.stdout


def test_the_script_completes_commands_subcommands_and_choices():
    def complete(words: str) -> list[str]:
        cword = str(len(words.split()) - (0 if words.endswith(" ") else 1))
        result = _passdown({"_PASSDOWN_COMPLETE": "bash_complete", "COMP_WORDS": words,
                         "COMP_CWORD": cword})
        assert result.returncode == 0, result.stderr
        return [line.split(",", 1)[1] for line in result.stdout.splitlines()]

    assert complete("passdown chec") == ["checkpoint"]
    assert "set-resume" in complete("passdown checkpoint ")
    assert complete("passdown validate --color ") == ["auto", "always", "never"]
    assert complete("passdown gate re") == ["restart", "recovery", "relaunch"]


@pytest.mark.slow
def test_the_cli_reference_says_how_to_install_it(tmp_path_factory):
    page = (built_site(tmp_path_factory) / "reference" / "cli" / "index.html").read_text(
        encoding="utf-8")
    assert 'id="shell-completion"' in page
    text = html.unescape(re.sub(r"<[^>]+>", "", page))  # code is highlighted token by token
    for shell in ("bash", "zsh", "fish"):
        assert f"_PASSDOWN_COMPLETE={shell}_source passdown" in text
