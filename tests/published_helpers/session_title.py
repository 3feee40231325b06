"""A stand-in for the published title helper (``session_title.py``), for the tests only:
stdin bytes in, one line on stdout, the helper's exit status, and where the helper crashes
a traceback on stderr, nothing on stdout and exit status 1. The behaviour is the independent
oracle's (``tests/gates1_title_oracle.py``); extra arguments (the gate name the conformance
runner appends) are ignored.

``BATON_HELPER_MUTATION`` changes it on purpose, for the tests that show a changed helper
fails the suite: ``utf8only`` refuses input that is not plain UTF-8, ``calendar`` answers
TITLE_UNAVAILABLE instead of crashing on a start outside the calendar.
"""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import gates1_title_oracle as helper  # noqa: E402

MUTATION = os.environ.get("BATON_HELPER_MUTATION", "")


def main():
    raw = sys.stdin.buffer.read(helper.LIMIT + 1)
    if MUTATION == "utf8only" and helper.json.detect_encoding(raw) != "utf-8":
        stdout, exit_code = helper.UNAVAILABLE
    elif MUTATION == "calendar":
        try:
            stdout, exit_code = helper.respond(raw)
        except OverflowError:
            stdout, exit_code = helper.UNAVAILABLE
    else:
        stdout, exit_code = helper.respond(raw)
    sys.stdout.write(stdout)
    return exit_code


if __name__ == "__main__":
    sys.exit(main())
