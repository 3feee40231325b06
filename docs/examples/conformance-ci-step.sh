#!/usr/bin/env bash
# A CI step: run the suite, keep the JUnit report, the badge, the HTML page and the report
# stream, and add the Markdown summary to the job's summary page even when the run fails.
# needs: conformance run
# exit: 0
# stdout: step exit status 0
# stdout: ## Passdown conformance: example-host 0.1.0 (python), via harness
set -euo pipefail
sed -n '/^# --8<-- \[start:adapter\]$/,/^# --8<-- \[end:adapter\]$/p' \
  "$(dirname "$0")/conformance-harness.sh" | sed '1d;$d' > adapter.py
export GITHUB_STEP_SUMMARY="$PWD/step-summary.md"
cat > ci-step.sh <<'STEP'
# --8<-- [start:example]
status=0
passdown conformance run --harness "python3 adapter.py" --junit conformance.xml \
  --markdown conformance.md --badge conformance-badge.json --html conformance.html \
  --jsonl conformance.jsonl || status=$?
cat conformance.md >> "$GITHUB_STEP_SUMMARY"
exit "$status"
# --8<-- [end:example]
STEP
bash ci-step.sh && echo "step exit status 0"
cat "$GITHUB_STEP_SUMMARY"
test -s conformance.xml && test -s conformance-badge.json && test -s conformance.html
test -s conformance.jsonl
