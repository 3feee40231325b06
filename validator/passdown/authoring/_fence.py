"""Fencing against the ownership authority (spec/authority.md): which authority a registry's
policy names, the refusal of every write from a clone whose registry the authority has left
behind (checkpoint, registry, packet, ACK), ``passdown fence check``, ``renew`` and
``release``.

A clone is current when the authority names the owner and the fencing epoch its registry
names; any other answer fences every Passdown write there (``authority.fenced``), an expired
lease refuses them (``authority.lease_expired``) and an authority that cannot be reached
refuses them too (``authority.unreachable``): reading goes on, writing waits. The ``local``
authority is the registry itself, so it never fences a clone.
"""

from __future__ import annotations

import os

from passdown.errors import PassdownError, UsageError
from passdown.formats._fastjson import shown
from passdown.authoring import _registry, _store
from passdown.workspace import _authority
from passdown.workspace._authority import AuthorityError

#: Bytes that any registry naming a policy authority holds (a cheap test before parsing).
_MARKERS = (b"authority", )
#: The environment variable in which a host names the session a ``passdown`` process writes
#: for: then a write by a session that does not own the goal is refused, whatever it passes.
SESSION_VARIABLE = "PASSDOWN_SESSION_ID"


def settings_of(registry: dict) -> dict | None:
    """The policy's ``authority`` record; None when there is none. Anything else there is
    ``authority.bad_setting``: a hand-edited registry never silently falls back to local."""
    value = _registry.policy_of(registry).get("authority")
    if value is not None and not isinstance(value, dict):
        raise AuthorityError(f"the policy's authority is {shown(value)}, not an object",
                             code="authority.bad_setting",
                             hint="run `passdown validate` on the registry and restore "
                                  "policy.authority (its kind and settings)")
    return value


def authority_of(registry: dict, registry_path: str, settings: dict | None = None):
    """The authority ``settings`` (default: the one the registry's policy records) name."""
    goal = _registry.policy_of(registry).get("goal_id")
    return _authority.open_authority(settings if settings is not None else settings_of(registry),
                                     registry_path=os.fspath(registry_path),
                                     goal_id=goal if isinstance(goal, str) else "")


def chosen(registry: dict, registry_path: str, kind: str | None, **options):
    """The authority of an ownership commit: ``kind`` with its options, or the policy's. A
    kind other than the recorded one is ``authority.mismatch``: every step of a goal uses
    one authority."""
    recorded = settings_of(registry)
    if kind is None:
        if any(value is not None for value in options.values()):
            raise UsageError("--remote, --endpoint and --lease-ttl go with --authority",
                             code="usage", hint="name the authority too: --authority git|etcd")
        return authority_of(registry, registry_path, recorded or {"kind": _authority.LOCAL})
    settings = _authority.settings_for(kind, **options)
    if recorded is not None and (recorded.get("kind") != kind or any(
            options.get(name) is not None and recorded.get(name) != value
            for name, value in settings.items() if name != "kind")):
        raise AuthorityError(
            f"the registry's policy records the authority {_authority.describe(recorded)}, "
            f"not {_authority.describe(settings)}", code="authority.mismatch",
            hint="every step of a goal goes through one authority: leave --authority out "
                 "to use the recorded one")
    return authority_of(registry, registry_path, settings)


def settings_for(kind: str | None, **options) -> dict | None:
    """The policy's ``authority`` record for ``--authority kind`` (None: none given)."""
    if kind is None:
        if any(value is not None for value in options.values()):
            raise UsageError("--remote, --endpoint and --lease-ttl go with --authority",
                             code="usage", hint="name the authority too: --authority git|etcd")
        return None
    return _authority.settings_for(kind, **options)


def _registry_beside(checkpoint_path: str) -> str | None:
    folder = os.path.dirname(os.path.dirname(os.path.abspath(checkpoint_path)))
    found = [os.path.join(folder, name) for name in _registry.NAMES
             if os.path.isfile(os.path.join(folder, name))]
    return found[0] if len(found) == 1 else None


def guard_checkpoint(checkpoint_path) -> None:
    """:func:`guard` for a checkpoint write: the registry of its handoff folder, if one."""
    registry_path = _registry_beside(os.fspath(checkpoint_path))
    if registry_path is not None:
        guard(registry_path)


def guard(registry_path, *, as_owner: bool = True) -> None:
    """Refuse a write from this clone unless the authority the registry names agrees with it
    (nothing to check when the registry names none, or ``local``); and, where the writer
    names its session in :data:`SESSION_VARIABLE` and the write is an owner's
    (``as_owner``: every write but the target's ACK), unless that session owns the goal."""
    registry_path = os.fspath(registry_path)
    writer = os.environ.get(SESSION_VARIABLE, "").strip() if as_owner else ""
    try:
        raw = _store.read_bytes(registry_path, _store.REGISTRY)
    except PassdownError:
        return  # no registry here: the write's own checks report a missing one
    if not writer and not any(marker in raw for marker in _MARKERS):
        return
    try:
        registry = _store.read(registry_path, _store.REGISTRY)
        policy = registry.get("policy")
    except PassdownError:
        return  # the write's own checks report an unreadable registry
    if not isinstance(policy, dict):
        return
    settings = settings_of(registry) if policy.get("authority") is not None else None
    if settings is not None and settings.get("kind") != _authority.LOCAL:
        current(registry, registry_path, writer or None)
    elif writer:
        owner = _registry.owner(registry)
        _authority.require_owner(
            _authority.Record(owner_id=owner or "", fencing_epoch=0) if owner else None,
            writer, None, "registry on this machine")


def current(registry: dict, registry_path: str, session_id: str | None = None):
    """The authority's record when this clone's registry agrees with it (and, given
    ``session_id``, that session is the owner); else the refusal that fences it."""
    authority = authority_of(registry, registry_path)
    local_owner = _registry.owner(registry)
    local_epoch = registry.get("fencing_epoch")
    record = authority.read()
    if record is not None and (record.owner_id, record.fencing_epoch) != (local_owner,
                                                                        local_epoch):
        raise AuthorityError(
            f"the {authority.what} names {record.owner_id} at fencing epoch "
            f"{record.fencing_epoch}; this registry still names {local_owner} at "
            f"{local_epoch}", code="authority.fenced", winner=record,
            hint="another session owns the goal now: this clone writes nothing more; stop, "
                 "and read the owner's state instead of writing")
    if session_id is not None:
        owner = record.owner_id if record is not None else local_owner
        epoch = record.fencing_epoch if record is not None else local_epoch
        _authority.require_owner(_authority.Record(owner_id=owner, fencing_epoch=epoch),
                                 session_id, None, authority.what)
    return authority, record


def check(registry_path, *, session_id: str | None = None) -> _store.Outcome:
    """``passdown fence check``: whether this clone (and ``session_id``) may still write."""
    registry_path = os.fspath(registry_path)
    registry = _store.read(registry_path, _store.REGISTRY)
    with _store.shape_guard(_store.REGISTRY, registry_path):
        authority, record = current(registry, registry_path, session_id)
        owner = record.owner_id if record else _registry.owner(registry)
        epoch = record.fencing_epoch if record else registry.get("fencing_epoch")
    result = {"authority": authority.name, "owner_id": owner, "fencing_epoch": epoch,
              "record": record.to_dict() if record else None}
    message = f"{owner} owns the goal's writes at fencing epoch {epoch} ({authority.name})"
    if session_id is None:
        message = f"this clone is current: {message}"
    return _store.Outcome(command="fence check", path=registry_path, changed=False,
                          message=message, result=result)


def renew(registry_path, *, session_id: str) -> _store.Outcome:
    """``passdown fence renew``: keep ``session_id``'s lease alive (or take back an expired
    one it held last); refused for anyone else and while the authority is away."""
    return _hold(registry_path, session_id, "renew")


def release(registry_path, *, session_id: str) -> _store.Outcome:
    """``passdown fence release``: ``session_id`` gives its hold up (its lease revoked)."""
    return _hold(registry_path, session_id, "release")


def _hold(registry_path, session_id: str, operation: str) -> _store.Outcome:
    registry_path = os.fspath(registry_path)
    registry = _store.read(registry_path, _store.REGISTRY)
    with _store.shape_guard(_store.REGISTRY, registry_path):
        authority = authority_of(registry, registry_path)
        epoch = registry.get("fencing_epoch")
        if authority.name == _authority.LOCAL:
            _authority.require_owner(
                _authority.Record(owner_id=_registry.owner(registry) or "",
                                  fencing_epoch=epoch if type(epoch) is int else 0),
                session_id, None, authority.what)
            record = None
        else:
            record = getattr(authority, operation)(session_id, epoch)
    if operation == "release":
        message = f"{session_id} released its hold at fencing epoch {epoch}"
    else:
        lease = f" (lease {record.lease}, {authority.settings.get('lease_ttl')} s)" \
            if record is not None and record.lease else ""
        message = f"{session_id} holds the goal at fencing epoch {epoch}{lease}"
    return _store.Outcome(command=f"fence {operation}", path=registry_path, changed=False,
                          message=message,
                          result={"authority": authority.name, "owner_id": session_id,
                                  "fencing_epoch": epoch,
                                  "record": record.to_dict() if record else None})
