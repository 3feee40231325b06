#!/bin/sh
# Agent hook recipe: record one change in the continue checkpoint, lint it, digest it.
#
#   baton-checkpoint-hook.sh SUBCOMMAND [ARGS...]
#
# SUBCOMMAND and ARGS are those of `baton checkpoint`, for example:
#   baton-checkpoint-hook.sh add-completed "Extract the parser" --evidence "commit 3f9c2d1e"
#   baton-checkpoint-hook.sh set-resume "Run pytest tests/reports -q, then migrate cli.py"
#
# Environment:
#   BATON_DIR      the project folder (default: the current folder)
#   BATON          how to run baton (default: baton), e.g. "python3 -m baton"
#   BATON_GOAL_ID, BATON_MAIN_ID, BATON_OUTCOME, BATON_NEXT
#                  used once, on first use, to create the checkpoint with `baton init`
#
# Prints one JSON result line per baton command it runs (the hook's caller parses them),
# then the checkpoint's digest line. Exit status: 0 when the change is written, the
# checkpoint lints clean and its digest is recorded; otherwise baton's own status (1 refused
# or findings, 2 usage or unreadable input), and nothing after the failed step runs.
set -eu

dir=${BATON_DIR:-.}
baton=${BATON:-baton}
checkpoint="$dir/xbrief/continue.xbrief.json"

# 1. First use: create the checkpoint and the registry instead of failing on a missing file.
if [ ! -f "$checkpoint" ]; then
    : "${BATON_GOAL_ID:?no checkpoint yet: set BATON_GOAL_ID, BATON_MAIN_ID, BATON_OUTCOME and BATON_NEXT}"
    # shellcheck disable=SC2086  # $baton may be a command with arguments
    $baton init "$dir" --goal-id "$BATON_GOAL_ID" --main-id "${BATON_MAIN_ID:?}" \
        --outcome "${BATON_OUTCOME:?}" --next "${BATON_NEXT:?}" --format json
fi

# 2. Write: one compare-and-swap update; never hand-written JSON.
# shellcheck disable=SC2086
$baton checkpoint "$@" --checkpoint "$checkpoint" --format json

# 3. Lint: schema and rules; findings fail the hook with a fix hint for each.
# shellcheck disable=SC2086
$baton validate --quiet "$checkpoint"

# 4. Digest: keep `<digest>  <file>` beside the checkpoint, replaced atomically, so the next
#    session can run `baton digest --check xbrief/continue.digest` before trusting it.
# shellcheck disable=SC2086
(cd "$dir" && $baton digest xbrief/continue.xbrief.json > xbrief/.continue.digest.tmp \
    && mv xbrief/.continue.digest.tmp xbrief/continue.digest && cat xbrief/continue.digest)
