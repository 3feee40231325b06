"""The continue checkpoint's changes: one function per ``baton checkpoint`` subcommand, each
mutating the parsed document in place and returning a :class:`~._store.Change`.

The functions keep the checkpoint's invariants, so no caller has to: completed items come
before pending ones, the next action is always the first pending item and its text is that
item's ``ResumePoint`` narrative (the only one in the plan), and every change that adds a
record is idempotent (the same record again changes nothing).
"""

from __future__ import annotations

import re

from baton._errors import RefusedError, UsageError
from baton.authoring._store import Change, utc_now

BLOCK = "x-baton/checkpoint"
RESUME = "ResumePoint"
DECISIONS = "Decisions"
HAZARDS = "Hazards"
COMPLETED = "completed"
PENDING = "pending"
#: The plan status of a checkpoint in use, and of one a resuming session consumed.
ACTIVE_STATUS = "running"

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


def block_of(document) -> dict:
    block = document.get(BLOCK)
    if not isinstance(block, dict):
        raise RefusedError(f"the checkpoint has no {BLOCK!r} block",
                           code="authoring.no_revision",
                           hint="run `baton migrate` for a legacy checkpoint, or `baton init`")
    return block


def new_document(*, title: str, goal_id: str, stack_session_id: str, incarnation_id: str,
                 role: str, mission: str, outcome: str, task: str, first_step: str,
                 config_version: str | None = None, prd_pin: str | None = None,
                 constraints: tuple[str, ...] = (), timezone: str | None = None,
                 now: str | None = None) -> dict:
    """A fresh checkpoint at revision 1 with one pending step, which is the next action."""
    now = now or utc_now()
    info = {"version": "0.8", "created": now, "updated": now}
    if timezone:
        info["timezone"] = timezone
    document = {
        "xBRIEFInfo": info,
        "plan": {"title": title, "status": ACTIVE_STATUS, "items": []},
        BLOCK: new_block(goal_id=goal_id, stack_session_id=stack_session_id,
                         incarnation_id=incarnation_id, role=role, mission=mission,
                         outcome=outcome, task=task, config_version=config_version,
                         prd_pin=prd_pin, constraints=constraints, now=now),
    }
    add_pending(document, first_step)
    return document


def new_block(*, goal_id, stack_session_id, incarnation_id, role, mission, outcome, task,
              config_version=None, prd_pin=None, constraints=(), epoch=0, now=None) -> dict:
    """The ``x-baton/checkpoint`` block in its schema order; ``next_action`` is filled in by
    the first pending item."""
    return {
        "baton_version": "1.0",
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
                           hint="run `baton validate` on the checkpoint to see what is wrong")
    return items


def _find(document, *, item_id: str | None = None, title: str | None = None):
    for item in _items(document):
        if not isinstance(item, dict):
            continue
        if item_id is not None and item.get("id") == item_id:
            return item
        if item_id is None and title is not None and item.get("title") == title:
            return item
    return None


def _require(document, item_id: str) -> dict:
    item = _find(document, item_id=item_id)
    if item is None:
        raise RefusedError(f"no plan item has the id {item_id!r}", code="authoring.unknown_item",
                           hint="list the items with `baton checkpoint show`")
    return item


def _pending(document) -> list[dict]:
    return [i for i in _items(document) if isinstance(i, dict) and i.get("status") == PENDING]


def _new_id(document, title: str) -> str:
    taken = {i.get("id") for i in _items(document) if isinstance(i, dict)}
    base = _ID_CHARS.sub("-", title.lower()).strip("-")[:48].strip("-") or "item"
    candidate, n = base, 1
    while candidate in taken:
        n += 1
        candidate = f"{base}-{n}"
    return candidate


def _check_id(item_id: str) -> None:
    if not re.fullmatch(r"[a-zA-Z0-9_-]+(\.[a-zA-Z0-9_-]+)*", item_id):
        raise UsageError(f"{item_id!r} is not an xBRIEF item id",
                         code="authoring.bad_value",
                         hint="use letters, digits, `_` and `-`, with `.` between segments")


def _text(value: str, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise UsageError(f"the {what} is empty", code="authoring.bad_value",
                         hint=f"give the {what} as non-blank text")
    return value


def _insert_completed(items: list, item: dict) -> None:
    """Completed items come first, in the order they were completed."""
    position = 0
    for index, other in enumerate(items):
        if isinstance(other, dict) and other.get("status") == COMPLETED:
            position = index + 1
    items.insert(position, item)


def add_completed(document, title: str, *, evidence: tuple[str, ...], item_id: str | None = None,
                  summary: str | None = None) -> Change:
    """Record a completed step with its evidence: complete the pending item named by
    ``item_id`` (or by its exact title), or add a new completed item. Evidence is merged."""
    _text(title, "title")
    refs = [_text(ref, "evidence reference") for ref in evidence]
    if not refs:
        raise UsageError("a completed step needs at least one evidence reference",
                         code="authoring.no_evidence",
                         hint="pass --evidence with a commit, test run or report link")
    if item_id is not None:
        _check_id(item_id)
    now = utc_now()
    item = _find(document, item_id=item_id, title=title)
    items = _items(document)
    if item is None:
        item = {"id": item_id or _new_id(document, title), "title": title,
                "status": COMPLETED, "completed": now}
        _insert_completed(items, item)
    elif item.get("status") != COMPLETED:
        items.remove(item)
        item["status"] = COMPLETED
        item["completed"] = now
        _drop_resume(item)
        _insert_completed(items, item)
    block = block_of(document)
    work = block.setdefault("completed_work", [])
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


def add_pending(document, title: str, *, item_id: str | None = None,
                before: str | None = None) -> Change:
    """Add a remaining step at the end (or before the pending item ``before``). A step with
    the same id, or the same title when no id is given, is not added twice."""
    _text(title, "title")
    if item_id is not None:
        _check_id(item_id)
    existing = _find(document, item_id=item_id, title=title)
    if existing is not None:
        return Change(unchanged_message=f"{existing.get('id')!r} is already in the plan",
                      result={"item_id": existing.get("id")})
    item = {"id": item_id or _new_id(document, title), "title": title, "status": PENDING}
    items = _items(document)
    if before is None:
        items.append(item)
    else:
        anchor = _require(document, before)
        items.insert(items.index(anchor), item)
    _sync_next_action(document)
    return Change(f"added pending {item['id']!r}", {"item_id": item["id"]})


def reorder(document, item_ids: tuple[str, ...]) -> Change:
    """The named pending items, in the order given, become the first pending items; the
    others keep their order after them. The first one becomes the next action."""
    if not item_ids:
        raise UsageError("name at least one pending item", code="authoring.bad_value",
                         hint="pass the ids in the order they should run")
    if len(set(item_ids)) != len(item_ids):
        raise UsageError("an item id is named twice", code="authoring.bad_value",
                         hint="name each item once")
    chosen = []
    for item_id in item_ids:
        item = _require(document, item_id)
        if item.get("status") != PENDING:
            raise RefusedError(f"{item_id!r} is {item.get('status')!r}, not pending",
                               code="authoring.not_pending",
                               hint="only remaining (pending) steps can be reordered")
        chosen.append(item)
    items = _items(document)
    slots = [index for index, item in enumerate(items)
             if isinstance(item, dict) and item.get("status") == PENDING]
    rest = [item for item in _pending(document) if item not in chosen]
    for slot, item in zip(slots, chosen + rest, strict=True):
        items[slot] = item
    _sync_next_action(document)
    return Change("reordered the pending steps", {"order": [i.get("id") for i in chosen + rest]},
                  unchanged_message="the pending steps are already in this order")


def set_resume(document, text: str, *, item_id: str | None = None,
               required_inputs: tuple[str, ...] | None = None) -> Change:
    """Set the resume point: the narrative on the next pending item (``item_id`` moves that
    item to the front of the pending steps). It is also the next action's summary."""
    _text(text, "resume point")
    pending = _pending(document)
    if item_id is not None:
        item = _require(document, item_id)
        if item.get("status") != PENDING:
            raise RefusedError(f"{item_id!r} is {item.get('status')!r}, not pending",
                               code="authoring.not_pending",
                               hint="the resume point belongs on a remaining (pending) step")
        if pending and pending[0] is not item:
            reorder(document, (item_id,))
    elif not pending:
        raise RefusedError("no pending step to resume from", code="authoring.no_pending",
                           hint="add one with `baton checkpoint add-pending` first")
    else:
        item = pending[0]
    narrative = item.setdefault("narrative", {})
    narrative[RESUME] = text
    action = block_of(document).get("next_action")
    if required_inputs is not None:
        inputs = [_text(ref, "required input") for ref in required_inputs]
    elif isinstance(action, dict) and action.get("item_id") == item.get("id"):
        inputs = action.get("required_inputs", [])
    else:
        inputs = []
    block_of(document)["next_action"] = {"item_id": item.get("id"), "summary": text,
                                         "required_inputs": inputs}
    _sync_next_action(document)
    return Change(f"resume point set on {item.get('id')!r}", {"item_id": item.get("id")},
                  unchanged_message="the resume point is already this")


def _sync_next_action(document) -> None:
    """Keep the invariant: the next action is the first pending item, and only that item
    carries a ``ResumePoint`` narrative, equal to the next action's summary."""
    block = block_of(document)
    pending = _pending(document)
    action = block.get("next_action")
    first = pending[0] if pending else None
    for item in _items(document):
        if item is not first and isinstance(item, dict):
            _drop_resume(item)
    if first is None:
        return  # nothing remains: the last next action stays as the record of the last step
    if not (isinstance(action, dict) and action.get("item_id") == first.get("id")):
        narrative = first.get("narrative") if isinstance(first.get("narrative"), dict) else {}
        summary = narrative.get(RESUME) or first.get("title")
        action = {"item_id": first.get("id"), "summary": summary, "required_inputs": []}
        block["next_action"] = action
    first.setdefault("narrative", {})[RESUME] = action.get("summary")


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


def blocker(document, summary: str, *, item_id: str | None = None,
            resolve: bool = False) -> Change:
    """Record an open blocker (optionally on an item), or remove it with ``resolve``."""
    _text(summary, "blocker")
    if item_id is not None:
        _require(document, item_id)
    blockers = block_of(document).setdefault("blockers", [])
    same = [b for b in blockers if isinstance(b, dict) and b.get("summary") == summary
            and b.get("item_id") == item_id]
    if resolve:
        for entry in same:
            blockers.remove(entry)
        return Change("blocker resolved", unchanged_message="no such open blocker")
    if not same:
        entry = {"summary": summary, "since": utc_now()}
        if item_id is not None:
            entry = {"item_id": item_id, **entry}
        blockers.append(entry)
    return Change("blocker recorded", unchanged_message="this blocker is already recorded")


def failed_attempt(document, summary: str, *, reason: str, item_id: str | None = None) -> Change:
    """Record an approach that failed and why, so the next session does not repeat it."""
    _text(summary, "attempt summary")
    _text(reason, "reason")
    if item_id is not None:
        _require(document, item_id)
    attempts = block_of(document).setdefault("failed_attempts", [])
    if not any(isinstance(a, dict) and (a.get("summary"), a.get("reason"), a.get("item_id"))
               == (summary, reason, item_id) for a in attempts):
        entry = {"summary": summary, "reason": reason, "at": utc_now()}
        if item_id is not None:
            entry = {"item_id": item_id, **entry}
        attempts.append(entry)
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
                                "checkpoint with `baton checkpoint reopen` before writing")


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
