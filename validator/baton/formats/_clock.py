"""Timestamps of the handoff artifacts: RFC 3339 text to epoch milliseconds and back.

Owns the timestamp form of ``spec/handoff-record.md`` (the shared ``timestamp`` of
``defs.schema.json``): ``YYYY-MM-DD``, ``T`` (or ``t`` or a space), ``HH:MM:SS``, an optional
fraction, then ``Z`` (or ``z``) or ``+HH:MM`` / ``-HH:MM``; the date must exist, a leap
second (``:60``) is refused, and the instant, once its offset is applied, lies in years 0001
to 9999 (GEN-004, GEN-020). Written timestamps are UTC with milliseconds
(``2026-05-04T10:00:00.000Z``). Two precisions: :func:`parse_ms` (the gates that count in
milliseconds: digits after the third are dropped, never rounded, GEN-021) and
:func:`parse_exact` (every digit, for comparisons at full precision). Pure arithmetic: the gates may not import ``datetime`` at
module level.
"""

_DIGITS = frozenset("0123456789")
_DAYS_IN_MONTH = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
#: Longer than any real timestamp; a bound so hostile strings are refused cheaply.
_MAX_LENGTH = 64


def _number(text, start, end):
    part = text[start:end]
    if len(part) != end - start or not set(part) <= _DIGITS:
        return None
    return int(part)


def _leap(year):
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def _days_from_civil(year, month, day):
    """Days since 1970-01-01 of a proleptic Gregorian date."""
    year -= month <= 2
    era = year // 400
    year_of_era = year - era * 400
    day_of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    day_of_era = year_of_era * 365 + year_of_era // 4 - year_of_era // 100 + day_of_year
    return era * 146097 + day_of_era - 719468


def _civil_from_days(days):
    days += 719468
    era = days // 146097
    day_of_era = days - era * 146097
    year_of_era = (day_of_era - day_of_era // 1460 + day_of_era // 36524
                   - day_of_era // 146096) // 365
    day_of_year = day_of_era - (365 * year_of_era + year_of_era // 4 - year_of_era // 100)
    month_index = (5 * day_of_year + 2) // 153
    day = day_of_year - (153 * month_index + 2) // 5 + 1
    month = month_index + (3 if month_index < 10 else -9)
    return year_of_era + era * 400 + (month <= 2), month, day


def parse_ms(text):
    """Epoch milliseconds of an RFC 3339 timestamp (fraction truncated to milliseconds),
    or ``None`` when ``text`` is not one."""
    parts = _parse(text)
    if parts is None:
        return None
    seconds, fraction = parts
    return seconds * 1000 + int((fraction + "000")[:3])


def parse_exact(text):
    """The instant of an RFC 3339 timestamp as exact seconds since the epoch (a
    :class:`fractions.Fraction`: every digit of the fraction kept), or ``None``."""
    parts = _parse(text)
    if parts is None:
        return None
    from fractions import Fraction

    seconds, fraction = parts
    return Fraction(seconds) + Fraction(int(fraction or "0"), 10 ** len(fraction))


def _parse(text):
    """``(whole seconds since the epoch, fraction digits)`` of a timestamp, or ``None``."""
    if not isinstance(text, str) or not 20 <= len(text) <= _MAX_LENGTH:
        return None
    if (text[4], text[7], text[13], text[16]) != ("-", "-", ":", ":") or text[10] not in "Tt ":
        return None
    year, month, day = _number(text, 0, 4), _number(text, 5, 7), _number(text, 8, 10)
    hour, minute, second = _number(text, 11, 13), _number(text, 14, 16), _number(text, 17, 19)
    if None in (year, month, day, hour, minute, second):
        return None
    if not (1 <= year and 1 <= month <= 12 and hour <= 23 and minute <= 59 and second <= 59):
        return None
    days_in_month = 29 if month == 2 and _leap(year) else _DAYS_IN_MONTH[month - 1]
    if not 1 <= day <= days_in_month:
        return None
    position = 19
    fraction = ""
    if position < len(text) and text[position] == ".":
        end = position + 1
        while end < len(text) and text[end] in _DIGITS:
            end += 1
        fraction = text[position + 1:end]
        if not fraction:
            return None
        position = end
    zone = text[position:]
    if zone in ("Z", "z"):
        offset = 0
    elif len(zone) == 6 and zone[0] in "+-" and zone[3] == ":":
        zone_hours, zone_minutes = _number(zone, 1, 3), _number(zone, 4, 6)
        if zone_hours is None or zone_minutes is None or zone_hours > 23 or zone_minutes > 59:
            return None
        offset = (zone_hours * 60 + zone_minutes) * (1 if zone[0] == "+" else -1)
    else:
        return None
    seconds = (_days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second
               - offset * 60)
    if not EARLIEST_MS <= seconds * 1000 + int((fraction + "000")[:3]) <= LATEST_MS:
        return None
    return seconds, fraction


#: The first and the last instant a timestamp can name: 0001-01-01T00:00:00.000Z and
#: 9999-12-31T23:59:59.999Z (a four-digit year in UTC).
EARLIEST_MS = _days_from_civil(1, 1, 1) * 86_400_000
LATEST_MS = _days_from_civil(10000, 1, 1) * 86_400_000 - 1


def format_ms(millis):
    """``2026-05-04T10:00:00.000Z`` for epoch milliseconds."""
    seconds, millis = divmod(millis, 1000)
    days, second_of_day = divmod(seconds, 86400)
    year, month, day = _civil_from_days(days)
    hour, rest = divmod(second_of_day, 3600)
    minute, second = divmod(rest, 60)
    return f"{year:04d}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{second:02d}.{millis:03d}Z"


def parse_title_start(text):
    """The title gate's reading of a start time, wider than RFC 3339 (TTL-002, TTL-003): the published
    helper's ``datetime.fromisoformat`` of Python 3.11+ after replacing every ``Z`` with
    ``+00:00``, kept only with an offset. An aware ``datetime``, or None."""
    from datetime import datetime

    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else None


def utc_now():
    """Now, as Baton writes it everywhere: RFC 3339 in UTC at full precision (microseconds),
    with a ``Z`` offset, so a write and a readback in the same second still compare."""
    import datetime

    moment = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="microseconds")
    return moment.replace("+00:00", "Z")
