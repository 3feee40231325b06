"""Benchmark: what asking the ownership authority costs a write, and a commit, against a
named baseline.

Baseline: ``passdown checkpoint decision`` in-process (a library call) in a handoff folder whose
registry names no authority (the local one: no question asked). The rows time the same write
where the policy names ``git`` (a bare remote on this disk: the cost of the git processes,
not of a network) and ``etcd`` (a real etcd on loopback, when the ``etcd`` program is
installed), and one ``attempt commit`` through each authority. Each figure is the best of
``--runs``; the ratio is against the baseline write.

Usage: ``python bench/authority_bench.py [--runs 5]``
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))

from authority_support import (Etcd, acknowledged_registry, bare_with_clones,  # noqa: E402
                               project)

from passdown.authoring import attempt_step, update_checkpoint  # noqa: E402


def best(function, runs: int) -> float:
    times = []
    for index in range(runs):
        start = time.perf_counter()
        function(index)
        times.append(time.perf_counter() - start)
    return min(times)


def folder_with(root: Path, name: str, authority: dict | None) -> Path:
    _, (clone,) = bare_with_clones(root / name, ["clone"])
    project(clone, "sess-src")
    acknowledged_registry(clone, source="sess-src", target="tgt", restart_id="r1", epoch=0,
                          policy_authority=authority)
    return clone


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    root = Path(tempfile.mkdtemp(prefix="authority-bench-"))
    server = None
    try:
        kinds = {"none (baseline)": None, "git": {"kind": "git", "remote": "origin"}}
        if shutil.which("etcd"):
            (root / "etcd").mkdir()
            server = Etcd(root / "etcd").start()
            kinds["etcd"] = {"kind": "etcd", "endpoint": server.endpoint,
                             "prefix": "/passdown/", "lease_ttl": 600}
        rows = []
        for name, authority in kinds.items():
            folder = folder_with(root, name.split()[0], authority)
            checkpoint = folder / "xbrief" / "continue.xbrief.json"
            write = best(lambda i: update_checkpoint(checkpoint, "decision", f"decision {i}"),
                         runs)
            start = time.perf_counter()
            attempt_step(folder / "registry.json", "commit", "r1")
            commit = time.perf_counter() - start
            rows.append((name, write, commit))
        baseline = rows[0][1]
        print(f"{'authority':<18}{'write ms':>10}{'ratio':>8}{'commit ms':>11}")
        for name, write, commit in rows:
            print(f"{name:<18}{write * 1000:>10.1f}{write / baseline:>8.1f}{commit * 1000:>11.1f}")
    finally:
        if server is not None:
            server.stop()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
