"""An independent oracle of the published title helper, for the tests only: the reference
notes transcribed with ``json``, ``re``, ``datetime`` and ``zoneinfo``. Inputs the helper
crashed on (nesting too deep, a date pushed outside the calendar) answer TITLE_UNAVAILABLE,
as Baton documents."""

import json
import re
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

LIMIT = 8192
SUFFIXES = re.compile(r"(?: \| started \d{2}-\d{2})+$")
UNAVAILABLE = ('{"status": "TITLE_UNAVAILABLE"}\n', 2)


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
    if not isinstance(zone_name, str):
        raise ValueError("timezone")
    zone = timezone.utc if zone_name == "UTC" else ZoneInfo(zone_name)
    day_month = started.astimezone(zone).strftime("%d-%m")
    return {
        "title_base": base,
        "started_at": started.isoformat(),
        "timezone": zone_name,
        "display_title": f"{base} | started {day_month}",
    }


def decide_object(payload):
    if not isinstance(payload, dict):
        return UNAVAILABLE
    try:
        return json.dumps(format_title(payload)) + "\n", 0
    except Exception:  # noqa: BLE001 - every failure has the one answer
        return UNAVAILABLE


def decide_bytes(raw):
    if len(raw) > LIMIT:
        return UNAVAILABLE
    try:
        payload = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return UNAVAILABLE
    return decide_object(payload)
