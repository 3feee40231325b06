"""Migration of a legacy vBRIEF checkpoint (``vbrief/continue.vbrief.json``) to xBRIEF 0.8
(``xbrief/continue.xbrief.json``), losing nothing.

Exactly three things change: the root key ``vBRIEFInfo`` becomes ``xBRIEFInfo`` (in the same
place) with ``version`` ``"0.8"``; a reference ``type`` of the plan or of any plan item that
starts with ``x-vbrief/`` starts with ``x-xbrief/`` instead; and an ``x-baton/checkpoint``
block is added when the legacy file has none. Every other member, value, unknown field and
extension block (other tools' ``x-.../`` blocks included) is copied verbatim, in its key order.
The legacy file is only read, and an existing target is never replaced.
"""

from __future__ import annotations

import copy
import os

from baton.workspace import _editing
from baton.errors import RefusedError, UsageError
from baton.authoring import _checkpoint, _document, _store

LEGACY_PATH = os.path.join("vbrief", "continue.vbrief.json")
LEGACY_INFO = "vBRIEFInfo"
INFO = "xBRIEFInfo"
VERSION = "0.8"
LEGACY_PREFIX = "x-vbrief/"
PREFIX = "x-xbrief/"


def convert(legacy: dict, block: dict | None = None) -> tuple[dict, list[str]]:
    """The xBRIEF document for the parsed ``legacy`` one, and a list of what changed (JSON
    paths). ``block`` is the ``x-baton/checkpoint`` block to add when the legacy document has
    none; without it, a legacy document with no block is refused."""
    if not isinstance(legacy, dict) or not isinstance(legacy.get(LEGACY_INFO), dict):
        raise RefusedError("this is not a vBRIEF document: it has no `vBRIEFInfo` object",
                           code="authoring.not_vbrief",
                           hint="a legacy checkpoint has a root `vBRIEFInfo` object and a "
                                "`plan`; write a new checkpoint with `baton init` instead")
    if INFO in legacy:
        raise RefusedError("the document has both `vBRIEFInfo` and `xBRIEFInfo`",
                           code="authoring.not_vbrief",
                           hint="remove the stale `vBRIEFInfo` by hand: Baton cannot tell "
                                "which one is current")
    if not isinstance(legacy.get("plan"), dict):
        raise RefusedError("the legacy document has no `plan` object (a `todoList` or "
                           "`playbook` root has no xBRIEF 0.8 form)",
                           code="authoring.unsupported_root",
                           hint="only plan documents can become continue checkpoints")
    changes: list[str] = []
    document = {}
    for key, value in legacy.items():
        value = copy.deepcopy(value)
        if key == LEGACY_INFO:
            key = INFO
            old_version = value.get("version")
            value["version"] = VERSION
            changes.append(f"$.vBRIEFInfo -> $.xBRIEFInfo (version {old_version!r} -> '0.8')")
        elif key == "plan":
            _rename_reference_types(value, "$.plan", changes)
        document[key] = value
    if _checkpoint.BLOCK not in document:
        if block is None:
            raise RefusedError("the legacy checkpoint has no Baton block and none was given",
                               code="authoring.missing_identity",
                               hint="pass the identity options (--goal-id, --session-id ...)")
        document[_checkpoint.BLOCK] = block
        changes.append('$["x-baton/checkpoint"] added')
        changes.extend(_checkpoint.adopt_plan(document))
    return document, changes


def _block_for(legacy, identity: dict) -> dict | None:
    """The Baton block built from the ``init`` identity options, when the legacy document
    needs one; a missing required option is a usage error naming it."""
    if not isinstance(legacy, dict) or _checkpoint.BLOCK in legacy:
        return None
    missing = [f"--{name.replace('_', '-')}" for name in ("goal_id", "main_id", "outcome")
               if not identity.get(name)]
    if missing:
        raise UsageError(f"the legacy checkpoint has no Baton block: {', '.join(missing)} "
                         "needed to add one", code="authoring.missing_identity",
                         hint="give the goal, the MAIN session id and the outcome")
    from baton.authoring._project import Identity, new_block

    plan = legacy.get("plan") if isinstance(legacy.get("plan"), dict) else {}
    title = plan.get("title") if isinstance(plan.get("title"), str) else identity["goal_id"]
    known = {k: v for k, v in identity.items() if v is not None}
    return new_block(Identity(**known), title=title)


def _rename_reference_types(node: dict, path: str, changes: list[str]) -> None:
    """Rename ``x-vbrief/`` reference types in the plan or an item, and in its child items."""
    references = node.get("references")
    if isinstance(references, list):
        for index, reference in enumerate(references):
            kind = reference.get("type") if isinstance(reference, dict) else None
            if isinstance(kind, str) and kind.startswith(LEGACY_PREFIX):
                reference["type"] = PREFIX + kind[len(LEGACY_PREFIX):]
                changes.append(f"{path}.references[{index}].type -> {reference['type']}")
    for children in ("items", "subItems"):
        items = node.get(children)
        if isinstance(items, list):
            for index, item in enumerate(items):
                if isinstance(item, dict):
                    _rename_reference_types(item, f"{path}.{children}[{index}]", changes)


def migrate(root: str | os.PathLike = ".", *, source: str | os.PathLike | None = None,
            target: str | os.PathLike | None = None, identity: dict | None = None,
            validate: bool = True) -> _store.Outcome:
    """Write the xBRIEF form of the legacy checkpoint under ``root`` (or ``source``) to
    ``xbrief/continue.xbrief.json`` (or ``target``). ``identity`` (the ``init`` identity
    fields) builds the Baton block when the legacy file has none; the result must validate
    clean before anything is written."""
    source = os.fspath(source or os.path.join(root, LEGACY_PATH))
    target = os.fspath(target or os.path.join(root, _checkpoint.PATH))
    if os.path.lexists(target):
        raise _store.exists_error(target)
    try:
        raw = _document.read_file(source)
    except FileNotFoundError:
        raise RefusedError(f"{source}: no legacy checkpoint here", code="authoring.no_legacy",
                           hint=f"pass --source, or run `baton init` to start with "
                                f"{_checkpoint.PATH}") from None
    legacy = _editing.parse(raw, source=source, syntax="json")
    document, changes = convert(legacy, _block_for(legacy, identity or {}))
    new = _editing.render(document, syntax="json")
    if validate:
        _store.check_valid(_store.CHECKPOINT, new, target)
    _store.create(target, new)
    revision = _store.revision_of(document, _store.CHECKPOINT, target)
    return _store.Outcome(command="migrate", path=target, changed=True,
                          message=f"migrated {source} to {target}; {source} is unchanged",
                          revision=revision, result={"source": source, "changes": changes})
