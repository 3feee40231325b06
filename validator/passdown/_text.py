"""How any text Passdown shows is made safe and short: lone surrogates spelled as escapes, the
one way a long value is cut to a number of characters, and the one way a place in a JSON
value is written as a JSON path (GEN-022), and the ANSI styles of text output. Used by the findings, the gates, the reporters,
the conformance runner and the CLI alike. Imports nothing, so the gates may use it."""

#: ANSI styles of the text outputs, by what they mark.
STYLES = {"error": "\x1b[1;31m", "warning": "\x1b[1;33m", "code": "\x1b[36m",
          "hint": "\x1b[2m", "ok": "\x1b[32m"}
_RESET = "\x1b[0m"


def paint(style: str, text: str, color: bool = True) -> str:
    """``text`` in the ANSI style ``style`` (a key of :data:`STYLES`), when ``color``."""
    return f"{STYLES[style]}{text}{_RESET}" if color else text


_NAME_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_NAME_CHARS = _NAME_START | frozenset("0123456789")


def printable(text: str) -> str:
    """``text`` with any lone surrogate (a file name that is not UTF-8, a value read from a
    ``\\ud800`` escape) spelled as an escape, so it can always be written out."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def cut(text: str, limit: int) -> str:
    """``text`` when it has at most ``limit`` characters, else its first ``limit - 3`` and
    ``...``: ``limit`` characters in all."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def child(path: str, key) -> str:
    """The JSON path of member or element ``key`` below ``path`` (GEN-022): ``[n]`` for an
    element, ``.name`` for a member whose name is ASCII letters, digits and ``_`` not starting
    with a digit, else ``["name"]`` with ``\\`` and ``"`` escaped."""
    if not isinstance(key, str):
        return f"{path}[{key}]"
    if key and key[0] in _NAME_START and set(key) <= _NAME_CHARS:
        return f"{path}.{key}"
    escaped = key.replace("\\", "\\\\").replace('"', '\\"')
    return f'{path}["{escaped}"]'


def json_path(parts) -> str:
    """``("plan", "items", 0)`` -> ``$.plan.items[0]``; ``("x-passdown/session",)`` ->
    ``$["x-passdown/session"]`` (:func:`child`, one part after the other)."""
    path = "$"
    for part in parts:
        path = child(path, part)
    return path
