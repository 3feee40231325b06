"""``passdown registry recover``: rebuild a lost restart registry from what the handoff folder
still holds, the continuation packet and the continue checkpoint (spec/authoring.md,
"passdown registry recover").

Only what those files prove is recorded; nothing is guessed in the protocol's favour. The
packet's own digest must verify. Its source session becomes MAIN (only the owner of the
goal's writes renders a packet), and its policy line gives the mode and archive consent. The
fencing epoch starts above every epoch the surviving files show (REG-029): the checkpoint's
``epoch`` and its leases' epochs, the epochs the packet's LIVE_WORK names, and the committed
epoch of every TAKEOVER ACK of the goal in the folder; an attempt in flight may have been
committed one above them, so a new commit can never hand out an epoch some session already
holds. The registry says it was recovered (``recovered``: when, and the evidence). The
packet's attempt is recorded as ``creation_unknown``:
whether a successor was created is not known, so it is reconciled from what the host shows,
never retried; and it records no continue checkpoint digest, because the checkpoint the
packet was rendered from is not known either, so no ACK of it can be accepted (ACK-110).
Without a packet, the registry holds the policy record only, and MAIN is ``--main-id``.
"""

from __future__ import annotations

import os
import re

from passdown.errors import RefusedError, UsageError
from passdown.formats import _digest, _loading, _packet
from passdown.formats._values import is_relative_path
from passdown.workspace import _editing, _readback
from passdown.authoring import _attempt, _checkpoint, _project, _registry, _store
from passdown.formats._clock import utc_now

_MODE = re.compile(r"\bmode (off|adaptive|daily)\b")
#: A lease's epoch as ``packet render`` writes it into LIVE_WORK.
_LEASE_EPOCH = re.compile(r"\bat fencing epoch (\d+)\b")
#: The longest epoch read from the packet (JSON's safe integers have 16 digits).
_MAX_DIGITS = 16
#: The most files looked at for ACKs in the handoff folder.
_MAX_FILES = 1000
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
    now = utc_now()
    evidence = _epoch_evidence(directory, checkpoint_path, block, packet_path, fields)
    highest = max((row["epoch"] for row in evidence), default=None)
    registry["fencing_epoch"] = 0 if highest is None else highest + 1
    registry["recovered"] = {"recovered_at": now, "epoch_evidence": evidence}
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
            "reconcile` before any ownership commit" if restart_id else "")
    then = (f"; fencing epoch {registry['fencing_epoch']}, above the highest epoch the files "
            f"show ({highest})" if highest is not None else "") + then
    return _store.Outcome(
        command="registry recover", path=registry_path, changed=True, revision=1,
        message=f"recovered {registry_path} from the {'packet and the ' if fields else ''}"
                f"checkpoint{then}",
        result={"registry": registry_path, "main_id": main, "mode": mode,
                "fencing_epoch": registry["fencing_epoch"], "epoch_evidence": evidence,
                "restart_id": restart_id,
                "state": _attempt.CREATION_UNKNOWN if restart_id else None})


def _epoch_evidence(directory, checkpoint_path, block, packet_path, fields) -> list:
    """``[{"file", "epoch", "field"}]``: every fencing epoch the surviving files of the handoff
    folder show (REG-029), files named relative to ``directory``."""
    def shown_path(path):
        return os.path.relpath(os.path.abspath(path), os.path.abspath(directory)).replace(
            os.sep, "/")

    rows = []

    def add(path, field, epoch):
        if type(epoch) is int and epoch >= 0:
            rows.append({"file": shown_path(path), "field": field, "epoch": epoch})

    add(checkpoint_path, "epoch", block.get("epoch"))
    leases = block.get("leases")
    for index, lease in enumerate(leases if isinstance(leases, list) else ()):
        if isinstance(lease, dict):
            add(checkpoint_path, f"leases[{index}].fencing_epoch", lease.get("fencing_epoch"))
    if fields is not None:
        for found in _LEASE_EPOCH.finditer(fields.get("LIVE_WORK", "")):
            if len(found.group(1)) <= _MAX_DIGITS:
                add(packet_path, "LIVE_WORK", int(found.group(1)))
    goal = block.get("goal_id")
    for path in _ack_files(directory):
        loaded, _ = _loading.load_path(path, syntax="json")
        ack = loaded.data if loaded is not None else None
        takeover = ack.get("takeover") if isinstance(ack, dict) else None
        if isinstance(takeover, dict) and ack.get("kind") == "ack" and ack.get("goal_id") == goal:
            add(path, "takeover.fencing_epoch", takeover.get("fencing_epoch"))
    return sorted(rows, key=lambda row: (row["file"], row["field"]))


def _ack_files(directory):
    """The JSON files at the top of the handoff folder (an ACK may have any name), at most
    :data:`_MAX_FILES` of them, regular files only, sorted."""
    names = []
    try:
        with os.scandir(directory) as entries:
            for entry in entries:
                if len(names) >= _MAX_FILES:
                    break
                if entry.name.endswith(".json") and entry.is_file(follow_symlinks=False):
                    names.append(entry.path)
    except OSError:
        return []
    return sorted(names)


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
