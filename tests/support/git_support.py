"""Real git checkouts for the tests that read one: git run with a fixed identity and no
system configuration, and a new repository with one commit."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid",
           "GIT_CONFIG_NOSYSTEM": "1"}


def git(folder, *args) -> str:
    """``git -C folder ARGS``; its output, stripped. A failure raises."""
    return subprocess.run(["git", "-C", str(folder), *map(str, args)], check=True,
                          capture_output=True, text=True, env={**os.environ, **GIT_ENV}
                          ).stdout.strip()


def new_checkout(folder: Path, files: dict[str, str]) -> Path:
    """A repository on branch ``main`` at ``folder`` whose one commit holds ``files``."""
    folder.mkdir(parents=True, exist_ok=True)
    git(folder, "init", "-q", "-b", "main")
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    git(folder, "add", "-A")
    git(folder, "commit", "-q", "-m", "base")
    return folder
