"""Benchmark: ``passdown observe claude|codex`` and the Stop hook on a small real session file
and on one of about 1 GB made by repeating its real records, against ``python -c pass``.

The large files are generated here (in a temporary folder, removed afterwards, never
committed): the real sample's head, its middle records repeated, its tail
(tests/data/hosts/MANIFEST.md), so the answer must be the same as the small file's. Every
case is a whole process, interleaved round by round so a busy moment slows all alike:

- ``python -c pass``: the baseline;
- ``passdown observe HOST --transcript SMALL`` and ``... BIG``: the same answer, the ratio of
  their medians (the goal: within 1.5x), and each child's peak memory (the goal: under 64 MiB);
- ``passdown hook claude Stop`` on the big transcript in a project with a registry: the hook
  the host runs at the end of every turn.

Usage: ``python bench/observe_bench.py [--runs 7] [--gigabytes 1]`` from an environment where
Passdown is installed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "hosts"
SAMPLES = {"claude": DATA / "claude" / "session-2.1.39.jsonl",
           "codex": DATA / "codex" / "rollout-0.125.0.jsonl"}
SESSION = "4d5611e5-241a-462a-8d15-5122611a9569"


def grow(source: Path, target: Path, size: int) -> None:
    lines = source.read_bytes().split(b"\n")[:-1]
    head, middle, tail = lines[:10], lines[10:-12], lines[-12:]
    chunk = b"\n".join(middle) + b"\n"
    with open(target, "wb") as out:
        out.write(b"\n".join(head) + b"\n")
        for _ in range(size // len(chunk) + 1):
            out.write(chunk)
        out.write(b"\n".join(tail) + b"\n")


def run(argv, stdin=None, cwd=None, env=None):
    """``(seconds, peak RSS in bytes, stdout)`` of one child process (its own rusage)."""
    start = time.perf_counter()
    child = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, cwd=cwd, env=env)
    if stdin:
        child.stdin.write(stdin)
    child.stdin.close()
    out, err = child.stdout.read(), child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        sys.exit(f"{' '.join(map(str, argv))} failed ({child.returncode}): {err.decode()}")
    return seconds, usage.ru_maxrss * 1024, out  # ru_maxrss is in KiB on Linux


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--gigabytes", type=float, default=1.0)
    args = parser.parse_args()
    launcher = str(Path(sys.executable).with_name("passdown"))
    work = Path(tempfile.mkdtemp(prefix="observe-bench-"))
    try:
        big = {}
        for host, sample in SAMPLES.items():
            big[host] = work / f"{host}-big.jsonl"
            grow(sample, big[host], int(args.gigabytes * (1 << 30)))
        project = work / "project"
        project.mkdir()
        env = {**os.environ, "HOME": str(work)}
        subprocess.run([launcher, "init", "--goal-id", "bench", "--main-id", SESSION, "--outcome",
                        "bench", "--next", "bench", "-q"], cwd=project, env=env, check=True)
        stop = json.dumps({"session_id": SESSION, "transcript_path": str(big["claude"]),
                           "cwd": str(project), "hook_event_name": "Stop",
                           "stop_hook_active": False}).encode()
        cases = {"python -c pass": ([sys.executable, "-c", "pass"], None)}
        for host in SAMPLES:
            for name, path in (("small", SAMPLES[host]), ("big", big[host])):
                cases[f"observe {host} {name}"] = (
                    [launcher, "observe", host, "--transcript", str(path), "--format", "json"], None)
        cases["hook claude Stop big"] = ([launcher, "hook", "claude", "Stop",
                                          "--context-capacity", "200000"], stop)
        times = {name: [] for name in cases}
        peaks = {name: 0 for name in cases}
        answers = {}
        for _ in range(args.runs):
            for name, (argv, stdin) in cases.items():
                seconds, peak, out = run(argv, stdin, cwd=project, env=env)
                times[name].append(seconds)
                peaks[name] = max(peaks[name], peak or 0)
                if name.startswith("observe"):
                    found = json.loads(out)
                    answers[name] = (found["fields"]["current_input_tokens"]["value"],
                                     found["session_id"]["value"], found["bytes_read"],
                                     found["file_bytes"])
        base = statistics.median(times["python -c pass"])
        print(f"python {sys.version.split()[0]}, {args.runs} runs, generated files of "
              f"{args.gigabytes:g} GiB")
        for name in cases:
            median = statistics.median(times[name])
            memory = f"{peaks[name] / (1 << 20):6.1f} MiB" if peaks[name] else "    n/a"
            print(f"  {name:<24} min {min(times[name]) * 1000:8.1f} ms  median "
                  f"{median * 1000:8.1f} ms  {median / base:5.2f}x python -c pass  peak {memory}")
        for host in SAMPLES:
            small, large = answers[f"observe {host} small"], answers[f"observe {host} big"]
            ratio = statistics.median(times[f"observe {host} big"]) / statistics.median(
                times[f"observe {host} small"])
            print(f"  {host}: same answer {small[:2] == large[:2]} ({large[0]} tokens), read "
                  f"{large[2]} of {large[3]} bytes; big/small time {ratio:.2f}x")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
