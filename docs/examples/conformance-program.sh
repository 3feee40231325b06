#!/usr/bin/env bash
# Program mode: one process per case. Here the program is Passdown's own gate command.
# needs: conformance run
# exit: 0
# stdout: 0 failed, 0 errored
set -euo pipefail
# --8<-- [start:example]
passdown conformance run --program "passdown gate" --id "ack.digest.*" -j 2
# --8<-- [end:example]
