"""Shared pieces of the restart, title, recovery and handoff case builders: the reference's
example observation, and one case in the common fixture format."""

import base64
import json

#: The example observation of the session-restart reference (seed 000).
README = {
    "schema": 1, "mode": "adaptive", "policy_authorized": True,
    "remaining_work": True, "source_id": "source", "goal_id": "task",
    "creation_status": "not_sent", "compactions": 2,
    "current_input_tokens": 80000, "fresh_input_tokens": 15000,
    "restart_overhead_tokens": 10000, "remaining_calls": 3,
    "progress_since_restart": True, "safe_boundary": True,
    "active_writers": 0, "pending_operations": 0,
    "checkpoint_readback": True, "checkpoint_current": True,
    "fresh_create_supported": True, "target_read_supported": True,
    "transfer_supported": True,
}


def given_as(given, kind=None):
    """The fixture member that carries ``given``: ``kind`` when named, else bytes as base64,
    a str as text, and any other value as a value."""
    if kind is not None:
        return {kind: base64.b64encode(given).decode("ascii") if kind == "input_base64" else given}
    if isinstance(given, bytes):
        return {"input_base64": base64.b64encode(given).decode("ascii")}
    if isinstance(given, str):
        return {"input_text": given}
    return {"input": given}


def case(gate, ident, description, requirements, given, output, exit_code, stdout=None, *,
         kind=None):
    entry = {"id": f"{gate}.{ident}", "description": description, "requirements": requirements}
    entry.update(given_as(given, kind))
    entry["expected"] = {"output": output, "exit_code": exit_code}
    if stdout is not None:
        entry["expected"]["stdout"] = stdout
    return entry


def padded(value, size):
    """``value`` as JSON text padded with spaces to exactly ``size`` UTF-8 bytes."""
    text = json.dumps(value)
    return text + " " * (size - len(text.encode("utf-8")))
