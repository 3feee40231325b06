#!/usr/bin/env bash
# The packet was edited after the successor read it: the ACK no longer matches.
# needs: ack verify
# exit: 1
# stdout: ack.json: rejected
# stdout: ack.digest_mismatch
set -uo pipefail
# --8<-- [start:example]
sed -i 's/^POLICY: mode adaptive/POLICY: mode daily/' continuation.packet.txt
passdown ack verify ack.json \
  --packet continuation.packet.txt --registry registry.yaml
# --8<-- [end:example]
