"""An independent oracle of the published title helper (``session_title.py``), for the tests
only: the reference notes (``shared/reference/session-title.md``) transcribed with ``json``,
``re``, ``datetime`` and ``zoneinfo``, sharing no code with ``passdown.gates.title``. It models
the helper exactly, crashes included:

- it reads at most 8,193 bytes, refuses more than 8,192, and hands the rest to
  ``json.loads(bytes)`` (the encoding guessed, lone surrogates decoded);
- it catches ``ValueError``, ``KeyError``, ``TypeError``, ``AttributeError`` and
  ``ZoneInfoNotFoundError``, and prints ``{"status": "TITLE_UNAVAILABLE"}`` with exit 2;
- anything else ends the process with a traceback, nothing on stdout and exit status 1:
  ``RecursionError`` (nesting too deep), ``OverflowError`` (a start converted out of the
  years 1-9999) and, where the ``tzdata`` package is installed, the ``OSError`` of a zone
  name that is a folder of the database or too long for the file system.

:func:`respond` is the helper's work on its stdin bytes; ``published_helpers_model`` observes it for
the tests; the real helper, in ``../shared/reference/published-helpers/``, is run by the tests
that run programs.
"""

import json
import re
from datetime import datetime, timezone
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

LIMIT = 8192
SUFFIXES = re.compile(r"(?: \| started \d{2}-\d{2})+$")
UNAVAILABLE = ('{"status": "TITLE_UNAVAILABLE"}\n', 2)
CAUGHT = (ValueError, KeyError, TypeError, AttributeError, ZoneInfoNotFoundError)


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
