"""What the README says about the test suite is true: the tests it says skip without a
browser are exactly those that need one, and the modules it names as able to skip are exactly
those that can."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import shared_reference
from docs_support import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def _browser_modules() -> list[Path]:
    note = re.search(r"The browser tests, those taking the `browser` fixture in (.+?), drive a\s+headless browser",
                     README, re.S)
    assert note, "the README names the modules of the browser tests"
    return [ROOT / name for name in re.findall(r"`([^`]+)`", note.group(1))]


def _tests(path) -> dict[str, list[str]]:
    """Each test function of a module with the names of its parameters (its fixtures)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name: [arg.arg for arg in node.args.args]
            for node in tree.body if isinstance(node, ast.FunctionDef)
            and node.name.startswith("test_")}


def test_each_named_module_has_browser_tests():
    modules = _browser_modules()
    assert len(modules) == 2
    for module in modules:
        assert any("browser" in fixtures for fixtures in _tests(module).values()), module


def test_no_other_test_module_drives_the_browser_or_skips_for_it():
    named = _browser_modules()
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        if path in named or path == Path(__file__).resolve():
            continue
        text = path.read_text(encoding="utf-8")
        assert "chromedriver" not in text.lower() and "webdriver" not in text, path


#: What makes a test module able to skip: a skip call or mark, a helper that skips (or fails
#: in CI), or a fixture that does (``browser``, ``built_wheel``) taken as a parameter.
SKIPS = re.compile(r"pytest\.skip\(|skipif\(|importorskip\(|\bmissing\(|\bwheelhouse\(|\btool\("
                   r"|\bchromium\(|\betcd_required\(|shared_reference\.(?:require|helper)\(|def \w+\([^)]*\b(?:browser|built_wheel)\b")


def _can_skip(path: Path) -> bool:
    return bool(SKIPS.search(path.read_text(encoding="utf-8")))


def test_the_readme_names_exactly_the_test_modules_that_can_skip():
    section = README.split("Which tests skip, and why", 1)[1].split("No other test skips.", 1)[0]
    named = {ROOT / name for name in re.findall(r"`(tests/[^`]+\.py)`", section)}
    modules = set((ROOT / "tests").rglob("test_*.py"))
    assert named <= modules
    assert {path for path in modules if _can_skip(path)} - {Path(__file__).resolve()} == named


def test_without_the_reference_material_its_tests_skip_and_in_ci_they_fail(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"not at \.\./shared/reference/no-such-material/"):
        shared_reference.require("no-such-material", "marker.txt")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match=r"no-such-material/.*CI is set: the run needs it"):
        shared_reference.require("no-such-material", "marker.txt")


def test_nothing_skips_for_want_of_our_own_package():
    for path in sorted((ROOT / "tests").rglob("*.py")):
        if path != Path(__file__).resolve():
            assert 'importorskip("passdown' not in path.read_text(encoding="utf-8"), path


def test_ci_runs_the_readmes_two_commands_as_a_new_user_would():
    """`.ci/run` installs system packages, then runs exactly the README's two commands in a
    fresh virtual environment: nothing the README does not say."""
    commands = re.findall(r"```sh\n(.+?)\n```", README)[:2]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").rstrip("\n").splitlines()
    assert ci[-2:] == commands
    assert ci[-3] == "rm -rf .venv"
