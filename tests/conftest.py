"""Shared by every test area: the repository root and the packaged example handoff.

Areas mirror the package (``formats/``, ``workspace/``, ``engine/``, ``rules/``, ``gates/``,
``authoring/``, ``conformance/``, ``reporters/``); ``acceptance/`` runs the installed command,
the docs, the wheel and the browser end to end. Helpers shared across areas are modules in
``support/``; test data lives in ``data/``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE_HANDOFF = ROOT / "examples" / "handoff"


@pytest.fixture
def example_handoff(tmp_path) -> Path:
    """A private copy of the bundled example handoff folder."""
    folder = tmp_path / "handoff"
    shutil.copytree(EXAMPLE_HANDOFF, folder)
    return folder
