"""A stand-in for the published restart helper (``restart_gate.py``, release v2.2.1), for
the tests only: stdin bytes in, one line on stdout, the helper's exit status, and where the
helper crashes a traceback on stderr, nothing on stdout and exit status 1. The behaviour is
the independent oracle's (``tests/gates1_restart_oracle.py``); extra arguments (the gate
name the conformance runner appends) are ignored, as the helper ignores them.

``BATON_HELPER_MUTATION`` changes it on purpose, for the tests that show a changed helper
fails the suite: ``bom`` refuses a UTF-8 byte order mark as invalid input, ``nesting``
answers invalid input instead of crashing on nesting too deep.
"""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import gates1_restart_oracle as helper  # noqa: E402

MUTATION = os.environ.get("BATON_HELPER_MUTATION", "")


def main():
    raw = sys.stdin.buffer.read(helper.LIMIT + 1)
    if MUTATION == "bom" and raw.startswith(b"\xef\xbb\xbf"):
        stdout, exit_code = helper.respond(b"")
    elif MUTATION == "nesting":
        try:
            stdout, exit_code = helper.respond(raw)
        except RecursionError:
            stdout, exit_code = helper.respond(b"")
    else:
        stdout, exit_code = helper.respond(raw)
    sys.stdout.write(stdout)
    return exit_code


if __name__ == "__main__":
    sys.exit(main())
