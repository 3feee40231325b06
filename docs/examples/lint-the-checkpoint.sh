#!/usr/bin/env bash
# Lint the continue checkpoint, then the whole handoff folder.
# needs: validate
# exit: 0
# stdout: 1 file checked: no findings
# stdout: 4 files checked: no findings
set -euo pipefail
# --8<-- [start:example]
passdown validate xbrief/continue.xbrief.json
passdown validate .
# --8<-- [end:example]
