"""Test-only pause points: named places in a multi-step write where a test can stop one
process, run another, and let the first go on, so that an interleaving of concurrent
commands is forced rather than hoped for.

TEST USE ONLY. Nothing happens unless the environment variable ``PASSDOWN_TEST_POINTS`` names a
folder, which only the test suite sets. Then, at the point ``NAME``, the process appends its
pid to ``<folder>/NAME.reached``; if ``<folder>/NAME.pause`` exists it waits (up to
:data:`WAIT` seconds) until ``<folder>/NAME.go`` exists. Without the variable a point costs one
environment lookup. The points are listed in CONTRIBUTING.md.
"""

from __future__ import annotations

import os
import time

#: The environment variable that turns the points on (tests only).
ENVIRONMENT = "PASSDOWN_TEST_POINTS"
#: The longest a paused process waits for its ``.go`` file.
WAIT = 60.0


def point(name: str) -> None:
    """Mark ``name`` reached; pause there when the test asked for it."""
    folder = os.environ.get(ENVIRONMENT)
    if not folder:
        return
    with open(os.path.join(folder, f"{name}.reached"), "a", encoding="utf-8") as handle:
        handle.write(f"{os.getpid()}\n")
    if not os.path.exists(os.path.join(folder, f"{name}.pause")):
        return
    go = os.path.join(folder, f"{name}.go")
    deadline = time.monotonic() + WAIT
    while not os.path.exists(go) and time.monotonic() < deadline:
        time.sleep(0.005)
