#!/usr/bin/env bash
# Start a new goal: a checkpoint and a registry, created together, then linted.
# needs: init
# needs: validate
# exit: 0
# stdout: created ./xbrief/continue.xbrief.json and ./registry.yaml (revision 1)
# stdout: warning checkpoint.no_completed_items
# stdout: 2 files checked: 0 errors, 1 warning
set -euo pipefail
mkdir ../new-goal && cd ../new-goal  # beside the example handoff, not inside it
# --8<-- [start:example]
passdown init --goal-id goal-invoice-export --main-id sess-7f3a \
  --outcome "Invoices export to CSV; tests/export passes" \
  --next "Write the CSV writer in billing/export.py"
passdown validate .
# --8<-- [end:example]
