#!/usr/bin/env bash
# Verify the successor's ACK against a fresh readback of the packet and the registry.
# needs: ack verify
# exit: 0
# stdout: ack.json: accepted
set -euo pipefail
# --8<-- [start:example]
passdown ack verify ack.json \
  --packet continuation.packet.txt --registry registry.yaml
# --8<-- [end:example]
