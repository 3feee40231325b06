"""Every shell example in the guides runs, in a fresh copy of the example handoff.

Each ``docs/examples/*.sh`` states what it expects in header comments:

    # needs: ack verify          (a passdown command the example uses; one line each)
    # exit: 0                    (the script's exit status)
    # stdout: accepted           (text the output must hold; one line each)
    # stderr: hint:              (text stderr must hold; one line each)

A guide shows the parts between ``# --8<-- [start:NAME]`` and ``# --8<-- [end:NAME]``. Where
``<example>.out`` exists, the guide shows it as the output, and stdout must equal it exactly.
An example whose command is not in this build fails and names the command it waits for.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import click
import pytest
from ruamel.yaml import YAML

from docs_support import ROOT

EXAMPLES = ROOT / "docs" / "examples"
HANDOFF = ROOT / "examples" / "handoff"
SCRIPTS = sorted(EXAMPLES.glob("*.sh"))
_HEADER = re.compile(r"^# (needs|exit|stdout|stderr): (.+)$", re.MULTILINE)


def _expectations(script: Path) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {"needs": [], "exit": [], "stdout": [], "stderr": []}
    for key, value in _HEADER.findall(script.read_text(encoding="utf-8")):
        found[key].append(value.strip())
    return found


def _passdown() -> str:
    here = Path(sys.executable).parent / "passdown"
    return str(here) if here.exists() else shutil.which("passdown") or "passdown"


@functools.cache
def _in_this_build(command: str) -> bool:
    """Whether ``passdown <command>`` (``ack verify``) exists, found in the command tree
    in-process rather than by a ``--help`` run per example."""
    from passdown.cli import cli

    context = click.Context(cli, info_name="passdown")
    for name in command.split():
        if not isinstance(context.command, click.Group):
            return False
        sub = context.command.get_command(context, name)
        if sub is None:
            return False
        context = click.Context(sub, info_name=name, parent=context)
    return True


def _environment(home: Path) -> dict[str, str]:
    return {**os.environ, "PATH": f"{Path(_passdown()).parent}{os.pathsep}{os.environ.get('PATH', '')}",
            "HOME": str(home), "NO_COLOR": "1", "LC_ALL": "C.UTF-8"}


def test_there_are_examples():
    assert SCRIPTS, "docs/examples holds no example scripts"


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.stem)
def test_the_example_states_what_it_expects_and_is_shown(script):
    expected = _expectations(script)
    assert len(expected["exit"]) == 1 and expected["exit"][0].isdigit(), "one '# exit: N' line"
    assert expected["stdout"] or expected["stderr"], "at least one '# stdout:' or '# stderr:' line"
    text = script.read_text(encoding="utf-8")
    starts = re.findall(r"# --8<-- \[start:([\w-]+)\]", text)
    ends = re.findall(r"# --8<-- \[end:([\w-]+)\]", text)
    assert starts and sorted(starts) == sorted(ends), "each [start:NAME] needs its [end:NAME]"
    pages = "\n".join(page.read_text(encoding="utf-8") for page in (ROOT / "docs").rglob("*.md"))
    for name in starts:
        assert f'"docs/examples/{script.name}:{name}"' in pages, f"no page shows {script.name}:{name}"
    output = script.with_suffix(".out")
    if output.exists():
        assert f'"docs/examples/{output.name}"' in pages, f"no page shows {output.name}"


@pytest.fixture(scope="session")
def example_runs(request, tmp_path_factory):
    """The selected examples whose commands are in this build, started at once a few at a
    time, each in its own copy of the example handoff: the scripts share nothing, and most of
    their time goes to starting processes. Each test below waits for its own."""
    assert HANDOFF.is_dir(), "examples/handoff is missing: the examples run in a copy of it"
    selected = [item.callspec.params["script"] for item in request.session.items
                if getattr(item, "originalname", None) == "test_the_example_runs_as_the_guide_says"]
    pool = ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 1))
    runs = {script: pool.submit(_run, script, tmp_path_factory.mktemp(script.stem))
            for script in selected if all(_in_this_build(command) for command in _expectations(script)["needs"])}
    yield runs
    pool.shutdown(cancel_futures=True)


def _run(script: Path, home: Path) -> subprocess.CompletedProcess:
    workdir = home / "handoff"
    shutil.copytree(HANDOFF, workdir)
    return subprocess.run(["bash", str(script)], cwd=workdir, capture_output=True, text=True,
                          env=_environment(home), timeout=300)


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.stem)
def test_the_example_runs_as_the_guide_says(script, example_runs):
    expected = _expectations(script)
    for command in expected["needs"]:
        if not _in_this_build(command):
            pytest.fail(f"`passdown {command}` is not in this build yet: the example {script.name} waits for it")
    result = example_runs[script].result()
    report = f"exit {result.returncode}\n--- stdout\n{result.stdout}\n--- stderr\n{result.stderr}"
    assert result.returncode == int(expected["exit"][0]), report
    for text in expected["stdout"]:
        assert text in result.stdout, f"stdout lacks {text!r}\n{report}"
    for text in expected["stderr"]:
        assert text in result.stderr, f"stderr lacks {text!r}\n{report}"
    output = script.with_suffix(".out")
    if output.exists():
        assert result.stdout == output.read_text(encoding="utf-8"), f"stdout differs from {output.name}\n{report}"


def test_every_passdown_command_is_run_by_a_shown_example():
    from passdown.cli import cli

    shown = "\n".join(body for script in SCRIPTS for body in _shown_sections(script))
    context = click.Context(cli, info_name="passdown")
    commands = cli.list_commands(context)
    assert commands, "the passdown command lists no subcommands"
    missing = [name for name in commands if not re.search(rf"\bpassdown {name}\b", shown)]
    assert not missing, f"no guide example runs: {', '.join(f'passdown {name}' for name in missing)}"


def _shown_sections(script: Path) -> list[str]:
    return [body for _, body in re.findall(r"# --8<-- \[start:([\w-]+)\]\n(.*?)# --8<-- \[end:\1\]",
                                           script.read_text(encoding="utf-8"), re.DOTALL)]


def test_the_pre_commit_config_shown_uses_the_hooks_the_repository_offers():
    offered = {hook["id"] for hook in YAML(typ="safe").load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    config = YAML(typ="safe").load((EXAMPLES / "pre-commit-config.yaml").read_text(encoding="utf-8"))
    used = [hook["id"] for repo in config["repos"] for hook in repo["hooks"]]
    assert used and set(used) <= offered, (used, offered)
    guides = "\n".join(page.read_text(encoding="utf-8") for page in (ROOT / "docs" / "guides").glob("*.md"))
    assert '--8<-- "docs/examples/pre-commit-config.yaml"' in guides
    assert '--8<-- ".pre-commit-hooks.yaml"' in guides


def test_every_output_file_belongs_to_an_example():
    for output in EXAMPLES.glob("*.out"):
        assert output.with_suffix(".sh").exists(), f"{output.name} has no example script"
