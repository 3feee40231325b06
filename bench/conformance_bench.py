"""Conformance runner speed: figures and ratios against named baselines.

1. The full suite against the built-in reference, as a user runs it
   (`passdown conformance run`, a fresh process), against the 2-second budget.
2. The Python example adapter in harness mode against the same adapter in program mode
   (one process per case, the CommonMark-style baseline): cases per second, and the ratio
   (the target is at least 20x).

Run: python bench/conformance_bench.py
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from passdown.conformance import Harness, Program, Reference, load_suite, run

REPO = Path(__file__).resolve().parent.parent
ADAPTER = [sys.executable, str(REPO / "conformance" / "adapters" / "python" / "passdown_adapter.py")]
BUDGET_SECONDS = 2.0
TARGET_RATIO = 20.0


def wall(argv, repeat=5):
    """Median wall time and median CPU time (user + system) of a fresh process. On a busy
    machine the wall time grows with the load; the CPU time is what the run itself costs."""
    import resource

    walls, cpus = [], []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        began = time.perf_counter()
        subprocess.run(argv, capture_output=True, check=False)
        walls.append(time.perf_counter() - began)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def adapter_cases():
    """The suite's restart and title cases; the example file's cases when there are none yet."""
    cases = [c for c in load_suite().cases if c.gate in ("restart", "title")]
    if not cases:
        import shutil
        import tempfile

        folder = Path(tempfile.mkdtemp())
        (folder / "title").mkdir()
        shutil.copy(REPO / "conformance" / "examples" / "fixture.json", folder / "title" / "example.json")
        cases = list(load_suite(folder).cases) * 50
    return cases


def main():
    suite = load_suite()
    print(f"suite: {len(suite.cases)} cases in {len(suite.files)} files, {len(suite.gates())} gates")

    began = time.perf_counter()
    in_process = run(suite.cases, Reference(), mode="reference")
    inside = time.perf_counter() - began
    command, cpu = wall([sys.executable, "-m", "passdown", "conformance", "run"])
    print(f"reference, in-process: {inside * 1000:.0f} ms for {len(suite.cases)} cases "
          f"({in_process.summary_line()})")
    warm = run(suite.cases, Reference(), mode="reference")  # imports done: the gates' own cost
    for gate, results in warm.by_gate().items():
        spent = sum(r.duration for r in results)
        print(f"  {gate}: {len(results)} cases, {spent * 1000:.0f} ms, {spent / len(results) * 1e6:.0f} us per case")
    print(f"reference, `passdown conformance run` wall time (median of 5): {command:.2f} s; "
          f"budget {BUDGET_SECONDS:.1f} s: {'OK' if command < BUDGET_SECONDS else 'OVER'} "
          f"({command / BUDGET_SECONDS:.0%} of budget); CPU time {cpu:.2f} s "
          f"(load average now {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)")

    cases = adapter_cases()
    harness = Harness(ADAPTER, timeout=10)
    began = time.perf_counter()
    harness.start()
    report = run(cases, harness, mode="harness")
    harness.close()
    harness_rate = len(cases) / (time.perf_counter() - began)
    sample = cases[: min(len(cases), 60)]
    began = time.perf_counter()
    program_report = run(sample, Program(ADAPTER, timeout=10), mode="program")
    program_rate = len(sample) / (time.perf_counter() - began)
    ratio = harness_rate / program_rate
    print(f"python adapter, harness mode: {harness_rate:,.0f} cases/s over {len(cases)} cases "
          f"({report.summary_line()}), start-up and stop included")
    print(f"python adapter, program mode (baseline): {program_rate:,.1f} cases/s over {len(sample)} cases "
          f"({program_report.summary_line()})")
    print(f"harness / program: {ratio:.0f}x; target {TARGET_RATIO:.0f}x: "
          f"{'OK' if ratio >= TARGET_RATIO else 'UNDER'}")


if __name__ == "__main__":
    main()
