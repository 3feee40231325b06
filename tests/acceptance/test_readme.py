"""What the README says about the test suite is true: the tests it says skip without a
browser are exactly those that need one."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from docs_support import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def _browser_module() -> str:
    note = re.search(r"The browser tests, `([^`]+)`, drive a headless browser", README)
    assert note, "the README names the module of the browser tests"
    return note.group(1)


def _tests(path) -> dict[str, list[str]]:
    """Each test function of a module with the names of its parameters (its fixtures)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name: [arg.arg for arg in node.args.args]
            for node in tree.body if isinstance(node, ast.FunctionDef)
            and node.name.startswith("test_")}


def test_every_test_of_the_named_module_needs_the_browser():
    tests = _tests(ROOT / _browser_module())
    assert tests, "the named module holds tests"
    assert [name for name, fixtures in tests.items() if "browser" not in fixtures] == []


def test_no_other_test_module_drives_the_browser_or_skips_for_it():
    named = ROOT / _browser_module()
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        if path in (named, Path(__file__).resolve()):
            continue
        text = path.read_text(encoding="utf-8")
        assert "chromedriver" not in text.lower() and "webdriver" not in text, path
