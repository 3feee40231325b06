#!/usr/bin/env bash
# Record progress as it happens: a completed step with its evidence, the resume point.
# needs: checkpoint add-completed
# needs: checkpoint set-resume
# needs: validate
# needs: attempt commit
# needs: attempt takeover
# needs: consume
# needs: checkpoint reopen
# needs: checkpoint set
# exit: 0
# stdout: no findings
set -euo pipefail
# The example handoff is mid-transfer (its attempt acknowledged): take it over and resume first, so
# the checkpoint is the new owner's to write (a change before the commit would void the ACK, and
# `passdown validate` would say so: crossfile.checkpoint_changed).
passdown attempt commit rst-20261014-0915-parser >/dev/null
passdown attempt takeover rst-20261014-0915-parser \
  --target-id sess-2026-10-14-c07d --fencing-epoch 5 >/dev/null
passdown consume >/dev/null
passdown checkpoint reopen --incarnation-id inc-01JA3M5R7TX2W8Y4 >/dev/null
passdown checkpoint set epoch 5 --epoch 5 >/dev/null
# --8<-- [start:example]
passdown checkpoint add-completed "Migrate reports/monthly.py" \
  --id migrate-callers.reports \
  --evidence "commit 9b1d2e4" --evidence "pytest tests/reports -q: 18 passed"
passdown checkpoint set-resume \
  "Open ledger/cli.py, import ledger.parsing.csv, run pytest tests/cli -q."
passdown checkpoint show
passdown validate xbrief/continue.xbrief.json
# --8<-- [end:example]
