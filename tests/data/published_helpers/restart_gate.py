"""A stand-in for the published restart helper (``restart_gate.py``, release v2.2.1), for
the tests only: stdin bytes in, one line on stdout, the helper's exit status, and where the
helper crashes a traceback, nothing on stdout and exit status 1. The behaviour is the
independent oracle's (``tests/support/restart_oracle.py``); extra arguments (the gate name
the conformance runner appends) are ignored, as the helper ignores them.

Mutations (``PASSDOWN_HELPER_MUTATION``): ``bom`` refuses a UTF-8 byte order mark as invalid
input; ``nesting`` answers invalid input instead of crashing on nesting too deep.
"""

import sys

from _stand_in import serve

import restart_oracle as helper


def refusing_the_mark(raw):
    return helper.respond(b"" if raw.startswith(b"\xef\xbb\xbf") else raw)


def answering_deep_nesting(raw):
    try:
        return helper.respond(raw)
    except RecursionError:
        return helper.respond(b"")


if __name__ == "__main__":
    sys.exit(serve(helper, {"bom": refusing_the_mark, "nesting": answering_deep_nesting}))
