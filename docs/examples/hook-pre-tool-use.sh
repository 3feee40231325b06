#!/usr/bin/env bash
# The PreToolUse hook on two Bash calls as Claude Code sends them: a restart of the host's
# service is denied, naming the restart tool; a commit message that mentions kill passes.
# needs: hook claude
# exit: 0
# stdout: "permissionDecision": "deny"
# stdout: allowed: nothing printed
set -euo pipefail
# --8<-- [start:example]
echo '{"session_id": "abc123", "hook_event_name": "PreToolUse", "tool_name": "Bash",
       "tool_input": {"command": "systemctl --user restart dsh.service"}}' |
  passdown hook claude PreToolUse --service-unit dsh.service --restart-tool restart_dsh
out=$(echo '{"session_id": "abc123", "hook_event_name": "PreToolUse", "tool_name": "Bash",
       "tool_input": {"command": "git commit -m \"guard: never kill -1\""}}' |
  passdown hook claude PreToolUse --restart-tool restart_dsh)
echo "allowed: ${out:-nothing printed}"
# --8<-- [end:example]
