#!/usr/bin/env bash
# A member renamed by a slip of the keyboard: the schema misses the real one, and the
# warning names the member the misspelt one stands for.
# needs: validate
# exit: 0
# stdout: error schema.required
# stdout: warning member.unknown
# stdout: did you mean `mission`?
# stdout: exit status 1
set -euo pipefail
sed -i 's/"mission":/"mision":/' xbrief/continue.xbrief.json
# --8<-- [start:example]
baton validate xbrief/continue.xbrief.json || echo "exit status $?"
# --8<-- [end:example]
