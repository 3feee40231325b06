"""Semantic rules of the continue checkpoint (spec/checkpoint.md): the Continue-Here
conventions (completed and pending items, `Decisions`, `Hazards`, the resume point), the xBRIEF
rules JSON Schema cannot state (unique ids, edges forming a DAG, `auto` only on containers
with children), the Passdown block (its next action, its evidence, consumed or not),
the file name, the legacy forms (xBRIEF 0.4 to 0.7, vBRIEF), timestamps, secrets and the spec
version.

Other tools' extension blocks (``x-<token>/...``) are never entered: xBRIEF forbids
validating their values. Timestamps are read only where xBRIEF or the Passdown block defines
one, so a member of another tool that happens to be called ``created`` is never judged.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator

from passdown.formats import _legacy_forms
from passdown.formats._detect import HEADER, LEGACY_HEADER, LEGACY_VERSIONS, legacy_version
from passdown._findings import WARNING
from passdown.rules import Artifact, Hit, rule
from passdown.rules._shared import (
    blank,
    canonical_hits,
    is_foreign_extension,
    quoted,
    register_timestamp_rule,
    register_version_rules,
    repeated,
    secret_hits,
)

KIND = "checkpoint"
BLOCK = "x-passdown/checkpoint"
FILE_NAME = "continue.xbrief.json"
LEGACY_FILE_NAME = "continue.vbrief.json"
CONTAINER_TYPES = ("group", "milestone", "epic")
CHILD_LISTS = ("items", "subItems")
#: The roots of a 0.4 document that hold its items when it has no ``plan``.
LEGACY_ROOTS = ("todoList", "playbook")
#: Where xBRIEF 0.8 and the Passdown block define timestamps: member names per object.
INFO_TIMESTAMPS = PLAN_TIMESTAMPS = ("created", "updated")
ITEM_TIMESTAMPS = ("created", "updated", "completed", "dueDate", "startDate", "endDate")
BLOCK_TIMESTAMPS = ("written_at", "consumed_at")
#: Timestamps one level down: ``(member, its timestamp members, whether it is a list)``.
PLAN_NESTED_TIMESTAMPS = (("changeLog", ("timestamp",), True), ("fork", ("forkedAt",), False))
ITEM_NESTED_TIMESTAMPS = (("recurrence", ("until",), False),
                          ("lockedBy", ("acquiredAt", "expiresAt"), False))
BLOCK_NESTED_TIMESTAMPS = (("blockers", ("since",), True), ("failed_attempts", ("at",), True),
                           ("leases", ("expires_at",), True))

# A per-session checkpoint name: `continue-<anything>.json` (and the like with `_` or `.`).
_NOT_SINGULAR = re.compile(r"continue[-_.].+\.json\Z", re.I)


# -- reading the document ------------------------------------------------------------------

def _root(data) -> str:
    """The member that holds the plan: ``plan``, or in a legacy (0.4) document without one
    its ``todoList`` or ``playbook``."""
    if (isinstance(data, dict) and not isinstance(data.get("plan"), dict)
            and legacy_version(data) is not None):
        return next((name for name in LEGACY_ROOTS if isinstance(data.get(name), dict)), "plan")
    return "plan"


def _plan(data) -> dict:
    plan = data.get(_root(data)) if isinstance(data, dict) else None
    return plan if isinstance(plan, dict) else {}


def block(data) -> dict | None:
    """The ``x-passdown/checkpoint`` block, or None when it is missing or not an object."""
    found = data.get(BLOCK) if isinstance(data, dict) else None
    return found if isinstance(found, dict) else None


def iter_items(data) -> Iterator[tuple[tuple, dict]]:
    """Every plan item at any depth (``items`` and the deprecated ``subItems``), with its path,
    in document order (depth first, parents before children)."""
    stack: list[tuple[tuple, dict]] = []

    def push(path: tuple, items) -> None:
        if isinstance(items, list):
            stack.extend((path + (index,), item) for index, item in reversed(list(enumerate(items)))
                         if isinstance(item, dict))

    push((_root(data), "items"), _plan(data).get("items"))
    while stack:
        path, item = stack.pop()
        yield path, item
        for name in reversed(CHILD_LISTS):
            push(path + (name,), item.get(name))


def _has_children(item: dict) -> bool:
    """Whether a container has children to roll its status up from: nested items, or the
    plans its ``planRefs`` (or its one ``planRef``, their shorthand) name, which xBRIEF 0.8
    counts as children once resolved; Passdown never resolves them, so naming one is enough."""
    if any(isinstance(child, dict) for name in CHILD_LISTS if isinstance(item.get(name), list)
           for child in item[name]):
        return True
    refs = item.get("planRefs")
    return bool(isinstance(refs, list) and refs) or isinstance(item.get("planRef"), str)


def _by_id(items) -> dict[str, tuple[tuple, dict]]:
    """``(path, item)`` of the first item holding each (string) id."""
    found: dict[str, tuple[tuple, dict]] = {}
    for path, item in items:
        item_id = item.get("id")
        if isinstance(item_id, str):
            found.setdefault(item_id, (path, item))
    return found


def items_of(artifact: Artifact) -> tuple[tuple[tuple, dict], ...]:
    """:func:`iter_items` of the artifact, walked once for all its rules."""
    return artifact.derived("items", lambda a: tuple(iter_items(a.data)))


def _items_by_id(artifact: Artifact) -> dict[str, tuple[tuple, dict]]:
    return artifact.derived("items_by_id", lambda a: _by_id(items_of(a)))


def next_pending(data) -> tuple[tuple, dict] | None:
    """The next pending item: the one ``next_action.item_id`` names when it is pending, else
    the first pending item in document order."""
    items = tuple(iter_items(data))
    return _next_pending(data, items, _by_id(items))


def _next_pending(data, items, by_id) -> tuple[tuple, dict] | None:
    own = block(data)
    action = own.get("next_action") if own else None
    wanted = action.get("item_id") if isinstance(action, dict) else None
    if isinstance(wanted, str):
        found = by_id.get(wanted)
        if found and found[1].get("status") == "pending":
            return found
    return next(((p, i) for p, i in items if i.get("status") == "pending"), None)


# -- rules -----------------------------------------------------------------------------------

def _version(artifact: Artifact):
    own = block(artifact.data)
    return ((BLOCK, "passdown_version"), own["passdown_version"]) if own and "passdown_version" in own else None


register_version_rules(KIND, _version)

def _timestamp_places(artifact: Artifact) -> Iterator[tuple[tuple, object]]:
    """``(path, value)`` of every member xBRIEF 0.8 or the Passdown block defines as a
    timestamp; nothing else is read (CKP-005)."""
    data = artifact.data
    if not isinstance(data, dict):
        return
    root = _root(data)
    yield from _members_at((_header(data),), data.get(_header(data)), INFO_TIMESTAMPS)
    yield from _members_at((root,), _plan(data), PLAN_TIMESTAMPS)
    yield from _nested_at((root,), _plan(data), PLAN_NESTED_TIMESTAMPS)
    for path, item in items_of(artifact):
        yield from _members_at(path, item, ITEM_TIMESTAMPS)
        yield from _nested_at(path, item, ITEM_NESTED_TIMESTAMPS)
    yield from _members_at((BLOCK,), block(data), BLOCK_TIMESTAMPS)
    yield from _nested_at((BLOCK,), block(data), BLOCK_NESTED_TIMESTAMPS)


def _header(data) -> str:
    """The document's header member: ``xBRIEFInfo``, or ``vBRIEFInfo`` in a vBRIEF file."""
    return LEGACY_HEADER if isinstance(data, dict) and LEGACY_HEADER in data else HEADER


def _members_at(path: tuple, node, names) -> Iterator[tuple[tuple, object]]:
    if isinstance(node, dict):
        for name in names:
            if name in node:
                yield path + (name,), node[name]


def _nested_at(path: tuple, node, table) -> Iterator[tuple[tuple, object]]:
    if not isinstance(node, dict):
        return
    for member, names, is_list in table:
        value = node.get(member)
        if is_list and isinstance(value, list):
            for index, entry in enumerate(value):
                yield from _members_at(path + (member, index), entry, names)
        elif not is_list:
            yield from _members_at(path + (member,), value, names)


register_timestamp_rule(KIND, places=_timestamp_places)


@rule(KIND, "checkpoint.file_name", requirement="CKP-002",
      summary="the checkpoint file is singular: `continue.xbrief.json`",
      hint="keep one checkpoint per goal at xbrief/continue.xbrief.json and overwrite it; "
           "fold the newest per-session file into it and delete the rest")
def _file_name(artifact: Artifact):
    name = _base_name(artifact.file)
    if name and name.lower() not in (FILE_NAME, LEGACY_FILE_NAME) and _NOT_SINGULAR.match(name):
        yield Hit((), f"{name} is a per-session checkpoint name; the checkpoint is one file, "
                      f"{FILE_NAME}")


#: Members that make a document an xBRIEF one (or a legacy one) at all.
_XBRIEF_ROOTS = (HEADER, LEGACY_HEADER, "plan", BLOCK, *LEGACY_ROOTS)


@rule(KIND, "checkpoint.not_xbrief", requirement="CKP-030", exclusive=True,
      summary="a file with the checkpoint's name is an xBRIEF document",
      hint="this file is not xBRIEF, so neither a resuming session nor `passdown migrate` can "
           "read it: write the checkpoint anew as xBRIEF 0.8 at xbrief/continue.xbrief.json "
           "(`passdown init --next STEP` starts one), carrying this file's content over by "
           "hand (done steps as completed items, what is left as pending items, the decisions "
           "as the Decisions narrative), then remove this file")
def _not_xbrief(artifact: Artifact):
    data = artifact.data
    if not isinstance(data, dict) or any(member in data for member in _XBRIEF_ROOTS):
        return
    declared = data.get("schema") if isinstance(data.get("schema"), str) else None
    said = f" (it says it is {quoted(declared)})" if declared else ""
    shown = ", ".join(quoted(key) for key in list(data)[:5]) + (", ..." if len(data) > 5 else "")
    yield Hit((), f"{_base_name(artifact.file) or 'this file'} is not an xBRIEF document{said}: "
                  f"it has no xBRIEFInfo or vBRIEFInfo header and no plan, only {shown or 'nothing'}")


@rule(KIND, "checkpoint.legacy_vbrief", requirement="CKP-003", severity=WARNING,
      summary="a legacy checkpoint (xBRIEF 0.4 to 0.7, vBRIEF) is read, with a warning",
      hint="run `passdown migrate` to rewrite it as xbrief/continue.xbrief.json (xBRIEF 0.8)")
def _legacy(artifact: Artifact):
    name = _base_name(artifact.file) or ""
    version = legacy_version(artifact.data)
    if version is not None:
        header = _header(artifact.data)
        form = "vBRIEF" if header == LEGACY_HEADER else "xBRIEF"
        root = _root(artifact.data)
        shape = f" with a `{root}` root" if root != "plan" else ""
        migrated = _migrated_form(artifact.file)
        if migrated is None:
            yield Hit((header,), f"this is a legacy {form} {version} checkpoint{shape}, read until it "
                                 "is migrated to xBRIEF 0.8")
        else:
            yield Hit((header,), f"this is a legacy {form} {version} checkpoint{shape}, already "
                                 f"migrated to {migrated}",
                      hint=f"the commands read {migrated}: remove this legacy file once nothing "
                           "else reads it")
    elif artifact.legacy or name.lower().endswith(".vbrief.json"):
        header = artifact.data.get(HEADER) if isinstance(artifact.data, dict) else None
        current = isinstance(header, dict) and header.get("version") == "0.8"
        yield Hit((), f"{name or 'this file'} has the legacy vBRIEF file name",
                  hint="move the checkpoint to xbrief/continue.xbrief.json: its content is "
                       "already xBRIEF 0.8" if current else
                       "move the checkpoint to xbrief/continue.xbrief.json once the findings "
                       "below are fixed: its content is not yet valid xBRIEF 0.8")


def _migrated_form(file: str | None) -> str | None:
    """The migrated checkpoint beside the legacy file ``file`` (``vbrief/continue.vbrief.json``
    -> ``xbrief/continue.xbrief.json`` of the same folder, where ``passdown migrate`` writes
    it), as the reader names it, when that file exists; else None."""
    if not file or os.path.basename(os.path.dirname(os.path.abspath(file))) != "vbrief":
        return None
    migrated = os.path.join(os.path.dirname(os.path.dirname(file)), "xbrief", FILE_NAME)
    return migrated.replace(os.sep, "/") if os.path.isfile(migrated) else None


@rule(KIND, "checkpoint.legacy_fix", requirement="CKP-031", severity=WARNING,
      summary="a legacy checkpoint holds no form that only `passdown migrate --fix` converts",
      hint="`passdown migrate --fix` converts it (and shows the diff); `passdown migrate` "
           "without --fix lists it among the problems and writes nothing")
def _legacy_fix(artifact: Artifact):
    data = artifact.data
    if legacy_version(data) is None:
        return
    header = _header(data)
    version = data[header].get("version") if isinstance(data.get(header), dict) else None
    if _legacy_forms.short_version(version, LEGACY_VERSIONS):
        yield Hit((header, "version"), _legacy_forms.CODES["authoring.version_form"])
    root = _root(data)
    if _legacy_forms.lacks_items(data.get(root)):
        yield Hit((root,), _legacy_forms.CODES["authoring.plan_without_items"])
    nodes = [((root,), _plan(data))] + list(items_of(artifact))
    for path, node in nodes:
        if path != (root,) and _legacy_forms.narrative_object(node.get("narrative")):
            yield Hit(path + ("narrative",), _legacy_forms.CODES["authoring.string_narrative"])
        references = node.get("references")
        for index, reference in enumerate(references if isinstance(references, list) else ()):
            kind = reference.get("type") if isinstance(reference, dict) else None
            if _legacy_forms.namespaced_type(kind):
                yield Hit(path + ("references", index, "type"),
                          f"{_legacy_forms.CODES['authoring.reference_type']} ({quoted(kind)})")
            if _legacy_forms.lacks_uri(reference):
                yield Hit(path + ("references", index),
                          _legacy_forms.CODES["authoring.reference_without_uri"])


@rule(KIND, "checkpoint.no_pending_items", requirement="CKP-010",
      summary="the plan has pending items: what remains to do",
      hint="add the remaining steps as items with status `pending` (`passdown checkpoint "
           "add-pending TITLE`); a finished goal needs no checkpoint: remove it, or run "
           "`passdown consume` to keep it as a record")
def _no_pending(artifact: Artifact):
    if isinstance(artifact.data, dict) and not any(
            item.get("status") == "pending" for _, item in items_of(artifact)):
        yield Hit((_root(artifact.data), "items"),
                  "no item has status `pending`, so nothing says what remains")


@rule(KIND, "checkpoint.no_completed_items", requirement="CKP-009", severity=WARNING,
      summary="the plan has completed items: what is already done",
      hint="record finished steps as items with status `completed`, so they are not redone")
def _no_completed(artifact: Artifact):
    if isinstance(artifact.data, dict) and not _has_completed(artifact):
        yield Hit((_root(artifact.data), "items"), "no item has status `completed`")


@rule(KIND, "checkpoint.decisions_missing", requirement="CKP-011",
      summary="once work is done, the plan carries a `Decisions` narrative",
      hint="add plan.narratives.Decisions: the choices made so far, so they are not re-debated")
def _decisions(artifact: Artifact):
    if legacy_version(artifact.data) is not None:
        return  # the legacy warning covers it: migration writes a marked placeholder
    narratives = _plan(artifact.data).get("narratives")
    value = narratives.get("Decisions") if isinstance(narratives, dict) else None
    if _has_completed(artifact) and blank(value):
        yield Hit(("plan", "narratives"), "work is completed but there is no Decisions narrative, "
                                          "or it is empty")


@rule(KIND, "checkpoint.hazards_missing", requirement="CKP-012", severity=WARNING,
      summary="once work is done, the plan carries a `Hazards` narrative",
      hint="add plan.narratives.Hazards: what was tricky and what to watch out for")
def _hazards(artifact: Artifact):
    narratives = _plan(artifact.data).get("narratives")
    value = narratives.get("Hazards") if isinstance(narratives, dict) else None
    if _has_completed(artifact) and blank(value):
        yield Hit((_root(artifact.data), "narratives"), "there is no Hazards narrative, or it is empty")


@rule(KIND, "checkpoint.resume_point_missing", requirement="CKP-013",
      summary="the next pending item carries a `ResumePoint` narrative",
      hint="add narrative.ResumePoint to the next pending item: the exact first thing to do")
def _resume_point(artifact: Artifact):
    found = _next_pending(artifact.data, items_of(artifact), _items_by_id(artifact))
    if found is None or legacy_version(artifact.data) is not None:
        return  # nothing pending; or legacy, where migration writes a marked placeholder
    path, item = found
    narrative = item.get("narrative")
    if blank(narrative.get("ResumePoint") if isinstance(narrative, dict) else None):
        label = quoted(item["id"]) if isinstance(item.get("id"), str) else "(no id)"
        yield Hit(path, f"the next pending item {label} has no ResumePoint narrative")


@rule(KIND, "checkpoint.next_action_unknown", requirement="CKP-014",
      summary="`next_action.item_id` names an existing pending item",
      hint="point next_action.item_id at the pending item the resuming session starts with")
def _next_action(artifact: Artifact):
    own = block(artifact.data)
    action = own.get("next_action") if own else None
    wanted = action.get("item_id") if isinstance(action, dict) else None
    if not isinstance(wanted, str):
        return
    path = (BLOCK, "next_action", "item_id")
    found = _items_by_id(artifact).get(wanted)
    if found is None:
        yield Hit(path, f"no plan item has the id {quoted(wanted)}")
    elif found[1].get("status") != "pending":
        yield Hit(path, f"the item {quoted(wanted)} is {quoted(str(found[1].get('status')))}, not pending")


@rule(KIND, "checkpoint.auto_on_leaf", requirement="CKP-015",
      summary="`auto` status only on container items with children",
      hint="give the item children and a container type (group, milestone, epic), "
           "or a concrete status such as `pending`")
def _auto_on_leaf(artifact: Artifact):
    for path, item in items_of(artifact):
        if item.get("status") != "auto":
            continue
        kind = item.get("type", "task")
        if kind not in CONTAINER_TYPES:
            yield Hit(path + ("status",), f"`auto` on an item of type {quoted(str(kind))}, not a container")
        elif not _has_children(item):
            yield Hit(path + ("status",), "`auto` on a container with no children, "
                                          "no planRefs and no planRef")


@rule(KIND, "checkpoint.duplicate_id", requirement="CKP-016",
      summary="item ids are unique across the whole plan, nesting included",
      hint="rename one of the items; edges and next_action refer to items by id")
def _duplicate_id(artifact: Artifact):
    for path, item_id, first in repeated(items_of(artifact), "id"):
        yield Hit(path + ("id",), f"the id {quoted(item_id)} is already used at {_dotted(first)}")


@rule(KIND, "checkpoint.edge_dangling", requirement="CKP-017",
      summary="every edge names existing item ids",
      hint="fix the id, or remove the edge")
def _edge_dangling(artifact: Artifact):
    ids = _items_by_id(artifact)
    for index, edge in _edges(artifact.data):
        for end in ("from", "to"):
            value = edge.get(end)
            if isinstance(value, str) and value not in ids:
                yield Hit((_root(artifact.data), "edges", index, end), f"no plan item has the id {quoted(value)}")


@rule(KIND, "checkpoint.edge_cycle", requirement="CKP-018",
      summary="the edges form a directed acyclic graph",
      hint="remove or reverse one edge of the cycle")
def _edge_cycle(artifact: Artifact):
    successors: dict[str, list[tuple[str, int]]] = {}
    for index, edge in _edges(artifact.data):
        start, end = edge.get("from"), edge.get("to")
        if isinstance(start, str) and isinstance(end, str):
            successors.setdefault(start, []).append((end, index))
    cycle = _find_cycle(successors)
    if cycle is not None:
        names, index = cycle
        yield Hit((_root(artifact.data), "edges", index), "the edges form a cycle: " + " -> ".join(names))


@rule(KIND, "checkpoint.evidence_item", requirement="CKP-021",
      summary="completed work names completed items",
      hint="point completed_work[].item_id at the completed item the evidence shows, "
           "or mark that item completed")
def _evidence_item(artifact: Artifact):
    own = block(artifact.data)
    work = own.get("completed_work") if own else None
    if not isinstance(work, list):
        return
    for index, entry in enumerate(work):
        wanted = entry.get("item_id") if isinstance(entry, dict) else None
        if not isinstance(wanted, str):
            continue
        found = _items_by_id(artifact).get(wanted)
        path = (BLOCK, "completed_work", index, "item_id")
        if found is None:
            yield Hit(path, f"no plan item has the id {quoted(wanted)}")
        elif found[1].get("status") != "completed":
            yield Hit(path, f"the item {quoted(wanted)} is {quoted(str(found[1].get('status')))}, not completed")


@rule(KIND, "checkpoint.consumed", requirement="CKP-022", severity=WARNING,
      summary="a consumed checkpoint is not resumed from again",
      hint="this checkpoint was already consumed: resume from the task's durable state, "
           "or write a fresh checkpoint")
def _consumed(artifact: Artifact):
    own = block(artifact.data)
    consumed_at = own.get("consumed_at") if own else None
    if isinstance(consumed_at, str):
        yield Hit((BLOCK, "consumed_at"), "consumed_at is set: the checkpoint was already consumed")
    elif _plan(artifact.data).get("status") == "completed":
        yield Hit((_root(artifact.data), "status"), "the plan status is `completed`: the checkpoint was consumed")


@rule(KIND, "checkpoint.not_canonical", requirement="CKP-025",
      summary="every value of the Passdown block has canonical bytes",
      hint="keep the block's integers (the revision, the epoch) within 2**53 - 1: JCS reads "
           "every number as a double")
def _not_canonical(artifact: Artifact):
    return canonical_hits(block(artifact.data), (BLOCK,), "the checkpoint")


@rule(KIND, "checkpoint.secret", requirement="CKP-023",
      summary="the checkpoint holds no credentials, cookies, private keys or tokens",
      hint="remove the secret and rotate it; record where access comes from, not its value")
def _secret(artifact: Artifact):
    yield from secret_hits(artifact.data, skip=is_foreign_extension)


# -- helpers ---------------------------------------------------------------------------------

def _has_completed(artifact: Artifact) -> bool:
    return artifact.derived("has_completed", lambda a: any(
        item.get("status") == "completed" for _, item in items_of(a)))


def _edges(data) -> Iterator[tuple[int, dict]]:
    edges = _plan(data).get("edges")
    if isinstance(edges, list):
        for index, edge in enumerate(edges):
            if isinstance(edge, dict):
                yield index, edge


def _find_cycle(successors: dict[str, list[tuple[str, int]]]):
    """The first cycle found (its node names, closing edge index), or None. Iterative DFS."""
    state: dict[str, int] = {}  # 1 on the current path, 2 finished
    for root in successors:
        if state.get(root):
            continue
        path = [root]
        state[root] = 1
        iterators = [iter(successors.get(root, ()))]
        while iterators:
            step = next(iterators[-1], None)
            if step is None:
                state[path.pop()] = 2
                iterators.pop()
                continue
            node, index = step
            if state.get(node) == 1:
                return path[path.index(node):] + [node], index
            if not state.get(node):
                state[node] = 1
                path.append(node)
                iterators.append(iter(successors.get(node, ())))
    return None


def _base_name(file: str | None) -> str | None:
    if not file:
        return None
    return file.replace("\\", "/").rsplit("/", 1)[-1]


def _dotted(path: tuple) -> str:
    from passdown._findings import json_path

    return json_path(path)
