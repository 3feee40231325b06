"""Benchmark: the guard gate on every tool call, against named baselines.

The guard runs before every tool call a host makes, so its cost per call and its cold start
matter. Two figures, each printed with its ratio to a baseline:

- per call: ``guard.decide`` on every ``execute`` vector of ``conformance/cases/guard``
  (best of N runs, microseconds per call), against ``shlex`` splitting the same command text
  with ``punctuation_chars=True``: the bare word split a simpler guard would start from;
- cold start: ``baton gate guard`` judging one command in a fresh process (a plain call, and
  one naming ``kill``, which loads the regular expressions), against ``python -c pass`` (the
  interpreter's own start-up).

Usage: ``python bench/guard_bench.py [--runs 5] [--starts 20]``
"""

from __future__ import annotations

import argparse
import json
import shlex
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# A typical call, and one that mentions kill (which loads the regular expressions).
SAMPLES = {
    "plain call": b'{"tool": "execute", "arguments": "git status && make test", "host_pid": 4242}',
    "call naming kill": b'{"tool": "execute", "arguments": "git commit -m \\"never kill -1\\"", "host_pid": 4242}',
}


def vectors():
    found = []
    for path in sorted((ROOT / "conformance" / "cases" / "guard").glob("*.json")):
        for case in json.loads(path.read_text(encoding="utf-8"))["cases"]:
            value = case.get("input")
            if isinstance(value, dict) and value.get("tool") == "execute" and isinstance(value.get("arguments"), str):
                if len(value["arguments"]) <= 4096:
                    found.append(value)
    return found


def best_per_call(function, items, runs):
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        for item in items:
            function(item)
        best = min(best, time.perf_counter() - start)
    return best / len(items) * 1e6


def split(value):
    try:
        return list(shlex.shlex(value["arguments"], posix=True, punctuation_chars=True))
    except ValueError:  # shlex raises on an unclosed quote; the guard reads it to the end
        return None


def cold_start(command, starts, stdin=b""):
    """Median wall time of a fresh process, its bytecode cached as an installed wheel's is."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, PYTHONPYCACHEPREFIX=cache)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        subprocess.run(command, input=stdin, capture_output=True, check=False, env=env)  # compile once
        times = []
        for _ in range(starts):
            start = time.perf_counter()
            subprocess.run(command, input=stdin, capture_output=True, check=False, env=env)
            times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--starts", type=int, default=20)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT / "validator"))
    from baton.gates import guard

    items = vectors()
    guard.decide(items[0])  # load re and the readers once, as a long-running host would
    judged = best_per_call(guard.decide, items, args.runs)
    baseline = best_per_call(split, items, args.runs)
    print(f"per call over {len(items)} execute vectors (best of {args.runs}):")
    print(f"  guard.decide          {judged:8.1f} us")
    print(f"  shlex split (baseline) {baseline:7.1f} us   ratio {judged / baseline:.2f}x")

    gate = [sys.executable, "-c", "import sys; from baton._entry import main; sys.exit(main(['gate', 'guard', '-']))"]
    bare = [sys.executable, "-c", "pass"]
    interpreter = cold_start(bare, args.starts)
    print(f"cold start, median of {args.starts}:")
    print(f"  python -c pass (baseline)        {interpreter:6.1f} ms")
    for name, sample in SAMPLES.items():
        started = cold_start(gate, args.starts, sample)
        print(f"  baton gate guard, {name:16} {started:6.1f} ms   ratio {started / interpreter:.2f}x")


if __name__ == "__main__":
    main()
