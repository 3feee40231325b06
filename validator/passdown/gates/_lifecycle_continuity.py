"""The continuity path of the lifecycle gate: a relaunch or a harness, model or provider switch.

The Stack session id survives, the checkpoint is restored, the context is carried over, and
still a new incarnation is minted and the fencing token rotates. This module owns every
transition of the path and shares none with the role path (:mod:`._lifecycle_role`): the two
must never merge. Each function takes a checked record and event and returns the next record
(a new dict) or a rejection code (a str).
"""

def request(record, event):
    """``request_relaunch`` or ``request_switch``: active or degraded -> relaunch_requested."""
    if event["type"] == "request_switch":
        runtime = event["runtime"]
        if runtime == record["runtime"]:
            return "runtime_unchanged"
        trigger = "runtime_switch"
    else:
        runtime = record["runtime"]
        trigger = event["trigger"]
    pending = {"path": "continuity", "trigger": trigger, "runtime": dict(runtime)}
    return dict(record, state="relaunch_requested", pending=pending)


def checkpointed(record):
    """A checkpoint written after the request starts the Checkpointing state."""
    return dict(record, state="checkpointing")


def launch(record, event, now):
    """checkpointing -> relaunching: same Stack session id and context, new incarnation,
    epoch and fencing token, the requested runtime, a lease held by the new incarnation."""
    checkpoint = record["checkpoint"]
    if not checkpoint["validated"]:
        return "checkpoint_not_validated"
    if not checkpoint["current"]:
        return "checkpoint_not_current"
    if event.get("new_stack_session_id") is not None:
        return "session_id_must_persist"
    incarnation = event["new_incarnation_id"]
    if incarnation == record["incarnation_id"] or any(
            incarnation == ended["incarnation_id"] for ended in record["role_history"]):
        return "incarnation_not_fresh"
    if event["lease_expires_at_ms"] <= now:
        return "lease_expiry_not_later"
    return dict(
        record,
        state="relaunching",
        incarnation_id=incarnation,
        epoch=record["epoch"] + 1,
        fencing_token=record["fencing_token"] + 1,
        lease={"holder": incarnation, "expires_at": event["lease_expires_at"]},
        runtime=dict(record["pending"]["runtime"]),
        stack_session_id=record["stack_session_id"],
        context=record["context"],
    )


def ready(record, event):
    """restoring or degraded -> active when the readiness proof is complete and the restored
    revision is the checkpoint's; degraded otherwise."""
    restored = event.get("restored_revision")
    if event["proof_complete"] and restored == record["checkpoint"]["revision"]:
        return dict(record, state="active", pending=None)
    return dict(record, state="degraded")
