"""Benchmark: the four speed targets of the ``passdown`` command, measured the way a user meets
them, plus its two memory bounds.

Every figure is the wall time of whole processes, both sides installed in one environment and
run by the same interpreter (the environment's own ``bin/passdown``, ``bin/check-jsonschema``,
``bin/python``), interleaved run by run after one untimed warm-up run of each, reported as
min / median / max; the ratio is of the medians.

=========  ==========================================================  ==========================
section    Passdown                                                       baseline, target
=========  ==========================================================  ==========================
lint       ``passdown validate one/xbrief/continue.xbrief.json``          ``check-jsonschema
                                                                       --schemafile <xbrief core
                                                                       0.8> <same file>``: <= 0.40
infolder   ``passdown validate handoff/xbrief/continue.xbrief.json``      the same, <= 0.33
           inside a copy of ``examples/handoff`` (packet, registry, ACK
           beside it: the cross-file rules run); beside it the same
           command with the block YAML reader off (ruamel.yaml reads
           the registry, as before) and the checkpoint alone
bulk       ``passdown validate DIR`` (2,000 ``sN/xbrief/continue...``)    ``check-jsonschema ...``
                                                                       on the 2,000 files: >= 5x
                                                                       faster
digest     ``passdown digest big.bin`` (256 MiB of random bytes, warm)    ``blake3(max_threads=AUTO)
                                                                       .update_mmap``: throughput
                                                                       >= 0.8x
gate       ``passdown gate restart < obs.json`` (the README example)      ``python -c pass``: <= 1.5x
memory     peak RSS of ``passdown digest`` on 1 GiB (<= 64 MiB) and of    -
           ``passdown validate`` on the 2,000 folders (<= 200 MiB)
registry   ``passdown validate registry.yaml`` (10,000 attempts, the      ``check-jsonschema
           example's completed attempt repeated); beside it the same      --schemafile <registry
           command with the block YAML reader off (libyaml's events,      schema, its shared defs
           as before) and with libyaml's parser hidden too (the pure      inlined>``: >= 3x faster
           loader), and peak RSS of both readers (<= 100 MiB)
=========  ==========================================================  ==========================

The baseline schema is the upstream, self-contained xBRIEF core 0.8 schema
(``--schema``; default ``../shared/reference/xbrief-upstream/xbrief-core-0.8.schema.json``
beside the checkout). The checkpoint is ``examples/handoff``'s. Peak memory is the child's
``ru_maxrss`` (``os.wait4``, which covers the worker processes it waited for: the largest
one), started from a small launcher so the figure is the command's own, and the sum of the
process tree's resident sets sampled every few milliseconds.

    python bench/speed_bench.py [--runs 15] [--only lint,bulk,digest,gate,memory,registry]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "handoff" / "xbrief" / "continue.xbrief.json"
DEFAULT_SCHEMA = ROOT.parent / "shared" / "reference" / "xbrief-upstream" / "xbrief-core-0.8.schema.json"
MIB = 1 << 20
BLAKE3_BASELINE = ("import blake3,sys; print(blake3.blake3(max_threads=blake3.blake3.AUTO)"
                   ".update_mmap(sys.argv[1]).hexdigest())")
#: Runs the command given as arguments and prints its ``ru_maxrss`` (KiB): the launcher is a
#: bare interpreter, smaller than any command measured, so the high-water mark a child
#: inherits through fork never shows.
_LAUNCHER = ("import os,sys\npid=os.fork()\nif pid==0:\n os.execv(sys.argv[1],sys.argv[1:])\n"
             "_,status,usage=os.wait4(pid,0)\nprint(usage.ru_maxrss,os.waitstatus_to_exitcode(status),"
             "file=sys.stderr)")


def _bin(name: str) -> str:
    """The environment's own command (beside ``sys.executable``, not resolved through links)."""
    path = Path(sys.executable).parent / name
    if not path.exists():
        sys.exit(f"speed_bench: {path} is missing; install Passdown with its test extra here")
    return str(path)


def _versions() -> None:
    from importlib.metadata import PackageNotFoundError, version

    print(f"interpreter: {sys.version.split()[0]} ({sys.implementation.name}) at {sys.executable}")
    print(f"  {sys.version}")
    cells = []
    for name in ("passdown", "blake3", "jsonschema", "jsonschema-rs", "check-jsonschema"):
        try:
            cells.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            cells.append(f"{name} (not installed)")
    print("versions: " + ", ".join(cells))
    print(f"cpus: {os.cpu_count()}; load average at start: {_load()}")


def _load() -> str:
    try:
        return " ".join(f"{v:.2f}" for v in os.getloadavg())
    except OSError:
        return "unknown"


def _run(argv, stdin_path=None, expect=0) -> tuple[float, float]:
    """``(wall seconds, CPU seconds)`` of one run of ``argv``; the CPU time (user and
    system, from ``os.wait4``) covers the worker processes the command waited for."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["NO_COLOR"] = "1"
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    try:
        start = time.perf_counter()
        process = subprocess.Popen(argv, stdin=stdin, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, env=env)
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
    finally:
        if stdin_path:
            stdin.close()
    if process.returncode != expect:
        sys.exit(f"speed_bench: {argv[0]} {' '.join(argv[1:3])} exited {process.returncode}")
    return elapsed, usage.ru_utime + usage.ru_stime


def _interleaved(commands: dict, runs: int) -> dict[str, list[tuple[float, float]]]:
    """``{label: (argv, stdin path)}`` -> ``{label: [(wall, cpu)]}``, one warm-up run each,
    then ``runs`` rounds that run every command once."""
    for argv, stdin in commands.values():
        _run(argv, stdin)
    times = {label: [] for label in commands}
    for _ in range(runs):
        for label, (argv, stdin) in commands.items():
            times[label].append(_run(argv, stdin))
    return times


def _table(times) -> None:
    print(f"  {'command':<58} {'min':>9} {'median':>9} {'max':>9}  {'CPU median':>10}  (ms)")
    for label, runs in times.items():
        wall = [w for w, _ in runs]
        print(f"  {label:<58} {min(wall) * 1e3:9.1f} {statistics.median(wall) * 1e3:9.1f} "
              f"{max(wall) * 1e3:9.1f}  {statistics.median(c for _, c in runs) * 1e3:10.1f}")


def _medians(runs) -> tuple[float, float]:
    """The medians of the wall and of the CPU times."""
    return statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs)


def _cpu_note(ours, theirs) -> str:
    return f"(CPU time: {_medians(ours)[1] / _medians(theirs)[1]:.2f})"


def _section(name: str, what: str, commands: dict, runs: int) -> dict:
    """Time ``commands`` (see :func:`_interleaved`), print the section's heading with the
    load and the table, and answer the times."""
    times = _interleaved(commands, runs)
    print(f"\n[{name}] {what}, {runs} interleaved runs; load {_load()}")
    _table(times)
    return times


def _median(runs) -> float:
    """The median wall time: what every target is judged on."""
    return _medians(runs)[0]


def _verdict(met: bool) -> str:
    return "met" if met else "NOT met"


def _checkpoint_copies(folder: Path, count: int) -> list[str]:
    raw = EXAMPLE.read_bytes()
    paths = []
    for number in range(count):
        path = folder / f"s{number}" / "xbrief" / "continue.xbrief.json"
        path.parent.mkdir(parents=True)
        path.write_bytes(raw)
        paths.append(str(path))
    return paths


def lint(args, work: Path) -> None:
    one = work / "one" / "xbrief" / "continue.xbrief.json"
    one.parent.mkdir(parents=True, exist_ok=True)
    one.write_bytes(EXAMPLE.read_bytes())
    passdown = "passdown validate one/xbrief/continue.xbrief.json"
    check = "check-jsonschema --schemafile xbrief-core-0.8 (same file)"
    bare = "python -c pass"
    times = _section("lint", "one file", {
        passdown: ([_bin("passdown"), "validate", str(one)], None),
        check: ([_bin("check-jsonschema"), "--schemafile", str(args.schema), str(one)], None),
        bare: ([_bin("python"), "-c", "pass"], None),
    }, args.runs)
    ratio = _median(times[passdown]) / _median(times[check])
    print(f"  passdown / check-jsonschema (medians): {ratio:.2f}  target <= 0.40: {_verdict(ratio <= 0.40)}  "
          f"{_cpu_note(times[passdown], times[check])}")
    print(f"  passdown / python -c pass (medians): {_median(times[passdown]) / _median(times[bare]):.2f}x"
          f"  (aim: within 2x)")


def infolder(args, work: Path) -> None:
    folder = work / "handoff"
    if not folder.exists():
        shutil.copytree(ROOT / "examples" / "handoff", folder)
    one = folder / "xbrief" / "continue.xbrief.json"
    alone = work / "alone" / "continue.xbrief.json"
    alone.parent.mkdir(exist_ok=True)
    shutil.copyfile(one, alone)
    passdown = "passdown validate handoff/xbrief/continue.xbrief.json"
    before = "the same, block reader off (the registry read by ruamel.yaml)"
    lone = "passdown validate alone/continue.xbrief.json (no folder)"
    check = "check-jsonschema --schemafile xbrief-core-0.8 (same file)"
    times = _section("infolder", "one checkpoint inside a full handoff folder (its cross-file rules run)", {
        passdown: ([_bin("passdown"), "validate", str(one)], None),
        before: ([_bin("python"), "-c", _EVENTS_YAML, "validate", str(one)], None),
        lone: ([_bin("passdown"), "validate", str(alone)], None),
        check: ([_bin("check-jsonschema"), "--schemafile", str(args.schema), str(one)], None),
    }, args.runs)
    ratio = _median(times[passdown]) / _median(times[check])
    print(f"  passdown / check-jsonschema (medians): {ratio:.2f}  target <= 0.33: {_verdict(ratio <= 0.33)}  "
          f"{_cpu_note(times[passdown], times[check])}")
    for name in (before, lone):
        print(f"  {name.split(' (')[0]} / check-jsonschema (medians): "
              f"{_median(times[name]) / _median(times[check]):.2f}  {_cpu_note(times[name], times[check])}")


def bulk(args, work: Path) -> None:
    folder = work / "bulk"
    if not folder.exists():
        folder.mkdir()
        _checkpoint_copies(folder, args.files)
    files = sorted(str(p) for p in folder.glob("s*/xbrief/continue.xbrief.json"))
    passdown = f"passdown validate DIR ({len(files):,} folders)"
    check = f"check-jsonschema --schemafile xbrief-core-0.8 ({len(files):,} files)"
    times = _section("bulk", f"{len(files):,} checkpoints", {
        passdown: ([_bin("passdown"), "validate", str(folder)], None),
        check: ([_bin("check-jsonschema"), "--schemafile", str(args.schema), *files], None),
    }, args.bulk_runs)
    speedup = _median(times[check]) / _median(times[passdown])
    print(f"  check-jsonschema / passdown (medians): {speedup:.2f}x faster  target >= 5x: "
          f"{_verdict(speedup >= 5)}  (aim: 10x)  "
          f"(CPU time: {_medians(times[check])[1] / _medians(times[passdown])[1]:.2f}x less)")


def _random_file(path: Path, size: int) -> None:
    block = os.urandom(4 * MIB)
    with open(path, "wb") as handle:
        written = 0
        while written < size:
            written += handle.write(block[: min(len(block), size - written)])
    with open(path, "rb") as handle:  # warm the page cache
        while handle.read(16 * MIB):
            pass


def digest(args, work: Path) -> None:
    big = work / "big.bin"
    _random_file(big, args.size_mib * MIB)
    ours = subprocess.run([_bin("passdown"), "digest", str(big)], capture_output=True, text=True,
                          check=True).stdout.split()[0]
    theirs = subprocess.run([_bin("python"), "-c", BLAKE3_BASELINE, str(big)], capture_output=True,
                            text=True, check=True).stdout.strip()
    if ours != f"blake3:{theirs}":
        sys.exit(f"speed_bench: digests differ: {ours} vs blake3:{theirs}")
    passdown = f"passdown digest big.bin ({args.size_mib} MiB)"
    base = "python -c 'blake3(max_threads=AUTO).update_mmap(...)'"
    times = _section("digest", f"{args.size_mib} MiB of random bytes, warm cache", {
        passdown: ([_bin("passdown"), "digest", str(big)], None),
        base: ([_bin("python"), "-c", BLAKE3_BASELINE, str(big)], None),
    }, args.runs)
    big.unlink()
    for label, runs in times.items():
        print(f"  {label:<58} {args.size_mib / 1024 / _median(runs):6.2f} GiB/s (median)")
    ratio = _median(times[base]) / _median(times[passdown])
    print(f"  throughput passdown / blake3 update_mmap (medians): {ratio:.2f}x  target >= 0.8x: "
          f"{_verdict(ratio >= 0.8)}")


def gate(args, work: Path) -> None:
    import json

    from passdown._resources import data_dir

    cases = json.loads((data_dir("conformance") / "cases" / "restart" / "examples.json")
                       .read_text(encoding="utf-8"))["cases"]
    observation = next(c["input"] for c in cases if c["id"] == "restart.example.readme")
    obs = work / "obs.json"
    obs.write_text(json.dumps(observation), encoding="utf-8")
    passdown = "passdown gate restart < obs.json"
    bare = "python -c pass"
    times = _section("gate", "start-up", {
        passdown: ([_bin("passdown"), "gate", "restart"], obs),
        bare: ([_bin("python"), "-c", "pass"], None),
    }, args.gate_runs)
    ratio = _median(times[passdown]) / _median(times[bare])
    print(f"  passdown gate / python -c pass (medians): {ratio:.2f}x  target <= 1.5x: "
          f"{_verdict(ratio <= 1.5)}  (aim: 1.2x)  {_cpu_note(times[passdown], times[bare])}")


def _tree_rss_kib(launcher: int) -> int:
    """The resident sets of ``launcher``'s descendants, summed (the launcher left out)."""
    total, pending = 0, _children(launcher)
    while pending:
        current = pending.pop()
        try:
            with open(f"/proc/{current}/status") as status:
                total += next((int(line.split()[1]) for line in status if line.startswith("VmRSS:")), 0)
        except (OSError, ValueError):
            continue
        pending.extend(_children(current))
    return total


def _children(pid: int) -> list[int]:
    found = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as children:
                found.extend(int(c) for c in children.read().split())
    except (OSError, ValueError):
        pass
    return found


def peak_memory(argv) -> tuple[int, int]:
    """``(ru_maxrss KiB, sampled peak of the process tree's RSS KiB)`` of ``argv``."""
    process = subprocess.Popen([_bin("python"), "-S", "-c", _LAUNCHER, *argv],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = [0]

    def sample():
        while process.poll() is None:
            peak[0] = max(peak[0], _tree_rss_kib(process.pid))
            time.sleep(0.003)

    sampler = threading.Thread(target=sample)
    sampler.start()
    _, err = process.communicate()
    sampler.join()
    maxrss, status = (int(v) for v in err.split()[-2:])
    if status not in (0,):
        sys.exit(f"speed_bench: {' '.join(argv[:3])} exited {status}")
    return maxrss, peak[0]


def memory(args, work: Path) -> None:
    big = work / "huge.bin"
    _random_file(big, 1024 * MIB)
    folder = work / "bulk"
    if not folder.exists():
        folder.mkdir()
        _checkpoint_copies(folder, args.files)
    print(f"\n[memory] peak resident memory, best of 3; load {_load()}")
    rows = [
        ("passdown digest huge.bin (1 GiB)", [_bin("passdown"), "digest", str(big)], 64),
        (f"passdown validate DIR ({args.files:,} folders)", [_bin("passdown"), "validate", str(folder)], 200),
        ("python -c pass (for scale)", [_bin("python"), "-c", "pass"], None),
    ]
    print(f"  {'command':<44} {'ru_maxrss':>10} {'tree, sampled':>14}  target")
    for label, argv, bound in rows:
        samples = [peak_memory(argv) for _ in range(3)]
        maxrss = min(s[0] for s in samples) / 1024
        tree = min(s[1] for s in samples) / 1024
        target = "" if bound is None else f"<= {bound} MiB: {_verdict(max(maxrss, tree) <= bound)}"
        print(f"  {label:<44} {maxrss:8.1f} MiB {tree:10.1f} MiB  {target}")
    big.unlink()


REGISTRY = ROOT / "examples" / "handoff" / "registry.yaml"
REGISTRY_SCHEMA = ROOT / "schemas" / "v1" / "registry.schema.json"
#: Runs the command with the block reader off (``formats._yamlblock``): libyaml's events, as
#: the registry was read before that reader.
_NO_BLOCK_READER = ("from passdown.formats import _yamlblock\n"
                    "def _off(text):\n    raise _yamlblock.NotPlain\n"
                    "_yamlblock.read = _off\n")
_EVENTS_YAML = (_NO_BLOCK_READER + "import sys; from passdown._entry import run; "
                "sys.argv[0] = 'passdown'; run()")
#: Runs the command with the block reader off and libyaml's parser hidden: the loader as it
#: was before it took the C path.
_PURE_YAML = (_NO_BLOCK_READER + "import sys; from passdown.formats import _loading; "
              "_loading.c_yaml_available = lambda: False; from passdown._entry import main; "
              "sys.argv[0] = 'passdown'; sys.exit(main())")


def _large_registry(path: Path, attempts: int) -> None:
    """The example registry with its completed attempt repeated ``attempts`` times, each with
    its own restart id: a real shape, repeated."""
    text = REGISTRY.read_text(encoding="utf-8")
    head, rest = text.split("attempts:\n", 1)
    first, _ = rest.split("  # The current attempt", 1)
    body = "".join(first.replace("rst-20261012-0938-parser", f"rst-20261012-0938-p{number:05d}")
                   .replace("      fencing_epoch: 4\n", f"      fencing_epoch: {number + 1}\n")
                   for number in range(attempts))
    head = head.replace("\nfencing_epoch: 4\n", f"\nfencing_epoch: {attempts}\n")
    tail = rest[rest.index("\n# The restart gate's latest input"):]
    path.write_text(head + "attempts:\n" + body + tail, encoding="utf-8")


def _bundled_schema(source: Path, path: Path) -> None:
    """The packaged schema ``source`` with the shared definitions it refers to inlined, so
    the baseline reads one self-contained file and fetches nothing (``$id``s are identifiers
    only)."""
    import json

    schema = json.loads(source.read_text(encoding="utf-8"))
    shared = json.loads((source.parent / "defs.schema.json").read_text(encoding="utf-8"))
    text = json.dumps(schema).replace('"defs.schema.json#/$defs/', '"#/$defs/shared_')
    schema = json.loads(text)
    schema.setdefault("$defs", {}).update(
        {f"shared_{name}": json.loads(json.dumps(value).replace('"#/$defs/', '"#/$defs/shared_'))
         for name, value in shared.get("$defs", {}).items()})
    path.write_text(json.dumps(schema), encoding="utf-8")


def registry(args, work: Path) -> None:
    schema = work / "registry.bundled.schema.json"
    _bundled_schema(REGISTRY_SCHEMA, schema)
    path = work / "reg" / "registry.yaml"
    path.parent.mkdir(exist_ok=True)
    _large_registry(path, args.attempts)
    passdown = f"passdown validate registry.yaml ({args.attempts:,} attempts)"
    events = "the same, block reader off (libyaml's events)"
    pure = "the same, libyaml's parser hidden too (pure loader)"
    check = "check-jsonschema --schemafile registry.schema.json"
    clean = subprocess.run([_bin("passdown"), "validate", "-q", str(path)], capture_output=True, text=True)
    if clean.returncode != 0:
        sys.exit(f"speed_bench: the large registry is not clean: {clean.stdout[-500:]}")
    times = _section("registry", f"one registry of {path.stat().st_size / MIB:.1f} MiB", {
        passdown: ([_bin("passdown"), "validate", str(path)], None),
        events: ([_bin("python"), "-c", _EVENTS_YAML, "validate", str(path)], None),
        pure: ([_bin("python"), "-c", _PURE_YAML, "validate", str(path)], None),
        check: ([_bin("check-jsonschema"), "--schemafile", str(schema), str(path)], None),
    }, args.bulk_runs)
    speedup = _median(times[check]) / _median(times[passdown])
    print(f"  check-jsonschema / passdown (medians): {speedup:.2f}x faster  target >= 3x: "
          f"{_verdict(speedup >= 3)}  {_cpu_note(times[passdown], times[check])}")
    print(f"  libyaml's events / passdown (medians): {_median(times[events]) / _median(times[passdown]):.2f}x")
    print(f"  pure loader / passdown (medians): {_median(times[pure]) / _median(times[passdown]):.2f}x")
    maxrss, tree = peak_memory([_bin("passdown"), "validate", str(path)])
    print(f"  peak memory of passdown validate: {max(maxrss, tree) / 1024:.1f} MiB  target <= 100 MiB: "
          f"{_verdict(max(maxrss, tree) <= 100 * 1024)}")
    maxrss, tree = peak_memory([_bin("python"), "-c", _EVENTS_YAML, "validate", str(path)])
    print(f"  peak memory, block reader off (libyaml's events): {max(maxrss, tree) / 1024:.1f} MiB")


HANDOFF = ROOT / "examples" / "handoff"
ACK_SCHEMA = ROOT / "schemas" / "v1" / "ack.schema.json"


def _handoff_copies(folder: Path, count: int) -> None:
    """``count`` copies of ``examples/handoff`` (checkpoint, packet, registry, ACK) as
    ``hN/``: a real handoff folder, repeated."""
    folder.mkdir()
    files = {path.relative_to(HANDOFF): path.read_bytes() for path in HANDOFF.rglob("*") if path.is_file()}
    for number in range(count):
        for relative, raw in files.items():
            target = folder / f"h{number}" / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(raw)


def _run_all(argvs) -> tuple[float, float]:
    """``(wall, CPU)`` of running each of ``argvs`` in turn, summed."""
    times = [_run(argv) for argv in argvs]
    return sum(w for w, _ in times), sum(c for _, c in times)


def fullbulk(args, work: Path) -> None:
    """Whole handoff folders: ``passdown validate DIR`` against the three check-jsonschema
    calls a user would make (one per schema, each given every folder's file of that kind:
    the checkpoint, the registry, the ACK; the packet is text, which no JSON Schema tool
    reads), for each count of ``--full-folders``."""
    schemas = {}
    for name, source in (("registry", REGISTRY_SCHEMA), ("ack", ACK_SCHEMA)):
        schemas[name] = work / f"{name}.bundled.schema.json"
        _bundled_schema(source, schemas[name])
    for count in (int(c) for c in args.full_folders.split(",")):
        folder = work / f"full{count}"
        if not folder.exists():
            _handoff_copies(folder, count)
        clean = subprocess.run([_bin("passdown"), "validate", "-q", str(folder)], capture_output=True, text=True)
        if clean.returncode != 0:
            sys.exit(f"speed_bench: the handoff folders are not clean: {clean.stdout[-500:]}")
        names = sorted(p.name for p in folder.iterdir())
        checkpoints = [str(folder / n / "xbrief" / "continue.xbrief.json") for n in names]
        registries = [str(folder / n / "registry.yaml") for n in names]
        acks = [str(folder / n / "ack.json") for n in names]
        check = _bin("check-jsonschema")
        passdown = f"passdown validate DIR ({count:,} handoff folders)"
        three = "check-jsonschema x3 (checkpoints, registries, ACKs)"
        ours = [_bin("passdown"), "validate", str(folder)]
        theirs = [[check, "--schemafile", str(args.schema), *checkpoints],
                  [check, "--schemafile", str(schemas["registry"]), *registries],
                  [check, "--schemafile", str(schemas["ack"]), *acks]]
        _run(ours)
        _run_all(theirs)
        times = {passdown: [], three: []}
        for _ in range(args.full_runs):
            times[passdown].append(_run(ours))
            times[three].append(_run_all(theirs))
        print(f"\n[fullbulk] {count:,} full handoff folders ({4 * count:,} files), "
              f"{args.full_runs} interleaved runs; load {_load()}")
        _table(times)
        speedup = _median(times[three]) / _median(times[passdown])
        print(f"  check-jsonschema x3 / passdown (medians): {speedup:.2f}x faster  target >= 3x: "
              f"{_verdict(speedup >= 3)}  "
              f"(CPU time: {_medians(times[three])[1] / _medians(times[passdown])[1]:.2f}x less)")
        maxrss, tree = peak_memory(ours)
        print(f"  peak memory of passdown validate: ru_maxrss {maxrss / 1024:.1f} MiB, process tree "
              f"{tree / 1024:.1f} MiB  target < 100 MiB: {_verdict(max(maxrss, tree) < 100 * 1024)}")
        shutil.rmtree(folder)


SECTIONS = {"lint": lint, "infolder": infolder, "bulk": bulk, "digest": digest, "gate": gate, "memory": memory,
            "registry": registry, "fullbulk": fullbulk}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15, help="interleaved runs (lint, digest)")
    parser.add_argument("--bulk-runs", type=int, default=10, help="interleaved runs of the bulk lint")
    parser.add_argument("--gate-runs", type=int, default=60, help="interleaved runs of the gate start-up")
    parser.add_argument("--files", type=int, default=2000, help="checkpoint folders of the bulk set")
    parser.add_argument("--attempts", type=int, default=10_000, help="attempts of the large registry")
    parser.add_argument("--full-folders", default="1000,10000",
                        help="counts of full handoff folders of the fullbulk section, comma-separated")
    parser.add_argument("--full-runs", type=int, default=3, help="interleaved runs of the fullbulk section")
    parser.add_argument("--size-mib", type=int, default=256, help="size of the digest file")
    parser.add_argument("--schema", type=Path, default=DEFAULT_SCHEMA,
                        help="the baseline's schema (the upstream xBRIEF core 0.8)")
    parser.add_argument("--only", default=",".join(SECTIONS), help="sections to run, comma-separated")
    parser.add_argument("--dir", default=None, help="where the test files go (default: a temp folder)")
    args = parser.parse_args(argv)
    chosen = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = set(chosen) - set(SECTIONS)
    if unknown:
        parser.error(f"unknown sections: {', '.join(sorted(unknown))}")
    if not args.schema.is_file():
        parser.error(f"no baseline schema at {args.schema} (pass --schema)")
    _versions()
    with tempfile.TemporaryDirectory(dir=args.dir, prefix="passdown-speed-") as folder:
        for name, section in SECTIONS.items():
            if name in chosen:
                section(args, Path(folder))
    return 0


if __name__ == "__main__":
    sys.exit(main())
