"""Benchmark: the guard gate on every tool call, and on the worst inputs within its limits.

The guard runs before every tool call a host makes, so its cost per call and its cold start
matter; and since a model (or anything it pastes) controls the text, no input within the
limits may make it slow. Three sections, each printed with its ratio to a named baseline:

- worst cases: ``guard.decide`` on hostile shapes of 64 KB (chained ``env`` wrappers, nested
  substitutions, quotes, here-documents, parentheses, executor calls, kill patterns...), each
  against the same shape at a quarter of the size: a linear reader takes 4x as long, a
  quadratic one 16x. Also the largest input the gate reads: 4 MiB of commands;
- per call: ``guard.decide`` on every ``execute`` vector of ``conformance/cases/guard``
  (best of N runs, microseconds per call), against ``shlex`` splitting the same command text
  with ``punctuation_chars=True``: the bare word split a simpler guard would start from;
- cold start: ``passdown gate guard`` judging one command in a fresh process (a plain call, and
  one naming ``kill``, which loads the regular expressions), against ``python -c pass`` (the
  interpreter's own start-up).

Usage: ``python bench/guard_bench.py [--runs 5] [--starts 20] [--only worst|call|start]``
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import shlex
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
KB = 1024


def _repeat(unit, size, head="", tail=""):
    """``head`` + ``unit`` repeated to about ``size`` characters + ``tail``."""
    return head + unit * max(1, (size - len(head) - len(tail)) // len(unit)) + tail


# name -> (a function of the size in characters giving the call's arguments, extra input fields)
WORST = {
    "chained env wrappers": (lambda n: _repeat("env ", n, tail="reboot"), {}),
    "chained sudo -u wrappers": (lambda n: _repeat("sudo -u root ", n, tail="ls"), {}),
    "assignments before a verb": (lambda n: _repeat("A=1 ", n, tail="reboot"), {}),
    "unclosed $( substitutions": (lambda n: _repeat("$(", n, head="echo "), {}),
    "double quotes with $(": (lambda n: _repeat('"$(', n), {}),
    "backticks": (lambda n: _repeat("`", n), {}),
    "single quotes": (lambda n: _repeat("'", n), {}),
    "here-documents": (lambda n: _repeat("cat <<A\nA\n", n, tail="ls"), {}),
    "one long word": (lambda n: _repeat("a", n), {}),
    "parentheses in one word": (lambda n: _repeat("(", n, head="a"), {}),
    "commands and separators": (lambda n: _repeat("ls;", n), {}),
    "kill targets": (lambda n: _repeat("1 ", n, head="kill "), {}),
    "member chain in code": (lambda n: _repeat("a.", n, head="node -e '", tail="b'"), {}),
    "unclosed executor calls": (lambda n: _repeat("run(", n, head='node -e "', tail='"'), {}),
    "nested sh -c": (lambda n: _repeat("sh -c ", n, tail="reboot"), {}),
    "printf format reuse": (lambda n: "printf '" + "x" * (n // 4) + "%s' " + "a " * (n // 4) + "| sh", {}),
    "killall -r patterns": (lambda n: _repeat("'n(o|x)+de$' ", n, head="killall -r "),
                            {"host_names": ["node", "dsh"]}),
    "pkill pattern, 64 long names": (lambda n: _repeat("(a|b)*", n, head="pkill -f '", tail="'"),
                                     {"host_names": ["n" * 256] * 64}),
}


def worst_cases(guard, runs):
    # CPU time of this process, best of the runs: on a shared machine wall time also counts
    # the time other processes held the CPU.
    runs = max(runs, 7)
    print(f"worst cases, CPU time, best of {runs} (baseline: the same shape at a quarter of the "
          "size; linear is 4x):")
    for name, (build, extra) in WORST.items():
        figures = []
        for size in (16 * KB, 64 * KB):
            value = {"tool": "execute", "arguments": build(size), "host_pid": 4242, **extra}
            best, outcome = float("inf"), None
            for _ in range(runs):
                gc.collect()
                start = time.process_time()
                outcome = guard.decide(value).outcome
                best = min(best, time.process_time() - start)
            figures.append((best, outcome, len(value["arguments"])))
        (small, _, _), (large, outcome, length) = figures
        print(f"  {name:30} {length / KB:5.1f} KB {large * 1e3:8.1f} ms   ratio {large / small:4.1f}x"
              f"   {outcome}")
    chain = _repeat("env ", 64 * KB - 8, tail="ls")
    value = {"tool": "execute", "arguments": {"commands": [chain] * 63}, "host_pid": 4242}
    size = len(json.dumps(value))
    gc.collect()
    start = time.process_time()
    outcome = guard.decide(value).outcome
    print(f"  the largest input: {len(value['arguments']['commands'])} commands of 64 KB "
          f"({size / KB / KB:.1f} MiB) {(time.process_time() - start) * 1e3:8.1f} ms   {outcome}")


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


def per_call(guard, runs):
    items = vectors()
    guard.decide(items[0])  # load re and the readers once, as a long-running host would
    judged = best_per_call(guard.decide, items, runs)
    baseline = best_per_call(split, items, runs)
    print(f"per call over {len(items)} execute vectors (best of {runs}):")
    print(f"  guard.decide           {judged:8.1f} us")
    print(f"  shlex split (baseline) {baseline:8.1f} us   ratio {judged / baseline:.2f}x")


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


def starts(count):
    gate = [sys.executable, "-c", "import sys; from passdown._entry import main; sys.exit(main(['gate', 'guard', '-']))"]
    bare = [sys.executable, "-c", "pass"]
    interpreter = cold_start(bare, count)
    print(f"cold start, median of {count}:")
    print(f"  python -c pass (baseline)          {interpreter:6.1f} ms")
    for name, sample in SAMPLES.items():
        started = cold_start(gate, count, sample)
        print(f"  passdown gate guard, {name:16} {started:6.1f} ms   ratio {started / interpreter:.2f}x")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--starts", type=int, default=20)
    parser.add_argument("--only", choices=("worst", "call", "start"))
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT / "validator"))
    from passdown.gates import guard

    print(f"Python {platform.python_version()} ({platform.python_implementation()}), "
          f"{platform.machine()}, {platform.system()}")
    if args.only in (None, "worst"):
        worst_cases(guard, args.runs)
    if args.only in (None, "call"):
        per_call(guard, args.runs)
    if args.only in (None, "start"):
        starts(args.starts)


if __name__ == "__main__":
    main()
