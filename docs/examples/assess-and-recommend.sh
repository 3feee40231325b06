#!/usr/bin/env bash
# Assess a session: observe it, run the restart gate, record both in the registry, and say one
# line. Without the owner's consent a qualifying restart is recommended once, never again;
# with it, the gate answers CREATE_FRESH at a safe boundary.
# needs: assess claude
# needs: registry policy
# exit: 0
# stdout: Passdown: a restart qualifies (context pressure: context 106,060 tokens of 120,000 (88%)
# stdout: Passdown: CHECKPOINT_ONLY (restart_not_authorized
# stdout: Passdown: CREATE_FRESH (record_identity_and_receipt_before_retry
set -euo pipefail
mkdir "$HOME/app" && cd "$HOME/app"
passdown init --goal-id goal-app --main-id 4d5611e5-241a-462a-8d15-5122611a9569 \
  --outcome "the app greets the world" --next "Change the greeting" -q
cat > session.jsonl <<'JSONL'
{"parentUuid":"953d9ada-2a29-4129-9270-da2633343246","isSidechain":false,"userType":"external","cwd":"/home/USER/projects/spotter-worktrees/spotter-dov","sessionId":"4d5611e5-241a-462a-8d15-5122611a9569","version":"2.1.39","gitBranch":"spotter-dov","type":"user","message":{"role":"user","content":"Work on bead spotter-dov. Run bd show spotter-dov to see the issue details and bd ready to find available subtasks. Start with the first ready task."},"uuid":"daa5a4bb-530c-4055-b20c-bde38255c99e","timestamp":"2026-02-12T16:02:25.284Z","thinkingMetadata":{"maxThinkingTokens":31999},"todos":[],"permissionMode":"bypassPermissions"}
{"parentUuid":"daa5a4bb-530c-4055-b20c-bde38255c99e","isSidechain":false,"userType":"external","cwd":"/home/USER/projects/spotter-worktrees/spotter-dov","sessionId":"4d5611e5-241a-462a-8d15-5122611a9569","version":"2.1.39","gitBranch":"spotter-dov","message":{"model":"claude-opus-4-6","id":"msg_01PdWvcjJ6E9BgscDveYt9YV","type":"message","role":"assistant","content":[{"type":"text","text":"\n\n"}],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":3,"cache_creation_input_tokens":15005,"cache_read_input_tokens":11442,"cache_creation":{"ephemeral_5m_input_tokens":15005,"ephemeral_1h_input_tokens":0},"output_tokens":9,"service_tier":"standard","inference_geo":"global"}},"requestId":"req_011CY4TRHLYkp2wmETF8ujUf","type":"assistant","uuid":"cb6290e9-ebd3-4615-97c1-9fb77b4c5e99","timestamp":"2026-02-12T16:02:27.718Z"}
{"parentUuid":"c100526b-3099-4e75-92bb-0fab2bdf7150","isSidechain":false,"userType":"external","cwd":"/home/USER/projects/spotter-worktrees/spotter-dov","sessionId":"4d5611e5-241a-462a-8d15-5122611a9569","version":"2.1.39","gitBranch":"spotter-dov","slug":"radiant-floating-music","message":{"model":"claude-opus-4-6","id":"msg_01Lv5C7epsaQVKELSUSB7aBF","type":"message","role":"assistant","content":[{"type":"text","text":"Background task completed successfully — all 15 SessionLive tests pass. This was from a previous run before the commit. Everything is clean and pushed."}],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":1,"cache_creation_input_tokens":7330,"cache_read_input_tokens":98729,"cache_creation":{"ephemeral_5m_input_tokens":7330,"ephemeral_1h_input_tokens":0},"output_tokens":1,"service_tier":"standard","inference_geo":"global"}},"requestId":"req_011CY4rNxYpaBKKSCK4uVq4t","type":"assistant","uuid":"b090634d-e9df-493c-80f4-6770c4b17eea","timestamp":"2026-02-12T21:03:34.112Z"}
JSONL
# --8<-- [start:example]
passdown assess claude --transcript session.jsonl --context-capacity 120000
passdown assess claude --transcript session.jsonl --context-capacity 120000
passdown registry policy --mode adaptive --scope "restarts of MAIN for goal-app" -q
passdown assess claude --transcript session.jsonl --context-capacity 120000 --safe-boundary
# --8<-- [end:example]
