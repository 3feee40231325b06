"""Program mode with several cases at once: the full suite with ``-j 2`` (and ``-j N`` for
the machine's cores, when that is more) against the named baseline ``-j 1``, one case at a
time, as program mode ran before.

The program is Passdown's own ``passdown gate`` (the one-import launcher next to this Python), so
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

from passdown.conformance import Program, load_suite, run

TARGET = 1.7


def program_argv() -> list[str]:
    launcher = Path(sys.executable).parent / "passdown"
    return [str(launcher), "gate"] if launcher.exists() else [sys.executable, "-m", "passdown", "gate"]


def once(cases, jobs: int) -> tuple[float, str, float]:
    """Wall time, summary line and the load average when it started, of one run."""
    started_load = os.getloadavg()[0]
    program = Program(program_argv(), timeout=30)
    began = time.perf_counter()
    report = run(cases, program, mode="program", jobs=jobs)
    spent = time.perf_counter() - began
    program.close()
    return spent, report.summary_line(), started_load


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1, help="runs of each setting, interleaved; the best is kept")
    parser.add_argument("--gate", action="append", default=[], help="only these gates (default: every case)")
    args = parser.parse_args(argv)
    cases = [c for c in load_suite().cases if not args.gate or c.gate in args.gate]
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    settings = sorted({1, 2, cores})
    print(f"program mode, `{' '.join(program_argv())}` per case: {len(cases)} cases, {cores} cores")
    best: dict[int, tuple[float, str, float]] = {}
    for _ in range(args.runs):  # interleaved, so that a busy spell does not favour one setting
        for jobs in settings:
            result = once(cases, jobs)
            if jobs not in best or result[0] < best[jobs][0]:
                best[jobs] = result
    baseline = best[1][0]
    failed = False
    for jobs in settings:
        spent, line, load = best[jobs]
        name = "-j 1 (baseline)" if jobs == 1 else f"-j {jobs}"
        ratio = baseline / spent
        verdict = f"  target {TARGET}x: {'OK' if ratio >= TARGET else 'UNDER'}" if jobs == 2 else ""
        print(f"  {name:<16} {spent:6.1f} s  {len(cases) / spent:5.1f} cases/s  load {load:4.1f}  "
              f"{ratio:.2f}x  ({line}){verdict}")
        failed |= jobs == 2 and ratio < TARGET
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
