#!/usr/bin/env bash
# Program mode: a host that implements the title gate, but not yet time zones other than
# UTC, says so with exit status 77: the case is skipped with its reason and issue, never
# failed. Two cases run at once (-j 2); the results keep the suite's order.
# needs: conformance run
# exit: 0
# stdout: skipped 1: time zones other than UTC are not supported yet  (issue: https://example.org/host/issues/12)
# stdout: 1 passed, 0 failed, 0 errored, 1 skipped
set -euo pipefail
mkdir -p suite/title
cp "$(dirname "$0")/../../conformance/examples/fixture.json" suite/title/example.json
# --8<-- [start:host]
cat > host.sh <<'HOST'
#!/bin/sh
# The host's command line: the gate name as the last argument, the input on stdin.
input="$(cat)"
case "$input" in
  *'"timezone":"Europe/'*)
    echo '{"skipped": true, "message": "time zones other than UTC are not supported yet",'\
' "issue_url": "https://example.org/host/issues/12"}'
    exit 77 ;;
esac
printf '%s' "$input" | passdown gate "$1"  # stands in for the host's own code
HOST
# --8<-- [end:host]
# --8<-- [start:example]
passdown conformance run --suite suite --program "sh host.sh" -j 2
# --8<-- [end:example]
