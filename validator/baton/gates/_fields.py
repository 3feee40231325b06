"""Strict readers for gate input fields: exact JSON types, RFC 3339 timestamps, bounded depth.

A reader returns the value it checked or raises :class:`Invalid` with the JSON path and what
was expected; the gate catches it and answers its documented invalid-input outcome. Nothing
here imports more than the standard interpreter already has loaded.
"""

_DIGITS = "0123456789"
_NS = 1_000_000_000
#: Opaque values a gate echoes back (a context object, say) nest no deeper than this.
MAX_OPAQUE_DEPTH = 32


class Invalid(Exception):
    """The input does not have the documented shape (``path``: where; ``expected``: what)."""

    def __init__(self, path, expected):
        super().__init__(f"{path}: {expected}")
        self.path = path
        self.expected = expected

    @property
    def message(self):
        return f"{self.path}: {self.expected}"


def child(path, key):
    return f"{path}.{key}" if isinstance(key, str) else f"{path}[{key}]"


def record(value, path, required, optional=()):
    """An object with every ``required`` key, and no key outside ``required`` + ``optional``."""
    if not isinstance(value, dict):
        raise Invalid(path, "expected an object")
    for key in required:
        if key not in value:
            raise Invalid(child(path, key), "is required")
    allowed = set(required).union(optional)
    for key in value:
        if key not in allowed:
            raise Invalid(child(path, key), "is not a known field")
    return value


def boolean(value, path):
    if value is True or value is False:
        return value
    raise Invalid(path, "expected true or false")


def integer(value, path, minimum=0):
    """An exact JSON integer (not a boolean, not ``1.0``) no smaller than ``minimum``."""
    if type(value) is not int or value < minimum:
        raise Invalid(path, f"expected an integer >= {minimum}")
    return value


def text(value, path, max_length=256):
    """A string with something other than whitespace in it, at most ``max_length`` long."""
    if not isinstance(value, str) or not value.strip() or len(value) > max_length:
        raise Invalid(path, f"expected a non-blank string of at most {max_length} characters")
    return value


def choice(value, path, options):
    if not isinstance(value, str) or value not in options:
        raise Invalid(path, "expected one of " + ", ".join(options))
    return value


def optional(reader, value, path, *args):
    """``None`` stays ``None``; anything else goes through ``reader``."""
    return None if value is None else reader(value, path, *args)


def strings(value, path, max_items=64, max_length=4096):
    if not isinstance(value, list) or len(value) > max_items:
        raise Invalid(path, f"expected a list of at most {max_items} strings")
    for index, item in enumerate(value):
        if not isinstance(item, str) or len(item) > max_length:
            raise Invalid(child(path, index), f"expected a string of at most {max_length} characters")
    return value


def opaque_object(value, path):
    """Any JSON object nesting no deeper than :data:`MAX_OPAQUE_DEPTH` (checked without recursion)."""
    if not isinstance(value, dict):
        raise Invalid(path, "expected an object")
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_OPAQUE_DEPTH:
            raise Invalid(path, f"nests deeper than {MAX_OPAQUE_DEPTH} levels")
        if isinstance(node, dict):
            stack.extend((item, depth + 1) for item in node.values())
        elif isinstance(node, list):
            stack.extend((item, depth + 1) for item in node)
        elif isinstance(node, float) and (node != node or node in (float("inf"), float("-inf"))):
            raise Invalid(path, "holds a number that is not finite")
    return value


def timestamp(value, path):
    """An RFC 3339 date-time with seconds and an offset -> nanoseconds since the Unix epoch."""
    nanoseconds = parse_timestamp(value) if isinstance(value, str) else None
    if nanoseconds is None:
        raise Invalid(path, "expected an RFC 3339 date-time such as 2026-10-15T12:00:00Z")
    return nanoseconds


def _number(part):
    if not part or not all(c in _DIGITS for c in part):
        return None
    return int(part)


def parse_timestamp(value):
    """``YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)`` -> nanoseconds, or ``None``.

    Digits beyond nanoseconds are dropped; a leap second (``:60``) is not accepted."""
    if len(value) < 20 or len(value) > 64 or value[4] != "-" or value[7] != "-":
        return None
    if value[10] not in "Tt" or value[13] != ":" or value[16] != ":":
        return None
    year, month, day = _number(value[0:4]), _number(value[5:7]), _number(value[8:10])
    hour, minute, second = _number(value[11:13]), _number(value[14:16]), _number(value[17:19])
    if None in (year, month, day, hour, minute, second):
        return None
    rest = value[19:]
    fraction = 0
    if rest.startswith("."):
        end = 1
        while end < len(rest) and rest[end] in _DIGITS:
            end += 1
        if end == 1:
            return None
        fraction = int(rest[1:end][:9].ljust(9, "0"))
        rest = rest[end:]
    if rest in ("Z", "z"):
        offset = 0
    elif len(rest) == 6 and rest[0] in "+-" and rest[3] == ":":
        offset_hour, offset_minute = _number(rest[1:3]), _number(rest[4:6])
        if offset_hour is None or offset_minute is None or offset_hour > 23 or offset_minute > 59:
            return None
        offset = (offset_hour * 60 + offset_minute) * 60 * (1 if rest[0] == "+" else -1)
    else:
        return None
    if not 1 <= month <= 12 or not 1 <= day <= _days_in_month(year, month):
        return None
    if hour > 23 or minute > 59 or second > 59:
        return None
    seconds = _days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second
    return (seconds - offset) * _NS + fraction


def _days_in_month(year, month):
    if month == 2:
        leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
        return 29 if leap else 28
    return 30 if month in (4, 6, 9, 11) else 31


def _days_from_civil(year, month, day):
    # Days since 1970-01-01 in the proleptic Gregorian calendar.
    year -= month <= 2
    era = year // 400
    year_of_era = year - era * 400
    day_of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    day_of_era = year_of_era * 365 + year_of_era // 4 - year_of_era // 100 + day_of_year
    return era * 146097 + day_of_era - 719468


def seconds(count):
    """A duration in whole seconds, in the nanoseconds :func:`timestamp` returns."""
    return count * _NS
