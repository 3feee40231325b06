"""Where the tests find the reference material kept beside the repository, in
``../shared/reference/`` (the upstream xBRIEF files, the published restart and title helpers):
relative to the repository root, and in a git worktree relative to the main checkout's root as
well. Tests that need it skip without it, except in CI (``CI`` set), where its absence fails
them: a green CI run never hides that the reference was not there."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REFERENCE_RELATIVE = Path("..") / "shared" / "reference"
#: The published helpers, verbatim, and their origin (the folder's README says the same).
HELPERS = "published-helpers"
HELPER_FILES = {"restart": "restart_gate.py", "title": "session_title.py"}


def _roots():
    roots = [ROOT]
    try:
        common = subprocess.run(["git", "rev-parse", "--git-common-dir"], cwd=ROOT, text=True,
                                capture_output=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        common = ""
    if common:
        roots.append((ROOT / common).resolve().parent)
    return roots


def find(name: str, marker: str) -> Path | None:
    """The folder ``../shared/reference/NAME`` holding the file ``marker``, or ``None``."""
    for root in _roots():
        folder = (root / REFERENCE_RELATIVE / name).resolve()
        if (folder / marker).is_file():
            return folder
    return None


def require(name: str, marker: str) -> Path:
    """:func:`find`, or skip the test without it (fail it in CI)."""
    folder = find(name, marker)
    if folder is None:
        message = f"the reference material is not at ../shared/reference/{name}/ beside the repository"
        if os.environ.get("CI"):
            pytest.fail(message + " (CI is set: the run needs it)")
        pytest.skip(message)
    return folder


def helper(gate: str) -> Path:
    """The real published helper of ``gate`` (``restart`` or ``title``)."""
    return require(HELPERS, HELPER_FILES[gate]) / HELPER_FILES[gate]
