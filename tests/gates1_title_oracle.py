"""An independent oracle of the published title helper (``session_title.py``), for the tests
only: the reference notes (``shared/reference/session-title.md``) transcribed with ``json``,
``re``, ``datetime`` and ``zoneinfo``, sharing no code with ``baton.gates.title``. It models
the helper exactly, crashes included:

- it reads at most 8,193 bytes, refuses more than 8,192, and hands the rest to
  ``json.loads(bytes)`` (the encoding guessed, lone surrogates decoded);
- it catches ``ValueError``, ``KeyError``, ``TypeError``, ``AttributeError`` and
  ``ZoneInfoNotFoundError``, and prints ``{"status": "TITLE_UNAVAILABLE"}`` with exit 2;
- anything else ends the process with a traceback, nothing on stdout and exit status 1:
  ``RecursionError`` (nesting too deep), ``OverflowError`` (a start converted out of the
  years 1-9999) and, where the zone database is the ``tzdata`` package, the ``OSError`` of
  a zone name that is a folder of the database or too long for the file system.

:func:`main` is the helper's command; ``tests/published_helpers/session_title.py`` runs it.
"""

import json
import re
import sys
from datetime import datetime, timezone
from typing import NamedTuple
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

LIMIT = 8192
SUFFIXES = re.compile(r"(?: \| started \d{2}-\d{2})+$")
UNAVAILABLE_LINE = '{"status": "TITLE_UNAVAILABLE"}\n'
UNAVAILABLE = (UNAVAILABLE_LINE, 2)
CAUGHT = (ValueError, KeyError, TypeError, AttributeError, ZoneInfoNotFoundError)
#: What the helper leaves when it crashes: nothing on stdout, exit status 1.
CRASH_EXIT = 1


class Answer(NamedTuple):
    """What the helper does with one input: its stdout, its exit status, and the exception
    that ended it (``None`` when it answered)."""

    stdout: str
    exit_code: int
    crash: type | None = None


def format_title(payload):
    """Steps 1-4 of the notes; raises on any failure."""
    title = payload["title"]
    if not isinstance(title, str) or title.strip() == "":
        raise ValueError("title")
    started_at = payload["started_at"]
    if not isinstance(started_at, str):
        raise ValueError("started_at")
    started = datetime.fromisoformat(started_at.replace("Z", "+00:00"))
    if started.tzinfo is None:
        raise ValueError("no offset")
    base = SUFFIXES.sub("", title.strip()).strip()
    if base == "":
        raise ValueError("empty base")
    zone_name = payload.get("timezone", "UTC")
    zone = timezone.utc if zone_name == "UTC" else ZoneInfo(zone_name)
    day_month = started.astimezone(zone).strftime("%d-%m")
    return {
        "title_base": base,
        "started_at": started.isoformat(),
        "timezone": zone_name,
        "display_title": f"{base} | started {day_month}",
    }


def respond(raw):
    """The helper's work on raw stdin bytes: ``(printed line, exit status)``. Raises what
    the helper does not catch."""
    try:
        if len(raw) > LIMIT:
            raise ValueError("input larger than 8,192 bytes")
        payload = json.loads(raw)
    except CAUGHT:
        return UNAVAILABLE
    return respond_value(payload)


def respond_value(payload):
    """The helper's work after ``json.loads``; raises what the helper does not catch."""
    try:
        return json.dumps(format_title(payload)) + "\n", 0
    except CAUGHT:
        return UNAVAILABLE


def _answer(work, given):
    try:
        stdout, exit_code = work(given)
    except Exception as error:  # noqa: BLE001 - what the helper leaves to the interpreter
        return Answer("", CRASH_EXIT, type(error))
    return Answer(stdout, exit_code)


def answer_bytes(raw):
    """:class:`Answer` for raw stdin bytes."""
    return _answer(respond, raw)


def answer_object(payload):
    """:class:`Answer` for an already parsed value."""
    return _answer(respond_value, payload)


def decide_bytes(raw):
    """(stdout, exit status) for raw stdin bytes; a crash is ``("", 1)``."""
    return answer_bytes(raw)[:2]


def decide_object(payload):
    """(stdout, exit status) for a parsed value; a crash is ``("", 1)``."""
    return answer_object(payload)[:2]


def main():
    """The helper's command: stdin bytes in, one line out, the exit status returned."""
    stdout, exit_code = respond(sys.stdin.buffer.read(LIMIT + 1))
    sys.stdout.write(stdout)
    return exit_code
