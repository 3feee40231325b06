"""Small readers shared by the gates of ``spec/gates/recovery.md`` and
``spec/gates/handoff.md``: strict raw input, and the value tests their inputs are made of.

Gate modules may import only the gate table, ``_fastjson`` and cheap builtins, so these
readers stay at that level too.
"""

from baton.gates._table import InputError, parse_input

#: Identifiers (session ids, incarnations) are at most this many characters.
MAX_ID_LENGTH = 512
_ID_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:@/+=~-")


class Invalid(Exception):
    """An input value breaks its gate's input rules; ``field`` is its JSON path."""

    def __init__(self, field):
        super().__init__(field)
        self.field = field


def parse_strict(raw, limit):
    """Raw bytes -> a JSON value with every input-hygiene rule: the size bound, UTF-8
    without BOM, no duplicate keys, no NaN or Infinity, a nesting bound. Raises
    :class:`InputError`."""
    return parse_input(raw, limit, allow_constants=False, unique_keys=True)


def is_count(value):
    """A JSON integer (never a boolean) that is zero or more."""
    return type(value) is int and value >= 0


def is_id(value):
    """A session id or incarnation: 1-512 characters from ``A-Za-z0-9._:@/+=~-`` (paths and
    URIs fit; blanks, control characters and look-alike letters cannot)."""
    return (isinstance(value, str) and 0 < len(value) <= MAX_ID_LENGTH
            and set(value) <= _ID_CHARS)


def optional_count(mapping, key, default, path):
    """``mapping[key]`` as a count, ``default`` when absent or null; else :class:`Invalid`."""
    value = mapping.get(key)
    if value is None:
        return default
    if not is_count(value):
        raise Invalid(f"{path}.{key}")
    return value


def required_count(mapping, key, path):
    value = mapping.get(key)
    if not is_count(value):
        raise Invalid(f"{path}.{key}")
    return value


def optional_object(mapping, key, path):
    value = mapping.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise Invalid(f"{path}.{key}")
    return value
