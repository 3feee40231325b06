#!/usr/bin/env bash
# A session died without writing a checkpoint: reconstruct a draft from its transcript's tail.
# The records are a real transcript's request and TodoWrite call (tests/data/hosts/MANIFEST.md).
# needs: checkpoint from-transcript
# needs: checkpoint show
# exit: 0
# stdout: draft checkpoint from session todowrite_session: 1 completed and 4 open items
# stdout: [running] todo-2: Implement core functionality
# stdout: next: todo-3: Check this reconstructed state against the checkout
set -euo pipefail
mkdir "$HOME/app" && cd "$HOME/app"
cat > dead-session.jsonl <<'JSONL'
{"type":"user","message":{"role":"user","content":"Can you help me implement a new feature with proper task management?"},"uuid":"user_001","timestamp":"2025-06-14T10:00:00Z","parentUuid":null,"isSidechain":false,"userType":"external","cwd":"/tmp","sessionId":"todowrite_session","version":"1.0.24"}
{"type":"assistant","message":{"id":"msg_004","type":"message","role":"assistant","model":"claude-sonnet-4","content":[{"type":"tool_use","id":"toolu_todowrite_002","name":"TodoWrite","input":{"todos":[{"id":"1","content":"Design the feature architecture","status":"completed","priority":"high"},{"id":"2","content":"Implement core functionality","status":"in_progress","priority":"high"},{"id":"3","content":"Add comprehensive tests","status":"pending","priority":"medium"},{"id":"4","content":"Write user documentation","status":"pending","priority":"low"},{"id":"5","content":"Perform code review","status":"pending","priority":"medium"}]}}],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":168,"output_tokens":85}},"uuid":"assistant_004","timestamp":"2025-06-14T10:02:00Z","parentUuid":"assistant_003","isSidechain":false,"userType":"external","cwd":"/tmp","sessionId":"todowrite_session","version":"1.0.24","requestId":"req_004"}
JSONL
# --8<-- [start:example]
passdown checkpoint from-transcript claude --transcript dead-session.jsonl
passdown checkpoint show
# --8<-- [end:example]
