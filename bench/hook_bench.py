"""Benchmark: the start-up of ``passdown hook claude PreToolUse``, which the host runs before
every tool call, against the interpreter's own start-up.

Three whole processes, run by the same interpreter, interleaved (one of each per round, so
a busy moment slows all three alike), each fed its input on stdin:

- ``python -c pass``: the baseline, the interpreter starting and stopping;
- ``passdown gate guard``: the guard gate's own fast path on the same calls;
- ``passdown hook claude PreToolUse``: the hook on a Bash call as Claude Code sends it.

Each is run on a plain call, and on one naming ``kill`` (which makes the guard load its
regular expressions, the gate's own cost). Prints the interpreter, the minimum and the median
wall time of each, the median ratio to the baseline (the gate path's start-up budget: at most
1.5x the bare interpreter for a plain call), and what the hook adds over the gate on the
same call.

Usage: ``python bench/hook_bench.py [--runs 60]`` from an environment where Passdown is installed.
The package's bytecode is compiled first, as an installed wheel's is.
"""

from __future__ import annotations

import argparse
import compileall
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

TARGET = 1.5


def _hook_input(command):
    return json.dumps({
        "session_id": "abc123", "transcript_path": "/home/user/.claude/projects/p/s.jsonl",
        "cwd": "/home/user/project", "permission_mode": "default",
        "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": command, "description": "run", "timeout": 120000,
                       "run_in_background": False},
        "tool_use_id": "toolu_01ABC123"}).encode()


def _gate_input(command):
    return json.dumps({"tool": "execute", "arguments": {"command": command},
                       "host_pid": 4242}).encode()


def _launcher():
    found = Path(sys.executable).with_name("passdown")
    if not found.is_file():
        sys.exit(f"passdown: no launcher beside {sys.executable}; install Passdown in this environment")
    return str(found)


def _wall(argv, stdin):
    start = time.perf_counter()
    result = subprocess.run(argv, input=stdin, stdout=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start, result.returncode


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=60, help="interleaved runs of each command")
    args = parser.parse_args(argv)

    import passdown

    compileall.compile_dir(str(Path(passdown.__file__).parent), quiet=1)
    launcher = _launcher()
    plain, kill = "git status && make test", 'git commit -m "never kill -1"'
    hook = [launcher, "hook", "claude", "PreToolUse"]
    commands = {
        "python -c pass (baseline)": ([sys.executable, "-c", "pass"], b""),
        "passdown gate guard (plain call)": ([launcher, "gate", "guard"], _gate_input(plain)),
        "passdown hook claude PreToolUse (plain call)": (hook, _hook_input(plain)),
        "passdown gate guard (names kill)": ([launcher, "gate", "guard"], _gate_input(kill)),
        "passdown hook claude PreToolUse (names kill)": (hook, _hook_input(kill)),
    }
    for argv_, stdin in commands.values():  # warm the page cache
        _wall(argv_, stdin)
    times = {label: [] for label in commands}
    for _ in range(args.runs):
        for label, (argv_, stdin) in commands.items():
            elapsed, status = _wall(argv_, stdin)
            if status != 0:
                sys.exit(f"{label} exited {status}")
            times[label].append(elapsed)

    print(f"python {sys.version.split()[0]} at {sys.executable}")
    print(f"\ncold start, {args.runs} interleaved runs each (wall time, ms):")
    print(f"  {'command':<45} {'min':>8} {'median':>8} {'ratio':>7}")
    baseline = statistics.median(times["python -c pass (baseline)"])
    for label, samples in times.items():
        median = statistics.median(samples)
        print(f"  {label:<45} {min(samples) * 1e3:8.2f} {median * 1e3:8.2f} {median / baseline:6.2f}x")
    median = {label: statistics.median(samples) for label, samples in times.items()}
    ratio = median["passdown hook claude PreToolUse (plain call)"] / baseline
    verdict = "meets" if ratio <= TARGET else "MISSES"
    print(f"\nhook on a plain call / baseline: {ratio:.2f}x ({verdict} the {TARGET}x start-up "
          "budget of the gate path)")
    for call in ("plain call", "names kill"):
        extra = median[f"passdown hook claude PreToolUse ({call})"] - median[f"passdown gate guard ({call})"]
        print(f"hook over the gate, {call}: {extra * 1e3:+.2f} ms median")
    return 0


if __name__ == "__main__":
    sys.exit(main())
