#!/usr/bin/env bash
# The observe gate on a transcript's tail: which record gives the context size, and what a
# compaction after the latest call does to it.
# needs: gate
# exit: 0
# stdout: "outcome": "measured"
# stdout: "outcome": "compacted"
set -euo pipefail
# --8<-- [start:example]
call='{"type":"assistant","sessionId":"4d5611e5","timestamp":"2026-02-12T21:03:34.112Z","message":{"model":"claude-opus-4-6","usage":{"input_tokens":1,"cache_creation_input_tokens":7330,"cache_read_input_tokens":98729}}}'
boundary='{"type":"system","subtype":"compact_boundary","sessionId":"4d5611e5","timestamp":"2026-02-12T21:30:28.504Z"}'
as_input() {  # the host and the tail's text, as one JSON object
  python3 -c 'import json, sys; print(json.dumps({"host": "claude", "tail": sys.stdin.read()}))'
}
printf '%s\n' "$call" | as_input | passdown gate observe
printf '%s\n%s\n' "$call" "$boundary" | as_input | passdown gate observe
# --8<-- [end:example]
