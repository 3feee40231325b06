"""JSON in and out without importing the ``json`` package.

``json`` imports ``re`` (about 7 ms), which alone would break the start-up budget of
``passdown gate`` in hooks. This module drives the same C scanner ``json.loads`` uses, so it
accepts and rejects exactly what ``json.loads`` does, and writes exactly what ``json.dumps``
writes for plain data (dict, list, str, int, float, bool, None).
"""

import sys

import _json


_JSON_WS = " \t\n\r"
_CONSTANTS = {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf")}


class JSONError(ValueError):
    """The text is not one JSON value (message says why; ``pos`` where known)."""

    def __init__(self, message, pos=None):
        super().__init__(message)
        self.pos = pos

    def located(self, text):
        """The message with the line and column it names (both 1-based), as a reader wants
        it: ``Unterminated string starting at line 1, column 7``."""
        message = str(self)
        if self.pos is None:
            return message
        line, column = position(text, self.pos)
        joint = " " if message.endswith(" at") else " at "
        return f"{message}{joint}line {line}, column {column}"


def position(text, pos):
    """``(line, column)``, both 1-based, of the character at index ``pos`` of ``text``."""
    line = text.count("\n", 0, pos) + 1
    return line, pos - (text.rfind("\n", 0, pos) + 1) + 1


class _Context:
    # The attributes the C scanner reads; the same defaults json.JSONDecoder has.
    strict = True
    object_hook = None
    parse_float = float
    parse_int = int

    def __init__(self, object_pairs_hook, parse_constant, parse_int=int, parse_float=float):
        self.object_pairs_hook = object_pairs_hook
        self.parse_constant = parse_constant
        self.parse_int = parse_int
        self.parse_float = parse_float


def _default_constant(name):
    return _CONSTANTS[name]


_DEFAULT_SCANNER = _json.make_scanner(_Context(None, _default_constant))


def loads(text, *, object_pairs_hook=None, parse_constant=None, parse_int=None,
          parse_float=None):
    """Parse ``text`` (a str) exactly as ``json.loads`` would; raise :class:`JSONError`.

    Nesting too deep for the C scanner raises :class:`RecursionError`, which callers turn
    into their own "too deep" outcome. An exception a hook raises that is not a
    ``ValueError`` passes through unchanged."""
    if (object_pairs_hook, parse_constant, parse_int, parse_float) == (None, None, None, None):
        scanner = _DEFAULT_SCANNER
    else:
        scanner = _json.make_scanner(
            _Context(object_pairs_hook, parse_constant or _default_constant,
                     parse_int or int, parse_float or float)
        )
    if text.startswith("\ufeff"):
        raise JSONError("Unexpected UTF-8 BOM", 0)
    start = len(text) - len(text.lstrip(_JSON_WS))
    try:
        value, end = scanner(text, start)
    except StopIteration as stop:
        raise JSONError("Expecting value", stop.value) from None
    except ValueError as error:  # json.JSONDecodeError from inside the scanner
        raise JSONError(getattr(error, "msg", str(error)), getattr(error, "pos", None)) from None
    except SystemError:
        # The C scanner raises json.decoder.JSONDecodeError, a class it looks up only in
        # sys.modules: before anything imported json.decoder it fails with no exception
        # set. Load it (invalid input only) and read again for the real error.
        if "json.decoder" in sys.modules:
            raise JSONError("invalid JSON") from None
        import json.decoder  # noqa: F401

        return loads(text, object_pairs_hook=object_pairs_hook, parse_constant=parse_constant,
                     parse_int=parse_int, parse_float=parse_float)
    rest = text[end:]
    if rest.strip(_JSON_WS):
        raise JSONError("Extra data", end + len(rest) - len(rest.lstrip(_JSON_WS)))
    return value


_encode_string = _json.encode_basestring_ascii


def _float(value):
    if value != value:
        return "NaN"
    if value == float("inf"):
        return "Infinity"
    if value == -float("inf"):
        return "-Infinity"
    return float.__repr__(value)


def dumps(value, *, sort_keys=False, separators=(", ", ": ")):
    """``json.dumps(value, sort_keys=..., separators=...)`` for plain data."""
    item_sep, key_sep = separators
    parts = []
    append = parts.append

    def emit(node):
        if isinstance(node, str):
            append(_encode_string(node))
        elif node is None:
            append("null")
        elif node is True:
            append("true")
        elif node is False:
            append("false")
        elif isinstance(node, int):
            append(int.__repr__(node))
        elif isinstance(node, float):
            append(_float(node))
        elif isinstance(node, dict):
            if not node:
                append("{}")
                return
            append("{")
            keys = sorted(node) if sort_keys else node
            first = True
            for key in keys:
                if not first:
                    append(item_sep)
                first = False
                append(_encode_string(key))
                append(key_sep)
                emit(node[key])
            append("}")
        elif isinstance(node, (list, tuple)):
            if not node:
                append("[]")
                return
            append("[")
            first = True
            for item in node:
                if not first:
                    append(item_sep)
                first = False
                emit(item)
            append("]")
        else:
            raise TypeError(f"Object of type {type(node).__name__} is not JSON serializable")

    emit(value)
    return "".join(parts)


def shown(value, limit=60):
    """A value as short JSON for a message (``null``, ``true``, ``["a", null]``; never a
    Python repr), cut to ``limit`` characters with ``...``. Control characters and non-ASCII
    text come out escaped, so a message stays one printable line."""
    if isinstance(value, str) and len(value) > limit:
        value = value[:limit]  # cut before encoding: a long string is never copied whole
    try:
        text = dumps(value, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError):
        text = "(a value JSON cannot hold)"
    from passdown._text import cut  # messages only: the gates' start-up skips it

    return cut(text, limit)


def shown_from_difference(text, other, limit=80, context=24):
    """``text`` as :func:`shown` for a message that sets it against ``other``, with runs of
    white space read as one space. A long text is shown from a few words before where it
    first differs from ``other`` (with the character it starts from), so two cut texts never
    look the same."""
    if not isinstance(text, str):
        return shown(text, limit)
    words = " ".join(text.split())
    others = " ".join(other.split()) if isinstance(other, str) else ""
    same = next((i for i, (a, b) in enumerate(zip(words, others)) if a != b),
                min(len(words), len(others)))
    start = words.rfind(" ", 0, max(0, same - context)) + 1
    if start == 0:
        return shown(words, limit)
    return f"{shown(words[start:], limit)} (from character {start + 1})"
