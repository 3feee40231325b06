"""Benchmark: the start-up of ``passdown hook claude PreToolUse``, which the host runs before
every tool call, against the interpreter's own start-up.

Whole processes, run by the same interpreter, interleaved (one of each per round, so a busy
moment slows all alike), each fed its input on stdin:

- ``python -c pass``: the baseline, the interpreter starting and stopping;
- ``python -S -c pass``: the floor, the interpreter starting without its site set-up;
- the PreToolUse hook exactly as ``passdown hook install`` writes it (``PYTHON -S -P -c
  CODE FOLDER hook claude PreToolUse``, spec/hosts.md HST-207) on every input
  shape a host sends: a plain Bash call, one
  that mentions ``kill``, a kill of a pid, a kill by a name (``pkill -f``), a kill by a pattern
  with regular-expression operators, an interpreter given code, a here-document fed to a shell,
  a process substitution fed to a shell, a wrapper whose options are read both ways, a
  PowerShell ``Stop-Process``, a denied restart, and a data tool (a Write);
- ``passdown gate guard`` and ``passdown hook claude PreToolUse`` through the ``passdown``
  launcher (site set-up on) on the plain call: what the site set-up costs, and what the hook
  adds to the gate (observing the host, the reply).

Prints the interpreter, the minimum and the median wall time of each, and each one's median
ratio to the baseline; the budget is 1.2x on every shape.

Usage: ``python bench/hook_bench.py [--runs 60]`` from an environment where Passdown is installed.
The package's bytecode is compiled first, as an installed wheel's is.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import resource
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

TARGET = 1.2


def _hook_input(command, tool="Bash"):
    tool_input = command if isinstance(command, dict) else {
        "command": command, "description": "run", "timeout": 120000, "run_in_background": False}
    return json.dumps({
        "session_id": "abc123", "transcript_path": "/home/user/.claude/projects/p/s.jsonl",
        "cwd": "/home/user/project", "permission_mode": "default",
        "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": tool_input,
        "tool_use_id": "toolu_01ABC123"}).encode()


#: label -> (the tool input or command, the tool name): every shape a host sends.
SHAPES = {
    "plain Bash call": ("git status && make test", "Bash"),
    "mentions kill": ('git commit -m "never kill -1"', "Bash"),
    "kill of a pid": ("kill -9 12345", "Bash"),
    "kill by name": ("pkill -f pytest", "Bash"),
    "kill by a pattern": ("pkill -f 'py.*test'", "Bash"),
    "interpreter given code": ("python3 -c 'import subprocess; subprocess.run([\"make\"])'", "Bash"),
    "here-document to a shell": ("bash <<'EOF'\nmake test\nEOF", "Bash"),
    "process substitution to a shell": ("bash <(echo make test)", "Bash"),
    "wrapper options read both ways": ("sudo -E nsenter -t 1 -m -- make test", "Bash"),
    "PowerShell Stop-Process": ("Stop-Process -Name notepad", "PowerShell"),
    "denied restart": ("sudo systemctl --user restart dsh.service", "Bash"),
    "data tool (Write)": ({"file_path": "/home/user/project/notes.md",
                           "content": "never run kill -9 $PPID\n" * 50}, "Write"),
}


def _gate_input(command):
    return json.dumps({"tool": "execute", "arguments": {"command": command},
                       "host_pid": 4242}).encode()


def _launcher():
    found = Path(sys.executable).with_name("passdown")
    if not found.is_file():
        sys.exit(f"passdown: no launcher beside {sys.executable}; install Passdown in this environment")
    return str(found)


def _cpu():
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _wall(argv, stdin):
    """Wall time, CPU time (user + system) and exit status of one run."""
    start, cpu = time.perf_counter(), _cpu()
    result = subprocess.run(argv, input=stdin, stdout=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start, _cpu() - cpu, result.returncode


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=60, help="interleaved runs of each command")
    args = parser.parse_args(argv)

    import passdown
    from passdown.hosts._claude_settings import hook_command, hook_launcher

    compileall.compile_dir(str(Path(passdown.__file__).parent), quiet=1)
    launcher = _launcher()
    hook = shlex.split(hook_command(hook_launcher(), "PreToolUse", {}))
    plain = "git status && make test"
    commands = {
        "python -c pass (baseline)": ([sys.executable, "-c", "pass"], b""),
        "python -S -c pass (floor)": ([sys.executable, "-S", "-c", "pass"], b""),
        "passdown gate guard (plain call)": ([launcher, "gate", "guard"], _gate_input(plain)),
        "passdown hook ... (plain call)": ([launcher, "hook", "claude", "PreToolUse"],
                                           _hook_input(plain)),
    }
    for label, (command, tool) in SHAPES.items():
        commands[f"hook: {label}"] = (hook, _hook_input(command, tool))
    for argv_, stdin in commands.values():  # warm the page cache
        _wall(argv_, stdin)
    times = {label: [] for label in commands}
    cpu = {label: [] for label in commands}
    for _ in range(args.runs):
        for label, (argv_, stdin) in commands.items():
            elapsed, used, status = _wall(argv_, stdin)
            if status != 0:
                sys.exit(f"{label} exited {status}")
            times[label].append(elapsed)
            cpu[label].append(used)

    print(f"python {sys.version.split()[0]} at {sys.executable}, passdown {passdown.__version__}, "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"the hook as installed: {shlex.join(hook)}")
    print(f"\ncold start, {args.runs} interleaved runs each (ms; CPU is user + system time, which "
          "other processes on a shared machine do not inflate as they do wall time):")
    print(f"  {'command':<45} {'wall min':>8} {'median':>8} {'ratio':>6} {'CPU med':>8} {'ratio':>6}")
    baseline = statistics.median(times["python -c pass (baseline)"])
    cpu_baseline = statistics.median(cpu["python -c pass (baseline)"])
    for label, samples in times.items():
        median, cpu_median = statistics.median(samples), statistics.median(cpu[label])
        print(f"  {label:<45} {min(samples) * 1e3:8.2f} {median * 1e3:8.2f} {median / baseline:5.2f}x"
              f" {cpu_median * 1e3:8.2f} {cpu_median / cpu_baseline:5.2f}x")
    for name, table, base in (("wall", times, baseline), ("CPU", cpu, cpu_baseline)):
        worst = max((statistics.median(samples) / base, label) for label, samples in table.items()
                    if label.startswith("hook: "))
        verdict = "meets" if worst[0] <= TARGET else "MISSES"
        print(f"slowest hook shape / baseline, {name}: {worst[0]:.2f}x, {worst[1][6:]} ({verdict} "
              f"the {TARGET}x budget on every shape)")
    floor = statistics.median(times["python -S -c pass (floor)"])
    worst_wall = max(statistics.median(s) for label, s in times.items() if label.startswith("hook: "))
    print(f"slowest hook shape / floor (python -S -c pass), wall: {worst_wall / floor:.2f}x")
    through = statistics.median(times["passdown hook ... (plain call)"])
    extra = through - statistics.median(times["passdown gate guard (plain call)"])
    saved = through - statistics.median(times["hook: plain Bash call"])
    print(f"hook over the gate, plain call, both through the launcher: {extra * 1e3:+.2f} ms median wall")
    print(f"the hook as installed against the same hook through the launcher, plain call: "
          f"{-saved * 1e3:+.2f} ms median wall")
    return 0


if __name__ == "__main__":
    sys.exit(main())
