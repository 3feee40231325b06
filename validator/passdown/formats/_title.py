"""A session's display title, ``<base> | started DD-MM``: the suffix grammar, the zone
lookup and the formatting, shared by the ``title`` gate and the registry's title rules so the
two never disagree.

Owns the formatting of ``spec/gates/title.md``, the same output as the published title helper
for every input. The start time is read with :func:`parse_start`, the helper's wider ISO
8601 reading (every other timestamp is RFC 3339, read by :mod:`passdown.formats._clock`).
``datetime`` loads inside the calls, and ``zoneinfo`` only for a zone other than ``UTC``, so
``UTC`` works on a machine without a time-zone database and the gate path stays light.
"""

_SUFFIX_HEAD = " | started "
_SUFFIX_LENGTH = len(_SUFFIX_HEAD) + 5  # " | started " then DD-MM


def parse_start(text):
    """The title gate's reading of a start time, wider than RFC 3339 (TTL-002, TTL-003): the
    published helper's ``datetime.fromisoformat`` of Python 3.11+ after replacing every ``Z``
    with ``+00:00``, kept only with an offset. An aware ``datetime``, or None."""
    from datetime import datetime

    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else None


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


def zone(name):
    """The time zone called ``name``, or None. ``UTC`` needs no time-zone database."""
    from datetime import timezone

    if name == "UTC":
        return timezone.utc
    try:
        from zoneinfo import ZoneInfo

        return ZoneInfo(name)
    except Exception:  # noqa: BLE001 - unknown or bad key, a key the database cannot
        # open (TTL-017), or no zone database at all
        return None


def spelt_as_listed(name):
    """Whether ``name`` is spelt exactly as the zone database lists it, letter case included
    (REG-022). On a file system that ignores case, ``ZoneInfo`` also opens ``EUROPE/WARSAW``;
    the title gate keeps that reading (the published helper's), the registry's rule does not.
    True for a name no listing was found for (nothing to compare with)."""
    if name == "UTC":
        return True
    import os
    from zoneinfo import TZPATH

    parts = name.split("/")
    for root in TZPATH:
        if os.path.isfile(os.path.join(root, *parts)):
            folder = root
            for part in parts:
                if part not in os.listdir(folder):
                    return False
                folder = os.path.join(folder, part)
            return True
    try:  # no system database: the zones of the `tzdata` package, where ZoneInfo looks next
        from importlib import resources

        node = resources.files("tzdata").joinpath("zoneinfo")
        for part in parts:
            if part not in {entry.name for entry in node.iterdir()}:
                return False
            node = node.joinpath(part)
    except (ImportError, OSError):
        pass
    return True


def formatted(title, started_at, zone_name):
    """The title gate's ``TITLE_FORMATTED`` output for these values (``title_base``,
    ``started_at``, ``timezone``, ``display_title``), or None where the gate answers
    ``TITLE_UNAVAILABLE``. May raise for a date outside the calendar after conversion
    (TTL-016): the caller treats that as unavailable too."""
    if not isinstance(title, str) or not title.strip() or not isinstance(started_at, str):
        return None
    if not isinstance(zone_name, str):
        return None
    moment = parse_start(started_at)
    if moment is None:
        return None
    base = strip_date_suffixes(title.strip()).strip()
    if not base:
        return None
    where = zone(zone_name)
    if where is None:
        return None
    return {
        "title_base": base,
        "started_at": moment.isoformat(),
        "timezone": zone_name,
        "display_title": f"{base} | started {moment.astimezone(where).strftime('%d-%m')}",
    }
