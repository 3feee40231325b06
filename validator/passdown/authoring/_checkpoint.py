"""The continue checkpoint's changes: one function per ``passdown checkpoint`` subcommand, each
mutating the parsed document in place and returning a :class:`~._store.Change`.

The functions keep the checkpoint's invariants, so no caller has to: the next action names
the plan's first pending item (depth first, in document order) and that item carries the
``ResumePoint`` narrative; a completed item keeps its place and gains its evidence; and every
change that adds a record is idempotent (the same record again changes nothing).
"""

from __future__ import annotations

import os
import re
from dataclasses import replace

from passdown.errors import RefusedError, UsageError
from passdown.authoring import _fence, _store
from passdown.authoring._store import Change
from passdown.formats._clock import utc_now

BLOCK = "x-passdown/checkpoint"
#: Where the checkpoint lives, relative to the project folder.
PATH = os.path.join("xbrief", "continue.xbrief.json")
RESUME = "ResumePoint"
DECISIONS = "Decisions"
HAZARDS = "Hazards"
COMPLETED = "completed"
PENDING = "pending"
#: The plan status of a checkpoint in use, and of one a resuming session consumed.
ACTIVE_STATUS = "running"
#: A new checkpoint's narratives, each until the first real line replaces it: the rules want
#: them present, and a fresh session must see "none yet" rather than guess.
PLACEHOLDERS = {DECISIONS: "- No decisions recorded yet.",
                HAZARDS: "- No hazards recorded yet."}
#: Opens the placeholder text ``passdown migrate`` writes where a legacy file lacks a narrative;
#: the first real line replaces it too.
MIGRATION_PLACEHOLDER = "[placeholder written by passdown migrate]"

# Settable identity fields of the block: name -> (kind, nullable). ``text`` and ``id`` are
# strings (``id`` bounded, single line), ``int`` a non-negative integer, ``list`` of texts.
IDENTITY_FIELDS = {
    "goal_id": ("id", False),
    "stack_session_id": ("id", False),
    "incarnation_id": ("id", False),
    "epoch": ("int", False),
    "role": ("id", False),
    "config_version": ("id", True),
    "mission": ("text", False),
    "outcome": ("text", False),
    "task": ("text", False),
    "prd_pin": ("id", True),
    "constraints": ("list", False),
}
#: Block fields that hold structured records, settable only as JSON (``set --json``).
RECORD_FIELDS = ("leases", "external_operations", "completed_work", "blockers",
                 "failed_attempts", "next_action")

_ID_CHARS = re.compile(r"[^a-z0-9]+")
_ITEM_ID = re.compile(r"[a-zA-Z0-9_-]+(\.[a-zA-Z0-9_-]+)*")


def block_of(document) -> dict:
    """The checkpoint's ``x-passdown/checkpoint`` block; refused (``authoring.plain_checkpoint``)
    when the document has none."""
    block = document.get(BLOCK)
    if not isinstance(block, dict):
        raise _store.plain_checkpoint("the checkpoint")
    return block


def block_or_none(document) -> dict | None:
    """The block, or ``None`` for a plain checkpoint (readers that work without it)."""
    block = document.get(BLOCK) if isinstance(document, dict) else None
    return block if isinstance(block, dict) else None


def new_document(*, title: str, block: dict, first_step: str,
                 timezone: str | None = None) -> dict:
    """A fresh checkpoint around ``block`` (see :func:`new_block`) with one pending step,
    which is the next action."""
    now = block["written_at"]
    info = {"version": "0.8", "created": now, "updated": now}
    if timezone:
        info["timezone"] = timezone
    document = {"xBRIEFInfo": info,
                "plan": {"title": title, "status": ACTIVE_STATUS, "items": [],
                         "narratives": dict(PLACEHOLDERS)},
                BLOCK: block}
    if not isinstance(first_step, str) or not first_step.strip():
        raise UsageError("a new checkpoint needs its first remaining step",
                         code="authoring.bad_value", hint="pass --next with the first step")
    add_pending(document, first_step)
    return document


def new_block(*, goal_id, stack_session_id, incarnation_id, role, mission, outcome, task,
              config_version=None, prd_pin=None, constraints=(), epoch=0, now=None) -> dict:
    """The ``x-passdown/checkpoint`` block in its schema order; ``next_action`` is filled in by
    the first pending item."""
    return {
        "passdown_version": "1.0",
        "kind": "checkpoint",
        "revision": 1,
        "goal_id": goal_id,
        "stack_session_id": stack_session_id,
        "incarnation_id": incarnation_id,
        "epoch": epoch,
        "role": role,
        "config_version": config_version,
        "mission": mission,
        "outcome": outcome,
        "task": task,
        "prd_pin": prd_pin,
        "constraints": list(constraints),
        "completed_work": [],
        "blockers": [],
        "failed_attempts": [],
        "leases": [],
        "external_operations": [],
        "next_action": None,
        "written_at": now or utc_now(),
        "consumed_at": None,
    }


# -- items ---------------------------------------------------------------------------------

def _items(document) -> list:
    plan = document.get("plan")
    items = plan.get("items") if isinstance(plan, dict) else None
    if not isinstance(items, list):
        raise RefusedError("the checkpoint's plan has no items list",
                           code="authoring.bad_shape",
                           hint="run `passdown validate` on the checkpoint to see what is wrong")
    return items


def _walk(items: list):
    """``(siblings, item)`` for every item, depth first in document order (the plan order);
    ``subItems`` is xBRIEF's deprecated alias of ``items`` and is walked too."""
    for item in items:
        if not isinstance(item, dict):
            continue
        yield items, item
        for children in ("items", "subItems"):
            if isinstance(item.get(children), list):
                yield from _walk(item[children])


def _find(document, *, item_id: str | None = None, title: str | None = None):
    """The item with ``item_id``, or (with no id) the first with exactly ``title``."""
    for siblings, item in _walk(_items(document)):
        if (item.get("id") == item_id) if item_id is not None else (item.get("title") == title):
            return siblings, item
    return None, None


def _require(document, item_id: str) -> tuple[list, dict]:
    siblings, item = _find(document, item_id=item_id)
    if item is None:
        raise RefusedError(f"no plan item has the id {item_id!r}", code="authoring.unknown_item",
                           hint="list the items with `passdown checkpoint show`")
    return siblings, item


def _require_pending(document, item_id: str, why: str) -> tuple[list, dict]:
    siblings, item = _require(document, item_id)
    if item.get("status") != PENDING:
        raise RefusedError(f"{item_id!r} is {item.get('status')!r}, not pending",
                           code="authoring.not_pending", hint=why)
    return siblings, item


def pending_items(document) -> list[dict]:
    """The plan's items still pending, nested ones included, in plan order."""
    return [item for _, item in _walk(_items(document)) if item.get("status") == PENDING]


def _target_list(document, parent: str | None) -> list:
    """The plan's items, or the children of the item ``parent`` (made a group if needed)."""
    if parent is None:
        return _items(document)
    _, item = _require(document, parent)
    children = item.get("items")
    if not isinstance(children, list):
        children = item["items"] = []
    return children


def _new_id(document, title: str, parent: str | None) -> str:
    taken = {item.get("id") for _, item in _walk(_items(document))}
    base = _ID_CHARS.sub("-", title.lower()).strip("-")[:48].strip("-") or "item"
    if parent is not None:
        base = f"{parent}.{base}"
    candidate, n = base, 1
    while candidate in taken:
        n += 1
        candidate = f"{base}-{n}"
    return candidate


def _check_id(item_id: str | None) -> None:
    if item_id is not None and not _ITEM_ID.fullmatch(item_id):
        raise UsageError(f"{item_id!r} is not an xBRIEF item id", code="authoring.bad_value",
                         hint="use letters, digits, `_` and `-`, with `.` between segments")


def _text(value: str, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise UsageError(f"the {what} is empty", code="authoring.bad_value",
                         hint=f"give the {what} as non-blank text")
    return value


def add_completed(document, title: str, *, evidence: tuple[str, ...], item_id: str | None = None,
                  summary: str | None = None, parent: str | None = None) -> Change:
    """Record a completed step with its evidence: complete the item named by ``item_id`` (or
    by its exact title) where it stands, or add a new completed item after the completed
    items of its list. Evidence already recorded is not added twice."""
    _text(title, "title")
    refs = [_text(ref, "evidence reference") for ref in evidence]
    if not refs:
        raise UsageError("a completed step needs at least one evidence reference",
                         code="authoring.no_evidence",
                         hint="pass --evidence with a commit, test run or report link")
    _check_id(item_id)
    _, item = _find(document, item_id=item_id, title=title)
    if item is None:
        siblings = _target_list(document, parent)
        item = {"id": item_id or _new_id(document, title, parent), "title": title,
                "status": COMPLETED, "completed": utc_now()}
        position = 0
        for index, other in enumerate(siblings):
            if isinstance(other, dict) and other.get("status") == COMPLETED:
                position = index + 1
        siblings.insert(position, item)
    elif item.get("status") != COMPLETED:
        was_pending = item.get("status") == PENDING
        item["status"] = COMPLETED
        item["completed"] = utc_now()
        _drop_resume(item)
        if was_pending and not pending_items(document):
            raise _last_step(item.get("id"))
    work = block_of(document).setdefault("completed_work", [])
    record = next((w for w in work if isinstance(w, dict) and w.get("item_id") == item["id"]),
                  None)
    if record is None:
        work.append({"item_id": item["id"], "summary": summary or title, "evidence_refs": refs})
    else:
        known = record.setdefault("evidence_refs", [])
        known.extend(ref for ref in refs if ref not in known)
        if summary:
            record["summary"] = summary
    _sync_next_action(document)
    return Change(f"completed {item['id']!r}", {"item_id": item["id"]},
                  unchanged_message=f"{item['id']!r} is already completed with this evidence")


def _last_step(item_id) -> RefusedError:
    return RefusedError(
        f"completing {item_id!r} would leave no pending step, and a checkpoint names what "
        "remains (CKP-010)", code="authoring.no_pending",
        hint="add the next step first (`passdown checkpoint add-pending \"TITLE\"`), then "
             "complete this one; if the goal is finished it needs no checkpoint: remove "
             f"{PATH.replace(os.sep, '/')}, or run `passdown consume` to keep it as a record")


def add_pending(document, title: str, *, item_id: str | None = None,
                before: str | None = None, parent: str | None = None) -> Change:
    """Add a remaining step at the end of the plan (or of ``parent``'s children), or just
    before the item ``before``. A step with the same id, or the same title when no id is
    given, is not added twice."""
    _text(title, "title")
    _check_id(item_id)
    _, existing = _find(document, item_id=item_id, title=title)
    if existing is not None:
        return Change(unchanged_message=f"{existing.get('id')!r} is already in the plan",
                      result={"item_id": existing.get("id")})
    if before is not None:
        siblings, anchor = _require(document, before)
        position = siblings.index(anchor)
    else:
        siblings = _target_list(document, parent)
        position = len(siblings)
    item = {"id": item_id or _new_id(document, title, parent), "title": title,
            "status": PENDING}
    siblings.insert(position, item)
    _sync_next_action(document)
    return Change(f"added pending {item['id']!r}", {"item_id": item["id"]})


def reorder(document, item_ids: tuple[str, ...]) -> Change:
    """The named pending items (siblings in one list), in the order given, take the places
    of that list's first pending items; the list's other pending items follow in their
    order. The first pending item of the plan is the next action."""
    if not item_ids:
        raise UsageError("name at least one pending item", code="authoring.bad_value",
                         hint="pass the ids in the order they should run")
    if len(set(item_ids)) != len(item_ids):
        raise UsageError("an item id is named twice", code="authoring.bad_value",
                         hint="name each item once")
    why = "only remaining (pending) steps can be reordered"
    lists_and_items = [_require_pending(document, item_id, why) for item_id in item_ids]
    siblings = lists_and_items[0][0]
    if any(other is not siblings for other, _ in lists_and_items):
        raise RefusedError("the items are not in the same list", code="authoring.not_siblings",
                           hint="reorder the children of one item (or the top-level steps) "
                                "at a time")
    chosen = [item for _, item in lists_and_items]
    slots = [index for index, item in enumerate(siblings)
             if isinstance(item, dict) and item.get("status") == PENDING]
    rest = [siblings[index] for index in slots if siblings[index] not in chosen]
    for slot, item in zip(slots, chosen + rest, strict=True):
        siblings[slot] = item
    _sync_next_action(document)
    return Change("reordered the pending steps",
                  {"order": [item.get("id") for item in chosen + rest]},
                  unchanged_message="the pending steps are already in this order")


def set_resume(document, text: str, *, item_id: str | None = None,
               required_inputs: tuple[str, ...] | None = None) -> Change:
    """Set the resume point: the ``ResumePoint`` narrative on the next pending item, which is
    also the next action (``item_id`` first moves that item ahead of its pending siblings;
    it must then be the plan's first pending item)."""
    _text(text, "resume point")
    if item_id is not None:
        _require_pending(document, item_id, "the resume point belongs on a remaining step")
        reorder(document, (item_id,))
    pending = pending_items(document)
    if not pending:
        raise RefusedError("no pending step to resume from", code="authoring.no_pending",
                           hint="add one with `passdown checkpoint add-pending` first")
    item = pending[0]
    if item_id is not None and item.get("id") != item_id:
        raise RefusedError(f"{item.get('id')!r} comes before {item_id!r} in the plan",
                           code="authoring.not_next",
                           hint="complete or reorder the earlier pending steps first")
    item.setdefault("narrative", {})[RESUME] = text
    block = block_of(document)
    action = block.get("next_action")
    if required_inputs is not None:
        inputs = [_text(ref, "required input") for ref in required_inputs]
    elif isinstance(action, dict) and action.get("item_id") == item.get("id"):
        inputs = action.get("required_inputs", [])
    else:
        inputs = []
    block["next_action"] = {"item_id": item.get("id"), "summary": text, "required_inputs": inputs}
    return Change(f"resume point set on {item.get('id')!r}", {"item_id": item.get("id")},
                  unchanged_message="the resume point is already this")


def _sync_next_action(document) -> None:
    """Keep the invariant: the next action names the plan's first pending item, which
    carries a ``ResumePoint`` narrative. A next action that still names that item is kept
    as written; otherwise it is rebuilt from the item's resume point (or its title)."""
    pending = pending_items(document)
    if not pending:
        return  # nothing remains: the last next action stays as the record of the last step
    first = pending[0]
    block = block_of(document)
    action = block.get("next_action")
    narrative = first.get("narrative") if isinstance(first.get("narrative"), dict) else None
    if not (isinstance(action, dict) and action.get("item_id") == first.get("id")):
        summary = (narrative or {}).get(RESUME) or first.get("title")
        block["next_action"] = {"item_id": first.get("id"), "summary": summary,
                                "required_inputs": []}
    if narrative is None:
        first["narrative"] = narrative = {}
    narrative.setdefault(RESUME, block["next_action"].get("summary"))


def adopt_plan(document) -> list[str]:
    """Point a newly added block's next action at the plan's first pending item; returns
    what that added to the plan (a ``ResumePoint`` where the item had none)."""
    pending = pending_items(document)
    if not pending:
        raise RefusedError("the plan has no pending step to resume from",
                           code="authoring.no_pending",
                           hint="a continue checkpoint names the next step: add a pending item")
    first = pending[0]
    had_resume = RESUME in (first.get("narrative") or {})
    _sync_next_action(document)
    return [] if had_resume else [f"ResumePoint added to the next pending item {first.get('id')!r}"]


def _drop_resume(item: dict) -> None:
    narrative = item.get("narrative")
    if isinstance(narrative, dict) and RESUME in narrative:
        del narrative[RESUME]
        if not narrative:
            del item["narrative"]


# -- narratives and records ----------------------------------------------------------------

def _append_line(document, name: str, text: str) -> bool:
    plan = document.get("plan")
    narratives = plan.setdefault("narratives", {})
    line = f"- {' '.join(text.split())}"
    current = narratives.get(name, "")
    if line in current.splitlines():
        return False
    if current == PLACEHOLDERS.get(name) or current.startswith(MIGRATION_PLACEHOLDER):
        current = ""
    narratives[name] = f"{current}\n{line}" if current else line
    return True


def decision(document, text: str) -> Change:
    """Append a decision to the plan's ``Decisions`` narrative (one ``- `` line each)."""
    _append_line(document, DECISIONS, _text(text, "decision"))
    return Change("decision recorded", unchanged_message="this decision is already recorded")


def hazard(document, text: str) -> Change:
    """Append a hazard to the plan's ``Hazards`` narrative (one ``- `` line each)."""
    _append_line(document, HAZARDS, _text(text, "hazard"))
    return Change("hazard recorded", unchanged_message="this hazard is already recorded")


def _record(document, field: str, item_id: str | None, **values) -> dict | None:
    """The block's ``field`` entry with ``values`` on ``item_id``, if recorded already."""
    if item_id is not None:
        _require(document, item_id)
    records = block_of(document).setdefault(field, [])
    wanted = {"item_id": item_id, **values}
    return next((r for r in records if isinstance(r, dict)
                 and all(r.get(k) == v for k, v in wanted.items())), None)


def _append_record(document, field: str, item_id: str | None, entry: dict) -> None:
    block_of(document)[field].append(entry if item_id is None else {"item_id": item_id, **entry})


def blocker(document, summary: str, *, item_id: str | None = None,
            resolve: bool = False) -> Change:
    """Record an open blocker (optionally on an item), or remove it with ``resolve``."""
    _text(summary, "blocker")
    if resolve:
        return _resolve_blocker(document, summary, item_id)
    existing = _record(document, "blockers", item_id, summary=summary)
    if existing is None:
        _append_record(document, "blockers", item_id, {"summary": summary, "since": utc_now()})
    return Change("blocker recorded", unchanged_message="this blocker is already recorded")


def _resolve_blocker(document, summary: str, item_id: str | None) -> Change:
    """Remove the open blocker that reads ``summary`` (on ``item_id``, when given); one that
    is not there is refused, so a misspelt summary never passes for a resolved blocker."""
    blockers = block_of(document).setdefault("blockers", [])
    found = next((entry for entry in blockers if isinstance(entry, dict)
                  and entry.get("summary") == summary
                  and (item_id is None or entry.get("item_id") == item_id)), None)
    if found is None:
        open_ones = [entry.get("summary") for entry in blockers
                     if isinstance(entry, dict) and isinstance(entry.get("summary"), str)]
        on_item = f" on {item_id!r}" if item_id is not None else ""
        listed = ("the open blockers: " + "; ".join(repr(text) for text in open_ones)
                  if open_ones else "there is no open blocker")
        raise RefusedError(f"no open blocker{on_item} reads {summary!r}",
                           code="authoring.unknown_blocker",
                           hint=f"give the blocker's summary exactly as recorded ({listed})")
    blockers.remove(found)
    return Change("blocker resolved")


def failed_attempt(document, summary: str, *, reason: str, item_id: str | None = None) -> Change:
    """Record an approach that failed and why, so the next session does not repeat it."""
    _text(summary, "attempt summary")
    _text(reason, "reason")
    if _record(document, "failed_attempts", item_id, summary=summary, reason=reason) is None:
        _append_record(document, "failed_attempts", item_id,
                       {"summary": summary, "reason": reason, "at": utc_now()})
    return Change("failed attempt recorded",
                  unchanged_message="this failed attempt is already recorded")


def set_field(document, name: str, value) -> Change:
    """Set one identity field of the block (``value`` already converted by the caller with
    :func:`convert`), or a record field given as parsed JSON."""
    block = block_of(document)
    if name == "title":
        document["plan"]["title"] = _text(value, "title")
    elif name in IDENTITY_FIELDS or name in RECORD_FIELDS:
        block[name] = value
        if name == "next_action":
            _sync_next_action(document)
    else:
        raise UsageError(f"{name!r} is not a field `checkpoint set` can change",
                         code="authoring.unknown_field",
                         hint="settable: title, " + ", ".join((*IDENTITY_FIELDS, *RECORD_FIELDS)))
    return Change(f"{name} set", {"field": name, "value": value},
                  unchanged_message=f"{name} already has this value")


def convert(name: str, values: tuple[str, ...], *, null: bool = False):
    """Command-line strings to the field's value (an ``int`` for ``epoch``, a list for
    ``constraints``, ``None`` with ``null`` where the field allows it)."""
    kind, nullable = IDENTITY_FIELDS.get(name, ("text", False))
    if null:
        if not nullable:
            raise UsageError(f"{name} cannot be null", code="authoring.bad_value",
                             hint=f"give {name} a value")
        return None
    if kind == "list":
        return [_text(v, name) for v in values]
    if len(values) != 1:
        raise UsageError(f"{name} takes exactly one value", code="authoring.bad_value",
                         hint="quote a value that contains spaces")
    value = values[0]
    if kind == "int":
        if not re.fullmatch(r"0|[1-9][0-9]{0,17}", value):
            raise UsageError(f"{name} must be a non-negative integer, not {value!r}",
                             code="authoring.bad_value", hint=f"for example: {name} 3")
        return int(value)
    return _text(value, name)


def check_epoch(document, epoch: int | None) -> None:
    """Fencing: a writer that names an epoch older than the checkpoint's must not write."""
    if epoch is None:
        return
    current = block_of(document).get("epoch")
    if type(current) is int and epoch < current:
        raise RefusedError(f"the writer's epoch {epoch} is older than the checkpoint's {current}",
                           code="authoring.stale_epoch",
                           hint="a newer session owns this work: stop writing, re-read the "
                                "registry and the checkpoint")


def check_open(document) -> None:
    """A consumed checkpoint belongs to the session that resumed from it."""
    consumed = block_of(document).get("consumed_at")
    if consumed is not None:
        raise RefusedError(f"the checkpoint was consumed at {consumed}",
                           code="authoring.consumed",
                           hint="the resuming session owns the work now; it reopens the "
                                "checkpoint with `passdown checkpoint reopen` before writing")


def consume(document) -> Change:
    """Mark the checkpoint consumed on resume: plan status ``completed`` and ``consumed_at``."""
    block = block_of(document)
    if block.get("consumed_at") is not None:
        return Change(unchanged_message=f"already consumed at {block['consumed_at']}",
                      result={"consumed_at": block["consumed_at"]})
    now = utc_now()
    document["plan"]["status"] = "completed"
    block["consumed_at"] = now
    return Change("checkpoint consumed", {"consumed_at": now})


def reopen(document, *, incarnation_id: str | None = None) -> Change:
    """Take a consumed checkpoint back into use (the resumed session's next writes)."""
    block = block_of(document)
    if incarnation_id is not None:
        block["incarnation_id"] = incarnation_id
    document["plan"]["status"] = ACTIVE_STATUS
    block["consumed_at"] = None
    return Change("checkpoint reopened", unchanged_message="the checkpoint is already open")


def stamp(document) -> None:
    """Record the moment of a write (called only when something changed)."""
    now = utc_now()
    block_of(document)["written_at"] = now
    info = document.get("xBRIEFInfo")
    if isinstance(info, dict):
        info["updated"] = now


# -- the file ------------------------------------------------------------------------------

#: Subcommand name -> change function; ``consume`` and ``reopen`` are the two that work on
#: a consumed checkpoint.
OPERATIONS = {
    "add-completed": add_completed,
    "add-pending": add_pending,
    "reorder": reorder,
    "set-resume": set_resume,
    "decision": decision,
    "hazard": hazard,
    "blocker": blocker,
    "failed-attempt": failed_attempt,
    "set": set_field,
    "consume": consume,
    "reopen": reopen,
}


def apply(path, operation: str, *args, expect_revision: int | None = None,
          epoch: int | None = None, validate: bool = True,
          timeout: float = _store.LOCK_TIMEOUT, **kwargs):
    """Run one ``OPERATIONS`` change on the checkpoint file at ``path`` as a compare-and-swap
    step (see :func:`passdown.authoring._store.update`). ``epoch`` is the writer's fencing
    epoch: older than the checkpoint's is ``authoring.stale_epoch``."""
    change_function = OPERATIONS[operation]
    warnings: list[dict] = []
    _fence.guard_checkpoint(path)

    def change(document):
        check_epoch(document, epoch)
        if operation not in ("consume", "reopen"):
            check_open(document)
        done = change_function(document, *args, **kwargs)
        warnings.extend(unknown_members(document))
        return done

    command = operation if operation == "consume" else f"checkpoint {operation}"
    outcome = _store.update(path, _store.CHECKPOINT, change, command=command,
                            expect_revision=expect_revision, finish=stamp, validate=validate,
                            timeout=timeout)
    if not warnings:
        return outcome
    return replace(outcome, result={**outcome.result, "warnings": warnings})


def unknown_members(document) -> list[dict]:
    """The ``member.unknown`` warnings of ``document`` (GEN-024), as the JSON result lists
    them (``code``, ``path``, ``message``, ``hint``): a command writes the document with
    them, as it must (AUT-006), and says so instead of carrying a misspelt member on
    silently."""
    from passdown._findings import json_path
    from passdown.rules import members

    return [{"code": members.CODE, "path": json_path(hit.path), "message": hit.message,
             "hint": hit.hint} for hit in members.hits("checkpoint", document)]


def show(path) -> _store.Outcome:
    """Read the checkpoint at ``path`` without changing it: its summary as the message, the
    whole document as the result (``passdown checkpoint show``)."""
    document = _store.read(path, _store.CHECKPOINT)
    plain = _store.is_plain(document)  # a plain checkpoint has no revision to show
    revision = None if plain else _store.revision_of(document, _store.CHECKPOINT, path)
    with _store.shape_guard(_store.CHECKPOINT, os.fspath(path)):
        message = "\n".join(filter(None, (summary(document, revision), details(document))))
    return _store.Outcome(command="checkpoint show", path=os.fspath(path), changed=False,
                          message=message, revision=revision, previous_revision=revision,
                          result={"document": document,
                                  **({"warnings": found} if (found := unknown_members(document))
                                     else {})})


def summary(document, revision: int | None = None) -> str:
    """A few lines for people: the plan (with its revision, when given), its steps, the next
    action, open blockers. A plain checkpoint (no block) shows its plan and the next pending
    item's resume point."""
    block = block_or_none(document)
    plain = block is None
    block = block or {}
    plan = document.get("plan") or {}
    lines = [f"{plan.get('title')} [{plan.get('status')}] "
             + ("a plain xBRIEF continue checkpoint" if plain else f"goal {block.get('goal_id')}")
             + (f", revision {revision}" if revision is not None else "")
             + (f", consumed at {block['consumed_at']}" if block.get("consumed_at") else "")]
    for _, item in _walk(_items(document)):
        lines.append(f"  [{item.get('status')}] {item.get('id')}: {item.get('title')}")
    action = block.get("next_action")
    if plain and pending_items(document):
        first = pending_items(document)[0]
        narrative = first.get("narrative") if isinstance(first.get("narrative"), dict) else {}
        action = {"item_id": first.get("id"), "summary": narrative.get(RESUME, first.get("title"))}
    if isinstance(action, dict):
        lines.append(f"next: {action.get('item_id')}: {action.get('summary')}")
    for entry in block.get("blockers") or ():
        if isinstance(entry, dict):
            lines.append(f"blocker: {entry.get('summary')}")
    return "\n".join(lines)


def details(document) -> str:
    """What ``passdown checkpoint show`` prints after the :func:`summary`: the next action's
    inputs, the decisions and hazards, and the failed attempts (each recorded so that the
    next session neither re-debates nor repeats it)."""
    block = block_or_none(document) or {}
    plan = document.get("plan") or {}
    lines = []
    action = block.get("next_action")
    inputs = action.get("required_inputs") if isinstance(action, dict) else None
    if isinstance(inputs, list) and inputs:
        lines.append("inputs: " + "; ".join(str(value) for value in inputs))
    narratives = plan.get("narratives") if isinstance(plan.get("narratives"), dict) else {}
    for name, label in ((DECISIONS, "decisions"), (HAZARDS, "hazards")):
        text = narratives.get(name)
        if isinstance(text, str) and text.strip():
            lines.append(f"{label}:")
            lines.extend(f"  {line}" for line in text.strip().splitlines())
    for entry in block.get("failed_attempts") or ():
        if isinstance(entry, dict):
            on = f" (on {entry['item_id']})" if entry.get("item_id") else ""
            lines.append(f"failed attempt{on}: {entry.get('summary')}: {entry.get('reason')}")
    return "\n".join(lines)
