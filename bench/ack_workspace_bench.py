"""Benchmark: the checkout readback of ``passdown ack write`` and ``passdown ack verify --workspace``
against a named baseline, for checkouts with N dirty files.

Baseline: a plain ``git status --porcelain=v1 -z --untracked-files=all`` in the same checkout
(what a verifier that trusted git would run, its filters and all). The ratios say what the
rest costs: the configuration read that switches every filter off, the checkout fingerprint,
hashing every dirty file through ``openat`` without following links, and leaving out the
handoff's own files.

Rows, for each N in ``--dirty``:

- ``git status`` (the baseline), best of ``--runs``;
- the readback alone (``workspace_readback``: checkout and dirty fingerprints);
- ``passdown ack write`` and ``passdown ack verify --workspace`` in-process (library calls), and
  ``passdown ack verify --workspace`` as a command (one process, as a launcher runs it);
- the same readback with a filter driver configured and attributed to every tracked file,
  where each filtered file's raw bytes are compared with the index by Passdown itself.

Each dirty file holds ``--size`` bytes; half the dirty files are modified tracked files, half
untracked. Usage: ``python bench/ack_workspace_bench.py [--dirty 10 100 1000 5000]
[--size 2048] [--runs 3]``
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

from passdown.authoring import Identity, Policy, init, write_ack
from passdown.workspace import _readback

GIT_ENV = {**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@example.invalid",
           "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@example.invalid"}


def git(repo, *args, stdin=None):
    subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True, env=GIT_ENV,
                   input=stdin)


def make_checkout(folder: str, dirty: int, size: int) -> str:
    repo = os.path.join(folder, "repo")
    os.makedirs(os.path.join(repo, "src"))
    git(repo, "init", "-q", "-b", "main")
    tracked = dirty // 2
    for n in range(tracked):
        with open(os.path.join(repo, "src", f"t{n}.txt"), "wb") as handle:
            handle.write(b"a" * size)
    with open(os.path.join(repo, "README"), "w") as handle:
        handle.write("bench\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    init(repo, Identity(goal_id="goal-bench", main_id="sess-a", outcome="bench",
                        first_step="step"), Policy())
    for n in range(tracked):
        with open(os.path.join(repo, "src", f"t{n}.txt"), "wb") as handle:
            handle.write(b"b" * size)
    for n in range(dirty - tracked):
        with open(os.path.join(repo, "src", f"u{n}.txt"), "wb") as handle:
            handle.write(os.urandom(size))
    passdown(repo, "packet", "render", "--source-id", "sess-a", "--restart-id", "r1")
    passdown(repo, "attempt", "created", "r1", "--target-id", "sess-b")
    return repo


def passdown(repo, *args):
    subprocess.run([sys.executable, "-m", "passdown", *args], cwd=repo, check=True,
                   capture_output=True)


def best(runs: int, call) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return min(times)


def row(name: str, seconds: float, base: float) -> None:
    print(f"  {name:<44} {seconds * 1000:9.1f} ms   {seconds / base:6.2f}x")


def measure(dirty: int, size: int, runs: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        repo = make_checkout(folder, dirty, size)
        packet = os.path.join(repo, "continuation.packet.txt")
        registry = os.path.join(repo, "registry.yaml")
        ack = os.path.join(repo, "ack.json")
        leave_out = _readback.own_files_of(registry, [packet, registry, ack])
        print(f"{dirty} dirty files of {size} bytes")
        base = best(runs, lambda: git(repo, "status", "--porcelain=v1", "-z",
                                      "--untracked-files=all"))
        row("git status (baseline)", base, base)
        row("readback: checkout + dirty fingerprints",
            best(runs, lambda: _readback.workspace_readback(repo, leave_out=leave_out)), base)
        row("ack write (library)", best(runs, lambda: write_ack(packet, target_id="sess-b")), base)
        verdicts = []
        row("ack verify --workspace (library)",
            best(runs, lambda: verdicts.append(_readback.read_and_verify(
                ack, packet, registry, workspace=repo))), base)
        assert verdicts[-1].accepted, verdicts[-1].to_dict()
        row("ack verify --workspace (command)",
            best(runs, lambda: passdown(repo, "ack", "verify", "ack.json", "--packet",
                                     "continuation.packet.txt", "--registry", "registry.yaml",
                                     "--workspace", ".")), base)
        git(repo, "config", "filter.bench.clean", "cat")
        with open(os.path.join(repo, ".git", "info", "attributes"), "w") as handle:
            handle.write("* filter=bench\n")
        row("readback, every tracked file behind a filter",
            best(runs, lambda: _readback.workspace_readback(repo, leave_out=leave_out)), base)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dirty", type=int, nargs="+", default=[10, 100, 1000, 5000])
    parser.add_argument("--size", type=int, default=2048)
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    print("ratios against `git status --porcelain -z --untracked-files=all` in the same checkout")
    for dirty in options.dirty:
        measure(dirty, options.size, options.runs)


if __name__ == "__main__":
    main()
