"""Benchmark of the decision gates' two speed targets, printed as figures and ratios:

1. cold start: ``passdown gate restart < obs.json`` against bare ``python3 -c pass`` run by the
   same interpreter, side by side (interleaved runs; minimum and median wall time; target:
   the gate at most 1.5x the bare interpreter);
2. in-process restart decisions per second on the session-restart reference's example
   observation, from a parsed value (``decide``) and from bytes (``run``); target: at least
   100,000 per second.

Run it from an environment where Passdown is installed: ``python bench/gates_bench.py``
(``--runs N`` for the cold-start sample, ``--seconds S`` for each throughput figure). The
package's bytecode is compiled first, as an installed wheel's is.
"""

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

def readme_observation():
    """The reference's example observation, as conformance case ``restart.example.readme``."""
    from passdown._resources import data_dir

    path = data_dir("conformance") / "cases" / "restart" / "examples.json"
    cases = json.loads(path.read_text(encoding="utf-8"))["cases"]
    return next(case["input"] for case in cases if case["id"] == "restart.example.readme")


def _launcher():
    found = Path(sys.executable).with_name("passdown")
    if not found.is_file():
        sys.exit(f"passdown: no launcher beside {sys.executable}; install Passdown in this environment")
    return found


def _wall(argv, stdin_path):
    with open(stdin_path, "rb") as stdin:
        start = time.perf_counter()
        result = subprocess.run(argv, stdin=stdin, stdout=subprocess.DEVNULL, check=False)
        elapsed = time.perf_counter() - start
    return elapsed, result.returncode


def cold_start(runs, observation_value):
    import passdown

    compileall.compile_dir(str(Path(passdown.__file__).parent), quiet=1)
    launcher = _launcher()
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(observation_value, handle)
        observation = handle.name
    try:
        bare = [sys.executable, "-c", "pass"]
        gate = [str(launcher), "gate", "restart"]
        for argv in (bare, gate):  # warm the page cache
            _wall(argv, observation)
        bare_times, gate_times = [], []
        for _ in range(runs):
            bare_times.append(_wall(bare, observation)[0])
            elapsed, status = _wall(gate, observation)
            if status != 0:
                sys.exit(f"passdown gate restart exited {status} on the example observation")
            gate_times.append(elapsed)
    finally:
        os.unlink(observation)
    return bare_times, gate_times


def throughput(function, argument, seconds, repeats=7):
    """Calls per second of ``function(argument)``: the best of ``repeats`` windows of
    ``seconds / repeats`` each (as ``timeit`` takes the minimum: other processes only ever
    slow a window down)."""
    batch = 1000
    best = 0.0
    for _ in range(repeats):
        count = 0
        start = time.perf_counter()
        deadline = start + seconds / repeats
        while True:
            for _ in range(batch):
                function(argument)
            count += batch
            now = time.perf_counter()
            if now >= deadline:
                break
        best = max(best, count / (now - start))
    return best


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=100, help="cold-start runs of each command")
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per throughput figure")
    args = parser.parse_args(argv)

    from passdown.gates import restart

    print(f"python {sys.version.split()[0]} at {sys.executable}")
    print(f"\ncold start, {args.runs} interleaved runs each (wall time, ms):")
    observation = readme_observation()
    bare, gate = cold_start(args.runs, observation)
    print(f"  {'command':<40} {'min':>8} {'median':>8}")
    print(f"  {'python3 -c pass (baseline)':<40} {min(bare) * 1e3:8.2f} {statistics.median(bare) * 1e3:8.2f}")
    print(f"  {'passdown gate restart < obs.json':<40} {min(gate) * 1e3:8.2f} {statistics.median(gate) * 1e3:8.2f}")
    ratio_min = min(gate) / min(bare)
    ratio_median = statistics.median(gate) / statistics.median(bare)
    verdict = "meets" if ratio_median <= 1.5 else "MISSES"
    print(f"  ratio gate / baseline: min {ratio_min:.2f}x, median {ratio_median:.2f}x "
          f"({verdict} the 1.5x target)")

    raw = json.dumps(observation).encode()
    decision = restart.decide(observation)
    assert decision.outcome == "CREATE_FRESH", decision
    print("\nin-process restart decisions on the reference example (decisions per second):")
    rows = [
        ("restart.decide(parsed observation)", restart.decide, observation),
        ("restart.run(observation bytes)", restart.run, raw),
    ]
    for label, function, argument in rows:
        rate = throughput(function, argument, args.seconds)
        verdict = "meets" if rate >= 100_000 else "MISSES"
        print(f"  {label:<40} {rate:12,.0f}/s  {rate / 100_000:5.2f}x the 100,000/s target ({verdict})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
