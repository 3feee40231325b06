"""How the relaunch, lifecycle and guard gates are built: the gate-module protocol, light
imports on the hook path, the two lifecycle paths kept apart, and the command line."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from passdown.gates import load

ROOT = Path(__file__).resolve().parents[2]
GATES_DIR = ROOT / "validator" / "passdown" / "gates"
NAMES = ("relaunch", "lifecycle", "guard")


@pytest.mark.parametrize("name", NAMES)
def test_the_module_follows_the_gate_protocol(name):
    module = load(name)
    assert module.NAME == name and module.VERSION and module.SUMMARY
    assert (ROOT / module.SPEC).is_file()
    for schema in (module.INPUT_SCHEMA, module.OUTPUT_SCHEMA):
        assert (ROOT / "schemas" / "v1" / schema).is_file()
    assert len(set(module.OUTCOMES)) == len(module.OUTCOMES) and "invalid_input" in module.OUTCOMES
    assert callable(module.decide) and callable(module.run) and module.MAX_INPUT_BYTES > 0


HEAVY = ("json", "re", "typing", "dataclasses", "click", "jsonschema")


def test_the_gates_load_nothing_heavy_not_even_for_a_kill_by_a_pattern():
    code = ("import sys; from passdown.gates import relaunch, lifecycle, guard; "
            "relaunch.run(b'{}'); lifecycle.run(b'{}'); "
            "guard.run(b'{\"tool\": \"execute\", \"arguments\": \"git status && make\", \"host_pid\": 1}'); "
            "guard.run(b'{\"tool\": \"execute\", \"arguments\": \"kill -1; pkill -f claude\", "
            "\"host_pid\": 1, \"host_names\": [\"claude\"]}'); "
            f"print(sorted(m for m in {HEAVY!r} if m in sys.modules)); "
            "guard.run(b'{\"tool\": \"execute\", \"arguments\": \"pkill -f cl.ude\", \"host_pid\": 1, "
            "\"host_names\": [\"claude\"]}'); "
            "print('re' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines() == ["[]", "False"]  # the guard reads patterns without re


def _tree(name):
    return ast.parse((GATES_DIR / f"{name}.py").read_text(encoding="utf-8"))


def test_the_two_lifecycle_paths_share_no_code():
    continuity, role = _tree("_lifecycle_continuity"), _tree("_lifecycle_role")
    for tree, other in ((continuity, "_lifecycle_role"), (role, "_lifecycle_continuity")):
        imports = [node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))]
        assert imports == [], "a path module imports something"
        names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
        assert other not in names and "continuity" not in names and "role_path" not in names
    functions = {node.name for node in continuity.body if isinstance(node, ast.FunctionDef)}
    assert {"request", "launch", "ready"} <= functions
    role_functions = {node.name for node in role.body if isinstance(node, ast.FunctionDef)}
    assert {"request", "reconfigure", "launch", "ready"} <= role_functions


def test_the_lifecycle_module_builds_no_launch_itself():
    """Only the path modules mint identities: the shared module never sets them."""
    tree = _tree("lifecycle")
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword):
            assert node.arg not in ("stack_session_id", "incarnation_id", "context", "epoch", "role")


def _cli(name, payload):
    return subprocess.run([sys.executable, "-m", "passdown", "gate", name, "-"], input=payload,
                          capture_output=True, check=False)


@pytest.mark.parametrize(("name", "payload", "status", "outcome"), [
    ("relaunch", b"not json", 2, "invalid_input"),
    ("lifecycle", b"{}", 2, "invalid_input"),
    ("guard", b'{"tool": "execute", "arguments": "kill -1", "host_pid": 7}', 1, "host_kill"),
    ("guard", b'{"tool": "execute", "arguments": "git status", "host_pid": 7}', 0, None),
])
def test_the_command_prints_one_sorted_line_and_exits_with_the_gate_status(name, payload, status, outcome):
    result = _cli(name, payload)
    assert result.returncode == status
    assert result.stderr == b""
    output = json.loads(result.stdout)
    assert result.stdout.decode() == json.dumps(output, sort_keys=True) + "\n"
    assert output.get("code") == outcome


def test_the_command_answers_a_relaunch_case_like_the_library():
    case = json.loads((ROOT / "conformance" / "cases" / "relaunch" / "order.json").read_text())["cases"][0]
    result = _cli("relaunch", json.dumps(case["input"]).encode())
    assert result.returncode == 0
    assert json.loads(result.stdout) == case["expected"]["output"]
