#!/usr/bin/env bash
# The guard gate before a tool call: would it restart, stop or kill the host?
# needs: gate
# exit: 0
# stdout: "decision": "allow"
# stdout: "decision": "deny"
# stdout: exit status 1
set -euo pipefail
# --8<-- [start:example]
echo '{"tool": "execute", "arguments": {"command": "pytest tests/reports -q"},
       "host_pid": 4242, "service_unit": "dsh.service"}' | passdown gate guard
echo '{"tool": "execute", "arguments": {"command": "systemctl --user restart dsh.service"},
       "host_pid": 4242, "service_unit": "dsh.service"}' | passdown gate guard || echo "exit status $?"
# --8<-- [end:example]
