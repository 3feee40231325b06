#!/usr/bin/env bash
# Two machines, one source, two targets: each machine's clone has its own registry, both
# targets acknowledged the same source, and both commit. The shared git remote decides: one
# wins, the other learns who won, and its clone writes nothing more.
# needs: init
# needs: attempt commit
# needs: fence check
# exit: 0
# stdout: ownership committed to sess-laptop-2 at fencing epoch 1 by the git authority
# stdout: exit 1
# stderr: authority.lost
# stderr: authority.fenced
set -euo pipefail
export GIT_AUTHOR_NAME=dev GIT_AUTHOR_EMAIL=dev@example.invalid
export GIT_COMMITTER_NAME=dev GIT_COMMITTER_EMAIL=dev@example.invalid
# --8<-- [start:setup]
# The remote both machines already share, and the project on it.
git init -q --bare shared.git
git clone -q shared.git laptop 2>/dev/null
(cd laptop && echo "# ledger" > README.md && git add README.md && git commit -qm base &&
 git push -q origin HEAD 2>/dev/null)
git clone -q shared.git cloud
# On each machine: the source's handoff, recorded with the git authority, and a target
# that acknowledged it (sess-laptop-2 on the laptop, sess-cloud-1 in the cloud).
for machine in laptop cloud; do
  target=$([ "$machine" = laptop ] && echo sess-laptop-2 || echo sess-cloud-1)
  (cd "$machine" &&
   passdown init -q --goal-id goal-ledger --main-id sess-src --mode adaptive \
     --scope "restarts of MAIN" --outcome "the ledger parses csv" --next "Parse quoted fields" \
     --authority git &&
   passdown packet render -q --source-id sess-src --restart-id "r-$machine" &&
   passdown attempt created -q "r-$machine" --target-id "$target" &&
   passdown ack write -q --target-id "$target" &&
   passdown attempt ack -q "r-$machine" ack.json)
done
# --8<-- [end:setup]
# --8<-- [start:race]
(cd laptop && passdown attempt commit r-laptop)           # wins at the remote
(cd cloud && passdown attempt commit r-cloud) || echo "exit $?"    # authority.lost
(cd cloud && passdown attempt show r-cloud --format json |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["result"]["attempt"]["lost_to"]["owner_id"])')
# --8<-- [end:race]
# --8<-- [start:fenced]
(cd cloud && passdown checkpoint decision "a late write") || echo "exit $?"   # authority.fenced
(cd cloud && passdown fence check) || echo "exit $?"
(cd laptop && passdown fence check --session-id sess-laptop-2)
git --git-dir shared.git log --format=%s refs/passdown/goal-ledger/owner
# --8<-- [end:fenced]
