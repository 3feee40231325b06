"""The title gate's reading of ``started_at`` written from its spec alone
(``spec/gates/title.md``, "Reading the start", TTL-019 to TTL-027), for the tests only: no
``datetime`` parsing, just the byte rules a Go or Rust implementer would follow. The tests
replay generated strings through it, the published helper's oracle and the gate, so a rule
the spec states wrongly or leaves out shows as a disagreement.

:func:`read_start` answers the written-back ``started_at`` (TTL-027) or ``None`` where the
start is a failure.
"""

from calendar import isleap, monthrange
from datetime import date

DIGITS = b"0123456789"


def _digits(data, start, count):
    """The ``count`` ASCII digits at ``start`` as an integer, or ``None``."""
    chunk = data[start:start + count]
    if len(chunk) != count or any(byte not in DIGITS for byte in chunk):
        return None
    return int(chunk)


def _separator(data):
    """TTL-021: the byte position of the separator, from bytes 4, 5, 8 and 10."""
    if data[4:5] == b"-":
        if data[5:6] == b"W":
            if len(data) > 8 and data[8:9] == b"-":
                if len(data) == 9:
                    return None
                return 8 if len(data) > 10 and data[10] in DIGITS else 10
            return 8
        return 10
    if data[4:5] == b"W":
        run = 0
        while 7 + run < len(data) and data[7 + run] in DIGITS:
            run += 1
        if run <= 1:
            return 7 + run
        return 7 if run % 2 else 8
    return 8


def _date(part):
    """TTL-021 and TTL-022: ``(year, month, day)`` of the date part, or ``None``. Calendar arithmetic
    (week to calendar date, days in a month) uses ``datetime.date``; no text is parsed by it."""
    year = _digits(part, 0, 4)
    if year is None or not 1 <= year <= 9999:
        return None
    hyphen = part[4:5] == b"-"
    at = 4 + hyphen
    if part[at:at + 1] == b"W":
        week = _digits(part, at + 1, 2)
        rest = part[at + 3:]
        if week is None:
            return None
        if not rest:
            weekday = 1
        elif hyphen and len(rest) == 2 and rest[:1] == b"-":
            weekday = _digits(rest, 1, 1)
        elif not hyphen and len(rest) == 1:
            weekday = _digits(rest, 0, 1)
        else:
            return None
        if weekday is None or not 1 <= weekday <= 7 or not _week_ok(year, week):
            return None
        january_4 = date(year, 1, 4)  # always in ISO week 1
        monday = january_4.toordinal() - january_4.weekday()
        try:
            found = date.fromordinal(monday + (week - 1) * 7 + weekday - 1)
        except (ValueError, OverflowError):
            return None
        return found.year, found.month, found.day
    month = _digits(part, at, 2)
    if hyphen and part[at + 2:at + 3] != b"-":
        return None
    day = _digits(part, at + 2 + hyphen, 2)
    if month is None or day is None or len(part) != at + 4 + hyphen:
        return None
    if not 1 <= month <= 12 or not 1 <= day <= monthrange(year, month)[1]:
        return None
    return year, month, day


def _week_ok(year, week):
    """Weeks 1 to 52, or 53 in a year whose 1 January is a Thursday, or a Wednesday in a
    leap year."""
    if 1 <= week <= 52:
        return True
    first = date(year, 1, 1).weekday()  # 0 = Monday
    return week == 53 and (first == 3 or (first == 2 and isleap(year)))


def _fields(data, start, end, *, offset):
    """TTL-025 (``offset`` False) and TTL-026 (True): ``[hours, minutes, seconds,
    microseconds]`` read from ``data[start:end]``, or ``None``."""
    values = [0, 0, 0, 0]
    at = start
    extended = False
    fraction_at = None
    for index in range(3):
        value = _digits(data, at, 2)
        if value is None:
            return None
        values[index] = value
        at += 2
        left = end - at  # bytes after the field, up to the sign or the end
        if index == 0:
            extended = data[at:at + 1] == b":"
        if left <= 1:
            if offset and left == 1 and data[at] != 0:
                return None
            return values
        mark = data[at:at + 1]
        if extended and mark == b":":
            at += 1
            if index == 2:
                fraction_at = at
            continue
        if mark in (b".", b","):
            fraction_at = at + 1
            break
        if extended:
            return None
        if index == 2:
            fraction_at = at
    return _fraction(data, fraction_at, end, values, offset=offset)


def _fraction(data, start, end, values, *, offset):
    count = end - start
    taken = min(count, 6)
    micro = _digits(data, start, taken)
    if micro is None:
        return None
    values[3] = micro * 10 ** (6 - taken)
    if offset and count > 6:
        rest = start + 6
        while rest < end and data[rest] in DIGITS:
            rest += 1
        if rest < end and data[rest] != 0:
            return None
    return values


def _lone_surrogates_replaced(text):
    """TTL-020: the first lone surrogate at code point 7, 8 or 10 read as ``T``; ``None``
    when another lone surrogate is left."""
    characters = list(text)
    for position in (7, 8, 10):
        if position < len(characters) and "\ud800" <= characters[position] <= "\udfff":
            characters[position] = "T"
            break
    if any("\ud800" <= character <= "\udfff" for character in characters):
        return None
    return "".join(characters)


def _character_length(lead):
    """The UTF-8 length of the character starting with the byte ``lead``."""
    if lead < 0x80:
        return 1
    return {0xE0: 3, 0xF0: 4}.get(lead & 0xF0, 2)


def _offset_text(seconds, micro):
    sign = "-" if seconds < 0 or (seconds == 0 and micro < 0) else "+"
    seconds, micro = abs(seconds), abs(micro)
    text = f"{sign}{seconds // 3600:02d}:{seconds % 3600 // 60:02d}"
    if seconds % 60 or micro:
        text += f":{seconds % 60:02d}"
        if micro:
            text += f".{micro:06d}"
    return text


def read_start(started_at):
    """The written-back ``started_at`` (TTL-027), or ``None`` when the start is a failure."""
    text = started_at.replace("Z", "+00:00")  # TTL-019
    if len(text) < 7:
        return None
    text = _lone_surrogates_replaced(text)
    if text is None:
        return None
    data = text.encode("utf-8")
    separator = _separator(data)
    if separator is None or len(data) <= separator:
        return None  # no time, so no offset (TTL-003)
    date = _date(data[:separator])
    if date is None:
        return None
    time_start = separator + _character_length(data[separator])  # TTL-023
    signs = [at for at in range(time_start, len(data)) if data[at] in b"+-"]
    if not signs:
        return None  # no sign: no offset (TTL-024)
    sign = signs[0]
    time = _fields(data, time_start, sign, offset=False)
    zone = _fields(data, sign + 1, len(data), offset=True)
    if time is None or zone is None:
        return None
    hour, minute, second, micro = time
    if hour > 23 or minute > 59 or second > 59:
        return None
    whole = zone[0] * 3600 + zone[1] * 60 + zone[2]
    if whole >= 86400:
        return None
    direction = -1 if data[sign] == ord("-") else 1
    zone_micro = 0 if whole == 0 else direction * zone[3]
    year, month, day = date
    written = f"{year:04d}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{second:02d}"
    if micro:
        written += f".{micro:06d}"
    return written + _offset_text(direction * whole, zone_micro)
