"""Schema patterns read the way JSON Schema says: as ECMA-262 regular expressions, in both
validators. Owns the translation of a schema's patterns for each of them.

Neither engine reads every pattern as ECMA-262 does. Python's ``re``: ``$`` also matches
before a final line feed, ``.`` matches ``\\r`` and U+2028, and ``\\d``, ``\\w``, ``\\s`` are
Unicode-wide (``\\d`` matches Arabic-Indic digits, ``\\s`` matches U+0085 but not U+FEFF).
The fast validator follows ECMA-262 for the class escapes, except in patterns that use
look-around, where ``\\s`` and ``\\S`` turn Unicode-wide. So every class escape is written
out as the explicit characters ECMA-262 gives it, for both validators; and for Python, ``.``
and ``$`` are spelled out too. Both then enforce the same language.
"""

from __future__ import annotations

_MAX = 0x10FFFF


def _complement(ranges):
    out, start = [], 0
    for low, high in ranges:
        if low > start:
            out.append((start, low - 1))
        start = high + 1
    if start <= _MAX:
        out.append((start, _MAX))
    return tuple(out)


# ECMA-262 CharacterClassEscape: \d, \w, and \s (WhiteSpace and LineTerminator).
_DIGIT = ((0x30, 0x39),)
_WORD = ((0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A))
_SPACE = ((0x09, 0x0D), (0x20, 0x20), (0xA0, 0xA0), (0x1680, 0x1680), (0x2000, 0x200A),
          (0x2028, 0x2029), (0x202F, 0x202F), (0x205F, 0x205F), (0x3000, 0x3000),
          (0xFEFF, 0xFEFF))
_CLASSES = {
    "d": _DIGIT, "D": _complement(_DIGIT),
    "w": _WORD, "W": _complement(_WORD),
    "s": _SPACE, "S": _complement(_SPACE),
}
_LINE_TERMINATORS = ((0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029))
#: Keywords whose values are instance data, never schemas: nothing in them is translated.
_DATA = frozenset({"const", "enum", "examples", "default"})
#: Keywords whose values map names to schemas.
_NAMED_SCHEMAS = frozenset({"properties", "$defs", "definitions", "dependentSchemas"})

_ORIGINALS: dict[str, str] = {}


def original(translated: str) -> str:
    """The pattern as the schema wrote it, for messages."""
    return _ORIGINALS.get(translated, translated)


def to_python(pattern: str) -> str:
    """One ECMA-262 pattern (no flags) as a Python ``re`` pattern with the same meaning."""
    return _remember(pattern, _translate(pattern, python=True))


def to_fast(pattern: str) -> str:
    """One ECMA-262 pattern with its class escapes written out, for the fast validator."""
    return _remember(pattern, _translate(pattern, python=False))


def _remember(pattern: str, translated: str) -> str:
    _ORIGINALS[translated] = pattern
    return translated


def _char(code: int, python: bool) -> str:
    if python:  # escapes: nothing in a class can be misread
        if code < 0x100:
            return f"\\x{code:02x}"
        return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"
    char = chr(code)
    return "\\" + char if char in "]\\^-[" else char


def _body(ranges, python: bool) -> str:
    return "".join(_char(low, python) if low == high else f"{_char(low, python)}-{_char(high, python)}"
                   for low, high in ranges)


def _translate(pattern: str, *, python: bool) -> str:
    out: list[str] = []
    in_class = False
    i, n = 0, len(pattern)
    while i < n:
        char = pattern[i]
        if char == "\\" and i + 1 < n:
            escaped = pattern[i + 1]
            if escaped in _CLASSES:
                body = _body(_CLASSES[escaped], python)
                out.append(body if in_class else f"[{body}]")
            else:
                out.append(char + escaped)
            i += 2
            continue
        if in_class:
            if char == "]":
                in_class = False
            out.append(char)
        elif char == "[":
            in_class = True
            out.append(char)
            if pattern.startswith("^", i + 1):
                out.append("^")
                i += 1
        elif char == "." and python:
            out.append(f"[^{_body(_LINE_TERMINATORS, python)}]")
        elif char == "$" and python:
            out.append(r"\Z")
        else:
            out.append(char)
        i += 1
    return "".join(out)


def translate_schema(node, *, python: bool = True):
    """A copy of a schema with every ``pattern`` and ``patternProperties`` key translated
    for Python (``python=True``) or for the fast validator."""
    if isinstance(node, list):
        return [translate_schema(item, python=python) for item in node]
    if not isinstance(node, dict):
        return node
    translate = to_python if python else to_fast
    out = {}
    for key, value in node.items():
        if key in _DATA:
            out[key] = value
        elif key == "pattern" and isinstance(value, str):
            out[key] = translate(value)
        elif key == "patternProperties" and isinstance(value, dict):
            out[key] = {translate(p): translate_schema(s, python=python) for p, s in value.items()}
        elif key in _NAMED_SCHEMAS and isinstance(value, dict):
            out[key] = {name: translate_schema(s, python=python) for name, s in value.items()}
        else:
            out[key] = translate_schema(value, python=python)
    return out
