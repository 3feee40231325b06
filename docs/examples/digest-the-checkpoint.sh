#!/usr/bin/env bash
# Digest the checkpoint in its canonical form, and check a list of digests later.
# needs: digest
# exit: 0
# stdout: blake3:
# stdout: xbrief/continue.xbrief.json: OK
set -euo pipefail
# --8<-- [start:example]
passdown digest xbrief/continue.xbrief.json | tee digests.txt
# ...later, before trusting the file again:
passdown digest --check digests.txt
# --8<-- [end:example]
