"""Strict readers for gate input fields: exact JSON types, identifiers, timestamps, bounded depth.

A reader returns the value it checked or raises :class:`Invalid` with the JSON path and what
was expected; the gate catches it and answers its documented invalid-input outcome. Nothing
here imports more than the standard interpreter already has loaded.
"""

from baton.formats._clock import parse_ms
from baton.formats._values import is_id

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


def text(value, path, max_length=512):
    """An identifier or short text (``defs.schema.json#/$defs/identifier``), see
    :func:`baton.formats._values.is_id`."""
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
    """An RFC 3339 date-time with an offset (``defs.schema.json#/$defs/timestamp``) ->
    milliseconds since the Unix epoch."""
    millis = parse_ms(value)
    if millis is None:
        raise Invalid(path, "expected an RFC 3339 date-time such as 2026-10-15T12:00:00Z")
    return millis


def seconds(count):
    """A duration in whole seconds, in the milliseconds :func:`timestamp` returns."""
    return count * 1000
