"""``passdown registry recover``: rebuild a lost restart registry from what the handoff folder
still holds, the continuation packet and the continue checkpoint (spec/authoring.md,
"passdown registry recover").

Only what those files prove is recorded; nothing is guessed in the protocol's favour. The
packet's own digest must verify. Its source session becomes MAIN (only the owner of the
goal's writes renders a packet), its policy line gives the mode and archive consent, and the
checkpoint's epoch the fencing epoch. The packet's attempt is recorded as ``creation_unknown``:
whether a successor was created is not known, so it is reconciled from what the host shows,
never retried; and it records no continue checkpoint digest, because the checkpoint the
packet was rendered from is not known either, so no ACK of it can be accepted (ACK-110).
Without a packet, the registry holds the policy record only, and MAIN is ``--main-id``.
"""

from __future__ import annotations

import os
import re

from passdown.errors import RefusedError, UsageError
from passdown.formats import _digest, _packet
from passdown.formats._values import is_relative_path
from passdown.workspace import _editing, _readback
from passdown.authoring import _attempt, _checkpoint, _project, _registry, _store
from passdown.formats._clock import utc_now

_MODE = re.compile(r"\bmode (off|adaptive|daily)\b")
_SCOPE = "Restart consent covers: "


def recover(directory: str | os.PathLike = ".", *, packet_path: str | None = None,
            checkpoint_path: str | None = None, main_id: str | None = None,
            registry_format: str = "yaml") -> _store.Outcome:
    """Write ``DIRECTORY/registry.yaml`` (or ``.json``) from the packet and the checkpoint
    beside it; an existing registry is ``authoring.exists`` and stays untouched."""
    directory = os.fspath(directory)
    registry_path = os.path.join(directory, _project.REGISTRY_FORMATS[registry_format])
    for name in _registry.NAMES:
        if os.path.lexists(os.path.join(directory, name)):
            raise RefusedError(f"{os.path.join(directory, name)} already exists",
                               code="authoring.exists",
                               hint="recover only rebuilds a lost registry: fix the existing one "
                                    "(`passdown validate` says what is wrong), or move it away")
    checkpoint_path = os.fspath(checkpoint_path or os.path.join(directory, _checkpoint.PATH))
    relative = os.path.relpath(os.path.abspath(checkpoint_path),
                               os.path.abspath(directory)).replace(os.sep, "/")
    if not is_relative_path(relative):
        raise UsageError(f"{checkpoint_path} is not inside {directory}", code="authoring.bad_value",
                         hint="the checkpoint lives in the handoff folder (REG-027)")
    checkpoint = _store.read(checkpoint_path, _store.CHECKPOINT, valid=True)
    block = _checkpoint.block_of(checkpoint)
    packet_path = os.fspath(packet_path or os.path.join(directory, _packet.TEXT_NAME))
    fields = _packet_fields(packet_path) if os.path.lexists(packet_path) else None
    if fields is not None and fields.get("GOAL_ID") != block.get("goal_id"):
        raise RefusedError(f"the packet names goal {fields.get('GOAL_ID')!r}, the checkpoint "
                           f"{block.get('goal_id')!r}", code="authoring.goal_mismatch",
                           hint="point --packet and --checkpoint at the same goal's files")
    source = _source_of(fields) if fields is not None else None
    main = main_id or source
    if not main:
        raise UsageError("no packet names the session that owns the goal's writes",
                         code="authoring.missing_identity",
                         hint="pass --main-id with the exact id of the session that owns the work")
    policy_line = fields.get("POLICY", "") if fields is not None else ""
    mode = _MODE.search(policy_line)
    scope = _scope_of(fields.get("AUTHORITY", "")) if fields is not None else None
    mode = mode.group(1) if mode and (mode.group(1) == "off" or scope) else "off"
    info = checkpoint.get("xBRIEFInfo") if isinstance(checkpoint.get("xBRIEFInfo"), dict) else {}
    registry = _registry.new_registry(
        goal_id=block.get("goal_id"), main_id=main, checkpoint_path=relative, mode=mode,
        authorization_scope=scope if mode != "off" else None,
        archive_consent="archive consent granted" in policy_line,
        timezone=info.get("timezone") or "UTC",
        timezone_source="task" if info.get("timezone") else "default")
    epoch = block.get("epoch")
    registry["fencing_epoch"] = epoch if type(epoch) is int and epoch >= 0 else 0
    now = utc_now()
    restart_id = None
    if fields is not None:
        restart_id = fields.get("RESTART_ID")
        record = _attempt.new_record(restart_id, source_id=main,
                                     checkpoint_digest=fields.get("CHECKPOINT_DIGEST"),
                                     registered_at=now, state=_attempt.CREATION_UNKNOWN,
                                     creation="unknown")
        record["note"] = (f"recovered from {os.path.basename(packet_path)} at {now}: whether a "
                          "successor was created is unknown, and the checkpoint it was "
                          "rendered from is not recorded")
        registry["attempts"].append(record)
    data = _editing.render(registry, syntax=registry_format)
    _store.check_valid(_store.REGISTRY, data, registry_path)
    _store.create(registry_path, data)
    then = (f"; attempt {restart_id} is creation_unknown: settle it with `passdown attempt "
            "reconcile`" if restart_id else "")
    return _store.Outcome(
        command="registry recover", path=registry_path, changed=True, revision=1,
        message=f"recovered {registry_path} from the {'packet and the ' if fields else ''}"
                f"checkpoint{then}",
        result={"registry": registry_path, "main_id": main, "mode": mode,
                "fencing_epoch": registry["fencing_epoch"], "restart_id": restart_id,
                "state": _attempt.CREATION_UNKNOWN if restart_id else None})


def _packet_fields(packet_path: str) -> dict:
    """The fields of a packet that validates and whose CHECKPOINT_DIGEST verifies."""
    raw = _store.read_bytes(packet_path, "packet")
    text = _readback.packet_text(packet_path, raw)
    _store.require_valid_bytes("packet", raw, packet_path)
    fields = _packet.parse(text).values()
    canonical = _digest.canonical_packet(text)
    if _digest.check_digest(fields.get("CHECKPOINT_DIGEST"), canonical) is not None:
        raise RefusedError(f"{packet_path}: its CHECKPOINT_DIGEST is not its digest "
                           f"{_digest.digest_bytes(canonical)}",
                           code="authoring.packet_unverified",
                           hint="the packet changed after it was rendered: it proves nothing "
                                "to recover from; pass --main-id and leave the packet out")
    return fields


def _source_of(fields: dict) -> str | None:
    """The session the packet's SOURCE field names first (``session ID; host ...``, as
    ``packet render`` writes it); ``None`` when it names none."""
    words = fields.get("SOURCE", "").split(";", 1)[0].split()
    return words[1] if len(words) >= 2 and words[0] == "session" else None


def _scope_of(authority: str) -> str | None:
    """What the restart consent covers: the rest of AUTHORITY after ``Restart consent
    covers:`` (the last line ``packet render`` writes, wrapped or not)."""
    _, found, rest = authority.partition(_SCOPE)
    return " ".join(rest.split()) or None if found else None
