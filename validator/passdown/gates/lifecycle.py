"""The ``lifecycle`` gate: the session state machine as a pure transition function.

Input: the current session record, one event and ``now`` (plus whether the coordinator is
reachable); output: the next record, or a rejection code with nothing changed. Two paths never
share a transition: the continuity path (:mod:`._lifecycle_continuity`: relaunch, harness,
model or provider switch, the Stack session id and context survive) and the role path
(:mod:`._lifecycle_role`: a clean session). This module reads the input and applies what both
paths obey: fencing, leases, coordinator outage, and the moves that touch neither identity nor
context. New ids come in the event (the coordinator mints them); epoch and fencing token are
integers the gate increments.
"""

from passdown.gates import _fields as field
from passdown.gates import _lifecycle_continuity as continuity
from passdown.gates import _lifecycle_role as role_path
from passdown.formats._values import MAX_SAFE_INTEGER
from passdown.gates._table import Decision, run_strict

NAME = "lifecycle"
VERSION = "1.0.0"
SUMMARY = "The session state machine: the next record for an event, or why it is rejected."
SPEC = "spec/gates/lifecycle.md"
INPUT_SCHEMA = "gates/lifecycle.input.schema.json"
OUTPUT_SCHEMA = "gates/lifecycle.output.schema.json"
MAX_INPUT_BYTES = 262144

#: Every outcome, in the order the checks run (``accepted`` last).
OUTCOMES = (
    "invalid_input",
    "stale_incarnation",
    "stale_epoch",
    "stale_fencing_token",
    "illegal_transition",
    "coordinator_unavailable",
    "lease_not_held",
    "lease_expired",
    "lease_still_held",
    "checkpoint_revision_not_newer",
    "runtime_unchanged",
    "role_unchanged",
    "checkpoint_not_validated",
    "checkpoint_not_current",
    "session_id_must_persist",
    "new_session_id_required",
    "session_id_not_fresh",
    "incarnation_not_fresh",
    "lease_expiry_not_later",
    "context_must_be_discarded",
    "accepted",
)

STATES = ("active", "relaunch_requested", "checkpointing", "reconfiguring", "relaunching",
          "restoring", "degraded")
TRIGGERS = ("context_utilization", "session_age", "milestone", "drift", "degraded_health",
            "authorized_request")
PROOF_ITEMS = ("role", "task", "prd_pin", "blockers", "next_action")

_CREDENTIALS = ("incarnation_id", "epoch", "fencing_token")
# event type -> (required fields besides "type", optional fields)
_EVENTS = {
    "read": ((), ()),
    "write": (_CREDENTIALS, ()),
    "checkpoint": (_CREDENTIALS + ("revision", "validated"), ()),
    "renew_lease": (_CREDENTIALS + ("expires_at",), ()),
    "acquire_lease": (_CREDENTIALS + ("expires_at",), ()),
    "assign": (("task_id",), ()),
    "request_relaunch": (("trigger",), ()),
    "request_switch": (("runtime",), ()),
    "request_role_change": (("role",), ()),
    "reconfigure": ((), ()),
    "launch": (("new_incarnation_id", "lease_expires_at"), ("new_stack_session_id",)),
    "started": (_CREDENTIALS, ()),
    "ready": (_CREDENTIALS + ("proof",), ("restored_revision",)),
}
#: The states each event is accepted in (``read`` is accepted in every state, before this).
_ALLOWED = {
    "write": ("active", "relaunch_requested"),
    "checkpoint": ("active", "relaunch_requested", "checkpointing"),
    "renew_lease": STATES,
    "acquire_lease": tuple(s for s in STATES if s != "reconfiguring"),
    "assign": ("active",),
    "request_relaunch": ("active", "degraded"),
    "request_switch": ("active", "degraded"),
    "request_role_change": ("active", "degraded"),
    "reconfigure": ("relaunch_requested",),
    "launch": ("checkpointing", "reconfiguring"),
    "started": ("relaunching",),
    "ready": ("restoring", "degraded"),
}
#: Events that need the coordinator: an outage rejects them (fails closed).
_NEEDS_COORDINATOR = frozenset({"assign", "request_relaunch", "request_switch",
                                "request_role_change", "reconfigure", "launch", "renew_lease",
                                "acquire_lease", "started", "ready"})
#: Events that need an unexpired lease held by the writer's incarnation.
_LEASE_GATED = frozenset({"write", "checkpoint", "renew_lease", "started", "ready"})


def run(raw):
    """Bytes -> :class:`Decision`; unreadable input answers ``invalid_input`` (exit 2)."""
    return run_strict(raw, MAX_INPUT_BYTES, decide, _invalid)


def decide(value):
    """One JSON value -> :class:`Decision`. Never raises."""
    try:
        record, event, now, coordinator = _read(value)
    except field.Invalid as error:
        return _invalid(error.path)
    result = _transition(record, event, now, coordinator)
    if isinstance(result, str):
        return Decision({"decision": "reject", "code": result, "effects": "none"}, result, 1)
    for counter in ("epoch", "fencing_token"):
        if result[counter] > MAX_SAFE_INTEGER:  # an answer never holds an unsafe integer
            return _invalid(f"$.record.{counter}")
    return Decision({"decision": "accept", "record": result}, "accepted", 0)


def _transition(record, event, now, coordinator):
    kind = event["type"]
    if kind == "read":
        return record  # read-only work continues in every state, outage or not
    if "fencing_token" in event:
        stale = _stale(record, event)
        if stale:
            return stale
    if record["state"] not in _ALLOWED[kind]:
        return "illegal_transition"
    if kind == "reconfigure" and record["pending"]["path"] != "role":
        return "illegal_transition"
    if kind in _NEEDS_COORDINATOR and coordinator != "available":
        return "coordinator_unavailable"
    if kind in _LEASE_GATED:
        lease = record["lease"]
        if lease["holder"] != record["incarnation_id"]:
            return "lease_not_held"
        if event["lease_ms"] <= now:
            return "lease_expired"
    return _apply(kind, record, event, now)


def _stale(record, event):
    """A writer whose incarnation, epoch or token is not the record's is stale: it must stop."""
    if event["incarnation_id"] != record["incarnation_id"]:
        return "stale_incarnation"
    if event["epoch"] != record["epoch"]:
        return "stale_epoch"
    if event["fencing_token"] != record["fencing_token"]:
        return "stale_fencing_token"
    return None


def _apply(kind, record, event, now):
    if kind == "write":
        return record
    if kind == "checkpoint":
        if event["revision"] <= record["checkpoint"]["revision"]:
            return "checkpoint_revision_not_newer"
        checkpoint = {"revision": event["revision"], "validated": event["validated"], "current": True}
        next_record = dict(record, checkpoint=checkpoint)
        if record["state"] == "relaunch_requested" and record["pending"]["path"] == "continuity":
            return continuity.checkpointed(next_record)
        return next_record
    if kind == "renew_lease":
        if not record["checkpoint"]["current"]:
            return "checkpoint_not_current"
        if event["expires_at_ms"] <= max(now, event["lease_ms"]):
            return "lease_expiry_not_later"
        return dict(record, lease={"holder": record["incarnation_id"], "expires_at": event["expires_at"]})
    if kind == "acquire_lease":
        if record["lease"]["holder"] is not None and event["lease_ms"] > now:
            return "lease_still_held"
        if not record["checkpoint"]["current"]:
            return "checkpoint_not_current"
        if event["expires_at_ms"] <= now:
            return "lease_expiry_not_later"
        return dict(record, fencing_token=record["fencing_token"] + 1,
                    lease={"holder": record["incarnation_id"], "expires_at": event["expires_at"]})
    if kind == "assign":
        return dict(record, task_id=event["task_id"])
    if kind in ("request_relaunch", "request_switch"):
        return continuity.request(record, event)
    if kind == "request_role_change":
        return role_path.request(record, event)
    if kind == "reconfigure":
        return role_path.reconfigure(record, event["now_text"])
    if kind == "started":
        return dict(record, state="restoring")  # touches neither identity nor context
    path = continuity if record["pending"]["path"] == "continuity" else role_path
    if kind == "launch":
        return path.launch(record, event, now)
    return path.ready(record, event)


# -- input ---------------------------------------------------------------------------------


def _read(value):
    top = field.record(value, "$", ("record", "event", "now", "coordinator"))
    now_text = top["now"]
    now = field.timestamp(now_text, "$.now")
    coordinator = field.choice(top["coordinator"], "$.coordinator", ("available", "unavailable"))
    record = _read_record(top["record"])
    event = _read_event(top["event"], now_text)
    event["lease_ms"] = _lease_ms(record)
    return record, event, now, coordinator


def _lease_ms(record):
    expires = record["lease"]["expires_at"]
    return None if expires is None else field.timestamp(expires, "$.record.lease.expires_at")


def _read_record(value):
    path = "$.record"
    raw = field.record(value, path, ("stack_session_id", "seat_id", "incarnation_id", "epoch",
                                     "fencing_token", "lease", "checkpoint", "state", "role",
                                     "runtime", "context"),
                       ("task_id", "pending", "role_history"))
    lease = field.record(raw["lease"], path + ".lease", ("holder", "expires_at"))
    holder = field.optional(field.text, lease["holder"], path + ".lease.holder")
    expires = lease["expires_at"]
    if (holder is None) != (expires is None):
        raise field.Invalid(path + ".lease", "expected holder and expires_at both set or both null")
    checkpoint = field.record(raw["checkpoint"], path + ".checkpoint",
                              ("revision", "validated", "current"))
    state = field.choice(raw["state"], path + ".state", STATES)
    pending = _read_pending(raw.get("pending"), path + ".pending")
    if (pending is None) != (state == "active"):
        raise field.Invalid(path + ".pending", "expected null exactly when the state is active")
    if pending is not None:
        need = {"checkpointing": "continuity", "reconfiguring": "role"}.get(state)
        if need is not None and pending["path"] != need:
            raise field.Invalid(path + ".pending.path", f"expected {need} in state {state}")
    history = raw.get("role_history", [])
    if not isinstance(history, list) or len(history) > 1024:
        raise field.Invalid(path + ".role_history", "expected a list of at most 1024 entries")
    return {
        "stack_session_id": field.text(raw["stack_session_id"], path + ".stack_session_id"),
        "seat_id": field.text(raw["seat_id"], path + ".seat_id"),
        "incarnation_id": field.text(raw["incarnation_id"], path + ".incarnation_id"),
        "epoch": field.integer(raw["epoch"], path + ".epoch"),
        "fencing_token": field.integer(raw["fencing_token"], path + ".fencing_token"),
        "lease": {"holder": holder, "expires_at": expires},
        "checkpoint": {
            "revision": field.integer(checkpoint["revision"], path + ".checkpoint.revision"),
            "validated": field.boolean(checkpoint["validated"], path + ".checkpoint.validated"),
            "current": field.boolean(checkpoint["current"], path + ".checkpoint.current"),
        },
        "state": state,
        "role": field.text(raw["role"], path + ".role"),
        "runtime": _read_runtime(raw["runtime"], path + ".runtime"),
        "context": field.optional(field.opaque_object, raw["context"], path + ".context"),
        "task_id": field.optional(field.text, raw.get("task_id"), path + ".task_id"),
        "pending": pending,
        "role_history": [_read_ended(item, f"{path}.role_history[{index}]")
                         for index, item in enumerate(history)],
    }


def _read_runtime(value, path):
    runtime = field.record(value, path, ("harness", "model", "provider"))
    return {key: field.text(runtime[key], f"{path}.{key}") for key in ("harness", "model", "provider")}


def _read_pending(value, path):
    if value is None:
        return None
    if not isinstance(value, dict):
        raise field.Invalid(path, "expected an object or null")
    kind = field.choice(value.get("path"), path + ".path", ("continuity", "role"))
    if kind == "role":
        pending = field.record(value, path, ("path", "role"))
        return {"path": "role", "role": field.text(pending["role"], path + ".role")}
    pending = field.record(value, path, ("path", "trigger", "runtime"))
    return {
        "path": "continuity",
        "trigger": field.choice(pending["trigger"], path + ".trigger", TRIGGERS + ("runtime_switch",)),
        "runtime": _read_runtime(pending["runtime"], path + ".runtime"),
    }


def _read_ended(value, path):
    ended = field.record(value, path, ("role", "incarnation_id", "stack_session_id", "ended_at"))
    field.timestamp(ended["ended_at"], path + ".ended_at")
    return {
        "role": field.text(ended["role"], path + ".role"),
        "incarnation_id": field.text(ended["incarnation_id"], path + ".incarnation_id"),
        "stack_session_id": field.text(ended["stack_session_id"], path + ".stack_session_id"),
        "ended_at": ended["ended_at"],
    }


def _read_event(value, now_text):
    path = "$.event"
    if not isinstance(value, dict):
        raise field.Invalid(path, "expected an object")
    kind = field.choice(value.get("type"), path + ".type", tuple(_EVENTS))
    required, optional = _EVENTS[kind]
    raw = field.record(value, path, ("type",) + required, optional)
    event = {"type": kind, "now_text": now_text}
    if "fencing_token" in raw:
        event["incarnation_id"] = field.text(raw["incarnation_id"], path + ".incarnation_id")
        event["epoch"] = field.integer(raw["epoch"], path + ".epoch")
        event["fencing_token"] = field.integer(raw["fencing_token"], path + ".fencing_token")
    if kind == "checkpoint":
        event["revision"] = field.integer(raw["revision"], path + ".revision")
        event["validated"] = field.boolean(raw["validated"], path + ".validated")
    elif kind in ("renew_lease", "acquire_lease"):
        event["expires_at"] = raw["expires_at"]
        event["expires_at_ms"] = field.timestamp(raw["expires_at"], path + ".expires_at")
    elif kind == "assign":
        event["task_id"] = field.text(raw["task_id"], path + ".task_id")
    elif kind == "request_relaunch":
        event["trigger"] = field.choice(raw["trigger"], path + ".trigger", TRIGGERS)
    elif kind == "request_switch":
        event["runtime"] = _read_runtime(raw["runtime"], path + ".runtime")
    elif kind == "request_role_change":
        event["role"] = field.text(raw["role"], path + ".role")
    elif kind == "launch":
        event["new_incarnation_id"] = field.text(raw["new_incarnation_id"], path + ".new_incarnation_id")
        event["lease_expires_at"] = raw["lease_expires_at"]
        event["lease_expires_at_ms"] = field.timestamp(raw["lease_expires_at"], path + ".lease_expires_at")
        event["new_stack_session_id"] = field.optional(
            field.text, raw.get("new_stack_session_id"), path + ".new_stack_session_id")
    elif kind == "ready":
        proof = field.record(raw["proof"], path + ".proof", PROOF_ITEMS)
        items = [field.boolean(proof[item], f"{path}.proof.{item}") for item in PROOF_ITEMS]
        event["proof_complete"] = all(items)
        event["restored_revision"] = field.optional(
            field.integer, raw.get("restored_revision"), path + ".restored_revision")
    return event


def _invalid(path):
    output = {"decision": "reject", "code": "invalid_input", "effects": "none", "path": path}
    return Decision(output, "invalid_input", 2)
