#!/usr/bin/env bash
# Hand over a fresh goal: render the packet (which registers the attempt first), then record
# the successor's creation receipt.
# needs: init
# needs: checkpoint add-completed
# needs: packet render
# needs: attempt created
# needs: attempt show
# exit: 0
# stdout: written and read back
# stdout: GOAL_ID: goal-invoice-export
# stdout: RESTART_ID: rst-invoice-export-1
# stdout: attempt rst-invoice-export-1: registered
# stdout: attempt rst-invoice-export-1: created
set -euo pipefail
mkdir ../new-goal && cd ../new-goal  # beside the example handoff, not inside it
passdown init --goal-id goal-invoice-export --main-id sess-7f3a \
  --outcome "Invoices export to CSV; tests/export passes" \
  --next "Write the CSV writer in billing/export.py" >/dev/null
passdown checkpoint add-pending "Test the export" >/dev/null
passdown checkpoint add-completed "Write the CSV writer in billing/export.py" \
  --evidence "commit 1a2b3c4" >/dev/null
passdown checkpoint decision "CSV through the standard library; no new dependency" >/dev/null
# --8<-- [start:render]
passdown packet render --source-id sess-7f3a --restart-id rst-invoice-export-1 \
  --branch main --head 1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b
cat continuation.packet.txt
passdown attempt show rst-invoice-export-1
# --8<-- [end:render]
# --8<-- [start:created]
passdown attempt created rst-invoice-export-1 --target-id sess-9c2e \
  --detail "created by agent-cli sessions new; id read back"
passdown attempt show rst-invoice-export-1
# --8<-- [end:created]
