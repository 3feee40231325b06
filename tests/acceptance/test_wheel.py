"""The wheel: built from the checkout, installed into a fresh virtual environment outside it,
``passdown validate`` passes the bundled example from there, and the schemas, conformance data
and examples travel inside the wheel."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from engine_support import ROOT

pytestmark = pytest.mark.slow


def _run(argv, cwd, timeout=600):
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    result = subprocess.run([str(a) for a in argv], cwd=cwd, env=env, capture_output=True,
                            text=True, timeout=timeout)
    assert "Traceback" not in result.stderr, result.stderr
    return result


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(wheel path, the fresh environment's bin folder, a working folder outside the checkout)."""
    work = tmp_path_factory.mktemp("wheel")
    assert ROOT not in work.parents
    built = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", work / "dist", ROOT],
                 cwd=work)
    assert built.returncode == 0, built.stderr
    (wheel,) = (work / "dist").glob("*.whl")
    made = _run([sys.executable, "-m", "venv", work / "venv"], cwd=work)
    assert made.returncode == 0, made.stderr
    bin_dir = work / "venv" / ("Scripts" if os.name == "nt" else "bin")
    added = _run([bin_dir / "python", "-m", "pip", "install", "-q", wheel], cwd=work)
    assert added.returncode == 0, added.stderr
    return wheel, bin_dir, work


def _tracked(folder: str) -> list[str]:
    listed = subprocess.run(["git", "ls-files", folder], cwd=ROOT, capture_output=True, text=True)
    if listed.returncode == 0 and listed.stdout.strip():
        return listed.stdout.split()
    return [p.relative_to(ROOT).as_posix() for p in (ROOT / folder).rglob("*") if p.is_file()]


def test_the_wheel_carries_schemas_conformance_data_and_examples(installed):
    wheel, _, _ = installed
    names = set(zipfile.ZipFile(wheel).namelist())
    for folder in ("schemas", "conformance", "examples"):
        files = _tracked(folder)
        assert files, folder
        for relative in files:
            assert f"passdown/_data/{relative}" in names, relative
    for module in ("passdown/engine/_validate.py", "passdown/engine/_schemas.py", "passdown/formats/_detect.py", "passdown/engine/_ecma.py",
                   "passdown/engine/_locate.py", "passdown/reporters/_sarif.py", "passdown/gates/validate.py",
                   "passdown/cli/_validate.py", "passdown/cli/_schema.py"):
        assert module in names, module
    assert "passdown/_data/schemas/v1/findings.schema.json" in names
    assert any(name.endswith(".data/scripts/passdown") for name in names)


def test_passdown_validate_runs_from_the_installed_wheel(installed):
    _, bin_dir, work = installed
    located = _run([bin_dir / "python", "-c",
                    "from passdown._resources import data_dir; print(data_dir('examples'))"], cwd=work)
    examples = Path(located.stdout.strip())
    assert examples.is_dir() and ROOT not in examples.parents and work in examples.parents
    result = _run([bin_dir / "passdown", "validate", examples / "handoff"], cwd=work)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.endswith("files checked: no findings\n")
    report = json.loads(_run([bin_dir / "passdown", "validate", "--format", "json",
                              examples / "handoff"], cwd=work).stdout)
    assert report["ok"] is True
    assert {entry["kind"] for entry in report["files"]} >= {"checkpoint", "packet", "registry", "ack"}


def test_installed_schemas_and_findings(installed, tmp_path):
    _, bin_dir, work = installed
    located = _run([bin_dir / "passdown", "schema", "path", "checkpoint"], cwd=work)
    assert located.returncode == 0 and work in Path(located.stdout.strip()).parents
    broken = tmp_path / "ack.json"
    broken.write_text('{"kind": "ack", "kind": "ack"}', encoding="utf-8")
    result = _run([bin_dir / "passdown", "validate", broken], cwd=work)
    assert result.returncode == 2 and "load.duplicate_key" in result.stdout


def test_the_shipped_adapters_are_found_and_run_after_install(installed):
    import shlex

    _, bin_dir, work = installed
    listed = json.loads(_run([bin_dir / "passdown", "conformance", "adapters", "--format", "json"], cwd=work).stdout)
    assert [adapter["name"] for adapter in listed] == ["python", "node"]
    for adapter in listed:
        path = Path(adapter["path"])
        assert path.is_file() and work in path.parents and path.parent.parent.name == "adapters"
    command = shlex.split(listed[0]["harness_command"])
    result = _run([bin_dir / "passdown", *command[1:], "--id", "title.worked.*"], cwd=work)
    assert result.returncode == 0 and result.stdout.endswith(" passed, 0 failed, 0 errored, 0 skipped\n")
