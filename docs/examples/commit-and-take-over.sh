#!/usr/bin/env bash
# After an accepted ACK: the restart gate names each next step, and `passdown attempt` records
# it, from the ownership commit to the source's archive.
# needs: attempt show
# needs: attempt commit
# needs: attempt takeover
# needs: attempt release
# needs: attempt archive
# needs: checkpoint set
# needs: gate
# exit: 0
# stdout: "action": "COMMIT_TRANSFER"
# stdout: ownership committed to sess-2026-10-14-c07d at fencing epoch 5
# stdout: "action": "VERIFY_TAKEOVER"
# stdout: "action": "VERIFY_SOURCE_RELEASE"
# stdout: "action": "ARCHIVE_SOURCE"
# stdout: "action": "COMPLETE"
# stdout: attempt rst-20261014-0915-parser: completed
set -euo pipefail
# --8<-- [start:observed]
# What the host observes itself (the registry cannot know it), kept by the adapter:
cat > observed.json <<'JSON'
{"remaining_work": true, "transfer_supported": true, "archive_supported": true,
 "current_input_tokens": 182000, "context_capacity_tokens": 200000,
 "fresh_input_tokens": 21000, "restart_overhead_tokens": 9000,
 "remaining_calls": 12, "compactions": 1, "progress_since_restart": true,
 "safe_boundary": true, "active_writers": 0, "pending_operations": 0,
 "checkpoint_readback": true, "checkpoint_current": true,
 "fresh_create_supported": true, "target_read_supported": true}
JSON
# The gate's input: the host's observations, then what the registry says of the attempt.
next_step() {
  passdown attempt show rst-20261014-0915-parser --gate-input | python3 -c '
import json, sys
print(json.dumps({**json.load(open("observed.json")), **json.load(sys.stdin)}))' |
  passdown gate restart
}
# --8<-- [end:observed]
# --8<-- [start:steps]
next_step                                   # COMMIT_TRANSFER
passdown attempt commit rst-20261014-0915-parser --authority local  # one machine: devbox-07
next_step                                   # VERIFY_TAKEOVER
# The target reads its ownership back, then fences the checkpoint with its epoch.
passdown attempt takeover rst-20261014-0915-parser \
  --target-id sess-2026-10-14-c07d --fencing-epoch 5
passdown checkpoint set epoch 5 --epoch 5
next_step                                   # VERIFY_SOURCE_RELEASE
passdown attempt release rst-20261014-0915-parser
next_step                                   # ARCHIVE_SOURCE
passdown attempt archive rst-20261014-0915-parser --result archived
next_step                                   # COMPLETE
passdown attempt show rst-20261014-0915-parser
# --8<-- [end:steps]
