"""What the stand-in helper programs share: read stdin as a published helper does, print its
answer, return its exit status, and let what it does not catch end the process (a
traceback on stderr, nothing on stdout, exit status 1). ``PASSDOWN_HELPER_MUTATION`` names a
deliberate change of behaviour, for the tests that show a changed helper fails the suite."""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "support"))


def serve(oracle, mutations):
    """Run ``oracle.respond`` (or the mutation named in the environment) on stdin."""
    raw = sys.stdin.buffer.read(oracle.LIMIT + 1)
    respond = mutations.get(os.environ.get("PASSDOWN_HELPER_MUTATION", ""), oracle.respond)
    stdout, exit_code = respond(raw)
    sys.stdout.write(stdout)
    return exit_code
