"""Legacy checkpoints, one per version Passdown reads (xBRIEF 0.4 with a ``todoList``, a
``plan`` or a ``playbook`` root; 0.5; 0.6; 0.7; called vBRIEF with a ``vBRIEFInfo`` header
until the rename at 0.7), each with the xBRIEF 0.8 document ``passdown migrate`` must make of
it, written out by hand from upstream's migration guide (MIGRATION.md) and spec/authoring.md.

Used by the migration tests (field by field) and by :mod:`xbrief_fixtures` for the validate
gate's legacy cases (each read with the legacy warning, never refused for its version).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

#: A real 0.5 file (deft's spec-stale fixture, see tests/data/real/MANIFEST.json): the
#: validate gate's cases on what migration copies unchanged are cut from it (CKP-033).
REAL_SPEC_STALE = Path(__file__).resolve().parents[1] / "data" / "real" / "deft-spec-stale-0.5.vbrief.json"

PLACEHOLDER = "[placeholder written by passdown migrate]"
DECISIONS = (f"{PLACEHOLDER} The legacy checkpoint recorded no decisions: replace this with the "
             "choices made so far, or with `none yet`.")


def resume(title: str) -> str:
    return (f"{PLACEHOLDER} The legacy checkpoint named no resume point: replace this with the "
            f"exact first thing to do. The step: {title}")


#: ``name -> (file name, legacy document, migrated document without the Passdown block,
#: the next action's item id, the warnings' paths, validate warnings)``.
LEGACY = {}

LEGACY["0.4-todolist"] = (
    "continue.xbrief.json",
    {
        "xBRIEFInfo": {"version": "0.4", "created": "2026-09-01T08:00:00Z"},
        "todoList": {
            "items": [
                {"id": "fix-bug", "title": "Fix bug", "status": "completed", "priority": "high",
                 "tags": ["auth"], "completed": "2026-09-02T10:00:00Z"},
                {"title": "Review PR", "status": "inProgress",
                 "uris": [{"uri": "https://git.example.org/acme/app/pull/12"}]},
                {"title": "Write release notes", "status": "pending", "dependencies": ["fix-bug"],
                 "dueDate": "2026-09-05T17:00:00+02:00", "percentComplete": 0},
            ],
        },
    },
    {
        "xBRIEFInfo": {"version": "0.8", "created": "2026-09-01T08:00:00Z"},
        "plan": {
            "title": "Tasks",
            "status": "running",
            "items": [
                {"id": "fix-bug", "title": "Fix bug", "status": "completed", "priority": "high",
                 "tags": ["auth"], "completed": "2026-09-02T10:00:00Z"},
                {"id": "review-pr", "title": "Review PR", "status": "running",
                 "uris": [{"uri": "https://git.example.org/acme/app/pull/12"}]},
                {"id": "write-release-notes", "title": "Write release notes", "status": "pending",
                 "dueDate": "2026-09-05T17:00:00+02:00", "percentComplete": 0,
                 "narrative": {"ResumePoint": resume("Write release notes")}},
            ],
            "edges": [{"from": "fix-bug", "to": "write-release-notes", "type": "blocks"}],
            "narratives": {"Decisions": DECISIONS},
        },
    },
    "write-release-notes",
    ["$.plan.narratives.Decisions", "$.plan.items[2].narrative.ResumePoint"],
    ["checkpoint.hazards_missing", "checkpoint.legacy_vbrief"],
)

LEGACY["0.4-plan"] = (
    "continue.vbrief.json",
    {
        "vBRIEFInfo": {"version": "0.4", "author": "agent"},
        "plan": {
            "title": "Ship the importer",
            "status": "running",
            "narratives": {"proposal": "Import CSV files.", "Decisions": "Use the csv module."},
            "items": [
                {"id": "parse", "title": "Parse rows", "status": "completed"},
                {"id": "phase1", "title": "Phase 1", "status": "inProgress",
                 "todoList": {"items": [
                     {"title": "Subtask 1", "status": "completed"},
                     {"title": "Subtask 2", "status": "pending",
                      "narrative": {"ResumePoint": "Open importer.py and add the header check."}},
                 ]}},
                {"id": "release", "title": "Release", "status": "pending",
                 "dependencies": ["parse", "phase1"]},
            ],
        },
    },
    {
        "xBRIEFInfo": {"version": "0.8", "author": "agent"},
        "plan": {
            "title": "Ship the importer",
            "status": "running",
            "narratives": {"proposal": "Import CSV files.", "Decisions": "Use the csv module."},
            "items": [
                {"id": "parse", "title": "Parse rows", "status": "completed"},
                {"id": "phase1", "title": "Phase 1", "status": "running",
                 "items": [
                     {"id": "phase1.subtask-1", "title": "Subtask 1", "status": "completed"},
                     {"id": "phase1.subtask-2", "title": "Subtask 2", "status": "pending",
                      "narrative": {"ResumePoint": "Open importer.py and add the header check."}},
                 ]},
                {"id": "release", "title": "Release", "status": "pending"},
            ],
            "edges": [{"from": "parse", "to": "release", "type": "blocks"},
                      {"from": "phase1", "to": "release", "type": "blocks"}],
        },
    },
    "phase1.subtask-2",
    [],
    ["checkpoint.hazards_missing", "checkpoint.legacy_vbrief"],
)

LEGACY["0.4-playbook"] = (
    "continue.xbrief.json",
    {
        "xBRIEFInfo": {"version": "0.4"},
        "playbook": {
            "title": "Incident response",
            "items": [
                {"title": "Database outage", "status": "completed",
                 "content": "We restored service in 45 minutes."},
                {"title": "Automate failover", "status": "pending"},
            ],
        },
    },
    {
        "xBRIEFInfo": {"version": "0.8"},
        "plan": {
            "status": "running",
            "title": "Incident response",
            "items": [
                {"id": "database-outage", "title": "Database outage", "status": "completed",
                 "content": "We restored service in 45 minutes."},
                {"id": "automate-failover", "title": "Automate failover", "status": "pending",
                 "narrative": {"ResumePoint": resume("Automate failover")}},
            ],
            "narratives": {"Decisions": DECISIONS},
        },
    },
    "automate-failover",
    ["$.plan.narratives.Decisions", "$.plan.items[1].narrative.ResumePoint"],
    ["checkpoint.hazards_missing", "checkpoint.legacy_vbrief"],
)

LEGACY["0.5"] = (
    "continue.vbrief.json",
    {
        "vBRIEFInfo": {"version": "0.5", "description": "Continue checkpoint"},
        "plan": {
            "id": "report-export",
            "title": "Export monthly reports as CSV",
            "status": "running",
            "narratives": {"Decisions": "CSV, not XLSX: finance imports CSV.",
                           "Hazards": "The export job runs at 02:00; never deploy then."},
            "items": [
                {"id": "schema", "title": "Agree the column schema", "status": "completed",
                 "references": [{"uri": "https://git.example.org/acme/reports/pull/41",
                                 "type": "x-vbrief/github-pr", "title": "Column schema"}]},
                {"id": "writer", "title": "Write the CSV writer", "status": "running",
                 "subItems": [
                     {"id": "writer.core", "title": "Core writer", "status": "completed"},
                     {"id": "writer.escape", "title": "Escape separators", "status": "pending",
                      "narrative": {"ResumePoint": "Add a failing test for a quoted comma."}},
                 ]},
                {"id": "docs", "title": "Document the export", "status": "blocked"},
            ],
            "edges": [{"from": "schema", "to": "writer", "type": "blocks"}],
            "references": [{"uri": "https://tracker.example.org/REP-77", "type": "x-vbrief/context"}],
        },
    },
    {
        "xBRIEFInfo": {"version": "0.8", "description": "Continue checkpoint"},
        "plan": {
            "id": "report-export",
            "title": "Export monthly reports as CSV",
            "status": "running",
            "narratives": {"Decisions": "CSV, not XLSX: finance imports CSV.",
                           "Hazards": "The export job runs at 02:00; never deploy then."},
            "items": [
                {"id": "schema", "title": "Agree the column schema", "status": "completed",
                 "references": [{"uri": "https://git.example.org/acme/reports/pull/41",
                                 "type": "x-xbrief/github-pr", "title": "Column schema"}]},
                {"id": "writer", "title": "Write the CSV writer", "status": "running",
                 "items": [
                     {"id": "writer.core", "title": "Core writer", "status": "completed"},
                     {"id": "writer.escape", "title": "Escape separators", "status": "pending",
                      "narrative": {"ResumePoint": "Add a failing test for a quoted comma."}},
                 ]},
                {"id": "docs", "title": "Document the export", "status": "blocked"},
            ],
            "edges": [{"from": "schema", "to": "writer", "type": "blocks"}],
            "references": [{"uri": "https://tracker.example.org/REP-77", "type": "x-vbrief/context"}],
        },
    },
    "writer.escape",
    [],
    ["checkpoint.legacy_vbrief"],
)

LEGACY["0.6"] = (
    "continue.vbrief.json",
    {
        "vBRIEFInfo": {"version": "0.6", "x-vbrief/origin": {"tool": "deft", "revision": 12}},
        "plan": {
            "title": "Harden the upload service",
            "status": "running",
            "narratives": {"Decisions": "Retry uploads three times, then fail.",
                           "Hazards": "The staging bucket is shared with the QA team."},
            "items": [
                {"id": "retries", "title": "Add upload retries", "status": "completed",
                 "type": "task",
                 "references": [{"uri": "https://git.example.org/acme/upload/commit/4be1",
                                 "type": "x-vbrief/commit"}]},
                {"id": "flaky-test", "title": "Fix the flaky upload test", "status": "failed",
                 "type": "bug", "summary": 3},
                {"id": "limits", "title": "Enforce size limits", "status": "pending",
                 "items": [{"id": "limits.config", "title": "Read the limit from config",
                            "status": "pending"}],
                 "narrative": {"ResumePoint": "Add max_upload_bytes to config.toml."}},
            ],
        },
    },
    {
        "xBRIEFInfo": {"version": "0.8", "x-vbrief/origin": {"tool": "deft", "revision": 12}},
        "plan": {
            "title": "Harden the upload service",
            "status": "running",
            "narratives": {"Decisions": "Retry uploads three times, then fail.",
                           "Hazards": "The staging bucket is shared with the QA team."},
            "items": [
                {"id": "retries", "title": "Add upload retries", "status": "completed",
                 "type": "task",
                 "references": [{"uri": "https://git.example.org/acme/upload/commit/4be1",
                                 "type": "x-xbrief/commit"}]},
                {"id": "flaky-test", "title": "Fix the flaky upload test", "status": "failed",
                 "x-vbrief/type": "bug", "x-vbrief/summary": 3},
                {"id": "limits", "title": "Enforce size limits", "status": "pending",
                 "items": [{"id": "limits.config", "title": "Read the limit from config",
                            "status": "pending"}],
                 "narrative": {"ResumePoint": "Add max_upload_bytes to config.toml."}},
            ],
        },
    },
    "limits",
    [],
    ["checkpoint.legacy_vbrief"],
)

LEGACY["0.7"] = (
    "continue.xbrief.json",
    {
        "x-acme-ci/run": {"pipeline": 77},
        "xBRIEFInfo": {"version": "0.7", "updated": "2026-10-01T12:00:00Z"},
        "plan": {
            "title": "Migrate the billing jobs",
            "status": "running",
            "items": [
                {"title": "Inventory the jobs", "status": "completed",
                 "references": [{"uri": "file://./notes/jobs.md", "type": "x-xbrief/context"}]},
                {"title": "Port the nightly job", "status": "pending", "type": "chore",
                 "subItems": [{"title": "Rewrite the cron entry", "status": "pending"}]},
                {"title": "Port the nightly job", "status": "pending"},
            ],
            "references": [{"uri": "file://./xbrief/active/billing.xbrief.json",
                            "type": "x-xbrief/plan"}],
            "x-acme/owner": "billing",
        },
    },
    {
        "x-acme-ci/run": {"pipeline": 77},
        "xBRIEFInfo": {"version": "0.8", "updated": "2026-10-01T12:00:00Z"},
        "plan": {
            "title": "Migrate the billing jobs",
            "status": "running",
            "items": [
                {"id": "inventory-the-jobs", "title": "Inventory the jobs", "status": "completed",
                 "references": [{"uri": "file://./notes/jobs.md", "type": "x-vbrief/context"}]},
                {"id": "port-the-nightly-job", "title": "Port the nightly job", "status": "pending",
                 "x-vbrief/type": "chore",
                 "items": [{"id": "port-the-nightly-job.rewrite-the-cron-entry",
                            "title": "Rewrite the cron entry", "status": "pending"}],
                 "narrative": {"ResumePoint": resume("Port the nightly job")}},
                {"id": "port-the-nightly-job-2", "title": "Port the nightly job", "status": "pending"},
            ],
            "references": [{"uri": "file://./xbrief/active/billing.xbrief.json",
                            "type": "x-xbrief/plan"}],
            "x-acme/owner": "billing",
            "narratives": {"Decisions": DECISIONS},
        },
    },
    "port-the-nightly-job",
    ["$.plan.narratives.Decisions", "$.plan.items[1].narrative.ResumePoint"],
    ["checkpoint.hazards_missing", "checkpoint.legacy_vbrief"],
)


def validate_cases() -> list[dict]:
    """The validate gate's cases: each legacy document read with the legacy warning (and the
    Hazards warning where it has completed work and no Hazards), never an error for its
    version; then the real file's cases (:func:`real_cases`)."""
    cases = []
    for name, (file_name, legacy, _, _, _, warnings) in LEGACY.items():
        version, _, root = name.partition("-")
        shape = f" with a {root} root" if root else ""
        cases.append({
            "id": "validate.checkpoint.legacy." + name.replace(".", "_").replace("-", "_"),
            "description": f"a legacy {version} checkpoint{shape} is read with a warning, not refused",
            "requirements": ["CKP-003", "VER-008"],
            "tags": ["legacy"],
            "input": {"kind": "checkpoint", "name": file_name, "document": legacy},
            "expected": {"output": {"valid": True, "errors": [], "warnings": sorted(warnings)},
                         "exit_code": 0},
        })
    return cases + real_cases()


def _case(case_id, description, requirements, document, errors):
    """One validate case on a change of the real spec-stale file, named as deft names it."""
    return {
        "id": "validate.checkpoint.legacy." + case_id,
        "description": description,
        "requirements": requirements,
        "tags": ["legacy"],
        "input": {"kind": "checkpoint", "name": "continue.vbrief.json", "document": document},
        "expected": {"output": {"valid": not errors, "errors": errors,
                                "warnings": ["checkpoint.legacy_fix", "checkpoint.legacy_vbrief",
                                             "checkpoint.no_completed_items"]},
                     "exit_code": 1 if errors else 0},
    }


def real_cases() -> list[dict]:
    """The real 0.5 file as it is, then with an item status no version maps, then without the
    plan title 0.8 requires: validate errs exactly where migrate finds a fatal problem."""
    real = json.loads(REAL_SPEC_STALE.read_text(encoding="utf-8"))
    unmapped = copy.deepcopy(real)
    unmapped["plan"]["items"][0]["status"] = "done"
    untitled = copy.deepcopy(real)
    del untitled["plan"]["title"]
    return [
        _case("real_reference_without_uri",
              "a real 0.5 file (deft's spec-stale fixture) with a reference of no namespace and no "
              "uri: forms --fix makes, so warnings", ["CKP-031", "CKP-033"], real, []),
        _case("unmapped_status",
              "that file with an item status no version maps: migrate copies it, 0.8 refuses it, "
              "so validate errs as migrate does", ["CKP-033"], unmapped,
              ["checkpoint.no_pending_items", "schema.enum"]),
        _case("plan_without_title",
              "that file without its plan title, which 0.8 requires and migration does not add: "
              "an error, as in migrate", ["CKP-033"], untitled, ["schema.required"]),
    ]
