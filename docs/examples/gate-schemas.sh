#!/usr/bin/env bash
# The schemas of a gate's input and output, as the `passdown` command carries them.
# needs: schema list
# needs: schema show
# exit: 0
# stdout: gates/title.input
# stdout: "title": "Title gate input"
set -euo pipefail
# --8<-- [start:example]
passdown schema list | grep '^gates/title'
passdown schema show gates/title.input > title.input.schema.json
grep '"title"' title.input.schema.json | head -1
# --8<-- [end:example]
