#!/usr/bin/env bash
# Passdown's Claude Code hooks, installed only when asked: the exact change is printed first.
# needs: hook install
# exit: 0
# stdout: .claude/settings.json: dry run, nothing written
set -euo pipefail
unset CLAUDE_PROJECT_DIR CLAUDE_CONFIG_DIR
# --8<-- [start:example]
passdown hook install claude --project --command passdown --dry-run
# --8<-- [end:example]
