#!/usr/bin/env bash
# Observe a Claude Code session: the context size of its latest call, read from the end of its
# transcript, each value labelled with how it was obtained. The two records are a real
# transcript's first request and first call (tests/data/hosts/MANIFEST.md).
# needs: observe claude
# exit: 0
# stdout: current_input_tokens            26450  measured
# stdout: context_capacity_tokens        200000  estimated
# stdout: compactions                            unknown
# stdout: 20000 tokens  Claude Code system prompt and tool definitions
set -euo pipefail
cat > session.jsonl <<'JSONL'
{"parentUuid":"953d9ada-2a29-4129-9270-da2633343246","isSidechain":false,"userType":"external","cwd":"/home/USER/projects/spotter-worktrees/spotter-dov","sessionId":"4d5611e5-241a-462a-8d15-5122611a9569","version":"2.1.39","gitBranch":"spotter-dov","type":"user","message":{"role":"user","content":"Work on bead spotter-dov. Run bd show spotter-dov to see the issue details and bd ready to find available subtasks. Start with the first ready task."},"uuid":"daa5a4bb-530c-4055-b20c-bde38255c99e","timestamp":"2026-02-12T16:02:25.284Z","thinkingMetadata":{"maxThinkingTokens":31999},"todos":[],"permissionMode":"bypassPermissions"}
{"parentUuid":"daa5a4bb-530c-4055-b20c-bde38255c99e","isSidechain":false,"userType":"external","cwd":"/home/USER/projects/spotter-worktrees/spotter-dov","sessionId":"4d5611e5-241a-462a-8d15-5122611a9569","version":"2.1.39","gitBranch":"spotter-dov","message":{"model":"claude-opus-4-6","id":"msg_01PdWvcjJ6E9BgscDveYt9YV","type":"message","role":"assistant","content":[{"type":"text","text":"\n\n"}],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":3,"cache_creation_input_tokens":15005,"cache_read_input_tokens":11442,"cache_creation":{"ephemeral_5m_input_tokens":15005,"ephemeral_1h_input_tokens":0},"output_tokens":9,"service_tier":"standard","inference_geo":"global"}},"requestId":"req_011CY4TRHLYkp2wmETF8ujUf","type":"assistant","uuid":"cb6290e9-ebd3-4615-97c1-9fb77b4c5e99","timestamp":"2026-02-12T16:02:27.718Z"}
JSONL
# --8<-- [start:example]
passdown observe claude --transcript session.jsonl --context-capacity 200000
# --8<-- [end:example]
