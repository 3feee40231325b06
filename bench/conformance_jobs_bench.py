"""Program mode with several cases at once: the full suite with ``-j 2`` (and ``-j N`` for
the machine's cores, when that is more) against the named baseline ``-j 1``, one case at a
time, as program mode ran before.

The program is Baton's own ``baton gate`` (the two-import launcher next to this Python), so
every case of every gate runs and passes; each case is one process start, which is what
program mode costs a host. Each row is the best of ``--runs`` runs (a shared machine slows
some runs down; the best is the least disturbed), with the load average when it started.
The target is a ratio of at least 1.7 for ``-j 2`` on two cores.

Usage: ``python bench/conformance_jobs_bench.py [--runs 1] [--gate GATE ...]``
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from baton.conformance import Program, load_suite, run

TARGET = 1.7


def program_argv() -> list[str]:
    launcher = Path(sys.executable).parent / "baton"
    return [str(launcher), "gate"] if launcher.exists() else [sys.executable, "-m", "baton", "gate"]


def timed(cases, jobs: int, runs: int) -> tuple[float, str, float]:
    best, line, load = float("inf"), "", 0.0
    for _ in range(runs):
        started_load = os.getloadavg()[0]
        program = Program(program_argv(), timeout=30)
        began = time.perf_counter()
        report = run(cases, program, mode="program", jobs=jobs)
        spent = time.perf_counter() - began
        program.close()
        if spent < best:
            best, line, load = spent, report.summary_line(), started_load
    return best, line, load


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--gate", action="append", default=[], help="only these gates (default: every case)")
    args = parser.parse_args(argv)
    cases = [c for c in load_suite().cases if not args.gate or c.gate in args.gate]
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    print(f"program mode, `{' '.join(program_argv())}` per case: {len(cases)} cases, {cores} cores")
    baseline, line, load = timed(cases, 1, args.runs)
    print(f"  -j 1 (baseline): {baseline:6.1f} s  {len(cases) / baseline:5.1f} cases/s  "
          f"load {load:.1f}  ({line})")
    failed = False
    for jobs in sorted({2, cores}):
        spent, line, load = timed(cases, jobs, args.runs)
        ratio = baseline / spent
        verdict = f"target {TARGET}x: {'OK' if ratio >= TARGET else 'UNDER'}" if jobs == 2 else ""
        print(f"  -j {jobs}:            {spent:6.1f} s  {len(cases) / spent:5.1f} cases/s  "
              f"load {load:.1f}  ({line})  {ratio:.2f}x  {verdict}")
        failed |= jobs == 2 and ratio < TARGET
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
