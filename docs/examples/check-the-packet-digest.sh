#!/usr/bin/env bash
# The packet names its own digest: recompute it and compare.
# needs: digest
# exit: 0
# stdout: the packet is the one that was registered
set -euo pipefail
# --8<-- [start:example]
stated=$(sed -n 's/^CHECKPOINT_DIGEST: //p' continuation.packet.txt)
actual=$(passdown digest continuation.packet.txt | cut -d' ' -f1)
if [ "$stated" = "$actual" ]; then
  echo "the packet is the one that was registered"
else
  echo "the packet changed after it was registered" >&2; exit 1
fi
# --8<-- [end:example]
