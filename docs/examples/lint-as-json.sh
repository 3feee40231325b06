#!/usr/bin/env bash
# The same report as JSON, for a tool to read.
# needs: validate
# exit: 1
# stdout: "code": "schema.required"
# stdout: "exit_code": 1
set -uo pipefail
sed -i 's/"next_action"/"next_step"/' xbrief/continue.xbrief.json
# --8<-- [start:example]
passdown validate --format json xbrief/continue.xbrief.json
# --8<-- [end:example]
