"""Shared by every test area: the repository root and the packaged example handoff.

Areas mirror the package (``formats/``, ``workspace/``, ``engine/``, ``rules/``, ``gates/``,
``authoring/``, ``conformance/``, ``reporters/``); ``acceptance/`` runs the installed command,
the docs, the wheel and the browser end to end; ``architecture/`` checks the package's
layers. Helpers shared across areas are modules in ``support/``; test data lives in ``data/``.
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


@pytest.fixture
def deep_tree(tmp_path):
    """``tmp_path`` holding a chain of 1,000 nested folders ``d/d/...``, built and removed
    without recursion (``os.makedirs`` and ``shutil.rmtree`` recurse once per level and fail
    near that depth); yields ``tmp_path``."""
    import os

    levels = 1000

    def descend(fd, create):
        for _ in range(levels):
            if create:
                os.mkdir("d", dir_fd=fd)
            inner = os.open("d", os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = inner
        return fd

    os.close(descend(os.open(tmp_path, os.O_RDONLY), create=True))
    yield tmp_path
    for depth in range(levels - 1, -1, -1):  # the deepest folder first
        fd = os.open(tmp_path, os.O_RDONLY)
        for _ in range(depth):
            inner = os.open("d", os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = inner
        os.rmdir("d", dir_fd=fd)
        os.close(fd)
