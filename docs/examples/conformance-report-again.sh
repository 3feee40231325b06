#!/usr/bin/env bash
# A run's report stream, rendered again later: the Markdown comparison and the badge.
# needs: conformance run
# needs: conformance report
# exit: 0
# stdout: ## Passdown conformance: 3 implementations compared
# stdout: "color": "red"
set -euo pipefail
# The run of conformance-compare.sh, which writes run.jsonl.
sed -n '/^set -euo pipefail$/,/^# --8<-- \[end:example\]$/p' "$(dirname "$0")/conformance-compare.sh" \
  | sed "s|\$(dirname \"\$0\")|$(dirname "$0")|" > compare.sh
bash compare.sh > /dev/null
# --8<-- [start:example]
passdown conformance report run.jsonl --format markdown
passdown conformance report run.jsonl --format badge
passdown conformance report run.jsonl --format html -o report.html
# --8<-- [end:example]
test -s report.html
