#!/usr/bin/env bash
# Any folder inside the project will do: the command finds the handoff folder upward, says
# which one it used, and shows the whole checkpoint.
# needs: checkpoint show
# exit: 0
# stdout: revision 7
# stdout: decisions:
# stdout: hazards:
# stderr: passdown: using the handoff folder
set -euo pipefail
# --8<-- [start:example]
cd xbrief
passdown checkpoint show
# --8<-- [end:example]
