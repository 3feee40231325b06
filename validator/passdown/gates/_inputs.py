"""Small readers shared by the gates of ``spec/gates/recovery.md`` and
``spec/gates/handoff.md``: strict raw input, and the value tests their inputs are made of.

Gate modules may import only the gate table, ``_fastjson`` and cheap builtins, so these
readers stay at that level too. Identifier and text tests are :mod:`passdown.formats._values`.
"""

from passdown.formats._values import integer
from passdown.gates._table import Decision, InputError, Invalid, parse_input


def invalid_input(field):
    """The answer to an input that breaks its gate's input rules at ``field`` (exit 2)."""
    return Decision({"outcome": "invalid_input", "field": field}, "invalid_input", 2)


def decide_or_refuse(decide, value):
    """``decide(value)``; a broken input rule (:class:`Invalid`), or a value no JSON text can
    hold, answers :func:`invalid_input` instead. Never raises."""
    try:
        return decide(value)
    except Invalid as invalid:
        return invalid_input(invalid.path)
    except Exception:  # noqa: BLE001 - a value no JSON text can hold
        return invalid_input("$")


def parse_strict(raw, limit):
    """Raw bytes -> a JSON value with every input-hygiene rule: the size bound, UTF-8
    without BOM, no duplicate keys, no NaN or Infinity, a nesting bound. Raises
    :class:`InputError`."""
    return parse_input(raw, limit, allow_constants=False, unique_keys=True)


def count(value):
    """``value`` as an ``int`` when it is an integer (GEN-018: ``5.0`` is ``5``; never a
    boolean; at most 2^53 - 1) that is zero or more, else ``None``."""
    number = integer(value)
    return number if number is not None and number >= 0 else None


def optional_count(mapping, key, default, path):
    """``mapping[key]`` as a count, ``default`` when absent or null; else :class:`Invalid`."""
    if mapping.get(key) is None:
        return default
    return required_count(mapping, key, path)


def required_count(mapping, key, path):
    number = count(mapping.get(key))
    if number is None:
        raise Invalid(f"{path}.{key}")
    return number


def optional_object(mapping, key, path):
    value = mapping.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise Invalid(f"{path}.{key}")
    return value
