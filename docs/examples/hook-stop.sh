#!/usr/bin/env bash
# Work committed after the checkpoint was written: the Stop hook tells the model to update
# the checkpoint before it stops.
# needs: hook claude
# exit: 0
# stdout: is older than the last completed work
# stdout: Update it now, before you stop
set -euo pipefail
export GIT_AUTHOR_NAME=dev GIT_AUTHOR_EMAIL=dev@example.org GIT_COMMITTER_NAME=dev GIT_COMMITTER_EMAIL=dev@example.org
git init -q . && git add -A && git commit -qm "The handoff so far"
mkdir -p reports && echo "from ledger.parsing import csv" > reports/monthly.py
# --8<-- [start:example]
git add reports/monthly.py && git commit -qm "Migrate reports/monthly.py"
echo '{"session_id": "abc123", "hook_event_name": "Stop", "stop_hook_active": false}' |
  CLAUDE_PROJECT_DIR=$PWD passdown hook claude Stop
# --8<-- [end:example]
