"""The ownership authority: who owns a goal's writes, at which fencing epoch, as something other
than one clone's registry file can tell (spec/authority.md).

An authority offers four things: ``read`` the current owner record; ``transition`` from an
exact source at an expected epoch to an exact target at that epoch plus one, where exactly one
of competing transitions wins and a loser learns the winner; ``renew`` the owner's hold (a
lease, where the authority has one); ``release`` it. Three kinds, by name in :data:`KINDS`:
``local`` (the registry file under its lock: processes of one machine only, refused on a
network file system), ``git`` (a ref on the checkout's remote, moved by a push that carries the
expected old value) and ``etcd`` (a transaction on an owner key held by a lease).

The record an authority holds is :class:`Record`; its ``token`` is the authority's own
fencing token (the git commit, the etcd revision). Every failure is an
:class:`AuthorityError` with an ``authority.*`` code; an authority that cannot be reached is
``authority.unreachable``, and nothing is ever assumed about it then (fail closed).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field

from passdown.errors import PassdownError

LOCAL = "local"
GIT = "git"
ETCD = "etcd"

#: File-system types whose locks and renames one machine cannot vouch for (``/proc/mounts``
#: names): a lock taken there does not exclude a writer on another machine.
UNTRUSTED_FILESYSTEMS = frozenset({
    "nfs", "nfs4", "cifs", "smb3", "smbfs", "9p", "afs", "davfs", "fuse.sshfs", "sshfs",
    "fuse.rclone", "fuse.s3fs", "fuse.gcsfuse", "fuse.davfs2", "vboxsf", "vmhgfs",
    "fuse.vmhgfs-fuse", "fuse.glusterfs", "glusterfs", "fuse.mountpoint-s3"})
MOUNTS = "/proc/mounts"


class AuthorityError(PassdownError):
    """An ownership authority refused or could not answer."""

    exit_code = 1
    code = "authority.failed"

    #: Every code an :class:`AuthorityError` carries (spec/authority.md's Codes table).
    CODES = ("authority.unknown_kind", "authority.bad_setting", "authority.mismatch",
             "authority.untrusted_filesystem", "authority.no_remote", "authority.unreachable",
             "authority.failed", "authority.bad_record", "authority.lost",
             "authority.not_owner", "authority.fenced", "authority.lease_expired")

    def __init__(self, message: str, *, code: str, hint: str | None = None,
                 winner: Record | None = None):
        super().__init__(message, code=code, hint=hint)
        self.winner = winner


def unreachable(what: str, detail: str) -> AuthorityError:
    return AuthorityError(f"the {what} cannot be reached: {detail}", code="authority.unreachable",
                          hint="ownership is never assumed while the authority is away: "
                               "retry when it answers; read-only work (validate, show, ack "
                               "verify) goes on")


@dataclass(frozen=True)
class Record:
    """What an authority holds for one goal: the owner, the epoch it owns at, the checkpoint
    digest and restart id of the transition that made it owner, when, and the authority's own
    ``token`` (git commit id, etcd mod revision) and ``lease`` (etcd lease id, if any)."""

    owner_id: str
    fencing_epoch: int
    checkpoint_digest: str | None = None
    restart_id: str | None = None
    from_id: str | None = None
    at: str | None = None
    token: str | None = None
    lease: str | None = None
    extra: dict = field(default_factory=dict, compare=False)

    def body(self) -> dict:
        """The record as the authority stores it (JSON members, no token)."""
        return {"owner_id": self.owner_id, "fencing_epoch": self.fencing_epoch,
                "checkpoint_digest": self.checkpoint_digest, "restart_id": self.restart_id,
                "from_id": self.from_id, "at": self.at}

    def encoded(self) -> bytes:
        return json.dumps(self.body(), sort_keys=True, separators=(",", ":")).encode()

    def to_dict(self) -> dict:
        out = self.body()
        out["token"] = self.token
        if self.lease is not None:
            out["lease"] = self.lease
        return out


def decode(raw: bytes, where: str, *, token: str | None = None,
           lease: str | None = None) -> Record:
    """A stored record read back; anything else is ``authority.bad_record``."""
    try:
        value = json.loads(raw)
    except ValueError:
        value = None
    epoch = value.get("fencing_epoch") if isinstance(value, dict) else None
    owner = value.get("owner_id") if isinstance(value, dict) else None
    if not isinstance(owner, str) or not owner or type(epoch) is not int or epoch < 0:
        raise AuthorityError(f"{where} does not hold a Passdown owner record",
                             code="authority.bad_record",
                             hint="something other than Passdown wrote it: read it by hand, "
                                  "and hand over manually (MANUAL_HANDOFF)")
    text = {key: value.get(key) if isinstance(value.get(key), str) else None
            for key in ("checkpoint_digest", "restart_id", "from_id", "at")}
    return Record(owner_id=owner, fencing_epoch=epoch, token=token, lease=lease, **text)


@dataclass(frozen=True)
class Transition:
    """The one transition a caller asks for: from ``source_id`` owning at ``epoch`` to
    ``target_id`` at ``epoch + 1``, for the attempt ``restart_id`` and its digest."""

    goal_id: str
    source_id: str
    epoch: int
    target_id: str
    checkpoint_digest: str
    restart_id: str
    at: str

    def record(self) -> Record:
        return Record(owner_id=self.target_id, fencing_epoch=self.epoch + 1,
                      checkpoint_digest=self.checkpoint_digest, restart_id=self.restart_id,
                      from_id=self.source_id, at=self.at)

    def is_mine(self, record: Record | None) -> bool:
        """Whether ``record`` is this transition already done (a retry after a lost answer)."""
        return record is not None and (record.owner_id, record.fencing_epoch,
                                       record.restart_id) == (self.target_id, self.epoch + 1,
                                                              self.restart_id)

    def check_source(self, record: Record | None, what: str) -> None:
        """The current record must name the exact source at the expected epoch; none at all
        is the first transition (the registry's owner binds the authority). Else the
        transition has lost before it was tried."""
        if record is None:
            return
        if (record.owner_id, record.fencing_epoch) != (self.source_id, self.epoch):
            raise lost(record, what)


def lost(winner: Record, what: str) -> AuthorityError:
    return AuthorityError(
        f"the {what} names {winner.owner_id} as owner at fencing epoch {winner.fencing_epoch}"
        + (f" (attempt {winner.restart_id})" if winner.restart_id else "")
        + ": this transition lost", code="authority.lost", winner=winner,
        hint="a competing transition won; this target stays read-only and the attempt is "
             "recorded as lost (`passdown attempt show`)")


class Authority:
    """The interface (see the module docstring); ``name`` is the kind, ``what`` a phrase
    naming this authority in messages, ``settings`` what the registry policy records."""

    name = ""
    what = ""
    settings: dict = {}

    def read(self) -> Record | None:
        raise NotImplementedError

    def transition(self, move: Transition, current: Record | None = None) -> Record:
        """Perform ``move``; the new record, or ``authority.lost`` naming the winner."""
        raise NotImplementedError

    def renew(self, owner_id: str, epoch: int) -> Record:
        """Keep ``owner_id``'s hold at ``epoch`` alive; ``authority.not_owner`` otherwise."""
        record = self.read()
        require_owner(record, owner_id, epoch, self.what)
        return record

    def release(self, owner_id: str, epoch: int) -> Record:
        """Give up the hold (the record stays: epochs never go back)."""
        return self.renew(owner_id, epoch)


def require_owner(record: Record | None, owner_id: str, epoch: int | None, what: str) -> None:
    if record is None or record.owner_id != owner_id or (
            epoch is not None and record.fencing_epoch != epoch):
        named = (f"{record.owner_id} at fencing epoch {record.fencing_epoch}" if record
                 else "no owner")
        raise AuthorityError(f"the {what} names {named}, not {owner_id}"
                             + (f" at {epoch}" if epoch is not None else ""),
                             code="authority.not_owner", winner=record,
                             hint="this session does not own the goal's writes: stay "
                                  "read-only and re-read the registry")


# -- local ---------------------------------------------------------------------------------

def filesystem_type(path: str | os.PathLike, mounts: str | None = None) -> str | None:
    """The type of the file system holding ``path``, from ``/proc/mounts`` (or the text
    ``mounts``): the longest mount point above it. None where the table cannot be read."""
    if mounts is None:
        try:
            with open(MOUNTS, encoding="utf-8", errors="replace") as handle:
                mounts = handle.read(1 << 20)
        except OSError:
            return None
    real = os.path.realpath(os.fspath(path))
    best, kind = "", None
    for line in mounts.splitlines():
        parts = line.split()
        if len(parts) < 3:
            continue
        point = parts[1].replace("\\040", " ").replace("\\011", "\t").replace("\\134", "\\")
        inside = real == point or real.startswith(point.rstrip("/") + "/") or point == "/"
        if inside and len(point) >= len(best):
            best, kind = point, parts[2]
    return kind


class Local(Authority):
    """The registry file under its lock: an authority for the processes of one machine. Its
    record is the registry's own owner and epoch; the registry's compare-and-swap is the
    transition, so this class only checks that the lock can be trusted."""

    name = LOCAL
    what = "registry on this machine"

    def __init__(self, registry_path: str, mounts: str | None = None):
        self.registry_path = registry_path
        self.settings = {"kind": LOCAL}
        self.mounts = mounts

    def check(self) -> None:
        kind = filesystem_type(os.path.dirname(os.path.abspath(self.registry_path)),
                               self.mounts)
        if kind in UNTRUSTED_FILESYSTEMS:
            raise AuthorityError(
                f"{self.registry_path} is on a {kind} file system: its lock does not exclude "
                "a writer on another machine", code="authority.untrusted_filesystem",
                hint="keep the registry on a local disk, or use an authority every machine "
                     "shares: --authority git (the checkout's remote) or --authority etcd")

    def read(self) -> Record | None:
        return None  # the registry itself is the record

    def transition(self, move: Transition, current: Record | None = None) -> Record:
        self.check()
        return move.record()


def open_authority(settings: dict | None, *, registry_path: str, goal_id: str) -> Authority:
    """The authority the registry policy's ``authority`` member names (``local`` when none)."""
    settings = {"kind": LOCAL} if settings is None else settings
    if not isinstance(settings, dict):
        raise AuthorityError(f"the policy's authority is {type(settings).__name__}, not an "
                             "object", code="authority.bad_setting",
                             hint="run `passdown validate` on the registry and restore "
                                  "policy.authority (kind, and its settings)")
    kind = settings.get("kind")
    factory = KINDS.get(kind) if isinstance(kind, str) else None
    if factory is None:
        raise AuthorityError(f"the authority {kind!r} is not one of {', '.join(KINDS)}",
                             code="authority.unknown_kind",
                             hint="choose --authority local, git or etcd")
    for name, wanted in _SETTING_TYPES.get(kind, ()):
        value = settings.get(name)
        if value is not None and (type(value) is not wanted or value == ""):
            raise AuthorityError(f"the {kind} authority's {name} is {value!r}, not a "
                                 f"{wanted.__name__}", code="authority.bad_setting",
                                 hint="run `passdown validate` on the registry and restore "
                                      "policy.authority")
    return factory(settings, registry_path=registry_path, goal_id=goal_id)


#: The members of each kind's policy settings and their JSON types.
_SETTING_TYPES = {"git": (("remote", str),),
                  "etcd": (("endpoint", str), ("prefix", str), ("lease_ttl", int))}


def _local(settings, *, registry_path, goal_id):
    return Local(registry_path)


def _git(settings, *, registry_path, goal_id):
    from passdown.workspace._authority_git import GitAuthority

    return GitAuthority(os.path.dirname(os.path.abspath(registry_path)), goal_id,
                        remote=settings.get("remote", "origin"))


def _etcd(settings, *, registry_path, goal_id):
    from passdown.workspace._authority_etcd import EtcdAuthority

    return EtcdAuthority(goal_id, endpoint=settings.get("endpoint", EtcdDefaults.endpoint),
                         prefix=settings.get("prefix", EtcdDefaults.prefix),
                         lease_ttl=settings.get("lease_ttl", EtcdDefaults.lease_ttl))


class EtcdDefaults:
    endpoint = "http://127.0.0.1:2379"
    prefix = "/passdown/"
    lease_ttl = 600


#: Authority kind -> factory of (policy settings, registry path, goal id).
KINDS = {LOCAL: _local, GIT: _git, ETCD: _etcd}


def describe(settings: dict) -> str:
    """``settings`` in words: ``local``, ``git (remote origin)``, ``etcd (URL, lease 600 s)``."""
    kind = settings.get("kind")
    if kind == GIT:
        return f"git (remote {settings.get('remote')})"
    if kind == ETCD:
        return f"etcd ({settings.get('endpoint')}, lease {settings.get('lease_ttl')} s)"
    return str(kind)


def settings_for(kind: str, *, remote: str | None = None, endpoint: str | None = None,
                 lease_ttl: int | None = None) -> dict:
    """What the registry policy records for ``--authority kind`` and its options."""
    if kind not in KINDS:
        raise AuthorityError(f"the authority {kind!r} is not one of {', '.join(KINDS)}",
                             code="authority.unknown_kind",
                             hint="choose --authority local, git or etcd")
    given = {"remote": remote, "endpoint": endpoint, "lease_ttl": lease_ttl}
    allowed = {LOCAL: (), GIT: ("remote",), ETCD: ("endpoint", "lease_ttl")}[kind]
    wrong = [f"--{name.replace('_', '-')}" for name, value in given.items()
             if value is not None and name not in allowed]
    if wrong:
        raise AuthorityError(f"{', '.join(wrong)} does not apply to the {kind} authority",
                             code="authority.bad_setting",
                             hint="--remote goes with git; --endpoint and --lease-ttl with etcd")
    settings = {"kind": kind}
    if kind == GIT:
        settings["remote"] = remote or "origin"
    if kind == ETCD:
        settings["endpoint"] = endpoint or EtcdDefaults.endpoint
        settings["prefix"] = EtcdDefaults.prefix
        settings["lease_ttl"] = lease_ttl if lease_ttl is not None else EtcdDefaults.lease_ttl
        if not settings["endpoint"].startswith(("http://", "https://")):
            raise AuthorityError(f"the etcd endpoint {settings['endpoint']!r} is not an "
                                 "http:// or https:// URL", code="authority.bad_setting",
                                 hint="for example --endpoint http://127.0.0.1:2379")
        if not 2 <= settings["lease_ttl"] <= 86400:
            raise AuthorityError(f"a lease of {settings['lease_ttl']} s is outside 2 to "
                                 "86400 s", code="authority.bad_setting",
                                 hint="choose --lease-ttl between 2 and 86400 seconds")
    return settings
