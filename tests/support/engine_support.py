"""Shared helpers of the engine tests: small schemas of their own and an empty rule registry,
so that the engine's behaviour is tested apart from the real schemas and rules."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from passdown.engine import _schemas
from passdown import rules

ROOT = Path(__file__).resolve().parents[2]
TEST_SCHEMAS = Path(__file__).resolve().parents[1] / "data" / "engine_data" / "schemas"

CHECKPOINT = {
    "xBRIEFInfo": {"version": "0.8"},
    "plan": {"title": "Refactor", "status": "running",
             "items": [{"title": "inventory", "status": "completed"}]},
    "x-passdown/checkpoint": {"goal_id": "goal-1", "epoch": 3},
}
ACK = {"passdown_version": "1.0", "kind": "ack", "status": "READY_READONLY", "goal_id": "goal-1"}
REGISTRY = {"kind": "registry", "revision": 2, "rows": [{"id": "row-1"}]}
PACKET_TEXT = "GOAL_ID: goal-1\nOUTCOME / ACCEPTANCE: done\n"


def dump(value) -> str:
    return json.dumps(value, indent=2) + "\n"


@pytest.fixture
def isolated(monkeypatch):
    """The test schemas and an empty rule registry; yields the registry (kind -> rules)."""
    rules.all_rules()  # import every rule module once, so none registers later
    registry: dict = {}
    monkeypatch.setattr(rules, "_RULES", registry)
    monkeypatch.setattr(_schemas, "_STORE", _schemas.Store(TEST_SCHEMAS))
    return registry


def write(folder: Path, relative: str, content) -> Path:
    path = folder / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content if isinstance(content, str) else dump(content), encoding="utf-8")
    return path


def codes(report) -> list[str]:
    return sorted(f.code for f in report.findings)
