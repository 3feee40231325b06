#!/usr/bin/env bash
# Passdown's Codex CLI hooks, installed only when asked: the exact change to .codex/hooks.json
# is printed first; then the config.toml table for Passdown's MCP server.
# needs: hook install
# exit: 0
# stdout: .codex/hooks.json: dry run, nothing written
set -euo pipefail
unset CODEX_HOME
# --8<-- [start:example]
passdown hook install codex --project --command passdown --dry-run
passdown hook install codex --mcp --dry-run --command passdown
# --8<-- [end:example]
