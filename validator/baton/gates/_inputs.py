"""Small readers shared by the gates of ``spec/gates/recovery.md`` and
``spec/gates/handoff.md``: strict raw input, and the value tests their inputs are made of.

Gate modules may import only the gate table, ``_fastjson`` and cheap builtins, so these
readers stay at that level too.
"""

from baton.gates._table import Decision, InputError, parse_input

#: Identifiers (session ids, incarnations) are at most this many characters.
MAX_ID_LENGTH = 512


class Invalid(Exception):
    """An input value breaks its gate's input rules; ``field`` is its JSON path."""

    def __init__(self, field):
        super().__init__(field)
        self.field = field


def invalid_input(field):
    """The answer to an input that breaks its gate's input rules at ``field`` (exit 2)."""
    return Decision({"outcome": "invalid_input", "field": field}, "invalid_input", 2)


def decide_or_refuse(decide, value):
    """``decide(value)``; a broken input rule (:class:`Invalid`), or a value no JSON text can
    hold, answers :func:`invalid_input` instead. Never raises."""
    try:
        return decide(value)
    except Invalid as invalid:
        return invalid_input(invalid.field)
    except Exception:  # noqa: BLE001 - a value no JSON text can hold
        return invalid_input("$")


def parse_strict(raw, limit):
    """Raw bytes -> a JSON value with every input-hygiene rule: the size bound, UTF-8
    without BOM, no duplicate keys, no NaN or Infinity, a nesting bound. Raises
    :class:`InputError`."""
    return parse_input(raw, limit, allow_constants=False, unique_keys=True)


def is_count(value):
    """A JSON integer (never a boolean) that is zero or more."""
    return type(value) is int and value >= 0


def is_id(value, max_length=MAX_ID_LENGTH):
    """An identifier as ``defs.schema.json`` defines it (1 to ``max_length`` characters, not
    only white space or U+FEFF, no C0 or C1 control character), and Unicode text: no lone
    surrogate."""
    return (
        isinstance(value, str)
        and 0 < len(value) <= max_length
        and is_clean_text(value, "")
        and not any(0x7F <= ord(char) <= 0x9F for char in value)
        and not all(char.isspace() or char == "\ufeff" for char in value)
    )


def is_clean_text(value, allowed_controls):
    """No control character (U+0000-U+001F, U+007F) but those in ``allowed_controls``,
    and no lone surrogate (the text encodes as UTF-8)."""
    for char in value:
        code = ord(char)
        if (code < 0x20 or code == 0x7F) and char not in allowed_controls:
            return False
        if 0xD800 <= code <= 0xDFFF:
            return False
    return True


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
