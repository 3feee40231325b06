"""Strict readers for gate input fields: exact JSON types, identifiers, timestamps, bounded depth.

A reader returns the value it checked or raises :class:`~passdown.gates._table.Invalid` with the JSON path and what
was expected; the gate catches it and answers its documented invalid-input outcome. Nothing
here imports more than the standard interpreter already has loaded.
"""

from passdown.formats._values import integer as whole_number
from passdown.formats._values import is_id
from passdown.gates._table import Invalid

#: Opaque values a gate echoes back (a context object, say) nest no deeper than this.
MAX_OPAQUE_DEPTH = 32


def record(value, path, required, optional=()):
    """An object with every ``required`` key, and no key outside ``required`` + ``optional``."""
    if not isinstance(value, dict):
        raise Invalid(path, "expected an object")
    missing = next((key for key in required if key not in value), None)
    allowed = set(required).union(optional)
    unknown = next((key for key in value if key not in allowed), None) if missing is None else None
    if missing is not None or unknown is not None:
        from passdown._text import child  # errors only: the guard's start-up skips it

        raise Invalid(child(path, unknown if missing is None else missing),
                      "is not a known field" if missing is None else "is required")
    return value


def boolean(value, path):
    if value is True or value is False:
        return value
    raise Invalid(path, "expected true or false")


def integer(value, path, minimum=0):
    """An integer (GEN-018: by value, so ``5.0`` is ``5``; never a boolean; at most 2^53 - 1)
    no smaller than ``minimum``, as an ``int``."""
    number = whole_number(value)
    if number is None or number < minimum:
        raise Invalid(path, f"expected an integer >= {minimum}")
    return number


def text(value, path, max_length=512):
    """An identifier or short text (``defs.schema.json#/$defs/identifier``), see
    :func:`passdown.formats._values.is_id`."""
    if not is_id(value, max_length):
        raise Invalid(path, f"expected a non-blank string of at most {max_length} characters "
                            "without control characters")
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
            raise Invalid(f"{path}[{index}]", f"expected a string of at most {max_length} characters")
    return value


def opaque_object(value, path):
    """Any JSON object nesting no deeper than :data:`MAX_OPAQUE_DEPTH` (checked without
    recursion), returned with every number as RFC 8785 writes its double (GEN-019): a whole
    number below 10^21 as an integer, any other as a float."""
    if not isinstance(value, dict):
        raise Invalid(path, "expected an object")
    copy = {}
    stack = [(value, copy, 1)]
    while stack:
        node, into, depth = stack.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for key, item in items:
            if depth + 1 > MAX_OPAQUE_DEPTH:
                raise Invalid(path, f"nests deeper than {MAX_OPAQUE_DEPTH} levels")
            if isinstance(item, (dict, list)):
                child_copy = {} if isinstance(item, dict) else [None] * len(item)
                stack.append((item, child_copy, depth + 1))
                item = child_copy
            elif type(item) in (int, float):
                item = _as_double(item, path)
            into[key] = item
    return copy


def _as_double(number, path):
    try:
        double = float(number)
    except OverflowError:  # an integer no double holds: it reads as infinity
        double = float("inf")
    if double != double or double in (float("inf"), float("-inf")):
        raise Invalid(path, "holds a number that is not finite")
    return int(double) if double.is_integer() and abs(double) < 1e21 else double


def timestamp(value, path):
    """An RFC 3339 date-time with an offset (``defs.schema.json#/$defs/timestamp``) ->
    milliseconds since the Unix epoch."""
    from passdown.formats._clock import parse_ms  # timestamps only: the guard's start-up skips it

    millis = parse_ms(value)
    if millis is None:
        raise Invalid(path, "expected an RFC 3339 date-time such as 2026-10-15T12:00:00Z")
    return millis


def seconds(count):
    """A duration in whole seconds, in the milliseconds :func:`timestamp` returns."""
    return count * 1000
