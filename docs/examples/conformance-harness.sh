#!/usr/bin/env bash
# A harness adapter in Python, run by the conformance runner; it writes a Markdown summary.
# needs: conformance run
# exit: 0
# stdout: 0 failed, 0 errored
# stdout: ## Passdown conformance: example-host 0.1.0 (python), via harness
set -euo pipefail
cat > adapter.py <<'PY'
# --8<-- [start:adapter]
"""A harness adapter: the Passdown harness protocol v1, JSON Lines on stdio."""
import base64
import json
import subprocess
import sys

GATES = {"ack": "1.0.0"}  # the gates implemented, with their versions


def implementation(gate: str, raw: bytes) -> tuple[str, int]:
    """The code under test on one input: its printed text, exit status.
    Call your own code here; this example runs Passdown's reference gate."""
    done = subprocess.run(["passdown", "gate", gate], input=raw,
                          capture_output=True)
    return done.stdout.decode("utf-8"), done.returncode


def input_bytes(case: dict) -> bytes:
    if "input_base64" in case:
        return base64.b64decode(case["input_base64"])
    if "input_text" in case:
        return case["input_text"].encode("utf-8")
    # A value: the bytes of spec/conformance.md, "The bytes of an input value".
    return json.dumps(case["input"], separators=(",", ":")).encode("ascii")


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    message = json.loads(line)
    if message["cmd"] == "start":
        send({"ready": True, "version": 1, "implementation": {
            "name": "example-host", "language": "python",
            "version": "0.1.0", "gates": GATES}})
    elif message["cmd"] == "run":
        seq, case = message["seq"], message["case"]
        try:
            text, status = implementation(case["gate"], input_bytes(case))
            send({"seq": seq, "output": json.loads(text),
                  "exit_code": status, "stdout": text})
        except Exception as error:  # the runner counts the case errored
            send({"seq": seq, "errored": True,
                  "context": {"message": repr(error)}})
    elif message["cmd"] == "stop":
        break
# --8<-- [end:adapter]
PY
# --8<-- [start:run]
passdown conformance run --harness "python3 adapter.py" --id "ack.digest.*" \
  --markdown summary.md
# --8<-- [end:run]
cat summary.md
