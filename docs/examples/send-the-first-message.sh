#!/usr/bin/env bash
# The launcher asks for the successor's first message, and for the command line that starts
# a fresh Claude Code or Codex CLI session with it (printed, never run by passdown); a chat-only
# host gets the MANUAL_HANDOFF prompt, with the packet in it.
# needs: init
# needs: packet render
# needs: packet prompt
# exit: 0
# stdout: Passdown handoff: you are the fresh successor session for goal goal-invoice-export
# stdout: Expected: GOAL_ID goal-invoice-export; RESTART_ID rst-invoice-export-1; CHECKPOINT_DIGEST blake3:
# stdout: passdown ack write --packet
# stdout: && claude --session-id 550e8400-e29b-41d4-a716-446655440000 'Passdown handoff
# stdout: && codex exec 'Passdown handoff
# stdout: MANUAL_HANDOFF for goal goal-invoice-export
# stdout: --- packet (continuation.packet.txt) ---
# stderr: warning MANUAL_HANDOFF
set -euo pipefail
mkdir ../new-goal && cd ../new-goal  # beside the example handoff, not inside it
passdown init --goal-id goal-invoice-export --main-id sess-7f3a \
  --outcome "Invoices export to CSV; tests/export passes" \
  --next "Write the CSV writer in billing/export.py" >/dev/null
passdown packet render --source-id sess-7f3a --restart-id rst-invoice-export-1 >/dev/null
# --8<-- [start:message]
passdown packet prompt
# --8<-- [end:message]
# --8<-- [start:hosts]
passdown packet prompt --host claude --target-id 550e8400-e29b-41d4-a716-446655440000
passdown packet prompt --host codex --headless
# --8<-- [end:hosts]
# --8<-- [start:manual]
passdown packet prompt --host manual
# --8<-- [end:manual]
