"""A stand-in for the published title helper (``session_title.py``), for the tests only:
stdin bytes in, one line on stdout, the helper's exit status, and where the helper crashes a
traceback, nothing on stdout and exit status 1. The behaviour is the independent oracle's
(``tests/support/title_oracle.py``); extra arguments (the gate name the conformance runner
appends) are ignored.

Mutations (``PASSDOWN_HELPER_MUTATION``): ``utf8only`` refuses input that is not plain UTF-8;
``calendar`` answers TITLE_UNAVAILABLE instead of crashing on a start outside the calendar.
"""

import json
import sys

from _stand_in import serve

import title_oracle as helper


def reading_only_utf8(raw):
    return helper.respond(raw) if json.detect_encoding(raw) == "utf-8" else helper.UNAVAILABLE


def answering_outside_the_calendar(raw):
    try:
        return helper.respond(raw)
    except OverflowError:
        return helper.UNAVAILABLE


if __name__ == "__main__":
    sys.exit(serve(helper, {"utf8only": reading_only_utf8, "calendar": answering_outside_the_calendar}))
