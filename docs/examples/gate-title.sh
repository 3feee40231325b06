#!/usr/bin/env bash
# Run one gate on one JSON value: the title gate, from stdin and from a file.
# needs: gate
# exit: 0
# stdout: "display_title": "Ship the parser | started 06-09"
# stdout: "status": "TITLE_UNAVAILABLE"
# stdout: exit status 2
set -euo pipefail
# --8<-- [start:example]
echo '{"title": "Ship the parser", "started_at": "2026-09-05T23:30:00Z",
       "timezone": "Europe/Warsaw"}' | passdown gate title
echo '{"title": "Ship the parser", "timezone": "Europe/Warsaw"}' > no-start.json
passdown gate title no-start.json || echo "exit status $?"
# --8<-- [end:example]
