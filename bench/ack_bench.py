"""Benchmark: ``passdown ack verify --workspace .`` and ``passdown ack write`` as whole processes,
against the floor of what any verifier must do: one ``git status --porcelain=v2 -z`` in the
checkout plus hashing the dirty files with BLAKE3.

``b3sum`` is not installed on the development machine, so the floor's hashing half is a
``python -c`` process with the ``blake3`` package reading the same dirty files (whole
processes both: ``git status`` then the hasher, one after the other). Targets: within 3x the
floor with 10 dirty files, within 1.5x with 10,000.

For each N in ``--dirty`` the script builds a git checkout with N dirty files of ``--size``
bytes (half modified tracked files, half untracked), a handoff folder (``passdown init``,
``packet render``, ``attempt created``) and the target's ACK (``passdown ack write``), then
times, interleaved, ``--runs`` times each: the floor's two processes, ``passdown ack verify
ack.json --workspace .`` and ``passdown ack write --target-id sess-b`` (which replaces its own
untracked ACK), and what ``ack write``'s click route costs before the command runs
(``python -c "import click"`` and ``"import click, passdown.cli._ack"`` against ``python -c
pass``, as a share of ``ack write``'s CPU: what a fast path without click could save). Each
row gives the median wall time, the median CPU time of the process (``os.wait4``: user plus
system, children included for the floor's ``git``), and both ratios to the floor. The load average, interpreter and versions are printed first.

Usage: ``python bench/ack_bench.py [--dirty 10 10000] [--size 2048] [--runs 15]``
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GIT_ENV = {**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@example.invalid",
           "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@example.invalid"}
#: The floor's hashing half: every file named on stdin, hashed whole with the blake3 package.
HASHER = ("import sys\nfrom blake3 import blake3\n"
          "for name in sys.stdin.read().split('\\0'):\n"
          "    with open(name, 'rb') as handle:\n"
          "        print(blake3(handle.read()).hexdigest(), name)\n")
TARGETS = {10: 3.0, 10_000: 1.5}
#: What ``ack write`` pays before its own work, on the click route it takes: the interpreter,
#: then click, then the command's module. A fast path without click saves at most the second.
IMPORTS = {"bare": [sys.executable, "-c", "pass"],
           "click": [sys.executable, "-c", "import click"],
           "route": [sys.executable, "-c", "import click, passdown.cli._ack"]}


def launcher() -> list[str]:
    found = Path(sys.executable).with_name("passdown")
    return [str(found)] if found.is_file() else [sys.executable, "-m", "passdown"]


def git(repo, *args):
    subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True, env=GIT_ENV)


def passdown(repo, *args):
    subprocess.run([*launcher(), *args], cwd=repo, check=True, capture_output=True)


def make_checkout(folder: str, dirty: int, size: int) -> tuple[str, list[str]]:
    """A checkout with ``dirty`` dirty files and its handoff, ACK written; and the dirty paths."""
    repo = os.path.join(folder, "repo")
    os.makedirs(os.path.join(repo, "src"))
    git(repo, "init", "-q", "-b", "main")
    tracked = dirty // 2
    for n in range(tracked):
        Path(repo, "src", f"t{n}.txt").write_bytes(b"a" * size)
    Path(repo, "README").write_text("bench\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    passdown(repo, "init", "--goal-id", "goal-bench", "--main-id", "sess-a", "--outcome", "bench",
             "--next", "step")
    paths = []
    for n in range(tracked):
        Path(repo, "src", f"t{n}.txt").write_bytes(b"b" * size)
        paths.append(f"src/t{n}.txt")
    for n in range(dirty - tracked):
        Path(repo, "src", f"u{n}.txt").write_bytes(os.urandom(size))
        paths.append(f"src/u{n}.txt")
    passdown(repo, "packet", "render", "--source-id", "sess-a", "--restart-id", "r1")
    passdown(repo, "attempt", "created", "r1", "--target-id", "sess-b")
    passdown(repo, "ack", "write", "--target-id", "sess-b")
    return repo, paths


def timed_child(argv, cwd, stdin=None) -> tuple[float, float, bytes, int]:
    began = time.perf_counter()
    child = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE if stdin is not None else
                             subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if stdin is not None:
        child.stdin.write(stdin)
        child.stdin.close()
    out = child.stdout.read()
    err = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - began
    child.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_utime + usage.ru_stime, out + err, child.returncode


def measure(dirty: int, size: int, runs: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        repo, paths = make_checkout(folder, dirty, size)
        listing = "\0".join(paths).encode()
        status = ["git", "status", "--porcelain=v2", "-z", "--untracked-files=all"]
        hasher = [sys.executable, "-c", HASHER]
        verify = [*launcher(), "ack", "verify", "ack.json", "--workspace", "."]
        write = [*launcher(), "ack", "write", "--target-id", "sess-b"]
        rows: dict[str, list[tuple[float, float]]] = {"floor": [], "verify": [], "write": [],
                                                      "bare": [], "click": [], "route": []}
        loads = []
        for _ in range(runs):  # interleaved: a busy spell slows every row alike
            loads.append(os.getloadavg()[0])
            git_wall, git_cpu, _, code = timed_child(status, repo)
            hash_wall, hash_cpu, hashed, code2 = timed_child(hasher, repo, listing)
            assert code == code2 == 0 and hashed.count(b"\n") == dirty, hashed[-300:]
            rows["floor"].append((git_wall + hash_wall, git_cpu + hash_cpu))
            wall, cpu, out, code = timed_child(verify, repo)
            assert code == 0 and b": accepted" in out, out
            rows["verify"].append((wall, cpu))
            wall, cpu, out, code = timed_child(write, repo)
            assert code == 0, out
            rows["write"].append((wall, cpu))
            for key, argv in IMPORTS.items():
                wall, cpu, out, code = timed_child(argv, repo)
                assert code == 0, out
                rows[key].append((wall, cpu))
        floor_wall = statistics.median(w for w, _ in rows["floor"])
        floor_cpu = statistics.median(c for _, c in rows["floor"])
        print(f"\n{dirty:,} dirty files of {size} bytes, {runs} runs, load average "
              f"{min(loads):.1f} to {max(loads):.1f}")
        print(f"  {'':<46} {'wall':>9} {'CPU':>9} {'wall x':>7} {'CPU x':>7}")
        names = {"floor": "floor: git status -z + python -c blake3",
                 "verify": "passdown ack verify ack.json --workspace .",
                 "write": "passdown ack write --target-id sess-b"}
        for key, name in names.items():
            wall = statistics.median(w for w, _ in rows[key])
            cpu = statistics.median(c for _, c in rows[key])
            print(f"  {name:<46} {wall * 1000:7.1f}ms {cpu * 1000:7.1f}ms "
                  f"{wall / floor_wall:6.2f}x {cpu / floor_cpu:6.2f}x")
        bare = statistics.median(c for _, c in rows["bare"])
        write_cpu = statistics.median(c for _, c in rows["write"])
        for key, name in (("click", "importing click"),
                          ("route", "importing the click command (click, passdown.cli._ack)")):
            cost = statistics.median(c for _, c in rows[key]) - bare
            print(f"  {name:<58} {cost * 1000:7.1f}ms CPU over `python -c pass` "
                  f"({bare * 1000:.1f}ms): {cost / write_cpu:.0%} of ack write's CPU")
        target = TARGETS.get(dirty)
        if target:
            ratio = statistics.median(w for w, _ in rows["verify"]) / floor_wall
            print(f"  target: ack verify within {target}x the floor: "
                  f"{'met' if ratio <= target else 'NOT met'} ({ratio:.2f}x wall)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dirty", type=int, nargs="+", default=[10, 10_000])
    parser.add_argument("--size", type=int, default=2048)
    parser.add_argument("--runs", type=int, default=15)
    options = parser.parse_args()
    git_version = subprocess.run(["git", "--version"], capture_output=True, text=True).stdout.strip()
    from importlib.metadata import version

    print(f"{platform.python_implementation()} {platform.python_version()}, {git_version}, "
          f"passdown {version('passdown')}, blake3 {version('blake3')}, {platform.machine()} "
          f"{platform.system()}, {os.cpu_count()} cores, load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("floor: `git status --porcelain=v2 -z --untracked-files=all` then `python -c` hashing "
          "the dirty files with the blake3 package (b3sum is not installed), whole processes")
    for dirty in options.dirty:
        measure(dirty, options.size, options.runs)


if __name__ == "__main__":
    main()
