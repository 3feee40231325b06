#!/bin/sh
# Agent hook recipe: record one change in the continue checkpoint, lint it, digest it.
#
#   passdown-checkpoint-hook.sh SUBCOMMAND [ARGS...]
#
# SUBCOMMAND and ARGS are those of `passdown checkpoint`, for example:
#   passdown-checkpoint-hook.sh add-completed "Extract the parser" --evidence "commit 3f9c2d1e"
#   passdown-checkpoint-hook.sh set-resume "Run pytest tests/reports -q, then migrate cli.py"
#
# Environment:
#   PASSDOWN_DIR      the project folder (default: the current folder)
#   PASSDOWN          how to run passdown (default: passdown), e.g. "python3 -m passdown"
#   PASSDOWN_GOAL_ID, PASSDOWN_MAIN_ID, PASSDOWN_OUTCOME, PASSDOWN_NEXT
#                  used once, on first use, to create the checkpoint with `passdown init`
#
# Prints one JSON result line per passdown command it runs (the hook's caller parses them),
# then the checkpoint's digest line. Exit status: 0 when the change is written, the
# checkpoint lints clean and its digest is recorded; otherwise passdown's own status (1 refused
# or findings, 2 usage or unreadable input), and nothing after the failed step runs.
set -eu

dir=${PASSDOWN_DIR:-.}
passdown=${PASSDOWN:-passdown}
checkpoint="$dir/xbrief/continue.xbrief.json"

# 1. First use: create the checkpoint and the registry instead of failing on a missing file.
if [ ! -f "$checkpoint" ]; then
    : "${PASSDOWN_GOAL_ID:?no checkpoint yet: set PASSDOWN_GOAL_ID, PASSDOWN_MAIN_ID, PASSDOWN_OUTCOME and PASSDOWN_NEXT}"
    # shellcheck disable=SC2086  # $passdown may be a command with arguments
    $passdown init "$dir" --goal-id "$PASSDOWN_GOAL_ID" --main-id "${PASSDOWN_MAIN_ID:?}" \
        --outcome "${PASSDOWN_OUTCOME:?}" --next "${PASSDOWN_NEXT:?}" --format json
fi

# 2. Write: one compare-and-swap update; never hand-written JSON.
# shellcheck disable=SC2086
$passdown checkpoint "$@" --checkpoint "$checkpoint" --format json

# 3. Lint: schema and rules; findings fail the hook with a fix hint for each.
# shellcheck disable=SC2086
$passdown validate --quiet "$checkpoint"

# 4. Digest: keep `<digest>  <file>` beside the checkpoint, replaced atomically, so the next
#    session can run `passdown digest --check xbrief/continue.digest` before trusting it.
# shellcheck disable=SC2086
(cd "$dir" && $passdown digest xbrief/continue.xbrief.json > xbrief/.continue.digest.tmp \
    && mv xbrief/.continue.digest.tmp xbrief/continue.digest && cat xbrief/continue.digest)
