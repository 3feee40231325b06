"""Real files from public repositories (tests/data/real/MANIFEST.json: repository, path and
commit of each), placed where their projects keep them: each gets the answer a user of that
project expects. Another tool's ``registry.json`` is left alone (CNF-112), a continue file
that is not xBRIEF gets ``checkpoint.not_xbrief`` alone (CKP-030), and a deft project holding a
plain continue checkpoint validates clean (CKP-026). (A legacy scope as a continue checkpoint,
whose problems `passdown migrate` lists at once, is tests/authoring/test_migrate.py's.)"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from passdown import validate_paths
from passdown.cli import cli

ROOT = Path(__file__).resolve().parents[2]
REAL = ROOT / "tests" / "data" / "real"
MANIFEST = json.loads((REAL / "MANIFEST.json").read_text(encoding="utf-8"))["files"]
PLAIN = ROOT / "examples" / "plain" / "xbrief" / "continue.xbrief.json"
LEFT_ALONE = [entry for entry in MANIFEST if entry["expect"].startswith("left alone")]


def _place(project: Path, entry, where: str) -> Path:
    target = project / where
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(REAL / entry["file"], target)
    return target


def _codes(report):
    return sorted(f.code for f in report.findings)


def test_the_manifest_names_every_file_and_every_file_is_listed():
    assert sorted(entry["file"] for entry in MANIFEST) == sorted(
        path.name for path in REAL.iterdir() if path.name != "MANIFEST.json")
    for entry in MANIFEST:
        assert re.fullmatch(r"[0-9a-f]{40}", entry["commit"]), entry
        assert entry["repository"].count("/") == 1 and entry["path"], entry


def test_a_deft_project_with_its_plain_checkpoint_and_registries_is_clean(tmp_path):
    """The done-when of a deft-installed project: `validate .` reports nothing about deft's
    files, and its plain continue checkpoint is valid."""
    (tmp_path / "xbrief").mkdir()
    shutil.copyfile(PLAIN, tmp_path / "xbrief" / "continue.xbrief.json")
    for entry in MANIFEST:  # deft's own files: its registries, plans and scopes
        if entry["expect"].startswith(("left alone", "not an artifact")):
            for where in entry["placed_at"]:
                _place(tmp_path, entry, where)
    report = validate_paths([str(tmp_path)])
    assert (report.findings, report.exit_code()) == ((), 0)
    assert report.kinds == ((str(tmp_path / "xbrief" / "continue.xbrief.json"), "checkpoint"),)
    assert sorted(Path(file).relative_to(tmp_path).as_posix() for file, _ in report.skipped) == [
        ".deft/core/events/registry.json", "events/registry.json", "registry.json"]


@pytest.mark.parametrize("entry", LEFT_ALONE, ids=lambda e: e["file"])
def test_another_tools_registry_named_as_the_pre_commit_hook_names_it_is_left_alone(tmp_path, entry):
    for where in entry["placed_at"]:
        path = _place(tmp_path, entry, where)
        report = validate_paths([str(path)])
        assert (report.findings, report.files, report.exit_code()) == ((), (), 0)
        [(file, why)] = report.skipped
        assert file == str(path)
        assert why.startswith("not a restart registry: it has no passdown_version, no \"kind\" "
                              "of one, and none of its members (its own are \"$schema\", ")
        assert why.endswith("another tool's file, left alone")


@pytest.mark.parametrize("entry", LEFT_ALONE, ids=lambda e: e["file"])
def test_kind_judges_another_tools_registry_all_the_same(tmp_path, entry):
    path = _place(tmp_path, entry, entry["placed_at"][0])
    report = validate_paths([str(path)], kind="registry")
    assert report.skipped == () and "schema.required" in _codes(report)


def test_verbose_names_what_was_left_alone_and_why(tmp_path):
    entry = LEFT_ALONE[0]
    path = _place(tmp_path, entry, entry["placed_at"][0])
    result = CliRunner().invoke(cli, ["validate", "-v", str(path)])
    assert result.exit_code == 0
    assert result.output.startswith(f"skipped {path}: not a restart registry: it has no "
                                    "passdown_version")


def test_what_was_left_alone_is_named_as_it_is(tmp_path):
    """The reason names the kind with its article, and a file holding one of the kind's own
    members (two make it one) is not said to hold none."""
    (tmp_path / "ack.json").write_text(json.dumps({"ack": True, "id": 5}))
    (tmp_path / "registry.json").write_text(json.dumps({"policy": "strict", "name": "x"}))
    reasons = dict(validate_paths([str(tmp_path)]).skipped)
    assert reasons[str(tmp_path / "ack.json")] == (
        "not an ACK: it has no passdown_version, no \"kind\" of one, and none of its members "
        "(its own are \"ack\", \"id\"); another tool's file, left alone")
    assert reasons[str(tmp_path / "registry.json")] == (
        "not a restart registry: it has no passdown_version, no \"kind\" of one, and only one of "
        "its members, \"policy\", (its own are \"policy\", \"name\"); another tool's file, "
        "left alone")


def test_a_broken_restart_registry_is_still_one(tmp_path):
    """Two of a registry's own members make it one, however broken: it is judged, not left."""
    path = tmp_path / "registry.json"
    path.write_text(json.dumps({"policy": {}, "attempts": []}))
    report = validate_paths([str(path)])
    assert report.skipped == () and "schema.required" in _codes(report)


@pytest.mark.parametrize("where", ["vbrief/continue.vbrief.json", "xbrief/continue.xbrief.json"])
def test_a_continue_file_that_is_not_xbrief_is_told_so_and_nothing_else(tmp_path, where):
    entry = next(e for e in MANIFEST if e["expect"] == "checkpoint.not_xbrief alone")
    path = _place(tmp_path, entry, where)
    report = validate_paths([str(tmp_path)])
    assert [(f.code, f.file) for f in report.findings] == [("checkpoint.not_xbrief", str(path))]
    finding = report.findings[0]
    assert finding.message == (
        f"{path.name} is not an xBRIEF document (it says it is 'vbrief/1.0'): it has no "
        "xBRIEFInfo or vBRIEFInfo header and no plan, only 'schema', 'saved_at', "
        "'session_summary', 'phase_status', 'known_gaps'")
    assert "neither a resuming session nor `passdown migrate` can read it" in finding.hint
    assert "already xBRIEF 0.8" not in finding.hint
