#!/usr/bin/env bash
# The list shipped for the published restart helper names the cases the helper has no
# answer on. Passdown's own gate answers them, so against Passdown the strict list fails the run.
# needs: conformance run
# exit: 0
# stdout: FAILED restart.input.deep_nesting
# stdout: listed as an expected failure (uncaught RecursionError: the helper's JSON parser cannot read nesting this deep (RST-005)); remove it from the list
# stdout: FAILED restart.input.huge_integer_mixed
# stdout: 16 passed, 5 failed, 0 errored, 0 skipped
# stdout: exit status 1
set -euo pipefail
# --8<-- [start:example]
passdown conformance run --program "passdown gate" --id "restart.input.*" \
  --expected-failures restart-gate-v2.2.1 || echo "exit status $?"
# --8<-- [end:example]
