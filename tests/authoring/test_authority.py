"""The restart gate's ``transfer_supported`` as the registry implies it (spec/authority.md,
REG-056): true with a git or etcd authority, with the local one only when both sides' session
rows name one machine; and what the gate answers from it."""

from __future__ import annotations

import pytest
from authority_support import ACK_DIGEST, DIGEST

from passdown.authoring import _attempt, _registry
from passdown.gates import run_gate

HOST = {"remaining_work": True, "safe_boundary": True, "active_writers": 0,
        "pending_operations": 0, "checkpoint_readback": True, "checkpoint_current": True}


def acknowledged(authority=None, hosts=None) -> tuple[dict, dict]:
    registry = _registry.new_registry(goal_id="g", main_id="src", checkpoint_path="x.json",
                                      mode="adaptive", authorization_scope="restarts")
    if authority is not None:
        registry["policy"]["authority"] = authority
    for thread_id, host_id in (hosts or {}).items():
        row = next((r for r in registry["sessions"] if r["thread_id"] == thread_id), None)
        if row is None:
            row = {"thread_id": thread_id, "status": "IDLE", "role": "MAIN"}
            registry["sessions"].append(row)
        row["host_id"] = host_id
    _attempt.register(registry, source_id="src", checkpoint_digest=DIGEST, restart_id="r1")
    _attempt.created(registry, "r1", target_id="tgt")
    _attempt.acknowledge(registry, "r1", ack_digest=ACK_DIGEST)
    return registry, _attempt.find(registry, "r1")


@pytest.mark.parametrize("authority, hosts, expected, action", [
    ({"kind": "git", "remote": "origin"}, {}, True, "COMMIT_TRANSFER"),
    ({"kind": "etcd", "endpoint": "http://127.0.0.1:2379", "prefix": "/passdown/",
      "lease_ttl": 600}, {"src": "laptop", "tgt": "sandbox"}, True, "COMMIT_TRANSFER"),
    (None, {"src": "laptop", "tgt": "laptop"}, True, "COMMIT_TRANSFER"),
    ({"kind": "local"}, {"src": "laptop", "tgt": "laptop"}, True, "COMMIT_TRANSFER"),
    ({"kind": "local"}, {"src": "laptop", "tgt": "sandbox"}, False, "MANUAL_HANDOFF"),
    (None, {"src": "laptop"}, None, "MANUAL_HANDOFF"),
    (None, {}, None, "MANUAL_HANDOFF"),
])
def test_transfer_supported_only_with_a_shared_authority_or_one_machine(authority, hosts,
                                                                          expected, action):
    registry, attempt = acknowledged(authority, hosts)
    observations = _attempt.gate_input(registry, attempt)
    assert observations.get("transfer_supported", "absent") == (
        "absent" if expected is None else expected)
    assert run_gate("restart", {**observations, **HOST}).output["action"] == action
