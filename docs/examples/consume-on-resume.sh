#!/usr/bin/env bash
# The resuming session marks the checkpoint consumed once it has taken over; from then on
# the linter warns that it must not be resumed from again.
# needs: consume
# needs: validate
# exit: 0
# stdout: checkpoint consumed
# stdout: warning checkpoint.consumed
set -euo pipefail
# --8<-- [start:example]
baton consume
baton validate xbrief/continue.xbrief.json
# --8<-- [end:example]
