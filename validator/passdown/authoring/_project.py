"""``passdown init``: a new project's checkpoint and registry, created together or not at all,
and the adoption of a plain xBRIEF continue checkpoint (the Passdown block added, every item
kept), with the registry created beside it or, when one is there, read for the identity.

Both files are created exclusively (an existing file is never replaced); if the second one
cannot be created, the first is removed again, so a refused init leaves the folder as it was.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, replace

from passdown.formats import _detect
from passdown.workspace import _atomic, _editing
from passdown.errors import PassdownError, RefusedError, UsageError
from passdown.authoring import _checkpoint, _fence, _registry, _store, _where
from passdown.authoring._ids import new_ulid

REGISTRY_FORMATS = {"yaml": "registry.yaml", "json": "registry.json"}


@dataclass(frozen=True)
class Identity:
    """What a new checkpoint and registry record about the goal and its MAIN session.
    ``goal_id`` and ``main_id`` may be None only where a registry beside a plain checkpoint
    records them (:func:`init`)."""

    goal_id: str | None
    main_id: str | None
    outcome: str
    first_step: str | None = None
    title: str | None = None
    mission: str | None = None
    task: str | None = None
    stack_session_id: str | None = None
    incarnation_id: str | None = None
    role: str = "main"
    config_version: str | None = None
    prd_pin: str | None = None
    constraints: tuple[str, ...] = ()


@dataclass(frozen=True)
class Policy:
    """The restart policy record: off unless the owner recorded consent and its scope."""

    mode: str = "off"
    authorization_scope: str | None = None
    archive_consent: bool = False
    timezone: str = "UTC"
    timezone_source: str = "default"
    #: The ownership authority's settings (``workspace._authority.settings_for``); None: local.
    authority: dict | None = None


def new_block(identity: Identity, *, title: str, epoch: int = 0) -> dict:
    """The ``x-passdown/checkpoint`` block for ``identity``: the task defaults to ``title``, the
    mission to the outcome, the Stack session id to MAIN's, the incarnation id to a new one."""
    return _checkpoint.new_block(epoch=epoch,
        goal_id=identity.goal_id, stack_session_id=identity.stack_session_id or identity.main_id,
        incarnation_id=identity.incarnation_id or new_ulid(), role=identity.role,
        mission=identity.mission or identity.outcome, outcome=identity.outcome,
        task=identity.task or title, config_version=identity.config_version,
        prd_pin=identity.prd_pin, constraints=identity.constraints)


def new_checkpoint(identity: Identity, *, timezone: str | None = None) -> dict:
    """The checkpoint document for ``identity`` (the plan title defaults to the goal id)."""
    title = identity.title or identity.goal_id
    return _checkpoint.new_document(title=title, block=new_block(identity, title=title),
                                    first_step=identity.first_step, timezone=timezone)


def init(directory: str | os.PathLike, identity: Identity, policy: Policy = Policy(), *,
         registry_format: str = "yaml", validate: bool = True,
         nested: bool = False) -> _store.Outcome:
    """Create ``xbrief/continue.xbrief.json`` and the registry in ``directory``. A folder
    inside another handoff folder, or one that keeps a checkpoint (``xbrief``), is refused
    (``authoring.nested``) unless ``nested`` says a separate handoff there is meant."""
    directory = os.fspath(directory)
    checkpoint_path = os.path.join(directory, _checkpoint.PATH)
    registry_path = os.path.join(directory, REGISTRY_FORMATS[registry_format])
    registries = [os.path.join(directory, name) for name in _registry.NAMES]
    if os.path.lexists(checkpoint_path):
        if not any(map(os.path.lexists, registries)):
            return _adopt(directory, checkpoint_path, identity, policy,
                          registry_format=registry_format, nested=nested)
        if _plain_file(checkpoint_path):
            return _adopt_beside_registry(directory, checkpoint_path, identity, policy,
                                          nested=nested)
    for path in (checkpoint_path, *registries):
        if os.path.lexists(path):
            raise _store.exists_error(path)
    _require_identity(identity)
    folder = os.path.dirname(checkpoint_path)
    folder_existed = os.path.isdir(folder)
    checkpoint = new_checkpoint(identity, timezone=policy.timezone)
    registry = _registry.new_registry(
        goal_id=identity.goal_id, main_id=identity.main_id,
        checkpoint_path=_checkpoint.PATH.replace(os.sep, "/"), mode=policy.mode,
        authorization_scope=policy.authorization_scope, archive_consent=policy.archive_consent,
        timezone=policy.timezone, timezone_source=policy.timezone_source)
    if policy.authority is not None:
        registry["policy"]["authority"] = dict(policy.authority)
    if not nested:
        _where.check_not_nested(directory)
    checkpoint_bytes = _editing.render(checkpoint, syntax="json")
    registry_bytes = _editing.render(registry, syntax=registry_format)
    if validate:
        _store.check_valid(_store.CHECKPOINT, checkpoint_bytes, checkpoint_path)
        _store.check_valid(_store.REGISTRY, registry_bytes, registry_path)
    created = []
    try:
        _store.create(checkpoint_path, checkpoint_bytes)
        created.append(checkpoint_path)
        _store.create(registry_path, registry_bytes)
    except PassdownError:
        for path in created:  # created by us a moment ago: nothing else relies on it yet
            os.unlink(path)
        if not folder_existed and os.path.isdir(folder):
            # the folder is ours: remove the bookkeeping folder the write made in it too
            shutil.rmtree(os.path.join(folder, _atomic.BOOKKEEPING), ignore_errors=True)
            if not os.listdir(folder):
                os.rmdir(folder)
        raise
    return _store.Outcome(command="init", path=directory, changed=True,
                          message=f"created {checkpoint_path} and {registry_path}",
                          revision=1, previous_revision=None,
                          result={"checkpoint": checkpoint_path, "registry": registry_path,
                                  "incarnation_id": checkpoint[_checkpoint.BLOCK]["incarnation_id"]})


def _adopt(directory: str, checkpoint_path: str, identity: Identity, policy: Policy, *,
           registry_format: str, nested: bool) -> _store.Outcome:
    """``init`` on a plain xBRIEF continue checkpoint (CKP-029): the block is added, every
    item, narrative and other member kept, the next action taken from the next pending item,
    and the registry created beside it. A checkpoint that already has a block lost its
    registry: ``passdown registry recover`` rebuilds that."""
    exists = RefusedError(f"{checkpoint_path} already exists, without a registry",
                          code="authoring.exists",
                          hint="rebuild the lost registry from the packet and the checkpoint "
                               "with `passdown registry recover`")
    raw = _store.read_bytes(checkpoint_path, _store.CHECKPOINT)
    try:
        document = _editing.parse(raw, source=checkpoint_path, syntax="json")
    except PassdownError:
        raise exists from None
    if not isinstance(document, dict) or not _store.is_plain(document):
        raise exists
    _require_identity(identity)
    _store.require_valid_bytes(_store.CHECKPOINT, raw, checkpoint_path)
    if not nested:
        _where.check_not_nested(directory)
    checkpoint_bytes, added = _with_block(document, raw, identity)
    registry_path = os.path.join(directory, REGISTRY_FORMATS[registry_format])
    registry = _registry.new_registry(
        goal_id=identity.goal_id, main_id=identity.main_id,
        checkpoint_path=_checkpoint.PATH.replace(os.sep, "/"), mode=policy.mode,
        authorization_scope=policy.authorization_scope, archive_consent=policy.archive_consent,
        timezone=policy.timezone, timezone_source=policy.timezone_source)
    registry_bytes = _editing.render(registry, syntax=registry_format)
    _store.check_valid(_store.CHECKPOINT, checkpoint_bytes, checkpoint_path, before=raw)
    _store.check_valid(_store.REGISTRY, registry_bytes, registry_path)
    _store.create(registry_path, registry_bytes)
    try:
        _replace_unchanged(checkpoint_path, raw, checkpoint_bytes)
    except PassdownError:
        os.unlink(registry_path)  # created by us a moment ago: nothing else relies on it yet
        raise
    return _store.Outcome(command="init", path=directory, changed=True,
                          message=f"added the {_checkpoint.BLOCK} block to {checkpoint_path}, "
                                  f"keeping every item, and created {registry_path}",
                          revision=1, previous_revision=None,
                          result={"checkpoint": checkpoint_path, "registry": registry_path,
                                  "adopted": True, "changes": added,
                                  "incarnation_id": document[_checkpoint.BLOCK]["incarnation_id"]})


def _require_identity(identity: Identity) -> None:
    """A checkpoint and registry made from the options alone need the goal and MAIN's id
    (only a registry beside a plain checkpoint supplies them)."""
    missing = [option for option, value in (("--goal-id", identity.goal_id),
                                            ("--main-id", identity.main_id)) if not value]
    if missing:
        raise UsageError(f"{' and '.join(missing)} needed: there is no registry here to take "
                         f"{'them' if len(missing) > 1 else 'it'} from",
                         code="authoring.missing_identity",
                         hint="give the goal id and the exact id of the MAIN session that owns "
                              "the work")


def _plain_file(checkpoint_path: str) -> bool:
    """Whether the file is a plain xBRIEF 0.8 continue checkpoint (parsed; unreadable: no)."""
    try:
        raw = _store.read_bytes(checkpoint_path, _store.CHECKPOINT)
        return _store.is_plain(_editing.parse(raw, source=checkpoint_path, syntax="json"))
    except PassdownError:
        return False


def _with_block(document: dict, raw: bytes, identity: Identity, *,
                epoch: int = 0) -> tuple[bytes, list[str]]:
    """The plain checkpoint ``document`` (read as ``raw``) with the block for ``identity``
    added and its next action on the next pending item, rendered in the file's own layout so
    every other member keeps its bytes; and what adopting the plan added to it."""
    plan = document.get("plan") if isinstance(document.get("plan"), dict) else {}
    title = identity.title or plan.get("title") or identity.goal_id
    document[_checkpoint.BLOCK] = new_block(identity, title=title, epoch=epoch)
    added = _checkpoint.adopt_plan(document)
    return _editing.render(document, syntax="json", original=raw), added


def _replace_unchanged(checkpoint_path: str, raw: bytes, new: bytes) -> None:
    """Write ``new`` over the checkpoint under its lock, unless it is no longer ``raw``."""
    with _atomic.file_lock(checkpoint_path):
        if _store.read_bytes(checkpoint_path, _store.CHECKPOINT) != raw:
            raise RefusedError(f"{checkpoint_path} changed while init was adding its block",
                               code="authoring.revision_conflict",
                               hint="run `passdown init` again")
        _atomic.atomic_write(checkpoint_path, new)


def _adopt_beside_registry(directory: str, checkpoint_path: str, identity: Identity,
                           policy: Policy, *, nested: bool) -> _store.Outcome:
    """``init`` on a plain xBRIEF continue checkpoint beside the folder's restart registry
    (CKP-034), as a tool leaves it that rewrote a Passdown checkpoint without the block: the
    block is added with the identity the registry records (its goal, the session that owns
    the goal's writes at its fencing epoch), every item kept as :func:`_adopt` keeps them,
    and the registry, with its history, is left as it is. Options that disagree with the
    registry, or a registry that governs another checkpoint, are refused: nothing is
    written."""
    registry_path = _registry.locate(directory)
    registry = _read_registry(registry_path)
    if policy != Policy():
        raise UsageError(f"{registry_path} keeps its restart policy: the policy options (--mode, "
                         "--scope, --archive-consent, --timezone, --authority) only set the "
                         "policy of a registry init creates", code="authoring.bad_value",
                         hint="run `passdown init --outcome TEXT` without them; record the "
                              "owner's restart consent with `passdown registry policy`")
    raw = _store.read_bytes(checkpoint_path, _store.CHECKPOINT)
    document = _editing.parse(raw, source=checkpoint_path, syntax="json")
    _store.require_valid_bytes(_store.CHECKPOINT, raw, checkpoint_path)
    recorded, epoch = _recorded_identity(directory, registry, registry_path, identity)
    if not nested:
        _where.check_not_nested(directory)
    checkpoint_bytes, added = _with_block(document, raw, recorded, epoch=epoch)
    _store.check_valid(_store.CHECKPOINT, checkpoint_bytes, checkpoint_path, before=raw)
    _fence.guard(registry_path)  # an owner's write: a fenced clone writes nothing
    _replace_unchanged(checkpoint_path, raw, checkpoint_bytes)
    block = document[_checkpoint.BLOCK]
    return _store.Outcome(
        command="init", path=directory, changed=True,
        message=f"added the {_checkpoint.BLOCK} block to {checkpoint_path}, keeping every item, "
                f"with the identity {registry_path} records: goal {block['goal_id']}, session "
                f"{block['stack_session_id']} at fencing epoch {epoch}; {registry_path} is "
                "unchanged",
        revision=1, previous_revision=None,
        result={"checkpoint": checkpoint_path, "registry": registry_path, "adopted": True,
                "registry_kept": True, "changes": added, "goal_id": block["goal_id"],
                "stack_session_id": block["stack_session_id"], "epoch": epoch,
                "incarnation_id": block["incarnation_id"]})


def _read_registry(registry_path: str) -> dict:
    """The folder's registry, which must be a valid restart registry: another tool's file of
    that name (CNF-112) is no registry to take an identity from."""
    document = _store.read(registry_path, _store.REGISTRY)
    why = _detect.foreign(_detect.get("registry"), document)
    if why is not None:
        raise RefusedError(f"{registry_path} is {why}", code="authoring.exists",
                           hint="Passdown never overwrites another tool's file: keep the handoff "
                                "in a folder of its own (`passdown init DIR`), or move that file "
                                "away first")
    _store.require_valid(_store.REGISTRY, registry_path)
    return document


def _recorded_identity(directory: str, registry: dict, registry_path: str,
                       identity: Identity) -> tuple[Identity, int]:
    """``identity`` completed from the registry (the goal, MAIN, the session that owns the
    goal's writes, the fencing epoch), refused (``authoring.goal_mismatch``,
    ``authoring.identity_mismatch``) where the options, or the registry's checkpoint path,
    disagree with it."""
    policy = _registry.policy_of(registry)
    goal, main = policy.get("goal_id"), policy.get("main_id")
    owner = _registry.owner(registry) or main
    epoch = registry.get("fencing_epoch")
    if identity.goal_id is not None and identity.goal_id != goal:
        raise RefusedError(f"--goal-id names goal {identity.goal_id!r}, {registry_path} "
                           f"records {goal!r}", code="authoring.goal_mismatch",
                           hint="leave --goal-id out: the registry's goal is taken; a checkpoint "
                                "of another goal belongs in a handoff folder of its own")
    if identity.main_id is not None and identity.main_id != main:
        raise RefusedError(f"--main-id is {identity.main_id!r}, but {registry_path} records "
                           f"{main!r}", code="authoring.identity_mismatch",
                           hint="leave --main-id out: the registry's MAIN session is taken")
    named = os.path.normpath(os.path.join(directory, str(policy.get("checkpoint_path"))))
    here = os.path.normpath(os.path.join(directory, _checkpoint.PATH))
    if named != here:
        raise RefusedError(f"{registry_path}'s checkpoint_path names {named}, not this "
                           f"checkpoint {here}: the registry governs another checkpoint",
                           code="authoring.identity_mismatch",
                           hint="point the registry's checkpoint_path at this checkpoint, or "
                                "keep each handoff in a folder of its own")
    # The Stack session id is the host's durable id for the session, which the registry does
    # not record: as for a new checkpoint, the thread id stands in unless --session-id is given.
    return replace(identity, goal_id=goal, main_id=main,
                   stack_session_id=identity.stack_session_id or owner), epoch
