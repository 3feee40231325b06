#!/usr/bin/env bash
# The whole handoff in one git checkout, with real uncommitted work: the source renders the
# packet, the target reads everything and writes its ACK, the source verifies it against the
# checkout and commits ownership, the target takes over, archives the source and consumes
# the checkpoint. Every step is a passdown command; the two sessions share only the files.
# needs: init
# needs: checkpoint add-completed
# needs: packet render
# needs: attempt created
# needs: ack write
# needs: ack verify
# needs: attempt ack
# needs: attempt commit
# needs: attempt takeover
# needs: consume
# needs: validate
# exit: 0
# stdout: ack.json: accepted
# stdout: ACK of sess-tgt accepted for rst-csv-1
# stdout:  M parse.py
# stdout: - modified blake3:
set -euo pipefail
export GIT_AUTHOR_NAME=dev GIT_AUTHOR_EMAIL=dev@example.invalid \
  GIT_COMMITTER_NAME=dev GIT_COMMITTER_EMAIL=dev@example.invalid \
  GIT_AUTHOR_DATE=2026-10-14T09:00:00Z GIT_COMMITTER_DATE=2026-10-14T09:00:00Z
mkdir ledger && cd ledger
git init -q -b main
printf 'def parse(line):\n    return line.split(",")\n' > parse.py
git add parse.py && git commit -q -m "A first parser"
# --8<-- [start:source]
# The source session, in the repository's root.
passdown init --goal-id goal-csv --main-id sess-src \
  --outcome "parse.py reads quoted fields; tests/test_parse.py passes" \
  --next "Read quoted fields with the csv module" \
  --mode adaptive --scope "restarts of MAIN for goal-csv" --archive-consent
printf 'import csv\n\n\ndef parse(line):\n    return next(csv.reader([line]))\n' > parse.py
echo "quoted fields: the csv module handles them" > notes.md
passdown checkpoint add-pending "Test quoted fields in tests/test_parse.py"
passdown checkpoint add-completed "Read quoted fields with the csv module" \
  --evidence "parse.py (not committed yet)"
passdown packet render --source-id sess-src --restart-id rst-csv-1
sed -n '/^WORKING_STATE:/,/^PROGRESS:/p' continuation.packet.txt | sed '$d'
passdown attempt created rst-csv-1 --target-id sess-tgt
# --8<-- [end:source]
# --8<-- [start:target]
# The target session, in its own shell in the same checkout: read-only until it owns the work.
passdown ack write --target-id sess-tgt
# --8<-- [end:target]
# --8<-- [start:accept]
# The source again: verify the ACK against its own fresh readback, then hand over.
passdown ack verify ack.json --workspace .   # the packet and registry of the handoff folder
passdown attempt ack rst-csv-1 ack.json
passdown attempt commit rst-csv-1
# --8<-- [end:accept]
# --8<-- [start:takeover]
# The target: read its ownership back, fence the source out, finish the handoff.
passdown attempt takeover rst-csv-1 --target-id sess-tgt   # reads the committed epoch, 1
passdown checkpoint set epoch 1 --epoch 1
passdown attempt release rst-csv-1
passdown attempt archive rst-csv-1 --result archived
passdown consume
passdown consume --format json | grep -o '"changed": false'   # a second consume changes nothing
# --8<-- [end:takeover]
# --8<-- [start:end]
passdown validate .
git status --porcelain
# --8<-- [end:end]
