#!/usr/bin/env bash
# The registry was lost after the packet went out: validate says so, and the registry is
# rebuilt from the packet and the checkpoint, its attempt left for the host to settle.
# needs: validate
# needs: registry recover
# needs: attempt show
# exit: 0
# stdout: error crossfile.no_registry
# stdout: is creation_unknown
# stdout: attempt rst-20261014-0915-parser: creation_unknown
set -euo pipefail
rm registry.yaml ack.json
# --8<-- [start:example]
passdown validate . || echo "exit status $?"
passdown registry recover
passdown attempt show rst-20261014-0915-parser
# --8<-- [end:example]
