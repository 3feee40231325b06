"""Timestamps of the handoff artifacts: RFC 3339 text to epoch milliseconds and back.

The one RFC 3339 reader: every gate, the ACK check and the validator's rules read timestamps
here, so they never disagree. Owns the timestamp form of ``spec/index.md`` (the shared
``timestamp`` of ``defs.schema.json``): ``YYYY-MM-DD``, ``T`` (or ``t`` or a space), ``HH:MM:SS``, an optional
fraction, then ``Z`` (or ``z``) or ``+HH:MM`` / ``-HH:MM``; the date must exist, a leap
second (``:60``) is refused, and the instant, once its offset is applied, lies in years 0001
to 9999 (GEN-004, GEN-020). Written timestamps are UTC with milliseconds
(``2026-05-04T10:00:00.000Z``). Two precisions: :func:`parse_ms` (the gates that count in
milliseconds: digits after the third are dropped, never rounded, GEN-021) and
:func:`parse_exact` (every digit, for comparisons at full precision); :func:`problem` says
what is wrong with a string that is no timestamp. Pure arithmetic: the gates may not import
``datetime`` at module level. The title gate's wider ISO 8601 reading is
:func:`passdown.formats._title.parse_start`, the published helper's, and only the title's.
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


#: What :func:`problem` says of a string that is no timestamp, by what is wrong. The first
#: three are the form's (the schema's ``timestamp`` pattern and length), the rest the meaning's.
TOO_LONG = "is too long to be a timestamp"
NO_OFFSET = "has no offset, so the moment is ambiguous"
NOT_RFC_3339 = "is not an RFC 3339 date-time"
NOT_REAL = "is not a real calendar date and time"
OFFSET_RANGE = "has an offset beyond +/-23:59"
OUT_OF_RANGE = "names an instant outside the years 0001 to 9999"
FORM_PROBLEMS = (TOO_LONG, NO_OFFSET, NOT_RFC_3339)


def problem(text):
    """What is wrong with the string ``text`` as a timestamp (one of the phrases above, which
    never repeat the value), or ``None`` when it is one. The one reading every gate, the ACK
    check and the validator's rules share, so they never disagree."""
    parts = _parse(text)
    return parts if isinstance(parts, str) else None


def parse_ms(text):
    """Epoch milliseconds of an RFC 3339 timestamp (fraction truncated to milliseconds),
    or ``None`` when ``text`` is not one."""
    parts = _parse(text)
    if isinstance(parts, str):
        return None
    seconds, fraction = parts
    return seconds * 1000 + int((fraction + "000")[:3])


def parse_exact(text):
    """The instant of an RFC 3339 timestamp as exact seconds since the epoch (a
    :class:`fractions.Fraction`: every digit of the fraction kept), or ``None``."""
    parts = _parse(text)
    if isinstance(parts, str):
        return None
    from fractions import Fraction

    seconds, fraction = parts
    return Fraction(seconds) + Fraction(int(fraction or "0"), 10 ** len(fraction))


def _parse(text):
    """``(whole seconds since the epoch, fraction digits)`` of a timestamp, or the phrase
    saying what is wrong with it."""
    if not isinstance(text, str):
        return NOT_RFC_3339
    if len(text) > _MAX_LENGTH:
        return TOO_LONG
    if len(text) < 20 or (text[4], text[7], text[13], text[16]) != ("-", "-", ":", ":") \
            or text[10] not in "Tt ":
        return NO_OFFSET if _without_offset(text) else NOT_RFC_3339
    year, month, day = _number(text, 0, 4), _number(text, 5, 7), _number(text, 8, 10)
    hour, minute, second = _number(text, 11, 13), _number(text, 14, 16), _number(text, 17, 19)
    if None in (year, month, day, hour, minute, second):
        return NOT_RFC_3339
    position = 19
    fraction = ""
    if position < len(text) and text[position] == ".":
        end = position + 1
        while end < len(text) and text[end] in _DIGITS:
            end += 1
        fraction = text[position + 1:end]
        if not fraction:
            return NOT_RFC_3339
        position = end
    zone = text[position:]
    if zone in ("Z", "z"):
        zone_hours = zone_minutes = 0
    elif len(zone) == 6 and zone[0] in "+-" and zone[3] == ":":
        zone_hours, zone_minutes = _number(zone, 1, 3), _number(zone, 4, 6)
        if zone_hours is None or zone_minutes is None:
            return NOT_RFC_3339
    else:
        return NO_OFFSET if _without_offset(text) else NOT_RFC_3339
    days_in_month = 29 if month == 2 and _leap(year) else _DAYS_IN_MONTH[(month - 1) % 12]
    # No leap second (GEN-004): a minute has 60 seconds, as in POSIX time.
    if not (1 <= year and 1 <= month <= 12 and 1 <= day <= days_in_month and hour <= 23
            and minute <= 59 and second <= 59):
        return NOT_REAL
    if zone_hours > 23 or zone_minutes > 59:
        return OFFSET_RANGE
    offset = (zone_hours * 60 + zone_minutes) * (-1 if zone[0] == "-" else 1)
    seconds = (_days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second
               - offset * 60)
    # The instant, in UTC, lies in years 0001 to 9999 (GEN-020).
    if not EARLIEST_MS <= seconds * 1000 + int((fraction + "000")[:3]) <= LATEST_MS:
        return OUT_OF_RANGE
    return seconds, fraction


def _without_offset(text):
    """Whether ``text`` is a date and time with no offset: ``YYYY-MM-DD``, ``T`` (or ``t`` or
    a space), ``HH:MM``, optional ``:SS`` and fraction, ASCII digits only."""
    if len(text) < 16 or (text[4], text[7], text[13]) != ("-", "-", ":") or text[10] not in "Tt ":
        return False
    if None in (_number(text, 0, 4), _number(text, 5, 7), _number(text, 8, 10),
                _number(text, 11, 13), _number(text, 14, 16)):
        return False
    rest = text[16:]
    if not rest:
        return True
    if len(rest) < 3 or rest[0] != ":" or _number(rest, 1, 3) is None:
        return False
    rest = rest[3:]
    return not rest or (rest[0] == "." and len(rest) > 1 and set(rest[1:]) <= _DIGITS)


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


def utc_now():
    """Now, as Passdown writes it everywhere: RFC 3339 in UTC at full precision (microseconds),
    with a ``Z`` offset, so a write and a readback in the same second still compare."""
    import datetime

    moment = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="microseconds")
    return moment.replace("+00:00", "Z")
