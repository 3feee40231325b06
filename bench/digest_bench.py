"""Benchmark: hashing large files with Passdown (``passdown.digest_file``) against named baselines.

Throughput (warm page cache, best of N runs) for a 256 MiB file:

- Passdown, blake3  vs  the ``blake3`` package directly: ``blake3(max_threads=AUTO).update_mmap(path)``,
  the package's own fastest way to hash a file (target: Passdown at least 0.8x of it);
- Passdown, sha256  vs  ``sha256sum`` (coreutils) and ``hashlib.file_digest``.

Peak memory: each hasher runs in a fresh process on growing files; the process's peak resident
set (``VmHWM`` where Linux reports it, else ``resource.getrusage``) and Python's own peak
allocation (``tracemalloc``) are printed, to show that Passdown's memory stays bounded whatever
the file size. The memory table runs first, while this process is still small: a child's
``ru_maxrss`` can inherit the high-water mark of the process that started it.

Usage: ``python bench/digest_bench.py [--size-mib 256] [--runs 5] [--memory-sizes 64,256,1024]``
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

MIB = 1 << 20

# One hashing job per name, run in a child process for the memory figures.
_JOBS = {
    "passdown blake3": "import passdown; passdown.digest_file(PATH)",
    "blake3 update_mmap": "import blake3; blake3.blake3(max_threads=blake3.blake3.AUTO).update_mmap(PATH).hexdigest()",
    "blake3 read whole file": "import blake3; blake3.blake3(open(PATH, 'rb').read(), max_threads=blake3.blake3.AUTO).hexdigest()",
    "passdown sha256": "import passdown; passdown.digest_file(PATH, 'sha256')",
}
_MEMORY_PROBE = """
import resource, sys, tracemalloc
PATH = sys.argv[1]
tracemalloc.start()
{job}
_, peak = tracemalloc.get_traced_memory()
try:
    with open("/proc/self/status") as status:
        hwm_kib = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
except (OSError, StopIteration):
    hwm_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(hwm_kib, peak)
"""


def make_file(folder: str, size: int) -> str:
    path = os.path.join(folder, f"blob-{size // MIB}MiB.bin")
    with open(path, "wb") as handle:
        block = os.urandom(4 * MIB)
        written = 0
        while written < size:
            chunk = block[: min(len(block), size - written)]
            handle.write(chunk)
            written += len(chunk)
    with open(path, "rb") as handle:  # warm the page cache: every figure is a warm read
        while handle.read(16 * MIB):
            pass
    return path


def best_time(function, runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return best


def throughput_table(path: str, size: int, runs: int) -> None:
    import hashlib

    import blake3

    import passdown

    def blake3_mmap():
        return "blake3:" + blake3.blake3(max_threads=blake3.blake3.AUTO).update_mmap(path).hexdigest()

    def sha256_file_digest():
        with open(path, "rb") as handle:
            return "sha256:" + hashlib.file_digest(handle, "sha256").hexdigest()

    assert passdown.digest_file(path) == blake3_mmap(), "Passdown and the blake3 package disagree"
    assert passdown.digest_file(path, "sha256") == sha256_file_digest(), "Passdown and hashlib disagree"

    rows = [
        ("passdown.digest_file (blake3)", best_time(lambda: passdown.digest_file(path), runs)),
        ("blake3 package, update_mmap, AUTO threads [baseline]", best_time(blake3_mmap, runs)),
        ("blake3 package, whole file read into memory", best_time(
            lambda: blake3.blake3(open(path, "rb").read(), max_threads=blake3.blake3.AUTO).hexdigest(), runs)),
        ("passdown.digest_file (sha256)", best_time(lambda: passdown.digest_file(path, "sha256"), runs)),
        ("hashlib.file_digest (sha256)", best_time(sha256_file_digest, runs)),
    ]
    sha256sum = shutil.which("sha256sum")
    if sha256sum:
        rows.append(("sha256sum (coreutils) [baseline]", best_time(
            lambda: subprocess.run([sha256sum, path], check=True, capture_output=True), runs)))

    print(f"\nThroughput, {size // MIB} MiB file, warm cache, best of {runs} runs ({os.cpu_count()} CPUs)")
    print(f"{'hasher':56} {'seconds':>8} {'GB/s':>7}")
    for name, seconds in rows:
        print(f"{name:56} {seconds:8.4f} {size / seconds / 1e9:7.2f}")
    times = dict(rows)
    blake3_ratio = times["blake3 package, update_mmap, AUTO threads [baseline]"] / times["passdown.digest_file (blake3)"]
    print(f"\nratio Passdown blake3 / blake3 package (update_mmap): {blake3_ratio:.2f}x "
          f"(target >= 0.80x: {'met' if blake3_ratio >= 0.8 else 'NOT met'})")
    if sha256sum:
        sha_ratio = times["sha256sum (coreutils) [baseline]"] / times["passdown.digest_file (sha256)"]
        print(f"ratio Passdown sha256 / sha256sum: {sha_ratio:.2f}x")
        print(f"ratio Passdown blake3 / sha256sum: "
              f"{times['sha256sum (coreutils) [baseline]'] / times['passdown.digest_file (blake3)']:.2f}x")


def memory_table(folder: str, sizes: list[int]) -> None:
    print("\nPeak memory per process (MiB): resident set (VmHWM) / Python allocations (tracemalloc)")
    header = f"{'hasher':26}" + "".join(f"{f'{size // MIB} MiB file':>22}" for size in sizes)
    print(header)
    paths = [make_file(folder, size) for size in sizes]
    for name, job in _JOBS.items():
        cells = []
        for path in paths:
            probe = _MEMORY_PROBE.format(job=job)
            done = subprocess.run([sys.executable, "-c", probe, path], capture_output=True, text=True, check=True)
            maxrss_kib, traced = done.stdout.split()
            cells.append(f"{int(maxrss_kib) / 1024:9.1f} / {int(traced) / MIB:8.1f}")
        print(f"{name:26}" + "".join(f"{cell:>22}" for cell in cells))
    for path in paths:
        os.unlink(path)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size-mib", type=int, default=256, help="size of the throughput file")
    parser.add_argument("--runs", type=int, default=5, help="timed runs per hasher (best is kept)")
    parser.add_argument("--memory-sizes", default="64,256,1024", help="file sizes (MiB) for the memory table")
    parser.add_argument("--dir", default=None, help="where to write the test files (default: a temp folder)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(dir=args.dir, prefix="passdown-digest-bench-") as folder:
        memory_table(folder, [int(s) * MIB for s in args.memory_sizes.split(",")])
        size = args.size_mib * MIB
        path = make_file(folder, size)
        throughput_table(path, size, args.runs)
        os.unlink(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
