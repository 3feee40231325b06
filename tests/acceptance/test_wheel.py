"""The wheel: built from the checkout, installed into a fresh virtual environment outside it,
``passdown validate`` passes the bundled example from there, and the schemas, conformance data
and examples travel inside the wheel."""

from __future__ import annotations

import json
import subprocess
import zipfile
from pathlib import Path

import pytest
from wheel_support import ROOT, fresh_venv, run as _run

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def installed(built_wheel, tmp_path_factory):
    """(wheel path, the fresh environment's bin folder, a working folder outside the checkout)."""
    work = tmp_path_factory.mktemp("wheel")
    assert ROOT not in work.parents
    return built_wheel, fresh_venv(work / "venv", built_wheel, work), work


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
    assert {name.split("/")[0] for name in names} == {"passdown", f"passdown-{wheel.name.split('-')[1]}.dist-info",
                                                        f"passdown-{wheel.name.split('-')[1]}.data"}


def test_the_wheel_metadata_names_passdown_only(installed):
    wheel, bin_dir, work = installed
    archive = zipfile.ZipFile(wheel)
    (metadata,) = [name for name in archive.namelist() if name.endswith(".dist-info/METADATA")]
    fields = [line.split(": ", 1) for line in archive.read(metadata).decode().split("\n\n")[0].splitlines()
              if ": " in line]
    assert dict(fields)["Name"] == "passdown"
    assert ["Provides-Extra", "mcp"] in fields
    assert not [name for name in archive.namelist() if name.endswith("entry_points.txt")]
    shown = _run([bin_dir / "python", "-m", "pip", "show", "-f", "passdown"], cwd=work)
    assert "Name: passdown\n" in shown.stdout and "../../../bin/passdown" in shown.stdout
    assert sorted(path.name for path in bin_dir.glob("passdown*")) == ["passdown"]
    launcher = (bin_dir / "passdown").read_text(encoding="utf-8")
    assert launcher.startswith(f"#!{bin_dir / 'python'}") and "from passdown._entry import run" in launcher


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
