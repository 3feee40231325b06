"""``passdown ack write``: the target's side of a handoff. Read the packet, the registry and the
continue checkpoint, take the checkout and dirty-artifact fingerprints with the same readback
``passdown ack verify`` uses (:mod:`passdown.workspace._readback`), and write ``ack.json``
atomically (spec/ack.md, "Writing an ACK").

Refuses, writing nothing, when an input cannot be read or does not validate, when the
packet's digest does not verify (its own CHECKPOINT_DIGEST and the attempt's registered
digest), or when the attempt is not in a state that accepts the ACK's status. The ACK holds
what was read, never what was expected: a wrong target or a changed checkpoint is the
verifier's to reject.
"""

from __future__ import annotations

import os
import stat

from passdown.formats._clock import utc_now
from passdown.errors import RefusedError, UsageError
from passdown.formats import _ackcheck, _digest, _loading, _packet
from passdown.formats._fastjson import shown
from passdown.workspace import _atomic, _editing, _git, _readback
from passdown.authoring import _fence, _registry, _store, _working

PACKET = "packet"
READY = "READY_READONLY"
TAKEOVER = "TAKEOVER"
#: The ACK statuses (ACK-002) and the attempt states that accept each (ACK-101).
STATUSES = {READY: ("created", "acknowledged"), TAKEOVER: ("committed", "taken_over")}
#: The file the ACK is written to, beside the packet, unless told otherwise (ACK-001).
NAME = "ack.json"
#: The warning of a packet whose WORKING_STATE no longer matches the checkout (ACK-140).
WORKING_STATE_CHANGED = "authoring.working_state_changed"


def write(packet_path: str | os.PathLike = _packet.TEXT_NAME, *, target_id: str,
          status: str = READY, registry_path: str | None = None,
          checkpoint_path: str | None = None, output_path: str | None = None,
          workspace: str | None = None, now: str | None = None) -> _store.Outcome:
    """Read the handoff fresh and write the target's ACK; the :class:`Outcome` holds the ACK
    document as ``result["ack"]``. ``workspace`` defaults to the folder holding the packet
    (the checkout it lies in is read); ``now`` to the clock, at full precision."""
    packet_path = os.fspath(packet_path)
    folder = os.path.dirname(os.path.abspath(packet_path))
    if status not in STATUSES:
        raise UsageError(f"status {shown(status)} is not one of {', '.join(STATUSES)}",
                         code="authoring.bad_value", hint="READY_READONLY or TAKEOVER")
    if not isinstance(target_id, str) or not target_id.strip():
        raise UsageError("the target session id is empty", code="authoring.bad_value",
                         hint="pass --target-id with this session's exact id")
    registry_path = _registry.locate(folder, registry_path)
    _fence.guard(registry_path, as_owner=False)  # a fenced clone writes no ACK either
    output_path = os.fspath(output_path or os.path.join(os.path.dirname(packet_path), NAME))
    raw = _store.read_bytes(packet_path, PACKET)
    text = _readback.packet_text(packet_path, raw)
    _store.require_valid_bytes(PACKET, raw, packet_path)
    registry = _store.read(registry_path, _store.REGISTRY, valid=True)
    checkpoint_path = _readback.checkpoint_for(registry, registry_path, checkpoint_path)
    if checkpoint_path is None:
        raise RefusedError(f"{registry_path}: the policy names no checkpoint_path",
                           code="authoring.invalid_input",
                           hint="pass --checkpoint, or fix the registry's policy record")
    checkpoint = _store.read(checkpoint_path, _store.CHECKPOINT, valid=True)
    fields = _packet.parse(text).values()
    attempt = _verified_attempt(text, fields, registry, packet_path)
    _accepts(attempt, status)
    leave_out = _readback.own_files_of(registry_path, [packet_path, registry_path,
                                                       checkpoint_path, output_path])
    checkout, dirty = _readback.workspace_readback(workspace or folder, leave_out=leave_out)
    read_at = now or utc_now()
    ack = {
        "passdown_version": "1.0",
        "kind": "ack",
        "status": status,
        "goal_id": fields.get("GOAL_ID"),
        "restart_id": fields.get("RESTART_ID"),
        "source_id": attempt.get("source_id"),
        "target_id": target_id,
        "checkpoint_digest": fields.get("CHECKPOINT_DIGEST"),
        "checkout": checkout,
        "dirty_artifacts": dirty,
        "first_safe_action": fields.get("NEXT_SAFE_ACTION"),
        "read_at": read_at,
    }
    if status == TAKEOVER:
        ack["takeover"] = _takeover_readback(attempt, checkpoint, read_at)
    data = _editing.render(ack, syntax="json")
    _store.check_valid("ack", data, output_path)
    handoff = (packet_path, registry_path, checkpoint_path)
    _output_free(output_path, ack, handoff)
    try:
        with _atomic.file_lock(output_path):
            _output_free(output_path, ack, handoff)  # still, under the lock
            _atomic.atomic_write(output_path, data, scratch=True)
    except OSError as error:
        raise _store.io_error(output_path, error) from None
    return _store.Outcome(
        command="ack write", path=output_path, changed=True,
        message=(f"{status} ACK of {target_id} for attempt {ack['restart_id']} written to "
                 f"{output_path} ({len(dirty)} dirty path{'s' if len(dirty) != 1 else ''})"),
        result={"ack": ack, "registry": registry_path, "checkpoint": checkpoint_path,
                "packet": packet_path, **_state_warning(fields, packet_path, dirty)})


def _state_warning(fields, packet_path, dirty):
    """``{"warnings": [...]}`` when the packet's WORKING_STATE, as ``packet render`` writes
    it, names other uncommitted paths or digests than this readback (ACK-140): the checkout
    changed after the packet was rendered. The ACK still holds what was read."""
    stated = _working.stated_rows(fields.get("WORKING_STATE") or "", packet_path)
    changed = _working.changes_since(stated, dirty) if stated is not None else None
    if changed is None:
        return {}
    return {"warnings": [{"code": WORKING_STATE_CHANGED, "path": packet_path,
                          "message": f"the checkout changed after the packet was rendered "
                                     f"({changed}); the ACK holds what was read now: ask the "
                                     "source whether it still writes"}]}


def _output_free(output_path, ack, handoff):
    """Refuse (``authoring.output_taken``, writing nothing) unless ``output_path`` is absent,
    or is already an ACK of the same handoff (its goal; any attempt) that git does not track
    (ACK-135): never another artifact of the handoff, a tracked file, a link or a folder."""
    try:
        info = os.lstat(output_path)
    except FileNotFoundError:
        return
    except OSError as error:
        raise _store.io_error(output_path, error) from None
    real = os.path.realpath(output_path)
    if stat.S_ISLNK(info.st_mode):
        raise _taken(output_path, "is a symbolic link")
    if not stat.S_ISREG(info.st_mode):
        raise _taken(output_path, "is not a regular file")
    if any(real == os.path.realpath(path) for path in handoff):
        raise _taken(output_path, "is the handoff's packet, registry or checkpoint")
    loaded, findings = _loading.load_path(output_path, syntax="json")
    existing = loaded.data if loaded is not None else None
    if not isinstance(existing, dict) or existing.get("kind") != "ack":
        reason = f" ({findings[0].code})" if findings else ""
        raise _taken(output_path, f"is not an ACK{reason}")
    if existing.get("goal_id") != ack["goal_id"]:
        raise _taken(output_path, f"is the ACK of another handoff (goal "
                                  f"{shown(existing.get('goal_id'))})")
    if _git.is_tracked(real):
        raise _taken(output_path, "is tracked by git",
                     "write the ACK elsewhere with --output, or stop tracking it "
                     "(git rm --cached)")


def _taken(output_path, what, hint="remove it, or name another file with --output"):
    return RefusedError(f"{output_path} {what}; `ack write` replaces only an ACK of the same "
                        "handoff, and wrote nothing", code="authoring.output_taken", hint=hint)


def _verified_attempt(text, fields, registry, packet_path):
    """The registry attempt the packet's RESTART_ID names, once the packet's digest is
    confirmed both by its own CHECKPOINT_DIGEST and by the attempt's registered digest."""
    canonical = _digest.canonical_packet(text)
    digest = _digest.digest_bytes(canonical)
    stated = fields.get("CHECKPOINT_DIGEST")
    if _digest.check_digest(stated, canonical) is not None:
        raise _unverified(packet_path, f"its CHECKPOINT_DIGEST {stated} is not its digest "
                                       f"{digest}")
    restart_id = fields.get("RESTART_ID")
    attempt = _ackcheck.find_attempt(registry, restart_id)
    if attempt is None:
        raise RefusedError(f"the registry holds no single attempt {shown(restart_id)}",
                           code="attempt.unknown",
                           hint="the packet answers an attempt the registry does not hold: ask "
                                "the source for the current packet")
    if _digest.check_digest(attempt.get("checkpoint_digest"), canonical) is not None:
        raise _unverified(packet_path, f"the attempt registered {attempt.get('checkpoint_digest')}"
                                       f", not its digest {digest}")
    return attempt


def _unverified(packet_path, what):
    return RefusedError(f"{packet_path}: the packet's digest does not verify: {what}",
                        code="authoring.packet_unverified",
                        hint="the packet changed after it was rendered: ask the source to "
                             "render it again, then read the new packet")


def _accepts(attempt, status):
    states = STATUSES[status]
    if attempt.get("state") not in states:
        raise RefusedError(
            f"attempt {shown(attempt.get('restart_id'))} is {shown(attempt.get('state'))}; a {status} "
            f"ACK needs {' or '.join(shown(s) for s in states)}", code="attempt.state",
            hint="READY_READONLY answers a created attempt; TAKEOVER follows the ownership "
                 "commit")


def _takeover_readback(attempt, checkpoint, read_at):
    """The committed ownership as read back now, for a TAKEOVER report (ACK-009)."""
    ownership = attempt.get("ownership") if isinstance(attempt.get("ownership"), dict) else {}
    block = checkpoint.get("x-passdown/checkpoint")
    return {"owner_id": ownership.get("to_id"), "fencing_epoch": ownership.get("fencing_epoch"),
            "committed_at": ownership.get("committed_at"), "readback_at": read_at,
            "checkpoint_revision": block.get("revision") if isinstance(block, dict) else None}
