#!/usr/bin/env bash
# On resume, the SessionStart hook puts the current checkpoint into the model's context.
# needs: hook claude
# exit: 0
# stdout: The checkpoint, not the conversation, is the source of truth
set -euo pipefail
# --8<-- [start:example]
echo '{"session_id": "abc123", "hook_event_name": "SessionStart", "source": "resume"}' |
  CLAUDE_PROJECT_DIR=$PWD passdown hook claude SessionStart |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["hookSpecificOutput"]["additionalContext"])'
# --8<-- [end:example]
