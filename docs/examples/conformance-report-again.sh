#!/usr/bin/env bash
# A run's report stream, rendered again later: the Markdown comparison and the badge.
# needs: conformance run
# needs: conformance report
# exit: 0
# stdout: ## Baton conformance: 3 implementations compared
# stdout: "color": "red"
set -euo pipefail
mkdir -p suite/title
cp "$(dirname "$0")/../../conformance/examples/fixture.json" suite/title/example.json
adapters="$(baton conformance adapters --folder)"
baton conformance run --suite suite --reference \
  --harness "python=env BATON_ADAPTER_FAULT=wrong python3 $adapters/python/baton_adapter.py" \
  --harness "node=node $adapters/node/adapter.mjs" --jsonl run.jsonl > /dev/null || true
# --8<-- [start:example]
baton conformance report run.jsonl --format markdown
baton conformance report run.jsonl --format badge
baton conformance report run.jsonl --format html -o report.html
# --8<-- [end:example]
test -s report.html
