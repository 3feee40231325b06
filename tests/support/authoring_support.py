"""Shared set-up for the authoring tests: a project made with ``passdown init``'s library call,
the CLI through click's runner, and validation through the engine."""

from __future__ import annotations

import copy
import functools
import json
import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

import passdown
from passdown.authoring import Identity, Policy, init
from passdown.cli import cli

IDENTITY = Identity(goal_id="goal-parser", main_id="sess-a",
                    outcome="ledger.parsing.csv is the only parser; tests pass",
                    first_step="Extract the parser into ledger/parsing/csv.py")
POLICY = Policy(mode="adaptive", authorization_scope="restarts of MAIN for goal-parser",
                archive_consent=True)
REPO = Path(__file__).resolve().parents[2]


def make_project(folder: Path, *, registry_format: str = "yaml", policy: Policy = POLICY,
                 identity: Identity = IDENTITY) -> Path:
    init(folder, identity, policy, registry_format=registry_format)
    return folder


def checkpoint_of(folder: Path) -> Path:
    return folder / "xbrief" / "continue.xbrief.json"


def registry_of(folder: Path) -> Path:
    for name in ("registry.yaml", "registry.json"):
        if (folder / name).exists():
            return folder / name
    raise FileNotFoundError(folder)


def load(path: Path):
    from passdown.authoring import _store

    kind = "checkpoint" if path.name.endswith(".xbrief.json") else "registry"
    return _store.read(path, kind)


def run(*args, input_text: str | None = None):
    """``passdown ARGS`` through click's runner; returns the result (exit_code, stdout...)."""
    return CliRunner().invoke(cli, [str(a) for a in args], input=input_text,
                              catch_exceptions=False)


def run_json(*args) -> tuple[int, dict]:
    """``passdown ARGS --format json``: the exit status and the one JSON object printed, which
    must match the published result schema."""
    result = run(*args, "--format", "json")
    out = json.loads(result.stdout)
    _result_schema().validate(out)
    assert out.get("exit_code", 0) == result.exit_code
    return result.exit_code, out


@functools.cache
def _result_schema():
    import jsonschema

    schema = json.loads((REPO / "schemas" / "v1" / "authoring-result.schema.json").read_text())
    return jsonschema.Draft202012Validator(schema)


def subprocess_passdown(*args, cwd=None, check=False) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "passdown", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, check=check,
                          env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})


def errors_in(*paths) -> list[str]:
    """The error codes ``passdown.validate_paths`` reports for ``paths`` (empty: valid)."""
    report = passdown.validate_paths([str(p) for p in paths])
    return sorted(f.code for f in report.findings if f.is_error)


def members(value, prefix=()):
    """Every path into the JSON value ``value`` (keys and indexes), the root ``()`` first."""
    yield prefix
    if isinstance(value, dict):
        for key, child in value.items():
            yield from members(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from members(child, (*prefix, index))


def replaced(document, path, value):
    """A deep copy of the JSON value ``document`` with ``value`` at ``path`` (``value`` itself
    for the root ``()``)."""
    if not path:
        return value
    changed = copy.deepcopy(document)
    node = changed
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    return changed
