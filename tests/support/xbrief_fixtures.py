"""Writes (``--write``) or checks the validate-gate fixtures that hold the continue checkpoint
to the real xBRIEF 0.8 core: ``python tests/support/xbrief_fixtures.py --write``.

Three files under ``conformance/cases/validate/``:

- ``checkpoint_xbrief.json``: for every constraint of the upstream 0.8 core schema (each
  required member, type, enumeration, constant, pattern, bound, item shape and forbidden
  root, at every place a shared definition is used), one document that breaks exactly that
  constraint, and for every member one document that holds a valid value for all of it.
  The constraints are found by walking the upstream schema; the broken values are chosen
  here; the expected codes are ``schema.<keyword>`` for each keyword the upstream schema
  itself reports (the code the profile documents, CNF-105), plus the few Passdown rule codes a
  change entails, stated by hand in :data:`ENTAILED`.
- ``checkpoint_appendix_c.json``: the four complete examples of the 0.8 spec's Appendix C,
  taken from the spec text, with the Passdown block and the narratives the profile requires.
- ``checkpoint_legacy.json``: one legacy checkpoint per version (0.4 ``todoList``, 0.5, 0.6,
  0.7), read with the legacy warning only.
- ``checkpoint_scope.json``: what the profile's own rules read and never read, stated by
  hand: ``auto`` on a container whose children are plan references, and timestamps judged
  only where xBRIEF or the Passdown block defines one.

The upstream material is read from ``../shared/reference/xbrief-upstream/`` beside the
repository (see :func:`upstream_dir`); without it the fixtures cannot be rebuilt, and the
tests that compare them with upstream skip.
"""

from __future__ import annotations

import copy
import json
import re
import sys
from pathlib import Path

import shared_reference

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CASES = ROOT / "conformance" / "cases" / "validate"
UPSTREAM_RELATIVE = Path("..") / "shared" / "reference" / "xbrief-upstream"
CORE = "xbrief-core-0.8.schema.json"
SPEC = "xbrief-spec-0.8.md"
BLOCK = "x-passdown/checkpoint"


def upstream_dir() -> Path | None:
    """The upstream folder at ``../shared/reference/xbrief-upstream/`` relative to the
    repository root; in a git worktree, relative to the main checkout's root as well."""
    return shared_reference.find("xbrief-upstream", CORE)


def upstream_schema(folder: Path) -> dict:
    return json.loads((folder / CORE).read_text(encoding="utf-8"))


# -- the documents ----------------------------------------------------------------------------

AT = "2026-10-14T09:30:00+02:00"
AGENT = {"id": "agent-7", "type": "aiAgent", "name": "Build agent", "email": "build@example.org",
         "model": "model-x", "version": "2.1"}
LINK = {"uri": "https://wiki.example.org/reports", "description": "The report spec",
        "type": "documentation", "title": "Reports", "tags": ["spec"]}
REFERENCE = {"uri": "https://git.example.org/acme/reports/commit/9e1f2a", "type": "x-xbrief/commit",
             "title": "Writer core", "description": "The commit that added the writer",
             "tags": ["writer"]}

#: A valid value for every member the 0.8 core defines, at its first place: the plan's and
#: the probe item's members (bounds at their lowest allowed value, unless noted).
PLAN_MEMBERS = {
    "id": "report-export",
    "uid": "3f1c9a2e-5b7d-4e0f-9a1b-2c3d4e5f6a7b",
    "edges": [{"from": "schema", "to": "writer", "type": "blocks"}],
    "tags": ["reports"],
    "metadata": {"team": "reports"},
    "created": "2026-10-12T09:41:00+02:00",
    "updated": "2026-10-14T09:12:40Z",
    "author": "reports-team",
    "reviewers": ["finance-lead"],
    "uris": [LINK],
    "references": [REFERENCE],
    "timezone": "Europe/Warsaw",
    "agent": AGENT,
    "lastModifiedBy": {"id": "dana", "type": "human"},
    "changeLog": [{"sequence": 0, "timestamp": AT, "agent": AGENT, "operation": "update",
                   "reason": "Recorded the writer", "path": "items[1].status",
                   "oldValue": "running", "newValue": {"any": ["json", 1]},
                   "description": "The writer is done", "snapshotUri": "file://./snapshots/7.json",
                   "relatedChanges": ["chg-6"]}],
    "sequence": 0,
    "fork": {"parentUid": "0b6d5c4a-3e2f-4a1b-8c9d-0e1f2a3b4c5d", "parentSequence": 0,
             "forkedAt": AT, "forkReason": "Split the export from the import work",
             "mergeStatus": "unmerged"},
}
ITEM_MEMBERS = {
    "uid": "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a",
    "type": "task",
    "summary": "Document the CSV columns for the finance team.",
    "narrative": {"Source": "observed: the finance import log", "Confidence": "high"},
    "items": [{"id": "docs.columns", "title": "List the columns", "status": "pending"}],
    "subItems": [{"id": "docs.examples", "title": "Add an example file", "status": "pending"}],
    "planRef": "#writer",
    "planRefs": ["file://./xbrief/active/reports.xbrief.json", "https://example.org/plan.xbrief.json"],
    "tags": ["docs"],
    "metadata": {"estimate": "2h"},
    "created": AT,
    "updated": AT,
    "completed": AT,
    "priority": "critical",
    "dueDate": AT,
    "startDate": AT,
    "endDate": AT,
    "percentComplete": 100,  # the upper bound; 0 is shown by the bound's broken value
    "participants": [{"id": "dana", "role": "owner", "name": "Dana", "email": "dana@example.org",
                      "status": "accepted"}],
    "location": {"name": "Finance office", "address": "1 Main St", "geo": [52.2297, 21.0122],
                 "url": "https://maps.example.org/finance"},
    "uris": [LINK],
    "recurrence": {"frequency": "monthly", "interval": 1, "until": AT, "count": 1,
                   "byDay": ["MO", "TU", "WE", "TH", "FR", "SA", "SU"], "byMonth": [1, 12],
                   "byMonthDay": [1, 31]},
    "reminders": [{"trigger": "-PT1H", "action": "display", "description": "Write the docs"}],
    "classification": "confidential",
    "relatedComments": ["Finance asked for the column order"],
    "timezone": "Europe/Warsaw",
    "sequence": 0,
    "lastModifiedBy": dict(AGENT, type="system"),
    "lockedBy": {"agent": AGENT, "acquiredAt": AT, "expiresAt": "2026-10-14T10:30:00+02:00",
                 "type": "soft"},
}
INFO_MEMBERS = {"author": "reports-team", "description": "Continue checkpoint for the CSV export",
                "metadata": {"tool": "passdown"}, "created": "2026-10-12T09:41:00+02:00",
                "updated": AT, "timezone": "Europe/Warsaw"}
#: The plan narratives the 0.8 core names (every value a string).
NARRATIVES = {"Decisions": "CSV, not XLSX.", "Hazards": "Never deploy at 02:00."}


def passdown_block(next_item: str, *, completed_items=(), task="Export reports as CSV") -> dict:
    """A small Passdown block for a document whose next pending item is ``next_item``."""
    return {
        "passdown_version": "1.0", "kind": "checkpoint", "revision": 3, "goal_id": "goal-csv",
        "stack_session_id": "stk-1", "incarnation_id": "inc-1", "epoch": 2, "role": "main",
        "config_version": None, "mission": "Export reports.", "outcome": "Finance imports the CSV.",
        "task": task, "prd_pin": None, "constraints": [],
        "completed_work": [{"item_id": item, "summary": "Done.", "evidence_refs": ["commit 9e1f2a"]}
                           for item in completed_items],
        "blockers": [], "failed_attempts": [], "leases": [], "external_operations": [],
        "next_action": {"item_id": next_item, "summary": "Take the next step.", "required_inputs": []},
        "written_at": "2026-10-14T10:45:00+02:00", "consumed_at": None,
    }


def base_document() -> dict:
    """The smallest checkpoint that holds every shape the cases need: a completed item, the
    next pending item with its resume point, and a pending probe item (``docs``) whose members
    the item cases change."""
    return {
        "xBRIEFInfo": {"version": "0.8"},
        "plan": {
            "title": "Export reports as CSV",
            "status": "running",
            "narratives": dict(NARRATIVES),
            "items": [
                {"id": "schema", "title": "Agree the schema", "status": "completed"},
                {"id": "writer", "title": "Write the writer", "status": "pending",
                 "narrative": {"ResumePoint": "Write the first failing test."}},
                {"id": "docs", "title": "Document it", "status": "pending"},
            ],
        },
        BLOCK: passdown_block("writer"),
    }


PROBE = ("plan", "items", 2)


def every_member_document() -> dict:
    """The base document with a valid value for every member the 0.8 core defines."""
    document = base_document()
    document["xBRIEFInfo"].update(copy.deepcopy(INFO_MEMBERS))
    document["plan"].update(copy.deepcopy(PLAN_MEMBERS))
    document["plan"]["items"][2].update(copy.deepcopy(ITEM_MEMBERS))
    return document


# -- the upstream constraints ------------------------------------------------------------------

#: Keywords that constrain a value (``format`` is an annotation in draft 2020-12).
CONSTRAINTS = ("type", "const", "enum", "pattern", "minLength", "minimum", "maximum", "minItems",
               "maxItems")
#: Where a path step ``[]`` (an array entry) lands in the document: the plan's probe item, or
#: the first entry of any other array.
ENTRY_INDEX = {("plan", "items"): 2}
#: A string that breaks each upstream pattern.
BROKEN_PATTERN = {
    "^[a-zA-Z0-9_-]+(\\.[a-zA-Z0-9_-]+)*$": "not an id",
    "^(#[a-zA-Z0-9_.-]+|file://.*|https://.*)$": "http://example.org/plan.xbrief.json",
    "^x-[a-zA-Z0-9_-]+/": "commit",
    "(Z|[+-]\\d{2}:\\d{2})$": "2026-10-14T09:30:00",
}
#: A value of another JSON type, per expected type (an integer's is a fraction, which only
#: an integer refuses).
WRONG_TYPE = {"object": "text", "array": "text", "string": 7, "integer": 1.5, "number": "7"}


class Constraint:
    """One upstream constraint at one place: ``site`` (a path of member names and ``[]``),
    ``keyword`` and, for ``required``/``not``, the member."""

    def __init__(self, site: tuple, keyword: str, member: str | None = None, *, schema=None):
        self.site, self.keyword, self.member, self.schema = site, keyword, member, schema

    @property
    def key(self) -> tuple:
        return self.site, self.keyword, self.member

    def __repr__(self):
        return f"Constraint({self.where()} {self.keyword} {self.member or ''})"

    def where(self) -> str:
        text = ""
        for step in self.site:
            text += "[]" if step == "[]" else ("." + step if text else step)
        return text or "the root"


def constraints(schema: dict) -> list[Constraint]:
    """Every constraint of the upstream core, at the place the cases check it: a shared
    definition's own constraints at its first place (in the schema's order), and at every
    later place the constraint that the value has the definition's shape."""
    defs = schema["$defs"]
    expanded: set[str] = set()
    found: list[Constraint] = []

    def visit(node: dict, site: tuple) -> None:
        ref = node.get("$ref")
        if ref:
            name = ref.rsplit("/", 1)[-1]
            if name in expanded:
                found.append(Constraint(site, "$ref", name, schema=defs[name]))
            else:
                expanded.add(name)
                visit(defs[name], site)
            return
        for part in node.get("allOf", ()):
            visit(part, site)
        for keyword in CONSTRAINTS:
            if keyword in node:
                found.append(Constraint(site, keyword, schema=node))
        for member in node.get("required", ()):
            found.append(Constraint(site, "required", member, schema=node))
        for branch in node.get("not", {}).get("anyOf", ()):
            for member in branch.get("required", ()):
                found.append(Constraint(site, "not", member, schema=node))
        for name, sub in node.get("properties", {}).items():
            visit(sub, site + (name,))
        if isinstance(node.get("items"), dict):
            visit(node["items"], site + ("[]",))
        if isinstance(node.get("additionalProperties"), dict):
            visit(node["additionalProperties"], site + ("*",))

    visit(schema, ())
    return _unique(found)


def _unique(found: list[Constraint]) -> list[Constraint]:
    seen, result = set(), []
    for constraint in found:
        if constraint.key not in seen:
            seen.add(constraint.key)
            result.append(constraint)
    return result


# -- placing a constraint in a document --------------------------------------------------------

def document_path(site: tuple) -> tuple:
    """The path in :func:`every_member_document` where a site's value lives."""
    path: list = []
    for step in site:
        if step == "[]":
            path.append(ENTRY_INDEX.get(tuple(path), 0))
        elif step == "*":
            path.append("Extra")
        else:
            path.append(step)
    return tuple(path)


def _get(node, path):
    for step in path:
        node = node[step]
    return node


def _has(node, path) -> bool:
    for step in path:
        if isinstance(node, dict) and step in node:
            node = node[step]
        elif isinstance(node, list) and isinstance(step, int) and step < len(node):
            node = node[step]
        else:
            return False
    return True


def installed(path: tuple) -> tuple[dict, tuple]:
    """The base document with the valid value of every member on ``path`` filled in from
    :func:`every_member_document`, and the path of the top member it filled in (``()`` when
    the base already had everything)."""
    document, full = base_document(), every_member_document()
    for depth in range(1, len(path) + 1):
        prefix = path[:depth]
        if not _has(document, prefix):
            if prefix == path and not _has(full, prefix):
                return document, ()  # a member set by the case itself (a named narrative)
            parent = _get(document, prefix[:-1])
            if isinstance(parent, list):
                parent.append(copy.deepcopy(_get(full, prefix)))
            else:
                parent[prefix[-1]] = copy.deepcopy(_get(full, prefix))
            return document, prefix
    return document, ()


def broken_value(constraint: Constraint):
    """A value that breaks ``constraint`` and nothing else the place asks."""
    schema, keyword = constraint.schema, constraint.keyword
    if keyword == "$ref":
        target = constraint.schema
        if "pattern" in target:
            return BROKEN_PATTERN[target["pattern"]]
        if "enum" in target:
            return "not-a-status"
        return WRONG_TYPE[target["type"]]
    if keyword == "type":
        return WRONG_TYPE[schema["type"]]
    if keyword == "const":
        return "0.9"
    if keyword == "enum":
        return "XX" if constraint.site[-1] == "[]" else "not-a-value"
    if keyword == "pattern":
        return BROKEN_PATTERN[schema["pattern"]]
    if keyword == "minLength":
        return ""
    if keyword == "minimum":
        return schema["minimum"] - 1
    if keyword == "maximum":
        return schema["maximum"] + 1
    if keyword == "minItems":
        return [1.5] * (schema["minItems"] - 1)
    if keyword == "maxItems":
        return [1.5] * (schema["maxItems"] + 1)
    raise ValueError(keyword)


def broken_document(constraint: Constraint) -> dict:
    path = document_path(constraint.site)
    if constraint.keyword == "required":
        document, _ = installed(path)
        del _get(document, path)[constraint.member]
        return document
    if constraint.keyword == "not":
        document, _ = installed(path)
        _get(document, path)[constraint.member] = {"items": []}
        return document
    if not path:
        return []  # the root itself: a document that is an array, not an object
    document, _ = installed(path)
    _get(document, path[:-1])[path[-1]] = broken_value(constraint)
    return document


#: Passdown rule codes a broken value entails beside the schema finding, stated by hand from
#: the spec: ``(site prefix, keyword) -> (errors, warnings)``. Without the plan or its items
#: nothing is pending (CKP-010), the next action names no item (CKP-014) and nothing is
#: completed (CKP-009); without narratives there is no Decisions (CKP-011) or Hazards
#: (CKP-012); an edge end that is not an id names no item (CKP-017).
NOTHING_LEFT = (["checkpoint.next_action_unknown", "checkpoint.no_pending_items"],
                ["checkpoint.no_completed_items"])
ENTAILED = {
    (("plan",), "type"): NOTHING_LEFT,
    ((), "required:plan"): NOTHING_LEFT,
    (("plan",), "required:items"): NOTHING_LEFT,
    (("plan", "items"), "type"): NOTHING_LEFT,
    (("plan", "narratives"), "type"): (["checkpoint.decisions_missing"], ["checkpoint.hazards_missing"]),
    (("plan", "edges", "[]", "from"), "pattern"): (["checkpoint.edge_dangling"], []),
    (("plan", "edges", "[]", "to"), "pattern"): (["checkpoint.edge_dangling"], []),
}


def entailed(constraint: Constraint) -> tuple[list, list]:
    keyword = constraint.keyword
    if keyword == "required":
        keyword = f"required:{constraint.member}"
    return ENTAILED.get((constraint.site, keyword), ([], []))


# -- the cases ---------------------------------------------------------------------------------

def _slug(text: str) -> str:
    """``changeLog`` -> ``change_log``; ``xBRIEFInfo`` -> ``xbrief_info``."""
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", text.replace("xBRIEFInfo", "xbriefInfo")).lower()


def constraint_id(constraint: Constraint) -> str:
    steps = ["entry" if s == "[]" else "any_member" if s == "*" else _slug(s) for s in constraint.site]
    keyword = "shape" if constraint.keyword == "$ref" else _slug(constraint.keyword)
    if constraint.keyword in ("required", "not"):
        keyword += "_" + _slug(constraint.member)
    return ".".join(["validate.checkpoint.xbrief", *(steps or ["root"]), keyword])


def _describe(constraint: Constraint) -> str:
    where = constraint.where()
    words = {
        "$ref": f"{where} without the shape of an xBRIEF {constraint.member}",
        "type": f"{where} of another JSON type than {constraint.schema.get('type')}",
        "const": f"{where} other than the constant {json.dumps(constraint.schema.get('const'))}",
        "enum": f"{where} outside its xBRIEF enumeration",
        "pattern": f"{where} that breaks its xBRIEF pattern",
        "minLength": f"{where} empty",
        "minimum": f"{where} below its minimum {constraint.schema.get('minimum')}",
        "maximum": f"{where} above its maximum {constraint.schema.get('maximum')}",
        "minItems": f"{where} with fewer than {constraint.schema.get('minItems')} entries",
        "maxItems": f"{where} with more than {constraint.schema.get('maxItems')} entries",
        "required": f"{where} without its required member {constraint.member}",
        "not": f"{where} with a {constraint.member} member, which xBRIEF 0.8 forbids",
    }[constraint.keyword]
    return f"{words[0].lower()}{words[1:]}: refused, as upstream refuses it"


def _requirements(constraint: Constraint) -> list[str]:
    timestamp = (constraint.member == "dateTime" or constraint.keyword == "pattern"
                 and constraint.schema.get("pattern") == "(Z|[+-]\\d{2}:\\d{2})$")
    return ["CKP-004", "GEN-004"] if timestamp else ["CKP-004"]


def _case(case_id, description, requirements, document, errors, warnings, *, tags, comment=None):
    case = {"id": case_id, "description": description, "requirements": requirements,
            "tags": tags}
    if comment:
        case["comment"] = comment
    case["input"] = {"kind": "checkpoint", "name": "continue.xbrief.json", "document": document}
    case["expected"] = {"output": {"valid": not errors, "errors": sorted(set(errors)),
                                   "warnings": sorted(set(warnings))},
                        "exit_code": 1 if errors else 0}
    return case


def schema_keywords(validator, document) -> set[str]:
    """The keywords of the errors upstream's ``validator`` reports for ``document``, as Passdown
    reports them: one fault, one finding, so a `not` that forbids members and fails on a
    value of the wrong type only because `required` holds there vacuously is left to the
    `type` error at the same place (spec/index.md)."""
    found = [(tuple(error.absolute_path), error.validator)
             for error in validator.iter_errors(document)]
    mistyped = {path for path, keyword in found if keyword == "type"}
    return {keyword for path, keyword in found if not (keyword == "not" and path in mistyped)}


def core_cases(schema: dict) -> list[dict]:
    """One refused case per upstream constraint, then one accepted case per member."""
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(schema)
    cases = []
    for constraint in constraints(schema):
        document = broken_document(constraint)
        keywords = sorted(schema_keywords(validator, document))
        assert keywords, f"upstream accepts the case for {constraint}"
        errors, warnings = entailed(constraint)
        cases.append(_case(
            constraint_id(constraint), _describe(constraint), _requirements(constraint), document,
            [f"schema.{_slug(k)}" for k in keywords] + errors, warnings, tags=["xbrief_core"],
            comment=f"upstream constraint: {constraint.where()} {constraint.keyword}"
                    + (f" {constraint.member}" if constraint.member else "")))
    # the satisfying side: every member with a valid value (bounds at a limit), one at a time
    for top in _members():
        document, _ = installed(top)
        where = ".".join(str(s) for s in top).replace("plan.items.2", "plan.items[]")
        cases.append(_case(
            "validate.checkpoint.xbrief.accepted." + ".".join(
                "entry" if s == 2 else _slug(s) for s in top),
            f"{where[0].lower()}{where[1:]} with a value valid under every upstream constraint is accepted",
            ["CKP-004", "CKP-024"], document, [], [], tags=["xbrief_core"]))
    cases.append(_case(
        "validate.checkpoint.xbrief.accepted.every_member",
        "a checkpoint using every member the xBRIEF 0.8 core defines, each valid, is accepted",
        ["CKP-004", "CKP-024"], every_member_document(), [], [], tags=["xbrief_core"]))
    return cases


def _members():
    """The members :func:`every_member_document` adds to the base document, in order."""
    base, full = base_document(), every_member_document()
    for prefix, holder in ((("xBRIEFInfo",), full["xBRIEFInfo"]), (("plan",), full["plan"]),
                           (PROBE, full["plan"]["items"][2])):
        for name in holder:
            if not _has(base, prefix + (name,)):
                yield prefix + (name,)


# -- Appendix C --------------------------------------------------------------------------------

def appendix_c(spec_text: str) -> dict[str, dict]:
    """``{"C.1": document, ...}``: the first JSON block under each Appendix C heading."""
    appendix = spec_text.split("## Appendix C", 1)[1]
    found = {}
    for match in re.finditer(r"### (C\.\d+)[^\n]*\n(.*?)(?=\n### |\Z)", appendix, re.S):
        block = re.search(r"```json\n(.*?)```", match.group(2), re.S)
        found[match.group(1)] = json.loads(block.group(1))
    return found


#: What each Appendix C example needs to become a checkpoint, beyond the Passdown block: the
#: item the next action names (which gets the ResumePoint), and whether it has completed
#: items (which need Decisions). C.3 is a finished retrospective: nothing is pending.
APPENDIX_NEEDS = {
    "C.1": ("fix-authentication-bug", []),
    "C.2": ("ga", ["phase1.auth"]),
    "C.3": (None, ["verify-tests", "check-db"]),
    "C.4": ("build", ["lint"]),
}
RESUME = "Start here: the first pending step, exactly as the plan names it."
DECISIONS = "Recorded for the checkpoint: the choices made so far."


def as_checkpoint(example: dict, next_item: str | None, completed: list) -> dict:
    """An Appendix C example with the Passdown block, a Decisions narrative when something is
    completed, and a ResumePoint on the next pending item. C.1's items have no ids, so its
    first pending item gets one: the next action must name it (CKP-014). Without a pending
    item (C.3) the next action names the first item."""
    document = copy.deepcopy(example)
    plan = document["plan"]
    if completed:
        plan.setdefault("narratives", {})["Decisions"] = DECISIONS
    if next_item is not None:
        item = _find(plan["items"], next_item)
        item.setdefault("narrative", {})["ResumePoint"] = RESUME
    document[BLOCK] = passdown_block(next_item or plan["items"][0]["id"], completed_items=completed,
                                  task=plan["title"])
    return document


def _find(items: list, wanted: str) -> dict:
    for item in items:
        if "id" not in item and item.get("status") == "pending":
            item["id"] = wanted  # C.1: the first pending item, which has no id
            return item
    stack = list(items)
    while stack:
        item = stack.pop(0)
        if item.get("id") == wanted:
            return item
        stack[:0] = item.get("items", [])
    raise KeyError(wanted)


def appendix_cases(spec_text: str) -> list[dict]:
    cases = []
    examples = appendix_c(spec_text)
    for name, example in examples.items():
        next_item, completed = APPENDIX_NEEDS[name]
        document = as_checkpoint(example, next_item, completed)
        slug = name.replace(".", "_").lower()
        if next_item is None:
            cases.append(_case(
                f"validate.checkpoint.appendix.{slug}_finished",
                f"appendix {name} is a finished plan: refused only because nothing is pending (CKP-010)",
                ["CKP-004", "CKP-010"], document, ["checkpoint.next_action_unknown",
                                                   "checkpoint.no_pending_items"],
                ["checkpoint.consumed", "checkpoint.hazards_missing"], tags=["xbrief_appendix_c"],
                comment="the example's plan is completed and every item too: a checkpoint needs "
                        "what remains (CKP-010), and a completed plan reads as consumed (CKP-022)"))
            resumed = copy.deepcopy(document)
            resumed["plan"]["status"] = "running"
            resumed["plan"]["items"].append(
                {"id": "revalidate-db", "title": "Revalidate the assumed DB fixtures", "status": "pending",
                 "narrative": {"ResumePoint": RESUME}})
            resumed[BLOCK]["next_action"]["item_id"] = "revalidate-db"
            cases.append(_case(
                f"validate.checkpoint.appendix.{slug}_with_a_pending_step",
                f"appendix {name} with a pending step and a running plan is accepted",
                ["CKP-004", "CKP-010"], resumed, [], ["checkpoint.hazards_missing"],
                tags=["xbrief_appendix_c"]))
            continue
        warnings = ["checkpoint.hazards_missing"] if completed else ["checkpoint.no_completed_items"]
        cases.append(_case(
            f"validate.checkpoint.appendix.{slug}",
            f"appendix {name} of the xBRIEF 0.8 spec, with the Passdown block and required narratives, is accepted",
            ["CKP-004", "CKP-015", "CKP-024"], document, [], warnings, tags=["xbrief_appendix_c"]))
    return cases


# -- what the rules read -----------------------------------------------------------------------

UNREAL = "2026-02-30T10:00:00+02:00"  # the form of a timestamp, but no such day


def _scope_case(slug, description, requirements, change, errors=(), warnings=()):
    document = base_document()
    change(document)
    return _case(f"validate.checkpoint.scope.{slug}", description, requirements, document,
                 list(errors), list(warnings), tags=["checkpoint_scope"])


def _container(**members):
    """Turn the probe item into a group rolled up with ``auto``, with ``members``."""
    def change(document):
        item = _get(document, PROBE)
        item.update(type="group", status="auto", **members)
    return change


def _set(path, value):
    def change(document):
        node = document
        for step in path[:-1]:
            node = node.setdefault(step, {}) if isinstance(step, str) else node[step]
        node[path[-1]] = value
    return change


def scope_cases() -> list[dict]:
    timestamp = ["checkpoint.timestamp"]
    return [
        _scope_case("auto_with_plan_refs_only",
                    "auto on a group whose only children are planRefs is accepted (0.8 counts them)",
                    ["CKP-015", "CKP-024"],
                    _container(planRefs=["file://./pending/a.xbrief.json", "file://./pending/b.xbrief.json"])),
        _scope_case("auto_with_a_plan_ref",
                    "auto on a group whose child is one planRef, the shorthand of planRefs, is accepted",
                    ["CKP-015", "CKP-024"], _container(planRef="file://./pending/a.xbrief.json")),
        _scope_case("auto_with_empty_plan_refs",
                    "auto on a group with an empty planRefs list and no items has no children: refused",
                    ["CKP-015"], _container(planRefs=[]), errors=["checkpoint.auto_on_leaf"]),
        _scope_case("timestamp_names_in_unknown_members",
                    "timestamp names inside undefined members are never judged; the block's "
                    "undefined member is warned about",
                    ["CKP-005", "CKP-024", "GEN-024"],
                    lambda d: (_get(d, PROBE).update(notes={"created": UNREAL, "sent_at": UNREAL}),
                               d["plan"].update(metadata={"updated": UNREAL}),
                               d["x-passdown/checkpoint"].update(extra={"since": UNREAL})),
                    warnings=["member.unknown"]),
        _scope_case("timestamp_change_log", "a change record's timestamp that names no real day is refused",
                    ["GEN-004"], _set(("plan", "changeLog"), [
                        {"sequence": 0, "timestamp": UNREAL, "agent": {"id": "a", "type": "human"},
                         "operation": "create"}]), errors=timestamp),
        _scope_case("timestamp_fork", "a fork's forkedAt that names no real day is refused", ["GEN-004"],
                    _set(("plan", "fork"), {"parentUid": "p", "parentSequence": 0, "forkedAt": UNREAL}),
                    errors=timestamp),
        _scope_case("timestamp_recurrence", "a recurrence's until that names no real day is refused",
                    ["GEN-004"], _set(PROBE + ("recurrence",), {"frequency": "daily", "until": UNREAL}),
                    errors=timestamp),
        _scope_case("timestamp_lock", "a lock's expiresAt that names no real day is refused", ["GEN-004"],
                    _set(PROBE + ("lockedBy",), {"agent": {"id": "a", "type": "human"},
                                                 "acquiredAt": AT, "type": "soft", "expiresAt": UNREAL}),
                    errors=timestamp),
        _scope_case("timestamp_failed_attempt", "a failed attempt's at that names no real day is refused",
                    ["GEN-004"], _set((BLOCK, "failed_attempts"), [
                        {"summary": "Tried a regex.", "reason": "It failed.", "at": UNREAL}]),
                    errors=timestamp),
    ]


# -- the files ---------------------------------------------------------------------------------

def documents(folder: Path) -> dict[str, dict]:
    """``{file name: fixture document}`` for every file this builder owns."""
    import xbrief_legacy

    schema = upstream_schema(folder)
    spec_text = (folder / SPEC).read_text(encoding="utf-8")
    return {
        "checkpoint_xbrief.json": {
            "gate": "validate",
            "description": "the checkpoint against every constraint of the xBRIEF 0.8 core: each broken, each kept",
            "comment": "built by tests/support/xbrief_fixtures.py from the upstream 0.8 core schema",
            "cases": core_cases(schema),
        },
        "checkpoint_appendix_c.json": {
            "gate": "validate",
            "description": "the complete examples of the xBRIEF 0.8 spec (Appendix C) as checkpoints",
            "comment": "built by tests/support/xbrief_fixtures.py from the upstream 0.8 spec text",
            "cases": appendix_cases(spec_text),
        },
        "checkpoint_scope.json": {
            "gate": "validate",
            "description": "what the checkpoint rules read: auto over plan references, timestamps where defined",
            "comment": "built by tests/support/xbrief_fixtures.py; the expected codes are stated by hand",
            "cases": scope_cases(),
        },
        "checkpoint_legacy.json": {
            "gate": "validate",
            "description": "legacy checkpoints (xBRIEF 0.4 to 0.7, vBRIEF) are read with a warning, never refused for the version",
            "comment": "built by tests/support/xbrief_fixtures.py from the legacy documents in tests/support/xbrief_legacy.py",
            "cases": xbrief_legacy.validate_cases(),
        },
    }


def render(document: dict) -> str:
    """The fixture file: indented, except each case's document, which is one line (the cases
    repeat the same small checkpoint hundreds of times), stamped with the gate's version."""
    from passdown.conformance.versions import stamp_document

    documents, marked = [], stamp_document(copy.deepcopy(document))
    for case in marked["cases"]:
        documents.append(case["input"]["document"])
        case["input"]["document"] = f"@document {len(documents) - 1}@"
    text = json.dumps(marked, indent=2, ensure_ascii=False) + "\n"
    return re.sub(r'"@document (\d+)@"',
                  lambda m: json.dumps(documents[int(m.group(1))], ensure_ascii=False), text)


def main(argv) -> int:
    folder = upstream_dir()
    if folder is None:
        print(f"no upstream folder at {UPSTREAM_RELATIVE} beside the repository", file=sys.stderr)
        return 2
    sys.path.insert(0, str(HERE))
    stale = []
    for name, document in documents(folder).items():
        path = CASES / name
        text = render(document)
        if "--write" in argv:
            path.write_text(text, encoding="utf-8")
        elif not path.is_file() or path.read_text(encoding="utf-8") != text:
            stale.append(name)
    for name in stale:
        print(f"stale: conformance/cases/validate/{name}", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
