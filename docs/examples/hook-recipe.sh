#!/usr/bin/env bash
# The repository's hook recipe (examples/hooks/passdown-checkpoint-hook.sh): write one change
# through passdown, lint it, record its digest; the next session checks the digest first.
# needs: checkpoint add-completed
# needs: validate
# needs: digest
# needs: attempt commit
# needs: attempt takeover
# needs: consume
# needs: checkpoint reopen
# needs: checkpoint set
# exit: 0
# stdout: "ok": true
# stdout: xbrief/continue.xbrief.json: OK
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
PATH="$(cd "$(dirname "$0")/../../examples/hooks" && pwd):$PATH"
# --8<-- [start:example]
passdown-checkpoint-hook.sh add-completed "Migrate reports/monthly.py" \
  --id migrate-callers.reports --evidence "commit 9b1d2e4"
# ...and in the next session, before trusting the file:
passdown digest --check xbrief/continue.digest
# --8<-- [end:example]
