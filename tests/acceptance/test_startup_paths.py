"""Start-up of every command path: which modules each one imports, run through the front
door (``passdown._entry.main``) in a fresh interpreter, as the ``passdown`` launcher runs it.

The hot paths import only what their work needs: the gate and the hook none of json, re,
typing, dataclasses or click; a plain ``validate`` and ``digest`` no click; a raw digest
none of the canonicalisation or validation modules; a valid document never the reference
validator (jsonschema), which only explains failures. Every other command goes through
click, and its help loads no validator."""

from __future__ import annotations

import json
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
