#!/usr/bin/env bash
# Gate versions: an adapter that implements another major version of the title gate than
# the cases are written for is skipped, with the reason, not failed case after case.
# needs: conformance run
# exit: 0
# stdout: skipped 2: the cases are for title 1.0.0; the implementation implements title 2.0.0, another major version
# stdout: exit status 1
set -euo pipefail
mkdir -p suite/title
cp "$(dirname "$0")/../../conformance/examples/fixture.json" suite/title/example.json
sed -n '/^# --8<-- \[start:adapter\]$/,/^# --8<-- \[end:adapter\]$/p' \
  "$(dirname "$0")/conformance-harness.sh" | sed '1d;$d' > adapter.py
# --8<-- [start:example]
sed -i 's/^GATES = .*/GATES = {"title": "2.0.0"}/' adapter.py
passdown conformance run --suite suite --harness "python3 adapter.py" || echo "exit status $?"
# --8<-- [end:example]
