"""Benchmark: checkpoint updates (``passdown.authoring.update_checkpoint``) against a named
baseline, alone and under contention.

Baseline: a bare atomic replace of the same file (``passdown.workspace._atomic.atomic_write``: temporary
file, fsync, rename, directory fsync) with no lock, no parsing and no validation. It is the
floor every durable writer pays; the ratios say what the lock, the compare-and-swap, the
parse and render, and the validation of the result cost on top of it.

Rows:

- one writer, validated (the default) and with ``validate=False``;
- W writer processes on one file, updates per second in total, plain and with
  ``expect_revision`` (the share of updates refused as conflicts is printed too);
- the command line, one process per update as a hook runs it, against ``python -c pass``.

The document keeps its size (each update sets ``mission``), so the figures do not drift as
a plan grows. Every row is the best of ``--runs`` runs: fsync latency on a shared disk varies
from run to run by several times, and the best run is the one least disturbed by others.
Usage: ``python bench/authoring_bench.py [--updates 200] [--writers 8] [--runs 3]``
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import subprocess
import sys
import tempfile
import time

from passdown.workspace import _atomic
from passdown.errors import ConflictError
from passdown.authoring import Identity, Policy, init, update_checkpoint

_FORK = multiprocessing.get_context("fork")


def make_project(folder: str, steps: int) -> str:
    init(folder, Identity(goal_id="goal-bench", main_id="sess-a", outcome="benchmark",
                          first_step="step 0"), Policy())
    path = os.path.join(folder, "xbrief", "continue.xbrief.json")
    for n in range(1, steps):
        update_checkpoint(path, "add-pending", f"step {n}", validate=False)
    return path


def per_second(count: int, seconds: float) -> float:
    return count / seconds if seconds else float("inf")


def baseline(path: str, count: int) -> float:
    data = open(path, "rb").read()
    start = time.perf_counter()
    for _ in range(count):
        _atomic.atomic_write(path, data)
    return per_second(count, time.perf_counter() - start)


def single(path: str, count: int, validate: bool) -> float:
    start = time.perf_counter()
    for n in range(count):
        update_checkpoint(path, "set", "mission", f"mission {n} {validate}", validate=validate)
    return per_second(count, time.perf_counter() - start)


def _writer(path, worker, count, cas, validate, results):
    refused = 0
    for n in range(count):
        value = f"mission {worker} {n}"
        if cas:
            with open(path) as handle:
                revision = json.load(handle)["x-passdown/checkpoint"]["revision"]
            try:
                update_checkpoint(path, "set", "mission", value, expect_revision=revision,
                                  validate=validate, timeout=120)
            except ConflictError:
                refused += 1
        else:
            update_checkpoint(path, "set", "mission", value, validate=validate, timeout=120)
    results.put(refused)


def contention(path: str, writers: int, count: int, cas: bool, validate: bool):
    results = _FORK.Queue()
    before = _revision(path)
    start = time.perf_counter()
    processes = [_FORK.Process(target=_writer, args=(path, w, count, cas, validate, results))
                 for w in range(writers)]
    for process in processes:
        process.start()
    refused = sum(results.get() for _ in processes)
    for process in processes:
        process.join()
    seconds = time.perf_counter() - start
    applied = _revision(path) - before
    assert applied == writers * count - refused, (applied, refused)
    return per_second(writers * count, seconds), refused / (writers * count)


def _revision(path: str) -> int:
    with open(path) as handle:
        return json.load(handle)["x-passdown/checkpoint"]["revision"]


def cli(path: str, count: int) -> tuple[float, float]:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    start = time.perf_counter()
    for _ in range(count):
        subprocess.run([sys.executable, "-c", "pass"], check=True, env=env)
    bare = (time.perf_counter() - start) / count
    start = time.perf_counter()
    for n in range(count):
        subprocess.run([sys.executable, "-m", "passdown", "checkpoint", "set", "mission",
                        f"cli mission {n}", "--checkpoint", path], check=True, env=env,
                       capture_output=True)
    return (time.perf_counter() - start) / count, bare


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--updates", type=int, default=200, help="updates per row")
    parser.add_argument("--writers", type=int, default=8, help="writer processes")
    parser.add_argument("--steps", type=int, default=20, help="plan items in the checkpoint")
    parser.add_argument("--cli-runs", type=int, default=10, help="command-line updates")
    parser.add_argument("--runs", type=int, default=3, help="runs per row (the best counts)")
    args = parser.parse_args(argv)

    def best(measure):
        return max((measure() for _ in range(args.runs)), key=lambda r: r[0] if
                   isinstance(r, tuple) else r)

    with tempfile.TemporaryDirectory() as folder:
        path = make_project(folder, args.steps)
        floor = best(lambda: baseline(path, args.updates))
        rows = [("bare atomic replace (baseline)", floor, None)]
        rows.append(("one writer, validated",
                     best(lambda: single(path, args.updates, True)), None))
        rows.append(("one writer, validate=False",
                     best(lambda: single(path, args.updates, False)), None))
        each = max(1, args.updates // args.writers)
        for cas in (False, True):
            for validate in (True, False):
                rate, refused = best(lambda: contention(path, args.writers, each, cas,
                                                        validate))
                label = (f"{args.writers} writers, {'expect_revision' if cas else 'plain'}, "
                         f"{'validated' if validate else 'validate=False'}")
                rows.append((label, rate, refused))
        print(f"checkpoint with {args.steps} items, {os.path.getsize(path):,} bytes; "
              f"{args.updates} updates per row, best of {args.runs} runs")
        print(f"{'writer':48} {'updates/s':>10} {'x baseline':>11} {'refused':>8}")
        for label, rate, refused in rows:
            shown = "" if refused is None else f"{refused:.0%}"
            print(f"{label:48} {rate:10.0f} {rate / floor:11.2f} {shown:>8}")
        per_update, bare = cli(path, args.cli_runs)
        print(f"\ncommand line, one process per update: {per_update * 1000:.0f} ms "
              f"(python -c pass: {bare * 1000:.0f} ms, ratio {per_update / bare:.1f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
