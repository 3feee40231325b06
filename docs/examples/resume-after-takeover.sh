#!/usr/bin/env bash
# After a takeover: the folder check names the checkpoint the source handed over until the
# session that took over consumes it; its own first write then replaces it.
# needs: attempt commit
# needs: attempt takeover
# needs: validate
# needs: consume
# needs: checkpoint reopen
# needs: checkpoint set
# exit: 0
# stdout: crossfile.checkpoint_not_consumed
# stdout: checkpoint consumed
# stdout: no findings
set -euo pipefail
passdown attempt commit rst-20261014-0915-parser --authority local > /dev/null
passdown attempt takeover rst-20261014-0915-parser \
  --target-id sess-2026-10-14-c07d --fencing-epoch 5 > /dev/null
# --8<-- [start:resume]
passdown validate . || echo "exit status $?"   # the handed-over checkpoint is not consumed yet
passdown consume                               # the session that took over resumed from it
# Its first own write replaces the consumed checkpoint: a new incarnation, its own epoch.
passdown checkpoint reopen --incarnation-id inc-01JA3M5R7TX2W8Y4
passdown checkpoint set epoch 5 --epoch 5
passdown validate .
# --8<-- [end:resume]
