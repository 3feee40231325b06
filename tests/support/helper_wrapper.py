"""Runs a real published helper with one deliberate change of behaviour, for the tests that
show a changed helper fails the suite: ``python helper_wrapper.py HELPER [ARGS...]`` with
``PASSDOWN_HELPER_MUTATION`` naming the change. The helper itself runs unchanged on the bytes
this wrapper hands it; where a change means "answer invalid input instead", the wrapper hands
it empty input, on which both helpers answer their refusal (exit status 2).

Changes: ``bom`` refuses a UTF-8 byte order mark; ``nesting`` answers instead of crashing on
nesting too deep; ``utf8only`` refuses input that is not plain UTF-8; ``calendar`` answers
instead of crashing on a start outside the calendar."""

import json
import os
import subprocess
import sys


def _run(helper, args, raw):
    return subprocess.run([sys.executable, helper, *args], input=raw, capture_output=True,
                          timeout=60, check=False)


def _crashed_with(result, error):
    return result.returncode == 1 and not result.stdout and error.encode() in result.stderr


def main(argv):
    helper, args = argv[1], argv[2:]
    raw = sys.stdin.buffer.read()
    mutation = os.environ.get("PASSDOWN_HELPER_MUTATION", "")
    if mutation == "bom" and raw.startswith(b"\xef\xbb\xbf"):
        raw = b""
    if mutation == "utf8only" and json.detect_encoding(raw) != "utf-8":
        raw = b""
    result = _run(helper, args, raw)
    if (mutation == "nesting" and _crashed_with(result, "RecursionError")) or (
            mutation == "calendar" and _crashed_with(result, "OverflowError")):
        result = _run(helper, args, b"")
    sys.stdout.buffer.write(result.stdout)
    sys.stderr.buffer.write(result.stderr)
    return result.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv))
