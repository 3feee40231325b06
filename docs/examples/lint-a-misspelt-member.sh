#!/usr/bin/env bash
# A member renamed by a slip of the keyboard: the schema misses the real one, and the
# warning names the member the misspelt one stands for.
# needs: validate
# needs: attempt commit
# needs: attempt takeover
# needs: consume
# needs: checkpoint reopen
# needs: checkpoint set
# exit: 0
# stdout: error schema.required
# stdout: warning member.unknown
# stdout: did you mean `mission`?
# stdout: exit status 1
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
sed -i 's/"mission":/"mision":/' xbrief/continue.xbrief.json
# --8<-- [start:example]
passdown validate xbrief/continue.xbrief.json || echo "exit status $?"
# --8<-- [end:example]
