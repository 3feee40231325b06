#!/usr/bin/env bash
# Installing merges Passdown's entries into settings that hold other hooks and settings;
# installing again changes nothing; uninstalling gives back the file byte for byte.
# needs: hook install
# needs: hook uninstall
# exit: 0
# stdout: byte for byte as before
set -euo pipefail
unset CLAUDE_PROJECT_DIR CLAUDE_CONFIG_DIR
mkdir -p .claude
cat > .claude/settings.json <<'JSON'
{
  "model": "opus",
  "permissions": {"allow": ["Bash(pytest:*)"]},
  "hooks": {
    "PostToolUse": [
      {"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "ruff format"}]}
    ]
  }
}
JSON
cp .claude/settings.json settings.before
# --8<-- [start:example]
passdown hook install claude --project --command passdown | tail -n 1
passdown hook install claude --project --command passdown
passdown hook uninstall claude --project | tail -n 1
cmp .claude/settings.json settings.before && echo "byte for byte as before"
# --8<-- [end:example]
