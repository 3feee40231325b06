"""Shared by the install tests: the local wheel cache, the one wheel built from the checkout,
and running an installed command with no network and none of the checkout on its path.

The cache ``.wheelhouse/`` is filled by ``scripts/test-setup`` before the tests (its two ``pip download``
lines): the build backend, our dependencies with the ``mcp`` extra, and the packages the
co-installation test installs beside ours. Every install here reads only that folder
(``--no-index``), never an index. Without the cache these tests skip and say which line fills
it; with ``CI`` set they fail instead, so a CI run cannot pass on skipped installs.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from ci_support import missing

ROOT = Path(__file__).resolve().parents[2]
WHEELHOUSE = ROOT / ".wheelhouse"
FILL = "the `pip download ... -d .wheelhouse` lines of scripts/test-setup"


def wheelhouse(*distributions: str) -> Path:
    """The wheel cache, once it holds a wheel of each of ``distributions``."""
    names = {path.name.split("-")[0].lower() for path in WHEELHOUSE.glob("*.whl")}
    absent = [name for name in distributions if name.replace("-", "_").lower() not in names]
    if absent:
        missing(f"the wheel cache {WHEELHOUSE.name}/ has no wheel of {', '.join(absent)}: fill it with {FILL}")
    return WHEELHOUSE


def offline_env(work: Path, **extra: str) -> dict[str, str]:
    """The caller's environment less the test venv and the machine's pip settings, with pip,
    pipx and uv reading only the wheel cache and keeping their state under ``work``."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME") and not key.startswith(("PIP_", "UV_", "PIPX_"))}
    env.update(PIP_CONFIG_FILE=os.devnull, PIP_NO_INDEX="1", PIP_FIND_LINKS=str(WHEELHOUSE),
               PIP_DISABLE_PIP_VERSION_CHECK="1", UV_CACHE_DIR=str(work / "uv-cache"),
               UV_NO_CONFIG="1", UV_PYTHON_DOWNLOADS="never", UV_OFFLINE="1", UV_NO_INDEX="1",
               UV_FIND_LINKS=str(WHEELHOUSE))
    env.update(extra)
    return env


def run(argv, cwd, env=None, timeout=600, stdin=subprocess.DEVNULL) -> subprocess.CompletedProcess:
    """Run ``argv``; a traceback on stderr fails the test whatever the exit status."""
    result = subprocess.run([str(a) for a in argv], cwd=cwd, env=env, capture_output=True,
                            text=True, timeout=timeout, stdin=stdin)
    assert "Traceback" not in result.stderr, result.stderr
    return result


def tool(name: str) -> Path:
    """A command installed beside the test interpreter (pipx, uv, uvx), or a skip saying so."""
    found = Path(sys.executable).parent / name
    if not found.exists():
        missing(f"{name} is not installed beside the test interpreter: pip install '.[test]' brings it")
    return found


def fresh_venv(where: Path, wheel_spec: str, work: Path) -> Path:
    """A new virtual environment at ``where`` with ``wheel_spec`` installed from the cache;
    its bin folder."""
    made = run([sys.executable, "-m", "venv", where], cwd=work)
    assert made.returncode == 0, made.stderr
    bin_dir = where / ("Scripts" if os.name == "nt" else "bin")
    added = run([bin_dir / "python", "-m", "pip", "install", "-q", wheel_spec], cwd=work, env=offline_env(work))
    assert added.returncode == 0, added.stdout + added.stderr
    return bin_dir
