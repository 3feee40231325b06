"""Start-up of every command path: which modules each one imports, run through the front
door (``passdown._entry.main``) in a fresh interpreter, as the ``passdown`` launcher runs it.

The hot paths import only what their work needs: the gate and the hook none of json, re,
typing, dataclasses or click; a plain ``validate`` and ``digest`` no click; a raw digest
none of the canonicalisation or validation modules; a valid document never the reference
validator (jsonschema), which only explains failures. Every other command goes through
click, and its help loads no validator."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from passdown.cli import _COMMANDS

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "handoff"
CHECKPOINT = EXAMPLE / "xbrief" / "continue.xbrief.json"
INVALID = ROOT / "examples" / "invalid" / "ack" / "status.json"
WATCHED = ("json", "re", "typing", "dataclasses", "inspect", "click", "jsonschema", "referencing",
           "jsonschema_rs", "blake3", "rfc8785", "ruamel")
START_UP_RULE = {"json", "re", "typing", "dataclasses", "click"}

_PROBE = """
import sys
before = set(sys.modules)
from passdown._entry import main
try:
    status = main(sys.argv[2:])
except SystemExit as exit_:
    status = exit_.code
loaded = [m for m in {watched!r} if m in sys.modules and m not in before]
with open(sys.argv[1], "w") as out:
    out.write(" ".join(loaded) + "\\n" + str(status or 0))
"""


def _loaded(tmp_path, argv, stdin=b""):
    report = tmp_path / "loaded.txt"
    result = subprocess.run([sys.executable, "-c", _PROBE.format(watched=WATCHED), str(report), *argv],
                            input=stdin, capture_output=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    names, status = report.read_text().split("\n")
    return set(names.split()), int(status)


@pytest.fixture
def raw_file(tmp_path):
    path = tmp_path / "blob.bin"
    path.write_bytes(bytes(range(256)) * 4096)
    return path


def _readme_observation() -> bytes:
    cases = json.loads((ROOT / "conformance/cases/restart/examples.json").read_text(encoding="utf-8"))
    case = next(case for case in cases["cases"] if case["id"] == "restart.example.readme")
    return json.dumps(case["input"]).encode()


def test_gate_restart_imports_nothing_heavy(tmp_path):
    loaded, status = _loaded(tmp_path, ["gate", "restart"], _readme_observation())
    assert (loaded, status) == (set(), 0)


def test_the_pre_tool_use_hook_keeps_the_start_up_rule(tmp_path):
    call = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls -la"},
            "session_id": "s1", "cwd": str(tmp_path)}
    loaded, status = _loaded(tmp_path, ["hook", "claude", "PreToolUse"], json.dumps(call).encode())
    assert status == 0 and not loaded & START_UP_RULE, loaded


def test_a_raw_digest_loads_no_canonical_form_and_no_validator(tmp_path, raw_file):
    loaded, status = _loaded(tmp_path, ["digest", str(raw_file)])
    assert (loaded, status) == ({"blake3"}, 0)


def test_an_artifact_digest_loads_its_canonical_form_but_no_click_or_validator(tmp_path):
    loaded, status = _loaded(tmp_path, ["digest", str(CHECKPOINT)])
    assert status == 0
    # a checkpoint without floats is written by the standard JSON encoder: rfc8785 stays out
    assert {"blake3", "json"} <= loaded and "rfc8785" not in loaded, loaded
    assert not loaded & {"click", "jsonschema", "jsonschema_rs", "referencing"}, loaded


@pytest.mark.parametrize("target", [CHECKPOINT, EXAMPLE], ids=["file", "handoff folder"])
def test_validating_valid_artifacts_loads_no_click_and_no_reference_validator(tmp_path, target):
    loaded, status = _loaded(tmp_path, ["validate", str(target)])
    assert status == 0
    assert "jsonschema_rs" in loaded
    assert not loaded & {"click", "jsonschema", "referencing"}, loaded


def test_an_invalid_file_loads_the_reference_validator_but_no_click(tmp_path):
    loaded, status = _loaded(tmp_path, ["validate", str(INVALID)])
    assert status == 1
    assert {"jsonschema_rs", "jsonschema"} <= loaded and "click" not in loaded, loaded


@pytest.mark.parametrize("argv", [["--version"], ["--help"], ["validate", "--format", "json", str(CHECKPOINT)]],
                         ids=lambda argv: " ".join(argv[:3]))
def test_paths_with_options_go_through_click(tmp_path, argv):
    loaded, status = _loaded(tmp_path, argv)
    assert status == 0 and "click" in loaded


@pytest.mark.parametrize("command", sorted(_COMMANDS))
def test_every_command_s_help_loads_no_validator(tmp_path, command):
    loaded, status = _loaded(tmp_path, [command, "--help"])
    assert status == 0 and "click" in loaded
    assert not loaded & {"jsonschema", "jsonschema_rs", "referencing", "blake3"}, loaded


def test_version_loads_only_click_and_what_it_needs(tmp_path):
    loaded, status = _loaded(tmp_path, ["--version"])
    assert status == 0
    assert not loaded & {"json", "dataclasses", "jsonschema", "jsonschema_rs", "blake3", "rfc8785", "ruamel"}


def _imported_by_the_hook_as_installed(tmp_path, event, stdin):
    """The modules a hook command exactly as ``passdown hook install`` writes it imports (HST-207),
    and its exit status and output."""
    from passdown.hosts._claude_settings import hook_command, hook_launcher

    python, *rest = shlex.split(hook_command(hook_launcher(), event, {}))
    result = subprocess.run([python, "-X", "importtime", *rest], input=stdin, capture_output=True,
                            cwd=tmp_path, timeout=120, check=False)
    lines = result.stderr.decode().splitlines()
    imported = {line.split("|")[-1].strip() for line in lines if line.startswith("import time:")}
    return imported, result.returncode, result.stdout


def test_the_installed_per_call_hook_runs_without_site_and_without_os(tmp_path):
    call = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "kill -9 $PPID"},
            "session_id": "s1", "cwd": str(tmp_path)}
    imported, status, stdout = _imported_by_the_hook_as_installed(tmp_path, "PreToolUse", json.dumps(call).encode())
    assert status == 0 and json.loads(stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "passdown.gates._guard_judge" in imported
    assert not imported & {"site", "os", *START_UP_RULE}, sorted(imported & {"site", "os", *START_UP_RULE})


def test_every_other_command_started_that_way_runs_the_site_set_up_first(tmp_path):
    start = {"hook_event_name": "SessionStart", "source": "startup", "session_id": "s1", "cwd": str(tmp_path),
             "transcript_path": str(tmp_path / "absent.jsonl")}
    imported, status, _ = _imported_by_the_hook_as_installed(tmp_path, "SessionStart", json.dumps(start).encode())
    assert status == 0 and "site" in imported


def test_the_installed_hook_never_imports_a_module_from_the_repository_it_runs_in(tmp_path):
    marker = tmp_path / "imported"
    planted = f"open({str(marker)!r}, 'w').close()\n"
    for name in ("passdown/__init__.py", "passdown/_entry.py", "posix.py", "site.py", "_signal.py", "gc.py"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(planted)
    call = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"},
            "session_id": "s1", "cwd": str(tmp_path)}
    for event, stdin in (("PreToolUse", call), ("Stop", {**call, "hook_event_name": "Stop"})):
        _, status, _ = _imported_by_the_hook_as_installed(tmp_path, event, json.dumps(stdin).encode())
        assert status == 0 and not marker.exists(), event
