#!/usr/bin/env bash
# A project still keeps its checkpoint in the legacy vBRIEF form: lint it, migrate it, lint
# the result.
# needs: validate
# needs: migrate
# exit: 0
# stdout: warning checkpoint.legacy_vbrief
# stdout: (1 warning)
# stdout: "type": "x-xbrief/github-issue"
# stdout: "type": "x-vbrief/context"
# stderr: warning authoring.placeholder
set -uo pipefail
mkdir legacy-project && cd legacy-project
mkdir vbrief
cat > vbrief/continue.vbrief.json <<'JSON'
# --8<-- [start:legacy]
{
  "vBRIEFInfo": {"version": "0.6", "description": "Continue checkpoint"},
  "plan": {
    "title": "Add CSV export to invoices",
    "status": "running",
    "narratives": {
      "Decisions": "Write CSV with the standard library; no new dependency.",
      "Hazards": "Amounts are Decimal: never format them through float."
    },
    "references": [
      {"uri": "https://example.org/issues/42", "type": "x-vbrief/github-issue",
       "title": "Issue 42: CSV export"},
      {"uri": "https://example.org/notes/csv", "type": "x-vbrief/context"}
    ],
    "items": [
      {"id": "writer", "title": "Write the CSV writer", "status": "completed"},
      {"title": "Test the export", "status": "pending"}
    ]
  }
}
# --8<-- [end:legacy]
JSON
sed -i '/--8<--/d' vbrief/continue.vbrief.json
# --8<-- [start:lint]
passdown validate vbrief/continue.vbrief.json
# --8<-- [end:lint]
set -e
# --8<-- [start:migrate]
passdown migrate --goal-id goal-invoice-export --main-id sess-7f3a \
  --outcome "Invoices export to CSV; tests/export passes"
passdown validate xbrief/continue.xbrief.json
# --8<-- [end:migrate]
# --8<-- [start:result]
grep -E '"(id|type|ResumePoint)"' xbrief/continue.xbrief.json
# --8<-- [end:result]
