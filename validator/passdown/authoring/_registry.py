"""The restart registry as the authoring commands see it: a new registry with its policy
record, where to find the registry of a project, and who owns the goal's writes now."""

from __future__ import annotations

import os

from passdown.formats import _detect
from passdown.errors import RefusedError, UsageError
from passdown.authoring._store import REGISTRY, missing_error
from passdown.authoring._where import registries_in
from passdown.formats._clock import utc_now
from passdown.rules.registry import OPEN_STATES

#: The names a registry may have (the validator's, so both find the same files).
NAMES = _detect.get("registry").names
MODES = ("off", "adaptive", "daily")
TIMEZONE_SOURCES = ("owner", "task", "default")
#: Attempt states from which the attempt can still move on (nothing else may start then):
#: the registry rules' open states, so the writer and the linter agree.
LIVE_STATES = OPEN_STATES


def new_registry(*, goal_id: str, main_id: str, checkpoint_path: str, mode: str = "off",
                 authorization_scope: str | None = None, archive_consent: bool = False,
                 timezone: str = "UTC", timezone_source: str = "default",
                 role: str = "MAIN", now: str | None = None) -> dict:
    """A registry at revision 1 with its policy record and the MAIN session's row."""
    if mode not in MODES:
        raise UsageError(f"mode {mode!r} is not one of {', '.join(MODES)}",
                         code="authoring.bad_value", hint="choose off, adaptive or daily")
    if mode != "off" and not (authorization_scope or "").strip():
        raise UsageError(f"mode {mode!r} needs the owner's authorization scope",
                         code="authoring.no_scope",
                         hint="pass --scope with what the owner's consent covers, or keep "
                              "--mode off (checkpoint only)")
    if timezone_source not in TIMEZONE_SOURCES:
        raise UsageError(f"time-zone source {timezone_source!r} is not one of "
                         f"{', '.join(TIMEZONE_SOURCES)}", code="authoring.bad_value",
                         hint="choose owner, task or default")
    now = now or utc_now()
    return {
        "passdown_version": "1.0",
        "kind": "registry",
        "revision": 1,
        "fencing_epoch": 0,
        "policy": {
            "mode": mode,
            "authorization_scope": authorization_scope or "none: restarts are not authorized",
            "archive_consent": archive_consent,
            "main_id": main_id,
            "goal_id": goal_id,
            "checkpoint_path": checkpoint_path,
            "timezone": timezone,
            "timezone_source": timezone_source,
            "recorded_at": now,
        },
        "titles": [],
        "sessions": [{"thread_id": main_id, "status": "ACTIVE", "role": role}],
        "attempts": [],
        "observation": None,
        "decision": None,
    }


def locate(directory: str | os.PathLike = ".", explicit: str | os.PathLike | None = None) -> str:
    """The registry of the project in ``directory`` (or ``explicit``); several candidates
    are a usage error, none is ``authoring.no_registry``."""
    if explicit is not None:
        return os.fspath(explicit)
    found = registries_in(directory)
    if len(found) > 1:
        raise UsageError(f"more than one registry: {', '.join(found)}",
                         code="authoring.ambiguous_registry",
                         hint="keep one registry per project, or pass --registry")
    if not found:
        raise missing_error(REGISTRY, os.path.join(directory, "registry.yaml"))
    return found[0]


def policy_of(registry: dict) -> dict:
    policy = registry.get("policy")
    if not isinstance(policy, dict):
        raise RefusedError("the registry has no policy record", code="authoring.bad_shape",
                           hint="run `passdown validate` on the registry")
    return policy


def owner(registry: dict) -> str | None:
    """Who owns the goal's writes: the target of the latest ownership commit, else MAIN."""
    current = policy_of(registry).get("main_id")
    best = -1
    for attempt in registry.get("attempts") or ():
        ownership = attempt.get("ownership") if isinstance(attempt, dict) else None
        if isinstance(ownership, dict) and type(ownership.get("fencing_epoch")) is int \
                and ownership["fencing_epoch"] > best:
            best, current = ownership["fencing_epoch"], ownership.get("to_id")
    return current
