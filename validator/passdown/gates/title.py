"""The ``title`` gate: formats a session's display title, ``<base> | started DD-MM``.

Owns the contract of ``spec/gates/title.md``: reading the input and answering. The formatting
itself, the same output as the published title helper for every input, is
:mod:`passdown.formats._title`'s, shared with the registry's title rules. It only formats: it
never reads or renames a session.
"""

from passdown.formats._fastjson import dumps
from passdown.formats._title import formatted
from passdown.gates._helper_input import parse_like_json_loads
from passdown.gates._table import Decision, InputError

NAME = "title"
VERSION = "1.0.0"
SUMMARY = "Format `<title> | started DD-MM` in the session's time zone."
SPEC = "spec/gates/title.md"
INPUT_SCHEMA = "gates/title.input.schema.json"
OUTPUT_SCHEMA = "gates/title.output.schema.json"
MAX_INPUT_BYTES = 8192

OUTCOMES = ("TITLE_FORMATTED", "TITLE_UNAVAILABLE")


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


def _decide(value):
    if not isinstance(value, dict):
        return _unavailable()
    output = formatted(value.get("title"), value.get("started_at"), value.get("timezone", "UTC"))
    if output is None:
        return _unavailable()
    return Decision(output, "TITLE_FORMATTED", 0, dumps(output) + "\n")
