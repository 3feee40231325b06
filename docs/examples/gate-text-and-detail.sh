#!/usr/bin/env bash
# A decision for people, and the field a refused input got wrong (on stderr, here shown
# with 2>&1): the published JSON on stdout is the same as ever.
# needs: gate
# exit: 0
# stdout: restart: BLOCKED (exit status 2)
# stdout: passdown: detail: `schema` is "1" (a string)
# stdout: exit status 2
set -euo pipefail
# --8<-- [start:example]
echo '{"schema": "1", "source_id": "sess-7f3a", "goal_id": "goal-invoice-export"}' \
  | passdown gate restart --format text 2>&1 || echo "exit status $?"
# --8<-- [end:example]
