#!/usr/bin/env bash
# A hook that lints the checkpoint after each write: silent when clean, the findings on
# stderr and exit status 2 when not.
# needs: validate
# exit: 0
# stdout: clean: 0
# stdout: broken: 2
# stderr: schema.required
set -uo pipefail
mkdir -p .hooks
cat > .hooks/lint-checkpoint.sh <<'HOOK'
# --8<-- [start:hook]
#!/usr/bin/env bash
# Run after every tool call that may have written the checkpoint.
checkpoint=xbrief/continue.xbrief.json
[ -e "$checkpoint" ] || exit 0          # nothing written yet: nothing to lint
if ! findings=$(passdown validate --quiet "$checkpoint"); then
  printf 'The checkpoint is not valid; fix it first:\n%s\n' "$findings" >&2
  exit 2            # most harnesses hand stderr back to the agent on exit 2
fi
# --8<-- [end:hook]
HOOK
bash .hooks/lint-checkpoint.sh; echo "clean: $?"
sed -i 's/"next_action"/"next_step"/' xbrief/continue.xbrief.json
bash .hooks/lint-checkpoint.sh; echo "broken: $?"
