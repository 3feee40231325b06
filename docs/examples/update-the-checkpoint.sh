#!/usr/bin/env bash
# Record progress as it happens: a completed step with its evidence, the resume point.
# needs: checkpoint add-completed
# needs: checkpoint set-resume
# needs: validate
# exit: 0
# stdout: no findings
set -euo pipefail
# --8<-- [start:example]
baton checkpoint add-completed "Migrate reports/monthly.py" \
  --id migrate-callers.reports \
  --evidence "commit 9b1d2e4" --evidence "pytest tests/reports -q: 18 passed"
baton checkpoint set-resume \
  "Open ledger/cli.py, import ledger.parsing.csv, run pytest tests/cli -q."
baton checkpoint show
baton validate xbrief/continue.xbrief.json
# --8<-- [end:example]
