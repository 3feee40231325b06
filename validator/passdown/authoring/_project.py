"""``passdown init``: a new project's checkpoint and registry, created together or not at all.

Both files are created exclusively (an existing file is never replaced); if the second one
cannot be created, the first is removed again, so a refused init leaves the folder as it was.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass

from passdown.workspace import _atomic, _editing
from passdown.errors import PassdownError, RefusedError
from passdown.authoring import _checkpoint, _registry, _store, _where
from passdown.authoring._ids import new_ulid

REGISTRY_FORMATS = {"yaml": "registry.yaml", "json": "registry.json"}


@dataclass(frozen=True)
class Identity:
    """What a new checkpoint and registry record about the goal and its MAIN session."""

    goal_id: str
    main_id: str
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


def new_block(identity: Identity, *, title: str) -> dict:
    """The ``x-passdown/checkpoint`` block for ``identity``: the task defaults to ``title``, the
    mission to the outcome, the Stack session id to MAIN's, the incarnation id to a new one."""
    return _checkpoint.new_block(
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
    if os.path.lexists(checkpoint_path) and not any(map(os.path.lexists, registries)):
        return _adopt(directory, checkpoint_path, identity, policy,
                      registry_format=registry_format, nested=nested)
    for path in (checkpoint_path, *registries):
        if os.path.lexists(path):
            raise _store.exists_error(path)
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
    """``init`` on a plain xBRIEF continue checkpoint (CKP-028): the block is added, every
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
    _store.require_valid_bytes(_store.CHECKPOINT, raw, checkpoint_path)
    if not nested:
        _where.check_not_nested(directory)
    plan = document.get("plan") if isinstance(document.get("plan"), dict) else {}
    title = identity.title or plan.get("title") or identity.goal_id
    document[_checkpoint.BLOCK] = new_block(identity, title=title)
    added = _checkpoint.adopt_plan(document)
    checkpoint_bytes = _editing.render(document, syntax="json", original=raw)
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
        with _atomic.file_lock(checkpoint_path):
            if _store.read_bytes(checkpoint_path, _store.CHECKPOINT) != raw:
                raise RefusedError(f"{checkpoint_path} changed while init was adding its block",
                                   code="authoring.revision_conflict",
                                   hint="run `passdown init` again")
            _atomic.atomic_write(checkpoint_path, checkpoint_bytes)
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
