#!/usr/bin/env bash
# The gates this build carries, with their versions.
# needs: gate
# exit: 0
# stdout: restart    v2.2.1
# stdout: title      v1.0.0
set -euo pipefail
# --8<-- [start:example]
passdown gate --list
# --8<-- [end:example]
