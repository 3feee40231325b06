#!/usr/bin/env bash
# An MCP client (the SDK's own) starts `passdown mcp` over stdio, lists the tools, records a
# decision, meets a refusal as a tool error with its code, and runs the guard gate.
# needs: mcp
# exit: 0
# stdout: refused: True authoring.revision_conflict
set -euo pipefail
cd "$(dirname "$0")" && examples=$PWD && cd - > /dev/null
# --8<-- [start:example]
python3 "$examples/mcp-client.py" passdown mcp --folder .
# --8<-- [end:example]
