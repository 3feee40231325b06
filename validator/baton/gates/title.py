"""The ``title`` gate: formats a session's display title, ``<base> | started DD-MM``.

Owns the contract of ``spec/gates/title.md``, the same output as the published title helper
for every input. It only formats: it never reads or renames a session. ``datetime`` loads
inside the decision, and ``zoneinfo`` only for a zone other than ``UTC``, so ``UTC`` works
on a machine without a time-zone database.
"""

from baton.formats._fastjson import dumps
from baton.gates._table import Decision, InputError, parse_like_json_loads

NAME = "title"
VERSION = "1.0.0"
SUMMARY = "Format `<title> | started DD-MM` in the session's time zone."
SPEC = "spec/gates/title.md"
INPUT_SCHEMA = "gates/title.input.schema.json"
OUTPUT_SCHEMA = "gates/title.output.schema.json"
MAX_INPUT_BYTES = 8192

OUTCOMES = ("TITLE_FORMATTED", "TITLE_UNAVAILABLE")

_SUFFIX_HEAD = " | started "
_SUFFIX_LENGTH = len(_SUFFIX_HEAD) + 5  # " | started " then DD-MM


def run(raw):
    """Decide raw input bytes: at most 8,192 bytes holding one JSON object, read as the
    helper reads them (UTF-8, UTF-16 or UTF-32, TTL-015)."""
    try:
        value = parse_like_json_loads(raw, MAX_INPUT_BYTES)
    except InputError:
        return _unavailable()
    return decide(value)


def decide(value):
    """The formatted title, or ``TITLE_UNAVAILABLE``; never raises."""
    try:
        return _decide(value)
    except Exception:  # noqa: BLE001 - a date outside the calendar after conversion (TTL-016)
        return _unavailable()


def _unavailable():
    return Decision({"status": "TITLE_UNAVAILABLE"}, "TITLE_UNAVAILABLE", 2,
                    '{"status": "TITLE_UNAVAILABLE"}\n')


def strip_date_suffixes(title):
    """``title`` without its trailing run of `` | started DD-MM`` suffixes (one pass)."""
    end = len(title)
    while end >= _SUFFIX_LENGTH and _is_suffix(title, end - _SUFFIX_LENGTH):
        end -= _SUFFIX_LENGTH
    return title[:end]


def _is_suffix(text, start):
    # DD and MM are any two decimal digits, as the published pattern's \d{2}-\d{2}.
    digits = start + len(_SUFFIX_HEAD)
    return (
        text.startswith(_SUFFIX_HEAD, start)
        and text[digits:digits + 2].isdecimal()
        and text[digits + 2] == "-"
        and text[digits + 3:digits + 5].isdecimal()
    )


def _decide(value):
    if not isinstance(value, dict):
        return _unavailable()
    title = value.get("title")
    started = value.get("started_at")
    zone_name = value.get("timezone", "UTC")
    if not isinstance(title, str) or not title.strip() or not isinstance(started, str):
        return _unavailable()
    if not isinstance(zone_name, str):
        return _unavailable()

    from datetime import datetime, timezone

    try:
        moment = datetime.fromisoformat(started.replace("Z", "+00:00"))
    except ValueError:
        return _unavailable()
    if moment.tzinfo is None:
        return _unavailable()
    base = strip_date_suffixes(title.strip()).strip()
    if not base:
        return _unavailable()
    if zone_name == "UTC":
        zone = timezone.utc
    else:
        try:
            from zoneinfo import ZoneInfo

            zone = ZoneInfo(zone_name)
        except Exception:  # noqa: BLE001 - unknown or bad key, a key the database cannot
            # open (TTL-017), or no zone database at all
            return _unavailable()
    display = f"{base} | started {moment.astimezone(zone).strftime('%d-%m')}"
    output = {
        "title_base": base,
        "started_at": moment.isoformat(),
        "timezone": zone_name,
        "display_title": display,
    }
    return Decision(output, "TITLE_FORMATTED", 0, dumps(output) + "\n")
