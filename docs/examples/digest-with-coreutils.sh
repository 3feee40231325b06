#!/usr/bin/env bash
# Lists that sha256sum writes, passdown digest checks; lists passdown digest writes with --tag,
# sha256sum checks. Both hash the files' raw bytes.
# needs: digest
# exit: 0
# stdout: ack.json: OK
# stdout: registry.yaml: OK
set -euo pipefail
# --8<-- [start:example]
sha256sum ack.json registry.yaml > SHA256SUMS
passdown digest --check SHA256SUMS
passdown digest --algorithm sha256 --tag ack.json registry.yaml > tags.txt
sha256sum -c tags.txt
passdown digest --check tags.txt --quiet   # failures only; --status prints nothing at all
# --8<-- [end:example]
