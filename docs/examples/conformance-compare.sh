#!/usr/bin/env bash
# Three implementations in one run: the reference and the two shipped adapters, the Python
# one broken on purpose. The comparison opens every report; the same run is also written as
# Markdown, HTML, JUnit, a badge and a report stream. The suite is a folder holding the spec's
# example file, so that the output stays short.
# needs: conformance run
# needs: conformance adapters
# exit: 0
# stdout: passdown conformance: 3 implementations compared
# stdout: $.display_title: expected "Ship the parser | started 06-09", got "Ship the parser | started 05-09"
set -euo pipefail
mkdir -p suite/title
cp "$(dirname "$0")/../../conformance/examples/fixture.json" suite/title/example.json
# --8<-- [start:example]
adapters="$(passdown conformance adapters --folder)"
passdown conformance run --suite suite --reference \
  --harness "python=env PASSDOWN_ADAPTER_FAULT=wrong python3 $adapters/python/passdown_adapter.py" \
  --harness "node=node $adapters/node/adapter.mjs" \
  --jsonl run.jsonl --markdown summary.md --html report.html --junit junit.xml \
  --badge badge.json || echo "exit status $?"
# --8<-- [end:example]
test -s summary.md && test -s report.html && test -s junit.xml && test -s badge.json
