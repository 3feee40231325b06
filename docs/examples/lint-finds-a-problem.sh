#!/usr/bin/env bash
# A checkpoint that lost its next action: the finding names the field and the fix.
# needs: validate
# exit: 0
# stdout: error schema.required
# stdout: hint: add "next_action"
# stdout: exit status 1
set -euo pipefail
python3 - <<'PY'
import json
path = "xbrief/continue.xbrief.json"
document = json.load(open(path, encoding="utf-8"))
del document["x-baton/checkpoint"]["next_action"]
json.dump(document, open(path, "w", encoding="utf-8"), indent=2)
PY
# --8<-- [start:example]
baton validate xbrief/continue.xbrief.json || echo "exit status $?"
# --8<-- [end:example]
