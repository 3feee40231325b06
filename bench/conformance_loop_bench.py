"""The conformance runner against a bare process loop: ``passdown conformance run --program
CMD -j 2`` (or ``--harness CMD``) as a whole process, against the named baseline, a plain
loop that feeds the same cases to the same program (or harness process) with no runner
around it.

The loop is a small script of its own (``LOOP`` below), run by the same interpreter: it reads
the cases' input bytes, written to files before the clock starts, and for each case starts
``CMD GATE`` with the input on stdin and the same ``PASSDOWN_CASE_ID`` and
``PASSDOWN_GATE_VERSION`` the runner sets, ``--jobs`` at a time (threads around
``subprocess.run``), and keeps each stdout and exit status; in harness mode it writes one
``start`` line, one ``run`` line per case and reads each reply line. It compares nothing and
reports nothing: it is the floor any runner pays to have the program answer those cases.
The runner, on top of that, loads the suite, bounds and times every child, parses and
compares each answer and renders its report.

Both sides are measured as whole processes: wall time and CPU time (user + system from
``os.wait4``, every program they started included, since each side reaps its children),
interleaved run by run after one warm-up run each; the median of ``--runs`` is kept and the
load average is printed with each side. CPU time moves less than wall time on a shared
machine, and it is the figure the target is judged on: the runner within 5% of the loop
(a ratio of at most 1.05).

Both sides run the same cases: the suite's fixture files (of ``--gate`` only, when given) are
copied to a scratch folder first, the runner reads that copy (``--suite``) and the loop's inputs
are written from it.

Harness mode (``--mode harness`` with a shipped adapter) prints the same figures without a
verdict: the target is program mode's, and a harness answers in its own process, so there the
runner's start-up is most of the difference.

The program is Passdown's own ``passdown gate`` (the launcher next to this interpreter) by
default, which answers every case of every gate; ``--adapter python`` or ``--adapter node``
takes a shipped example adapter instead (restart and title only).

Usage: ``python bench/conformance_loop_bench.py [--runs 3] [--jobs 2] [--gate GATE ...]
[--adapter passdown|python|node] [--mode program|harness]``
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET = 1.05

#: The baseline: feed every case to the program (or harness), keep the answers, nothing else.
LOOP = r"""
import json, os, subprocess, sys, threading
manifest_path, mode, jobs = sys.argv[1], sys.argv[2], int(sys.argv[3])
argv = json.loads(sys.argv[4])
with open(manifest_path) as handle:
    cases = json.load(handle)
answers = [None] * len(cases)
if mode == "program":
    base = dict(os.environ)
    following = iter(range(len(cases)))
    lock = threading.Lock()
    def work():
        while True:
            with lock:
                index = next(following, None)
            if index is None:
                return
            case = cases[index]
            with open(case["input"], "rb") as handle:
                data = handle.read()
            env = dict(base, PASSDOWN_CASE_ID=case["id"], PASSDOWN_GATE_VERSION=case["version"])
            done = subprocess.run(argv + [case["gate"]], input=data, capture_output=True, env=env)
            answers[index] = (done.returncode, done.stdout)
    threads = [threading.Thread(target=work) for _ in range(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
else:
    child = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    reply = child.stdout
    child.stdin.write(b'{"cmd":"start","version":1}\n')
    reply.readline()
    for index, case in enumerate(cases):
        with open(case["input"], "rb") as handle:
            line = handle.read()
        child.stdin.write(line)
        answers[index] = reply.readline()
    child.stdin.write(b'{"cmd":"stop"}\n')
    child.stdin.close()
    child.wait()
print(sum(1 for answer in answers if answer is not None))
import resource
usage = resource.getrusage(resource.RUSAGE_SELF)
sys.stderr.write(f"\nown-cpu {usage.ru_utime + usage.ru_stime}\n")
"""

#: The runner as the ``passdown`` launcher runs it (``passdown._entry.main``), reporting its own
#: CPU time (without the programs it started) on stderr as it ends.
RUNNER = r"""
import resource, sys
from passdown._entry import main
sys.argv[0] = "passdown"
try:
    status = main()
except SystemExit as exit:
    status = exit.code
usage = resource.getrusage(resource.RUSAGE_SELF)
sys.stderr.write(f"\nown-cpu {usage.ru_utime + usage.ru_stime}\n")
sys.exit(status)
"""


def program_argv(adapter: str) -> list[str]:
    if adapter == "passdown":
        launcher = Path(sys.executable).parent / "passdown"
        return [str(launcher), "gate"] if launcher.exists() else [sys.executable, "-m", "passdown", "gate"]
    from passdown.conformance._adapters import shipped

    chosen = next(a for a in shipped() if a.name == adapter)
    interpreter = sys.executable if chosen.interpreter == ("python3",) else shutil.which(chosen.interpreter[0])
    if interpreter is None:
        raise SystemExit(f"{chosen.interpreter[0]} is not installed")
    return [interpreter, str(chosen.path)]


def runner_argv(mode: str, program: list[str], suite: Path, jobs: int) -> list[str]:
    import shlex

    argv = [sys.executable, "-c", RUNNER, "conformance", "run", f"--{mode}", shlex.join(program), "-q", "--timeout", "30",
            "--suite", str(suite)]
    if mode == "program":
        argv += ["-j", str(jobs)]
    return argv


def snapshot(gates: list[str], folder: Path) -> Path:
    """A copy of the suite's fixture files (of ``gates`` only, when given), so both sides run
    the very same cases even while the checkout's suite changes."""
    from passdown.conformance._suite import default_suite_dir

    source, copy = default_suite_dir(), folder / "cases"
    copy.mkdir()
    for gate in sorted(p for p in source.iterdir() if p.is_dir()):
        if not gates or gate.name in gates:
            shutil.copytree(gate, copy / gate.name)
    return copy


def write_cases(cases, mode: str, folder: Path) -> Path:
    """Every case's input as the program (or harness) reads it, one file each, and a manifest."""
    from passdown.conformance import _protocol

    entries = []
    for number, case in enumerate(cases):
        path = folder / f"{number}.in"
        path.write_bytes(case.raw_input() if mode == "program" else _protocol.run(number + 1, case))
        entries.append({"id": case.id, "gate": case.gate, "version": case.gate_version, "input": str(path)})
    manifest = folder / "manifest.json"
    manifest.write_text(json.dumps(entries))
    return manifest


def timed(argv: list[str]) -> tuple[float, float, int, str, float, float]:
    """Wall seconds, CPU seconds (the process and every child it reaped), exit status, the
    last line it printed, the load average when it started, and the process's own CPU
    seconds (without its children, as it reported them)."""
    load = os.getloadavg()[0]
    began = time.perf_counter()
    with tempfile.TemporaryFile() as errors:
        child = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=errors)
        out = child.stdout.read()
        _, status, usage = os.wait4(child.pid, 0)
        errors.seek(0)
        err = errors.read()
    wall = time.perf_counter() - began
    code = os.waitstatus_to_exitcode(status)
    lines = out.decode("utf-8", "replace").strip().splitlines()
    own = [line for line in err.decode("utf-8", "replace").splitlines() if line.startswith("own-cpu ")]
    return (wall, usage.ru_utime + usage.ru_stime, code, lines[-1] if lines else "", load,
            float(own[-1].split()[1]) if own else float("nan"))


def versions_line() -> str:
    from passdown._version import __version__

    return (f"{platform.python_implementation()} {platform.python_version()} ({sys.executable}), "
            f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores, passdown {__version__}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of each side, interleaved; the median is kept")
    parser.add_argument("--jobs", type=int, default=2, help="cases at once in program mode (runner -j and loop threads)")
    parser.add_argument("--gate", action="append", default=[], help="only these gates (default: every case)")
    parser.add_argument("--adapter", choices=("passdown", "python", "node"), default="passdown",
                        help="the program: `passdown gate` or a shipped example adapter")
    parser.add_argument("--mode", choices=("program", "harness"), default="program")
    args = parser.parse_args(argv)
    if args.mode == "harness" and args.adapter == "passdown":
        parser.error("--mode harness needs --adapter python or node (passdown gate is a program)")
    gates = args.gate or (["restart", "title"] if args.adapter != "passdown" else [])

    from passdown.conformance import load_suite

    program = program_argv(args.adapter)
    print(versions_line())
    with tempfile.TemporaryDirectory(prefix="passdown-loop-bench-") as scratch:
        suite = snapshot(gates, Path(scratch))
        loaded = load_suite(suite)
        if not loaded.usable:
            raise SystemExit(f"the suite is not usable: {loaded.findings[0].message}")
        cases = loaded.cases
        runner = runner_argv(args.mode, program, suite, args.jobs)
        print(f"{args.mode} mode, `{' '.join(program)}`: {len(cases)} cases"
              + (f" of {', '.join(gates)}" if gates else "")
              + (f", {args.jobs} at once" if args.mode == "program" else ""))
        print(f"  runner: {sys.executable} -c RUNNER {' '.join(runner[3:])}")
        manifest = write_cases(cases, args.mode, Path(scratch))
        loop = [sys.executable, "-c", LOOP, str(manifest), args.mode, str(args.jobs),
                json.dumps(program if args.mode == "program" else program)]
        print(f"  loop:   {sys.executable} -c LOOP ("
              + ("threads around subprocess.run" if args.mode == "program" else "one harness process, a line a case")
              + "; see this script)")
        sides = {"loop (baseline)": loop, "conformance run": runner}
        results: dict[str, list] = {name: [] for name in sides}
        for name, command in sides.items():  # warm-up: caches, bytecode
            timed(command)
        for _ in range(args.runs):
            for name, command in sides.items():
                results[name].append(timed(command))
    print(f"\n  {'side':<18} {'wall med':>9} {'CPU med':>9} {'CPU min':>9} {'own CPU':>8} {'load':>5}  last line")
    medians = {}
    for name, runs in results.items():
        wall = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[1] for r in runs)
        own = statistics.median(r[5] for r in runs)
        medians[name] = (wall, cpu, own)
        load = statistics.median(r[4] for r in runs)
        print(f"  {name:<18} {wall:8.2f}s {cpu:8.2f}s {min(r[1] for r in runs):8.2f}s {own:7.2f}s {load:5.1f}  "
              f"{runs[-1][3]} (exit {runs[-1][2]})")
    (loop_wall, loop_cpu, loop_own) = medians["loop (baseline)"]
    (run_wall, run_cpu, run_own) = medians["conformance run"]
    cpu_ratio, wall_ratio = run_cpu / loop_cpu, run_wall / loop_wall
    # The programs' CPU moves by several per cent from run to run on a shared machine, more
    # than the runner adds; both sides start the same programs on the same inputs, so the
    # runner's cost is also read from the two processes' own CPU, which moves far less.
    own_ratio = (loop_cpu + run_own - loop_own) / loop_cpu
    # The target is program mode's (`-j 2`); a harness answers in process, so there the
    # runner's start-up is most of the difference, and the figures are printed only.
    judged = args.mode == "program"

    def verdict(ratio):
        return f"; target <= {TARGET}x: {'met' if ratio <= TARGET else 'NOT met'}" if judged else ""

    print(f"\nrunner / loop, whole processes: CPU {cpu_ratio:.3f}x, wall {wall_ratio:.3f}x"
          f"{verdict(cpu_ratio)}")
    print(f"runner's own CPU beyond the loop's: {run_own - loop_own:+.2f} s over {len(cases)} cases "
          f"({1000 * (run_own - loop_own) / max(1, len(cases)):+.2f} ms a case), "
          f"{own_ratio:.3f}x the loop's whole CPU{verdict(own_ratio)}")
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0 if not judged or cpu_ratio <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
