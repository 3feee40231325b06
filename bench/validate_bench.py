"""Benchmark: ``passdown validate`` against check-jsonschema on the same files and schema.

Two figures, each the wall time of the installed commands run as subprocesses, repeated,
reported as min and median, with the ratio against the baseline (each command first runs
once untimed, with bytecode caching on, as an installed package has it):

1. one-file lint, cold start: ``passdown validate xbrief/continue.xbrief.json`` against
   ``check-jsonschema --schemafile <checkpoint schema> <same file>`` (target: at most 0.4x);
2. 2,000 checkpoint files in one call, the same file list for both (target: at least 5x
   faster).

check-jsonschema gets the checkpoint schema as one file with every packaged schema it refers
to copied in and every reference made local, written to a temporary folder. Run:

    python bench/validate_bench.py [--runs 15] [--bulk-runs 3] [--files 2000]
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

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "handoff" / "xbrief" / "continue.xbrief.json"
COLD_TARGET = 0.4
BULK_TARGET = 5.0


def _command(name: str) -> str:
    """The installed command beside this interpreter (the venv's), else on PATH."""
    beside = Path(sys.executable).with_name(name)
    found = str(beside) if beside.exists() else shutil.which(name)
    if not found:
        sys.exit(f"validate_bench: the {name} command is not installed")
    return found


def bundled_checkpoint_schema(folder: Path) -> Path:
    """The checkpoint schema and every packaged schema it refers to, as one file with local
    references only: each other schema sits under ``$defs`` and each ``$ref`` becomes a JSON
    pointer into the file (embedded resources with their own ``$id`` would send the baseline's
    resolver crawling on every reference, which would measure that, not validation)."""
    from urllib.parse import urldefrag, urljoin

    from passdown.engine._schemas import store

    schemas = store()
    root_id = schemas.find("checkpoint").id
    keys = {f.id: f"bundled-{name.replace('/', '-')}" for name, f in schemas.files().items()}

    def local(node, base):
        if isinstance(node, list):
            return [local(item, base) for item in node]
        if not isinstance(node, dict):
            return node
        out = {}
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                target, fragment = urldefrag(urljoin(base, value))
                prefix = "" if target == root_id else f"/$defs/{keys[target]}"
                out[key] = f"#{prefix}{fragment}"
            elif key in ("const", "enum", "examples", "default"):
                out[key] = value
            else:
                out[key] = local(value, base)
        return out

    bundled = local(schemas.contents("checkpoint"), root_id)
    definitions = bundled.setdefault("$defs", {})
    for name, schema_file in schemas.files().items():
        if schema_file.id != root_id:
            embedded = local(schemas.contents(name), schema_file.id)
            embedded.pop("$id", None)
            embedded.pop("$schema", None)
            definitions[keys[schema_file.id]] = embedded
    path = folder / "checkpoint.bundled.schema.json"
    path.write_text(json.dumps(bundled), encoding="utf-8")
    return path


def _many_checkpoints(folder: Path, count: int) -> list[str]:
    document = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    paths = []
    for number in range(count):
        document["plan"]["title"] = f"Checkpoint number {number}"
        path = folder / f"{number:04d}" / "xbrief" / "continue.xbrief.json"
        path.parent.mkdir(parents=True)
        path.write_text(json.dumps(document, indent=2), encoding="utf-8")
        paths.append(str(path))
    return paths


def _time(argv: list[str], runs: int, cwd: Path) -> list[float]:
    # As installed: bytecode cached (a wheel install compiles it), so one untimed run first.
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env["NO_COLOR"] = "1"
    times = []
    for run in range(runs + 1):
        start = time.perf_counter()
        result = subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE)
        if run:
            times.append(time.perf_counter() - start)
        if result.returncode != 0:
            sys.exit(f"validate_bench: {argv[0]} failed ({result.returncode}): "
                     f"{result.stderr.decode(errors='replace')[-500:]}")
    return times


def _row(label: str, times: list[float]) -> str:
    return f"  {label:<18} min {min(times) * 1000:8.1f} ms   median {statistics.median(times) * 1000:8.1f} ms"


def _compare(title: str, files: list[str], runs: int, cwd: Path, commands, schema: Path,
             target: float, target_words: str) -> None:
    """Time both commands on ``files``; print the figures and the ratio against ``target``
    (the most passdown's median may take, as a fraction of the baseline's)."""
    passdown, baseline = commands
    print(f"{title} ({runs} runs each)")
    ours = _time([passdown, "validate", *files], runs, cwd)
    theirs = _time([baseline, "--schemafile", str(schema), *files], runs, cwd)
    print(_row("passdown", ours))
    print(_row("check-jsonschema", theirs))
    median = statistics.median(ours) / statistics.median(theirs)
    fastest = min(ours) / min(theirs)
    print(f"  passdown / check-jsonschema: median {median:.2f}x ({1 / median:.1f}x faster), "
          f"min {fastest:.2f}x ({1 / fastest:.1f}x faster); target {target_words}: "
          f"{'met' if median <= target else 'NOT met'}")


def _breakdown(paths: list[str]) -> None:
    """In-process time per file of the whole check, and of the check without the semantic
    rules (loading, detection and the schema), to show where the time goes."""
    import passdown
    from passdown import rules

    passdown.validate_paths(paths[:10])  # imports, compiled validators, rule modules
    whole = min(_in_process(passdown.validate_paths, paths) for _ in range(3))
    registered = dict(rules._RULES)
    rules._RULES.clear()  # the same engine with no rule registered
    try:
        engine = min(_in_process(passdown.validate_paths, paths) for _ in range(3))
    finally:
        rules._RULES.update(registered)
    count = len(paths)
    print(f"where the time goes, in-process, per file (best of 3 over {count:,} files)")
    print(f"  load, detect, schema       {engine / count * 1e6:8.0f} us")
    print(f"  semantic rules             {(whole - engine) / count * 1e6:8.0f} us")
    print(f"  whole check                {whole / count * 1e6:8.0f} us")


def _in_process(function, paths) -> float:
    start = time.perf_counter()
    function(paths)
    return time.perf_counter() - start


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of the one-file lint")
    parser.add_argument("--bulk-runs", type=int, default=3, help="runs of the many-file call")
    parser.add_argument("--files", type=int, default=2000, help="checkpoint files in the bulk call")
    options = parser.parse_args(argv)
    commands = (_command("passdown"), _command("check-jsonschema"))

    with tempfile.TemporaryDirectory(prefix="passdown-bench-") as temp:
        folder = Path(temp)
        schema = bundled_checkpoint_schema(folder)
        single = folder / "one" / "xbrief" / "continue.xbrief.json"
        single.parent.mkdir(parents=True)
        shutil.copyfile(EXAMPLE, single)
        _compare(f"one-file lint, cold start ({EXAMPLE.stat().st_size:,} bytes)",
                 [str(single.relative_to(folder / "one"))], options.runs, folder / "one",
                 commands, schema, COLD_TARGET, f"at most {COLD_TARGET}x")
        print()
        paths = _many_checkpoints(folder / "many", options.files)
        _compare(f"{options.files:,} checkpoint files in one call", paths, options.bulk_runs,
                 folder, commands, schema, 1 / BULK_TARGET, f"at least {BULK_TARGET:g}x faster")
        print()
        _breakdown(paths)
    return 0


if __name__ == "__main__":
    sys.exit(main())
