"""The compactions a host's hook saw, per session, kept in the handoff folder's bookkeeping
folder (``.passdown/compactions.json``, spec/hosts.md HST-104, HST-304): the hook of
:data:`EVENTS` counts one for its session, so an observer reports ``compactions`` as measured without reading the
whole transcript.

The file is Passdown's own state, never an artifact: written atomically under its lock, at
most :data:`MAX_SESSIONS` sessions kept (the least recently compacted dropped first). A file
that cannot be read counts as no record (the value stays unknown), and is replaced whole by
the next count.
"""

from __future__ import annotations

import json
import os

from passdown.formats._clock import utc_now
from passdown.workspace import _atomic

NAME = "compactions.json"
#: The hook event that counts each host's compactions: Claude Code has no PostCompact hook;
#: Codex CLI's PostCompact runs once the compaction happened (its PreCompact counts nothing).
EVENTS = {"claude": "PreCompact", "codex": "PostCompact"}
MAX_SESSIONS = 256
MAX_BYTES = 1 << 20


def path_of(folder):
    return os.path.join(folder, _atomic.BOOKKEEPING, NAME)


def _load(path):
    try:
        with open(path, "rb") as handle:
            data = json.loads(handle.read(MAX_BYTES + 1))
    except (OSError, ValueError, RecursionError):
        return {}
    sessions = data.get("sessions") if isinstance(data, dict) else None
    return sessions if isinstance(sessions, dict) else {}


def count(folder, host, session_id):
    """The compactions recorded for the session, or None when none was recorded."""
    entry = _load(path_of(folder)).get(f"{host}:{session_id}")
    value = entry.get("count") if isinstance(entry, dict) else None
    return value if type(value) is int and value >= 0 else None


def record(folder, host, session_id, trigger=None, now=None):
    """Count one compaction of the session; the new count."""
    target = path_of(folder)
    # the lock is the one of a file of this name in the handoff folder: .passdown/NAME.lock
    with _atomic.file_lock(os.path.join(folder, NAME)):
        sessions = _load(target)
        key = f"{host}:{session_id}"
        entry = sessions.pop(key, None)
        entry = entry if isinstance(entry, dict) and type(entry.get("count")) is int else {"count": 0}
        entry = {"count": entry["count"] + 1, "last_at": now or utc_now(),
                 "last_trigger": trigger if isinstance(trigger, str) else None}
        sessions[key] = entry
        while len(sessions) > MAX_SESSIONS:
            sessions.pop(next(iter(sessions)))
        data = json.dumps({"sessions": sessions}, indent=1, sort_keys=False).encode() + b"\n"
        _atomic.atomic_write(target, data)
    return entry["count"]
