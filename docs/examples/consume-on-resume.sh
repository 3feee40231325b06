#!/usr/bin/env bash
# The resuming session marks the checkpoint consumed once it has taken over; from then on
# the linter warns that it must not be resumed from again.
# needs: consume
# needs: validate
# exit: 0
# stdout: checkpoint consumed
# stdout: warning checkpoint.consumed
set -euo pipefail
# The example handoff is mid-transfer (its attempt acknowledged): take it over first, so the
# checkpoint is the new owner's to write (a change before the commit would void the ACK, and
# `passdown validate` would say so: crossfile.checkpoint_changed).
passdown attempt commit rst-20261014-0915-parser >/dev/null
passdown attempt takeover rst-20261014-0915-parser \
  --target-id sess-2026-10-14-c07d --fencing-epoch 5 >/dev/null
# --8<-- [start:example]
passdown consume
passdown validate xbrief/continue.xbrief.json
# --8<-- [end:example]
