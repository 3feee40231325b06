"""Migration of a legacy checkpoint (xBRIEF 0.4 to 0.7, called vBRIEF until 0.7; usually
``vbrief/continue.vbrief.json``) to xBRIEF 0.8 (``xbrief/continue.xbrief.json``), following
upstream's migration guide and losing nothing.

The changes, and only these (spec/authoring.md, AUT-070), each reported as a JSON path:

- the header ``vBRIEFInfo`` (or a legacy ``xBRIEFInfo``) becomes ``xBRIEFInfo`` in the same
  place, with ``version`` ``"0.8"``;
- a 0.4 ``todoList`` or ``playbook`` root becomes the ``plan`` in the same place, given the
  ``title`` (``Tasks``, as upstream's guide does) and ``status`` (``running``) a plan
  requires where it has none;
- status ``inProgress`` becomes ``running``;
- an item's ``subItems`` becomes ``items`` in the same place (both are kept when an item has
  both and they differ: a warning), and a 0.4 item's own ``todoList`` becomes its ``items``
  (appended to them when it has some);
- every item without an ``id`` gets one, derived from its parent's id and its title, so the
  same file always gets the same ids;
- a 0.4 item's ``dependencies`` become ``blocks`` edges of the plan;
- an item member that 0.8 defines and the legacy value does not fit (a 0.6 ``type`` such as
  ``bug``) moves to ``x-vbrief/<member>`` in the same place, the legacy format's own
  extension namespace;
- a reference type in the ``x-vbrief/`` or ``x-xbrief/`` namespace becomes the registered
  0.8 type of that name (``x-xbrief/commit``...); one 0.8 does not register (such as
  ``x-xbrief/context``) goes to ``x-vbrief/``, an ordinary consumer namespace in 0.8;
- the ``x-passdown/checkpoint`` block is added when the file has none, and what the profile
  needs and the file lacks (a ``Decisions`` narrative, a ``ResumePoint`` on the next pending
  item) is written as a marked placeholder and reported as a warning.

Every other member, value, unknown field and extension block is copied verbatim in its key
order. The legacy file is only read, and an existing target is never replaced.
"""

from __future__ import annotations

import copy
import os
import re
from dataclasses import dataclass, field

from passdown.workspace import _editing
from passdown.formats import _legacy_forms
from passdown.formats._detect import HEADER, LEGACY_HEADER, LEGACY_VERSIONS, legacy_version
from passdown.errors import PassdownError, RefusedError, UsageError
from passdown.authoring import _checkpoint, _document, _project, _registry, _store

LEGACY_PATH = os.path.join("vbrief", "continue.vbrief.json")
VERSION = "0.8"
#: The 0.4 roots that become the plan.
LEGACY_ROOTS = ("todoList", "playbook")
#: What a plan made from a 0.4 root is given, as upstream's migration guide does.
ROOT_TITLE = "Tasks"
ROOT_STATUS = "running"
#: Status values renamed by upstream's migration guide.
STATUSES = {"inProgress": "running"}
#: The reference types 0.8 registers (its Appendix B), in the closed ``x-xbrief/`` namespace.
REGISTERED = "x-xbrief/"
REGISTERED_TYPES = ("plan", "github-issue", "github-pr", "commit", "external", "research", "adr")
#: The legacy namespaces whose types are mapped; unregistered names go to the first.
LEGACY_NAMESPACE = "x-vbrief/"
MAPPED_NAMESPACES = ("x-vbrief/", "x-xbrief/")
#: Marks the text migration writes where the legacy file lacks what the profile needs.
PLACEHOLDER = _checkpoint.MIGRATION_PLACEHOLDER
DECISIONS_PLACEHOLDER = (f"{PLACEHOLDER} The legacy checkpoint recorded no decisions: replace "
                         "this with the choices made so far, or with `none yet`.")
RESUME_PLACEHOLDER = (f"{PLACEHOLDER} The legacy checkpoint named no resume point: replace "
                      "this with the exact first thing to do. The step: {title}")


def _quoted(value) -> str:
    from passdown.formats._fastjson import dumps

    return dumps(value)


def _fits_type(value) -> bool:
    return value in ("task", "group", "milestone", "epic")


#: The 0.8 form of a plan reference (xbrief-0.8.schema.json, ``planRef``).
_PLAN_REF = re.compile(r"(#[a-zA-Z0-9_.-]+|file://.*|https://.*)\Z")
CHILD_LISTS = ("items", "subItems")


def _fits_plan_refs(value) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) and _PLAN_REF.match(v) for v in value)


#: Item members 0.8 defines that earlier versions left open: a legacy value that does not fit
#: moves to ``x-vbrief/<member>``.
NEW_MEMBERS = {"type": _fits_type, "summary": lambda value: isinstance(value, str),
               "planRefs": _fits_plan_refs}


@dataclass
class Migration:
    """The converted document, the changes made (JSON paths with what happened), and the
    warnings (``{"code", "path", "message"}``) about placeholders and kept legacy members."""

    document: dict
    changes: list[str] = field(default_factory=list)
    warnings: list[dict] = field(default_factory=list)
    #: Apply the mechanical fixes (``--fix``); without it each is a problem reported.
    fix: bool = False
    #: ``{path in the result: path in the source}`` for every member moved or renamed.
    moved: dict[str, str] = field(default_factory=dict)
    #: The mechanical problems not fixed: ``{"path", "code", "message", "fixable": True}``.
    problems: list[dict] = field(default_factory=list)
    #: Whether the Passdown block is migration's (the legacy file had none).
    added_block: bool = False

    def change(self, text: str) -> None:
        self.changes.append(text)

    def mechanical(self, path: str, code: str, message: str) -> bool:
        """One mechanical problem at ``path`` (a source path): fixed with ``--fix`` (said
        in the changes, return True), else reported (return False)."""
        if self.fix:
            self.change(f"{path}: {message} (fixed)")
            return True
        self.problems.append({"path": path, "code": code, "message": message, "fixable": True})
        return False

    def source_path(self, path: str) -> str:
        """The source document's path for a path of the result (longest moved prefix)."""
        for new in sorted(self.moved, key=len, reverse=True):
            if path == new or path.startswith((new + ".", new + "[")):
                return self.moved[new] + path[len(new):]
        return path

    def warn(self, code: str, path: str, message: str) -> None:
        self.warnings.append({"code": code, "path": path, "message": message})


def convert(legacy, block: dict | None = None, *, fix: bool = False) -> Migration:
    """The xBRIEF 0.8 form of the parsed ``legacy`` checkpoint. ``block`` is the
    ``x-passdown/checkpoint`` block to add when the legacy document has none; without it, a
    legacy document with no block is refused. ``fix`` applies the mechanical fixes
    (:data:`MECHANICAL`); without it they are the result's ``problems``."""
    migration = Migration({}, fix=fix)
    header, version = _header(legacy, migration)
    root = _root(legacy)
    for key, value in legacy.items():
        value = copy.deepcopy(value)
        if key == header:
            value["version"] = VERSION
            renamed = f"$.{key} -> $.{HEADER}, " if key != HEADER else f"$.{HEADER}."
            migration.change(f"{renamed}version {version!r} -> {VERSION!r}")
            migration.moved[f"$.{HEADER}"] = f"$.{key}"
            key = HEADER
        elif key == root:
            if root != "plan":
                value = _plan_from_root(value, root, migration)
                migration.moved["$.plan"] = f"$.{root}"
                key = "plan"
            _convert_plan(value, migration)
        migration.document[key] = value
    document = migration.document
    _generate_ids(document, migration)
    _dependencies_to_edges(document, migration)
    _placeholder_decisions(document, migration)
    if _checkpoint.BLOCK not in document:
        if block is None:
            raise RefusedError("the legacy checkpoint has no Passdown block and none was given",
                               code="authoring.missing_identity",
                               hint="pass the identity options (--goal-id, --main-id, --outcome)")
        document[_checkpoint.BLOCK] = block
        migration.added_block = True
        migration.change('$["x-passdown/checkpoint"] added')
    _placeholder_resume_point(document, migration)
    if block is not None and document[_checkpoint.BLOCK] is block:
        try:
            migration.changes.extend(_checkpoint.adopt_plan(document))
        except RefusedError as error:
            if error.code != "authoring.no_pending":
                raise  # no pending step: the result's own check reports it, with the rest
    return migration


# -- the header and the root ------------------------------------------------------------------

def _header(legacy, migration: Migration | None = None) -> tuple[str, str]:
    """The legacy header's name and version; a document that is not a legacy checkpoint is
    refused. A version written with a patch number (``"0.5.0"``) is the mechanical fix
    ``authoring.version_form`` (its ``MAJOR.MINOR`` is read)."""
    hint = ("a legacy checkpoint has a `vBRIEFInfo` header, or an `xBRIEFInfo` version from "
            "0.4 to 0.7; write a new checkpoint with `passdown init` instead")
    if not isinstance(legacy, dict):
        raise RefusedError("this is not a legacy checkpoint: it is not a JSON object",
                           code="authoring.not_vbrief", hint=hint)
    if LEGACY_HEADER in legacy and HEADER in legacy:
        raise RefusedError(f"the document has both `{LEGACY_HEADER}` and `{HEADER}`",
                           code="authoring.not_vbrief",
                           hint=f"remove the stale `{LEGACY_HEADER}` by hand: Passdown cannot tell "
                                "which one is current")
    version = legacy_version(legacy)
    header = LEGACY_HEADER if LEGACY_HEADER in legacy else HEADER
    if version is None:
        info = legacy.get(HEADER)
        if isinstance(info, dict) and info.get("version") == VERSION:
            raise RefusedError("this checkpoint is already xBRIEF 0.8: there is nothing to convert",
                               code="authoring.not_vbrief",
                               hint=f"move the file to {_checkpoint.PATH} as it is")
        raise RefusedError("this is not a legacy checkpoint: it has no `vBRIEFInfo` object and "
                           "no `xBRIEFInfo` version from 0.4 to 0.7",
                           code="authoring.not_vbrief", hint=hint)
    short = _legacy_forms.short_version(version, LEGACY_VERSIONS)
    if version not in LEGACY_VERSIONS and short is not None:
        if migration is not None:
            migration.mechanical(f"$.{header}.version", "authoring.version_form",
                                 f"{_legacy_forms.CODES['authoring.version_form']}: "
                                 f"{_quoted(version)} is read as {_quoted(short)}")
        return header, short
    if version not in LEGACY_VERSIONS:
        raise RefusedError(f"the legacy version {version} is not one Passdown can migrate "
                           f"({', '.join(LEGACY_VERSIONS)})",
                           code="authoring.not_vbrief", hint=hint)
    return header, version


def _root(legacy: dict) -> str:
    """The member that holds the plan: ``plan``, or exactly one 0.4 root."""
    roots = [name for name in ("plan", *LEGACY_ROOTS) if name in legacy]
    if len(roots) != 1 or not isinstance(legacy[roots[0]], dict):
        found = ", ".join(f"`{name}`" for name in roots) or "none"
        raise RefusedError(f"the legacy document needs one plan object (`plan`, or a 0.4 "
                           f"`todoList` or `playbook`); it has {found}",
                           code="authoring.unsupported_root",
                           hint="keep one root object holding the items; a continue checkpoint "
                                "is one plan")
    return roots[0]


def _plan_from_root(value: dict, root: str, migration: Migration) -> dict:
    """A 0.4 ``todoList`` or ``playbook`` as a plan: the title and status a plan requires
    first, then its members in their order."""
    migration.change(f"$.{root} -> $.plan")
    plan = {}
    if "title" not in value:
        plan["title"] = ROOT_TITLE
        migration.change(f"$.plan.title added ({ROOT_TITLE!r})")
    if "status" not in value:
        plan["status"] = ROOT_STATUS
        migration.change(f"$.plan.status added ({ROOT_STATUS!r})")
    plan.update(value)
    return plan


# -- the plan and its items -------------------------------------------------------------------

def _convert_plan(plan: dict, migration: Migration) -> None:
    _convert_status(plan, "$.plan", migration)
    _convert_references(plan, "$.plan", migration)
    if _legacy_forms.lacks_items(plan):
        code = "authoring.plan_without_items"
        if migration.mechanical(migration.source_path("$.plan.items"), code,
                                _legacy_forms.CODES[code]):
            plan["items"] = []
    if isinstance(plan.get("items"), list):
        for index, item in enumerate(plan["items"]):
            if isinstance(item, dict):
                _convert_item(item, f"$.plan.items[{index}]", migration)


def _convert_item(item: dict, path: str, migration: Migration) -> None:
    _convert_status(item, path, migration)
    _convert_references(item, path, migration)
    fixed = _legacy_forms.narrative_object(item.get("narrative"))
    if fixed is not None:
        code = "authoring.string_narrative"
        if migration.mechanical(migration.source_path(f"{path}.narrative"), code,
                                _legacy_forms.CODES[code]):
            item["narrative"] = fixed
    for name, fits in NEW_MEMBERS.items():
        if name in item and not fits(item[name]):
            _rename(item, name, LEGACY_NAMESPACE + name)
            migration.change(f"{path}.{name} -> {path}[\"{LEGACY_NAMESPACE}{name}\"] "
                             f"(not a 0.8 {name})")
    _nested_lists(item, path, migration)
    for children in CHILD_LISTS:
        if isinstance(item.get(children), list):
            for index, child in enumerate(item[children]):
                if isinstance(child, dict):
                    _convert_item(child, f"{path}.{children}[{index}]", migration)


def _convert_status(node: dict, path: str, migration: Migration) -> None:
    status = node.get("status")
    if isinstance(status, str) and status in STATUSES:
        node["status"] = STATUSES[status]
        migration.change(f"{path}.status {status!r} -> {node['status']!r}")


def _nested_lists(item: dict, path: str, migration: Migration) -> None:
    """``subItems`` -> ``items`` (0.6's preferred name); a 0.4 item's ``todoList`` -> its
    ``items``."""
    sub_items = item.get("subItems")
    if isinstance(sub_items, list):
        if "items" not in item:
            _rename(item, "subItems", "items")
            migration.change(f"{path}.subItems -> {path}.items")
            migration.moved[f"{path}.items"] = migration.source_path(f"{path}.subItems")
        elif item["items"] == sub_items:
            del item["subItems"]
            migration.change(f"{path}.subItems removed (the same as {path}.items)")
        else:
            migration.warn("authoring.legacy_kept", f"{path}.subItems",
                           "the item has both items and subItems and they differ: both are "
                           "kept (0.8 reads items as canonical); merge them by hand")
    nested = item.get("todoList")
    if isinstance(nested, dict) and isinstance(nested.get("items"), list):
        if isinstance(item.get("items"), list):
            item["items"].extend(nested["items"])
            del item["todoList"]
        else:
            _rename(item, "todoList", "items")
            item["items"] = nested["items"]
        migration.change(f"{path}.todoList -> {path}.items")


def _convert_references(node: dict, path: str, migration: Migration) -> None:
    references = node.get("references")
    if not isinstance(references, list):
        return
    for index, reference in enumerate(references):
        kind = reference.get("type") if isinstance(reference, dict) else None
        new = reference_type(kind)
        if new != kind:
            reference["type"] = new
            migration.change(f"{path}.references[{index}].type {kind!r} -> {new!r}")
        elif _legacy_forms.namespaced_type(kind) is not None:
            new = reference_type(_legacy_forms.namespaced_type(kind))
            where = migration.source_path(f"{path}.references[{index}].type")
            code = "authoring.reference_type"
            if migration.mechanical(where, code, f"{_legacy_forms.CODES[code]}: "
                                                 f"{_quoted(kind)} becomes {_quoted(new)}"):
                reference["type"] = new
    kept = []
    for index, reference in enumerate(references):
        if _legacy_forms.lacks_uri(reference):
            code = "authoring.reference_without_uri"
            where = migration.source_path(f"{path}.references[{index}]")
            if migration.mechanical(where, code, _legacy_forms.CODES[code]):
                if isinstance(reference.get("url"), str):
                    _rename(reference, "url", "uri")
                else:
                    kept.append(index)
    if kept:
        node.setdefault(_legacy_forms.KEPT_REFERENCES, []).extend(references[i] for i in kept)
        node["references"] = [r for i, r in enumerate(references) if i not in kept]


def reference_type(kind):
    """The 0.8 reference type for a legacy one: the registered ``x-xbrief/<name>`` when 0.8
    registers the name, else ``x-vbrief/<name>``; a type of another namespace is kept."""
    if not isinstance(kind, str):
        return kind
    namespace = next((n for n in MAPPED_NAMESPACES if kind.startswith(n)), None)
    if namespace is None:
        return kind
    name = kind[len(namespace):]
    return (REGISTERED if name in REGISTERED_TYPES else LEGACY_NAMESPACE) + name


def _rename(node: dict, old: str, new: str) -> None:
    """Rename a member in place, keeping the key order."""
    items = [(new if key == old else key, value) for key, value in node.items()]
    node.clear()
    node.update(items)


# -- ids, edges and placeholders --------------------------------------------------------------

def _items(document: dict):
    """``(JSON path, item, parent id)`` for every item of the plan, in document order."""
    def walk(items, parent, path):
        for index, item in enumerate(items):
            if isinstance(item, dict):
                here = f"{path}[{index}]"
                yield here, item, parent
                for children in CHILD_LISTS:
                    if isinstance(item.get(children), list):
                        yield from walk(item[children], item.get("id"), f"{here}.{children}")

    items = document["plan"].get("items")
    return walk(items, None, "$.plan.items") if isinstance(items, list) else iter(())


def _generate_ids(document: dict, migration: Migration) -> None:
    """Give every item without an id one: its parent's id, a dot, and its title in lower
    case with dashes (``-2``, ``-3`` on a repeat), in document order, so that the same file
    always gets the same ids. (A generator, so a parent has its id before its children.)"""
    for path, item, parent in _items(document):
        if not isinstance(item.get("id"), str):
            title = item.get("title") if isinstance(item.get("title"), str) else "item"
            item_id = _checkpoint._new_id(document, title, parent)
            _put_first(item, "id", item_id)
            migration.change(f"{path}.id added ({item_id!r})")


def _put_first(node: dict, key: str, value) -> None:
    rest = [(k, v) for k, v in node.items() if k != key]
    node.clear()
    node[key] = value
    node.update(rest)


def _dependencies_to_edges(document: dict, migration: Migration) -> None:
    """A 0.4 item's ``dependencies`` (the ids it waits for) become ``blocks`` edges from
    each of them to the item, appended to the plan's edges."""
    plan = document["plan"]
    for path, item, _ in list(_items(document)):
        dependencies = item.get("dependencies")
        if not isinstance(dependencies, list) or not all(isinstance(d, str) for d in dependencies):
            continue
        edges = plan.setdefault("edges", [])
        for dependency in dependencies:
            edges.append({"from": dependency, "to": item["id"], "type": "blocks"})
        del item["dependencies"]
        migration.change(f"{path}.dependencies -> $.plan.edges ({len(dependencies)} blocks "
                         f"edge{'s' if len(dependencies) != 1 else ''})")


def _placeholder_decisions(document: dict, migration: Migration) -> None:
    plan = document["plan"]
    completed = any(item.get("status") == _checkpoint.COMPLETED for _, item, _ in _items(document))
    narratives = plan.get("narratives")
    current = narratives.get(_checkpoint.DECISIONS) if isinstance(narratives, dict) else None
    if not completed or (isinstance(current, str) and current.strip()):
        return
    if not isinstance(narratives, dict):
        narratives = plan["narratives"] = {}
    narratives[_checkpoint.DECISIONS] = DECISIONS_PLACEHOLDER
    migration.change("$.plan.narratives.Decisions added (placeholder)")
    migration.warn("authoring.placeholder", "$.plan.narratives.Decisions",
                   "the legacy checkpoint has completed work but no Decisions narrative: a "
                   "placeholder was written; replace it with the decisions taken so far "
                   "(`passdown checkpoint decision`)")


def _placeholder_resume_point(document: dict, migration: Migration) -> None:
    """Write a placeholder ``ResumePoint`` on the item a resuming session starts with (the
    one the block's next action names, or the first pending item) when it has none."""
    from passdown._findings import json_path
    from passdown.rules.checkpoint import next_pending

    found = next_pending(document)
    if found is None:
        return
    where, item = found
    narrative = item.get("narrative")
    current = narrative.get(_checkpoint.RESUME) if isinstance(narrative, dict) else None
    if isinstance(current, str) and current.strip():
        return
    if not isinstance(narrative, dict):
        narrative = item["narrative"] = {}
    narrative[_checkpoint.RESUME] = RESUME_PLACEHOLDER.format(title=item.get("title"))
    path = json_path(where + ("narrative", _checkpoint.RESUME))
    migration.change(f"{path} added (placeholder)")
    migration.warn("authoring.placeholder", path,
                   "the next pending item has no ResumePoint narrative: a placeholder was "
                   "written; replace it with the exact first thing to do "
                   "(`passdown checkpoint set-resume`)")


# -- the command ------------------------------------------------------------------------------

def _block_for(legacy, identity: dict) -> dict | None:
    """The Passdown block built from the ``init`` identity options, when the legacy document
    needs one; a missing required option is a usage error naming it."""
    if not isinstance(legacy, dict) or _checkpoint.BLOCK in legacy:
        return None
    missing = [f"--{name.replace('_', '-')}" for name in ("goal_id", "main_id", "outcome")
               if not identity.get(name)]
    if missing:
        raise UsageError(f"the legacy checkpoint has no Passdown block: {', '.join(missing)} "
                         "needed to add one", code="authoring.missing_identity",
                         hint="give the goal, the MAIN session id and the outcome")
    Identity, new_block = _project.Identity, _project.new_block

    title = next((root.get("title") for name in ("plan", *LEGACY_ROOTS)
                  if isinstance(root := legacy.get(name), dict)
                  and isinstance(root.get("title"), str)), identity["goal_id"])
    known = {k: v for k, v in identity.items() if v is not None}
    return new_block(Identity(**known), title=title)


def refused(source: str, problems: list[dict]) -> RefusedError:
    """The refusal of a migration that found problems: every one of them, at paths of the
    source document; nothing was written. ``problems`` (``{"path", "code", "message",
    "fixable"}`` each) goes into the JSON failure document as ``error.problems``."""
    fixable = sum(1 for problem in problems if problem["fixable"])
    lines = [f"  {p['path']}: {p['code']}: {p['message']}" + (" [--fix]" if p["fixable"] else "")
             for p in problems]
    count = f"{len(problems)} problem{'s' if len(problems) != 1 else ''}"
    hint = ("fix the problems above in the source and run `passdown migrate` again"
            if fixable < len(problems) else "")
    if fixable:
        hint += ("; " if hint else "") + (
            f"`passdown migrate --fix` makes the {fixable} marked [--fix] (a diff shows each)")
    error = RefusedError(f"{source}: {count}, so nothing was written:\n" + "\n".join(lines),
                         code="authoring.migration_problems", hint=hint)
    error.problems = problems
    return error


def _problems(migration: Migration, new: bytes, target: str) -> list[dict]:
    """Every problem of the migration: the mechanical ones not fixed, then each error the
    result would have, at the source document's path (one under a mechanical problem's path
    is that problem's consequence, not reported again)."""
    problems = list(migration.problems)
    covered = [problem["path"] for problem in problems]
    if migration.added_block:  # the block is migration's own: a problem there follows another
        covered.append(f'$["{_checkpoint.BLOCK}"]')
    for finding in _store.errors_of(_store.CHECKPOINT, new, target):
        path = migration.source_path(finding.json_path)
        if any(path == c or path.startswith((c + ".", c + "[")) for c in covered):
            continue
        problem = {"path": path, "code": finding.code, "message": finding.message,
                   "fixable": False}
        if problem not in problems:
            problems.append(problem)
    return problems


def migrate(root: str | os.PathLike = ".", *, source: str | os.PathLike | None = None,
            target: str | os.PathLike | None = None, identity: dict | None = None,
            validate: bool = True, fix: bool = False) -> _store.Outcome:
    """Write the xBRIEF 0.8 form of the legacy checkpoint under ``root`` (or ``source``) to
    ``xbrief/continue.xbrief.json`` (or ``target``). ``identity`` (the ``init`` identity
    fields) builds the Passdown block when the legacy file has none; the result must validate
    clean before anything is written, and every problem is reported at once
    (:func:`refused`). ``fix`` makes the mechanical fixes, each in the changes, and
    the result carries the diff from the source. The result lists the changes and the
    warnings."""
    source = os.fspath(source or os.path.join(root, LEGACY_PATH))
    # the handoff folder's own checkpoint gets the registry the folder lacks (AUT-091)
    registry_path = None if target is not None or any(
        os.path.lexists(os.path.join(root, name)) for name in _registry.NAMES) \
        else os.path.join(root, _project.REGISTRY_FORMATS["yaml"])
    target = os.fspath(target or os.path.join(root, _checkpoint.PATH))
    if os.path.lexists(target):
        raise _store.exists_error(target)
    try:
        raw = _document.read_file(source)
    except FileNotFoundError:
        raise RefusedError(f"{source}: no legacy checkpoint here", code="authoring.no_legacy",
                           hint=f"pass --source, or run `passdown init` to start with "
                                f"{_checkpoint.PATH}") from None
    legacy = _editing.parse(raw, source=source, syntax="json")
    _header(legacy)  # not a legacy checkpoint: refused before the identity options are asked
    migration = convert(legacy, _block_for(legacy, identity or {}), fix=fix)
    new = _editing.render(migration.document, syntax="json")
    registry = None if registry_path is None else _registry_for(migration.document, identity or {})
    if validate:
        problems = _problems(migration, new, target)
        if problems:
            raise refused(source, problems)
        if registry is not None:
            _store.check_valid(_store.REGISTRY, registry, registry_path)
    _store.create(target, new)
    if registry is not None:
        try:
            _store.create(registry_path, registry)
        except PassdownError:
            os.unlink(target)  # created a moment ago: the two files come together or not at all
            raise
    revision = _store.revision_of(migration.document, _store.CHECKPOINT, target)
    warned = f" ({len(migration.warnings)} warning{'s' if len(migration.warnings) != 1 else ''})" \
        if migration.warnings else ""
    created = f", and created {registry_path} (restart policy off)" if registry is not None else ""
    result = {"source": source, "registry": registry_path, "changes": migration.changes,
              "warnings": migration.warnings}
    message = f"migrated {source} to {target}; {source} is unchanged{created}{warned}"
    if fix:
        result["diff"] = _diff(source, target, raw, new)
        message = result["diff"] + message
    return _store.Outcome(command="migrate", path=target, changed=True, message=message,
                          revision=revision, result=result)


def _diff(source: str, target: str, before: bytes, after: bytes) -> str:
    """The unified diff from the legacy file to the migrated one, as ``--fix`` shows it."""
    import difflib

    old = before.decode("utf-8", "replace").splitlines(keepends=True)
    new = after.decode("utf-8", "replace").splitlines(keepends=True)
    return "".join(line if line.endswith("\n") else line + "\n"
                   for line in difflib.unified_diff(old, new, source, target))


def _registry_for(document: dict, identity: dict) -> bytes:
    """The registry created beside a migrated checkpoint, as ``passdown init`` creates one
    (restart policy off): its goal is the checkpoint's, its MAIN session ``--main-id``."""
    block = document.get(_checkpoint.BLOCK) if isinstance(document.get(_checkpoint.BLOCK), dict) else {}
    goal_id, main_id = block.get("goal_id"), identity.get("main_id")
    if not main_id:
        raise UsageError("the handoff folder has no registry: --main-id is needed to create one "
                         "beside the migrated checkpoint", code="authoring.missing_identity",
                         hint="give the MAIN session id (the registry records it as MAIN), or "
                              "--target FILE to migrate the checkpoint alone")
    registry = _registry.new_registry(goal_id=goal_id, main_id=main_id,
                                      checkpoint_path=_checkpoint.PATH.replace(os.sep, "/"))
    return _editing.render(registry, syntax="yaml")
