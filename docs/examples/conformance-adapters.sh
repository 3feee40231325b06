#!/usr/bin/env bash
# Where the shipped adapters are, in a checkout or an installed package, and the commands
# that run them (the folder is shown here as <adapters>; yours is printed in full).
# needs: conformance adapters
# exit: 0
# stdout: python: <adapters>/python/passdown_adapter.py
# stdout:   harness: passdown conformance run --harness 'node <adapters>/node/adapter.mjs' --gate restart --gate title
set -euo pipefail
cat > show.sh <<'SHOW'
# --8<-- [start:example]
passdown conformance adapters
# --8<-- [end:example]
SHOW
bash show.sh | sed "s|$(passdown conformance adapters --folder)|<adapters>|g"
