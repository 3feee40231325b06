#!/usr/bin/env bash
# The project keeps its Codex hooks in .codex/config.toml: Passdown's entries go there too,
# appended after everything else; uninstalling gives back the file byte for byte.
# needs: hook install
# needs: hook uninstall
# exit: 0
# stdout: byte for byte as before
set -euo pipefail
unset CODEX_HOME
mkdir -p .codex
cat > .codex/config.toml <<'TOML'
model = "gpt-5-codex"

[[hooks.SessionStart]]
matcher = "startup|resume"

[[hooks.SessionStart.hooks]]
type = "command"
command = 'bash "$(git rev-parse --show-toplevel)/.codex/hooks/session-start.sh"'
timeout = 600
TOML
cp .codex/config.toml config.before
# --8<-- [start:example]
passdown hook install codex --project --command passdown
passdown hook uninstall codex --project | tail -n 1
cmp .codex/config.toml config.before && echo "byte for byte as before"
# --8<-- [end:example]
