"""Fixtures of the end-to-end tests: the one wheel every install test shares."""

from __future__ import annotations

import sys

import pytest
from wheel_support import ROOT, offline_env, run, wheelhouse


@pytest.fixture(scope="session")
def built_wheel(tmp_path_factory):
    """The wheel built once per run from the checkout, offline (the build backend comes from the
    wheel cache), in a folder outside the checkout."""
    cache = wheelhouse("hatchling")
    work = tmp_path_factory.mktemp("built")
    assert ROOT not in work.parents
    built = run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "--no-index", "--find-links", cache,
                 "-w", work, ROOT], cwd=work, env=offline_env(work))
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = work.glob("*.whl")
    return wheel
