"""Schema patterns read the way JSON Schema says: as ECMA-262 regular expressions. Owns the
translation of a schema's patterns into Python's ``re`` dialect for the reference validator.

Python's ``re`` reads some of the same text differently, and each difference would let the
reference validator accept what the fast one (which follows ECMA-262) rejects, or the
reverse: ``$`` also matches before a final line feed, ``.`` matches ``\\r`` and U+2028,
and ``\\d``, ``\\w``, ``\\s`` are Unicode-wide (``\\d`` matches Arabic-Indic digits; ``\\s``
matches U+0085 but not U+FEFF). The translation spells each of these out in ECMA-262's
meaning, so both validators enforce the same language.
"""

from __future__ import annotations

# ECMA-262 WhiteSpace and LineTerminator, as characters inside a Python character class.
_SPACE = "\t\n\x0b\x0c\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_IN_CLASS = {"d": "0-9", "w": "A-Za-z0-9_", "s": _SPACE}
_OUTSIDE = {
    "d": "[0-9]", "D": "[^0-9]",
    "w": "[A-Za-z0-9_]", "W": "[^A-Za-z0-9_]",
    "s": f"[{_SPACE}]", "S": f"[^{_SPACE}]",
}
_ANY = "[^\n\r\u2028\u2029]"  # ECMA-262 `.` without the s flag
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
    translated = _translate(pattern)
    _ORIGINALS[translated] = pattern
    return translated


def _translate(pattern: str) -> str:
    out: list[str] = []
    in_class = False
    i, n = 0, len(pattern)
    while i < n:
        char = pattern[i]
        if char == "\\" and i + 1 < n:
            escaped = pattern[i + 1]
            table = _IN_CLASS if in_class else _OUTSIDE
            out.append(table.get(escaped, char + escaped))
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
        elif char == ".":
            out.append(_ANY)
        elif char == "$":
            out.append(r"\Z")
        else:
            out.append(char)
        i += 1
    return "".join(out)


def translate_schema(node):
    """A copy of a schema with every ``pattern`` and ``patternProperties`` key translated."""
    if isinstance(node, list):
        return [translate_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key in _DATA:
            out[key] = value
        elif key == "pattern" and isinstance(value, str):
            out[key] = to_python(value)
        elif key == "patternProperties" and isinstance(value, dict):
            out[key] = {to_python(p): translate_schema(s) for p, s in value.items()}
        elif key in _NAMED_SCHEMAS and isinstance(value, dict):
            out[key] = {name: translate_schema(s) for name, s in value.items()}
        else:
            out[key] = translate_schema(value)
    return out
