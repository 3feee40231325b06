#!/usr/bin/env bash
# The verdict as JSON, for the launcher's own code to read.
# needs: ack verify
# exit: 0
# stdout: "outcome": "accepted"
# stdout: "codes": []
set -euo pipefail
# --8<-- [start:example]
passdown ack verify ack.json \
  --packet continuation.packet.txt --registry registry.yaml --format json
# --8<-- [end:example]
