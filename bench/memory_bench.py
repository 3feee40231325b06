"""Benchmark: peak memory of ``passdown validate`` on checkpoints holding 9 MiB of text.

Each case runs ``python -m passdown validate FILE`` as a fresh child process and reads that
child's own peak resident set from ``os.wait4`` (``ru_maxrss``). Cases:

- ``example`` [baseline]: the bundled example checkpoint (4 KB): what the interpreter, the
  schemas and the rules cost before any input;
- ``one 9 MiB string``: the plan's status is a string of 9 MiB, which also fails the schema
  (an enum): before the string bound (INP-014) refused it, explaining and placing that
  finding took 1.2 GB;
- ``one 9 MiB string, bound lifted``: the same file with the string bound raised to 16 MiB
  for the run, so that the whole path (loading, the schema check and its explanation, the
  rules, the line locator) runs on the 9 MiB string: what the fix of each step is worth;
- ``9 MiB in strings under the bound``: nine strings of just under 1 MiB, one failing the
  schema (an enum), one holding a password assignment (a secret finding), so that the schema
  explanation, the secret scan and the line locator all run on megabyte strings;
- ``YAML registry, 9 MiB in strings``: the same amount of text in a YAML registry.

Printed per case: the input size, the peak resident set, and the ratio of the growth over the
baseline to the input size; the target is a peak under 100 MB (INP-017). ``--source DIR`` runs
the ``validator/`` package of another checkout instead (e.g. one before the fix), to compare.

    python bench/memory_bench.py [--source DIR] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "handoff" / "xbrief" / "continue.xbrief.json"
REGISTRY = ROOT / "examples" / "handoff" / "registry.yaml"
MIB = 1 << 20
TARGET_MB = 100
STRING_BOUND = 1 << 20  # INP-014


def _checkpoint_with(strings: dict[str, str], status: str | None = None) -> str:
    document = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    for key, value in strings.items():
        document[key] = value
    if status is not None:
        document["plan"]["status"] = status
    return json.dumps(document, indent=2)


def _write_cases(folder: Path) -> list[tuple[str, Path]]:
    under = "a" * (STRING_BOUND - 64)
    files = {
        "example [baseline]": ("continue.xbrief.json", EXAMPLE.read_text(encoding="utf-8")),
        "one 9 MiB string": ("continue.xbrief.json", _checkpoint_with({}, status="a" * (9 * MIB))),
        "one 9 MiB string, bound lifted": ("continue.xbrief.json",
                                            _checkpoint_with({}, status="a" * (9 * MIB))),
        "9 MiB in strings under the bound": ("continue.xbrief.json", _checkpoint_with(
            {**{f"x-bench/text{i}": under for i in range(7)},
             "x-bench/secret": "password=" + under}, status=under)),
        "YAML registry, 9 MiB in strings": ("registry.yaml", REGISTRY.read_text(encoding="utf-8")
                                            + "".join(f"x-bench/text{i}: {under}\n" for i in range(9))),
    }
    cases = []
    for index, (name, (file_name, text)) in enumerate(files.items()):
        path = folder / str(index) / file_name
        path.parent.mkdir()
        path.write_text(text, encoding="utf-8")
        cases.append((name, str(path)))
    return cases


def _cases(folder: Path) -> list[tuple[str, Path]]:
    """The case files, written by a child process: a child's peak counts the memory it was
    forked with, so this process never holds the large texts itself."""
    written = subprocess.run([sys.executable, __file__, "--write-cases", str(folder)],
                             capture_output=True, text=True, check=True).stdout
    return [(name, Path(path)) for name, path in json.loads(written)]


#: ``passdown`` with the string bound raised (INP-014), for the "bound lifted" case.
_LIFTED = ("import sys\n"
           "import passdown.formats._loading as loading\n"
           "loading.MAX_STRING_CHARS = 16 << 20\n"
           "from passdown._entry import main\n"
           "sys.exit(main(sys.argv[1:]))\n")


def peak_rss_mb(path: Path, env: dict, *, lifted: bool = False) -> tuple[float, int]:
    """The child's peak resident set in MB, and its exit status."""
    launch = ["-c", _LIFTED] if lifted else ["-m", "passdown"]
    child = subprocess.Popen([sys.executable, *launch, "validate", "--quiet", str(path)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    kib = usage.ru_maxrss if sys.platform != "darwin" else usage.ru_maxrss / 1024
    return kib * 1024 / 1e6, child.returncode


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, default=ROOT,
                        help="the checkout whose validator/ package runs (default: this one)")
    parser.add_argument("--runs", type=int, default=3, help="runs per case (the lowest peak is kept)")
    parser.add_argument("--write-cases", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.write_cases:
        print(json.dumps(_write_cases(args.write_cases)))
        return 0
    env = {**os.environ, "PYTHONPATH": str(args.source / "validator")}
    version = subprocess.run([sys.executable, "-m", "passdown", "--version"], env=env,
                             capture_output=True, text=True).stdout.strip()
    print(f"Python {platform.python_version()} ({platform.python_implementation()}), "
          f"{platform.system()} {platform.machine()}; {version} from {args.source}")
    print(f"peak resident set of `passdown validate FILE`, lowest of {args.runs} runs\n")
    print(f"{'case':34} {'input MiB':>9} {'exit':>4} {'peak MB':>8} {'growth/input':>12}")
    with tempfile.TemporaryDirectory(prefix="passdown-memory-bench-") as folder:
        baseline = None
        worst = 0.0
        for name, path in _cases(Path(folder)):
            runs = [peak_rss_mb(path, env, lifted="lifted" in name) for _ in range(args.runs)]
            peak, status = min(runs)
            size = path.stat().st_size
            if baseline is None:
                baseline = peak
                ratio = "-"
            else:
                worst = max(worst, peak)
                ratio = f"{(peak - baseline) * 1e6 / size:.1f}x"
            print(f"{name:34} {size / MIB:9.2f} {status:4} {peak:8.1f} {ratio:>12}")
    print(f"\nlargest peak {worst:.1f} MB; target under {TARGET_MB} MB: "
          f"{'met' if worst < TARGET_MB else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
