"""The product has one name: no tracked file says the old one as a name of ours.

The word may appear only where the product speaks of the *other* packages that use it (the
co-installation test and the set-up step that fetches their wheels), and there only as those
packages' own names: their distributions, their import package, their command and their folder.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OLD = re.compile(r"baton", re.IGNORECASE)
#: Files that name the other packages, and the only forms they may use.
FOREIGN_NAMES = re.compile(r"\bbaton-(?:handoff|mcp|pass|agents)\b|\bbaton_(?:handoff|mcp|pass|agents)\b"
                           r"|(?<![\w-])\.baton\b|(?<![\w.-])baton(?=[\s\"'/.,)\]:]|$)")
MAY_NAME_OTHERS = {"scripts/test-setup", "tests/acceptance/test_coinstall.py"}
#: This file states the patterns, so it is the one file not read.
SELF = "tests/architecture/test_brand.py"


def _tracked_text_files():
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in listed.decode("utf-8").split("\0"):
        path = ROOT / name
        if name and name != SELF and path.is_file():
            try:
                yield name, path.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                continue


def test_no_file_names_the_product_by_its_old_name():
    offending = []
    for name, text in _tracked_text_files():
        if OLD.search(name):
            offending.append(f"{name}: the path")
        for number, line in enumerate(text.splitlines(), 1):
            if not OLD.search(line):
                continue
            if name in MAY_NAME_OTHERS and not OLD.search(FOREIGN_NAMES.sub("", line)):
                continue
            offending.append(f"{name}:{number}: {line.strip()[:120]}")
    assert offending == []


def test_the_check_finds_the_old_name():
    """The pattern the test above relies on does match the forms it must catch."""
    for line in ("import baton", "x-baton/checkpoint", "BATON_DIR", "Baton block", "baton_version"):
        assert OLD.search(line)
    assert OLD.search(FOREIGN_NAMES.sub("", "x-baton/checkpoint"))
    assert not OLD.search(FOREIGN_NAMES.sub("", "pip download --no-deps baton-handoff baton-mcp"))
