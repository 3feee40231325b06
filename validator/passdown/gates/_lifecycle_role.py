"""The role path of the lifecycle gate: a role switch gives the seat a clean session.

An active session never switches roles: the old role is recorded and its lease revoked
(Reconfiguring), then a new Stack session starts with a new incarnation and fencing token and
no context. This module owns every transition of the path and shares none with the continuity
path (:mod:`._lifecycle_continuity`): the two must never merge. Each function takes a checked
record and event and returns the next record (a new dict) or a rejection code (a str).
"""

def request(record, event):
    """``request_role_change``: active or degraded -> relaunch_requested."""
    if event["role"] == record["role"]:
        return "role_unchanged"
    return dict(record, state="relaunch_requested", pending={"path": "role", "role": event["role"]})


def reconfigure(record, now_text):
    """relaunch_requested -> reconfiguring: the old role goes on record and its lease is revoked,
    so the old session can no longer write. Needs a validated, current checkpoint first."""
    checkpoint = record["checkpoint"]
    if not checkpoint["validated"]:
        return "checkpoint_not_validated"
    if not checkpoint["current"]:
        return "checkpoint_not_current"
    ended = {"role": record["role"], "incarnation_id": record["incarnation_id"],
             "stack_session_id": record["stack_session_id"], "ended_at": now_text}
    return dict(record, state="reconfiguring", lease={"holder": None, "expires_at": None},
                role_history=[*record["role_history"], ended])


def launch(record, event, now):
    """reconfiguring -> relaunching: a new Stack session id, incarnation, epoch and fencing
    token, the new role, no context and no task; the old checkpoint stays on record but is not
    current for the new session."""
    checkpoint = record["checkpoint"]
    if not checkpoint["validated"]:
        return "checkpoint_not_validated"
    if not checkpoint["current"]:
        return "checkpoint_not_current"
    session = event.get("new_stack_session_id")
    if session is None:
        return "new_session_id_required"
    if session == record["stack_session_id"] or any(
            session == ended["stack_session_id"] for ended in record["role_history"]):
        return "session_id_not_fresh"
    incarnation = event["new_incarnation_id"]
    if incarnation == record["incarnation_id"] or any(
            incarnation == ended["incarnation_id"] for ended in record["role_history"]):
        return "incarnation_not_fresh"
    if event["lease_expires_at_ms"] <= now:
        return "lease_expiry_not_later"
    return dict(
        record,
        state="relaunching",
        stack_session_id=session,
        incarnation_id=incarnation,
        epoch=record["epoch"] + 1,
        fencing_token=record["fencing_token"] + 1,
        lease={"holder": incarnation, "expires_at": event["lease_expires_at"]},
        role=record["pending"]["role"],
        context=None,
        task_id=None,
        checkpoint=dict(checkpoint, current=False),
    )


def ready(record, event):
    """restoring or degraded -> active when the readiness proof for the new role is complete
    and nothing was restored into the clean session; degraded otherwise."""
    if event.get("restored_revision") is not None:
        return "context_must_be_discarded"
    if event["proof_complete"] and record["context"] is None:
        return dict(record, state="active", pending=None)
    return dict(record, state="degraded")
