"""The reader of plain block YAML: the narrow form Passdown's own registries are written in
(block mappings and sequences, one value a line, plain or simply quoted scalars, comments),
read without importing a YAML library.

A text outside that form raises :class:`NotPlain` at the first place it leaves it, and the
caller reads it with the full loaders (:func:`passdown.formats._loading.parse_yaml`), which
give the data, or the finding, exactly as before. So this reader only ever answers with the
data the full loaders would build (tests/formats/test_yaml_loaders.py compares them on every
YAML text of the suite, on hostile texts and on generated ones): whatever it is not sure of
(a tab, a non-ASCII or control character, a multi-line or escaped scalar, a flow collection
other than an empty ``[]`` or ``{}``, an anchor, alias or tag, a duplicate key, a number in
any form but plain decimal, a document marker, deep nesting) it leaves to them.

Plain scalars are resolved by the table of YAML 1.2 implicit types ruamel.yaml applies
(copied here, and compared with ruamel's own table by the tests): a scalar that resolves to
a string is a string, ``true``/``null`` and their spellings are what they stand for, a plain
decimal integer or fraction is a number, a timestamp stays the string it was written as,
and any other typed form is left to the full loaders.
"""

from __future__ import annotations

MAX_DEPTH = 64
#: Keys and scalars up to this length are kept once per text, however often they repeat.
_SHARED_CHARS = 128


class NotPlain(Exception):
    """The text leaves the form this reader reads: the full loaders read it."""


# -- the plain scalars -------------------------------------------------------------------

_BOOL = "tag:yaml.org,2002:bool"
_FLOAT = "tag:yaml.org,2002:float"
_INT = "tag:yaml.org,2002:int"
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_MERGE = "tag:yaml.org,2002:merge"
_NULL = "tag:yaml.org,2002:null"
_VALUE = "tag:yaml.org,2002:value"
_YAML = "tag:yaml.org,2002:yaml"

#: ruamel.yaml's YAML 1.2 implicit resolvers, in its order: (tag, pattern, first characters).
RESOLVERS = (
    (_BOOL, "^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    (_FLOAT, """^(?:
         [-+]?(?:[0-9][0-9_]*)\\.[0-9_]*(?:[eE][-+]?[0-9]+)?
        |[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)
        |[-+]?\\.[0-9_]+(?:[eE][-+][0-9]+)?
        |[-+]?\\.(?:inf|Inf|INF)
        |\\.(?:nan|NaN|NAN))$""", "-+0123456789."),
    (_INT, """^(?:[-+]?0b[0-1_]+
        |[-+]?0o?[0-7_]+
        |[-+]?[0-9_]+
        |[-+]?0x[0-9a-fA-F_]+)$""", "-+0123456789"),
    (_MERGE, "^(?:<<)$", "<"),
    (_NULL, """^(?: ~
        |null|Null|NULL
        | )$""", ["~", "n", "N", ""]),
    (_TIMESTAMP, """^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]
        |[0-9][0-9][0-9][0-9] -[0-9][0-9]? -[0-9][0-9]?
        (?:[Tt]|[ \\t]+)[0-9][0-9]?
        :[0-9][0-9] :[0-9][0-9] (?:\\.[0-9]*)?
        (?:[ \\t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$""", list("0123456789")),
    (_VALUE, "^(?:=)$", "="),
    (_YAML, "^(?:!|&|\\*)$", "!&*"),
)

#: Every character a typed plain scalar can start with (an empty scalar is null).
_TYPED_STARTS = frozenset(first for _, _, firsts in RESOLVERS for first in firsts)
#: The boolean and null words of the table (each its whole scalar), and what they stand for.
_WORDS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False,
          "null": None, "Null": None, "NULL": None, "~": None}
_DIGITS = frozenset("0123456789")
#: The letters a number or timestamp starting with a digit may hold without a ``0x``, ``0b``
#: or ``0o`` prefix: an exponent, the date-time separator and UTC's zone.
_FORM_LETTERS = frozenset("eETtZ")
_table = None


def _resolver_table():
    """``{first character: [(tag, compiled pattern)]}``, as ruamel builds it (compiled on
    the first scalar that needs it)."""
    global _table
    if _table is None:
        import re

        table: dict = {}
        for tag, pattern, firsts in RESOLVERS:
            compiled = re.compile(pattern, re.X)
            for first in firsts:
                table.setdefault(first, []).append((tag, compiled))
        _table = table
    return _table


def _typed(value: str):
    """The value of a plain scalar that may not be a string (its first character starts a
    typed form)."""
    if value in _WORDS:
        return _WORDS[value]
    first = value[0]
    if first.isalpha():
        return value  # the words above are the only typed forms starting with a letter
    if first in _DIGITS:  # most typed-looking scalars: settled without the patterns
        characters = set(value)
        if characters <= _DIGITS:
            if (value == "0" or first != "0") and len(value) <= 4300:
                return int(value)
            raise NotPlain  # a leading zero, or more digits than the bound: the loaders say
        whole, dot, fraction = value.partition(".")
        if dot and fraction and set(whole) <= _DIGITS and set(fraction) <= _DIGITS:
            return float(value)
        letters = {c for c in characters if c.isalpha()}
        if letters and value[:2] not in ("0x", "0b", "0o") and not letters <= _FORM_LETTERS:
            return value  # a letter no number or timestamp holds (a commit hash, an id)
    for tag, pattern in _resolver_table().get(first, ()):
        if pattern.match(value):
            break
    else:
        return value
    if tag == _TIMESTAMP:
        return value  # timestamps stay the strings they were written as
    body = value[1:] if first == "-" else value
    if tag == _INT and body and set(body) <= _DIGITS and (body == "0" or body[0] != "0") \
            and len(body) <= 4300:
        return int(value)
    if tag == _FLOAT and first in "-0123456789":
        whole, dot, fraction = body.partition(".")
        if dot and whole and fraction and set(whole) <= _DIGITS and set(fraction) <= _DIGITS:
            return float(value)
    raise NotPlain  # another integer or number form, a merge key, a tag word


#: What no plain scalar may start with here (YAML's indicators; "-" only before a space).
_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`")


def _scalar(text: str):
    """One scalar written on one line (its comment removed, its surrounding spaces too)."""
    first = text[0]
    if first == '"' or first == "'":
        end = text.find(first, 1)
        inner = text[1:end]
        if end < 0 or (first == '"' and "\\" in inner):
            raise NotPlain  # escapes, a doubled quote or a quote running on: the full loaders
        after = text[end + 1:]
        rest = after.lstrip(" ")
        if rest and not (rest[0] == "#" and after[0] == " "):
            raise NotPlain  # more after the closing quote than a comment (or a doubled quote)
        return inner
    if text == "[]" or text == "{}":  # an empty list or mapping, as Passdown writes one
        return [] if text == "[]" else {}
    if first in _INDICATORS and not (first == "-" and len(text) > 1 and text[1] != " "):
        raise NotPlain
    if ": " in text or text.endswith(":") or " #" in text:
        raise NotPlain  # a mapping where a scalar is, or a comment the caller did not cut
    if first in _TYPED_STARTS:
        return _typed(text)
    return text


def _value_text(rest: str) -> str:
    """The text of an inline value after ``key:`` or ``-``: comment cut, spaces stripped."""
    if not rest or rest[0] != " ":
        if rest:
            raise NotPlain
        return ""
    stripped = rest.lstrip(" ")
    if stripped[:1] in ("'", '"'):
        return stripped.rstrip(" ")
    comment = rest.find(" #")
    if comment >= 0:
        rest = rest[:comment]
    return rest.strip(" ")


def _key(text: str) -> str:
    """A mapping key: a plain scalar that resolves to a string, short enough to be implicit."""
    if not text or len(text) > 128 or text[0] in _INDICATORS or " #" in text or text != text.strip(" "):
        raise NotPlain
    if text[0] in _TYPED_STARTS and _typed(text) is not text:
        raise NotPlain
    return text


# -- the block structure -----------------------------------------------------------------


class _Lines:
    """The text's lines holding content, as ``(indent, content)``, one ahead; comment and
    blank lines are passed over. A line ``- x`` yields the dash and then ``x`` at its column,
    so a sequence entry's content is read like any block. ``known`` holds one copy of each
    short key and value read (they repeat in every attempt of a registry)."""

    __slots__ = ("_text", "_at", "_pending", "indent", "content", "known")

    def __init__(self, text: str):
        self._text = text
        self._at = 0
        self._pending = None
        self.known: dict = {}
        self.advance()

    def shared(self, value):
        """One object for every equal short key or scalar of the text."""
        if type(value) is str and len(value) > _SHARED_CHARS or type(value) in (list, dict):
            return value
        return self.known.setdefault((type(value), value), value)

    def advance(self) -> None:
        if self._pending is not None:
            self.indent, self.content = self._pending
            self._pending = None
            return
        text = self._text
        while self._at < len(text):
            end = text.find("\n", self._at)
            if end < 0:
                end = len(text)
            line = text[self._at:end]
            self._at = end + 1
            content = line.lstrip(" ")
            if not content or content[0] == "#":
                continue
            indent = len(line) - len(content)
            if indent == 0 and (line.startswith("---") or line.startswith("...") or line[0] == "%"):
                raise NotPlain
            content = content.rstrip(" ")
            if content[0] == "-" and (len(content) == 1 or content[1] == " "):
                inline = content[1:].lstrip(" ")
                if inline and inline[0] != "#":
                    self._pending = (indent + len(content) - len(inline), inline)
                content = "-"
            self.indent, self.content = indent, content
            return
        self.indent, self.content = -1, None


def _block(lines: _Lines, depth: int):
    """The node at the current line: a mapping, a sequence, or a scalar alone on its line."""
    if depth > MAX_DEPTH:
        raise NotPlain
    if lines.content == "-":
        return _sequence(lines, lines.indent, depth)
    if _split_key(lines.content) is not None:
        return _mapping(lines, lines.indent, depth)
    value = lines.shared(_scalar(_value_text(" " + lines.content)))
    lines.advance()
    return value


def _split_key(content: str):
    colon = content.find(": ")
    if colon < 0:
        return (content[:-1], "") if content.endswith(":") else None
    return content[:colon], content[colon + 1:]


def _mapping(lines: _Lines, indent: int, depth: int) -> dict:
    mapping: dict = {}
    while lines.indent == indent:
        split = _split_key(lines.content) if lines.content != "-" else None
        if split is None:
            raise NotPlain  # a scalar or an entry of a sequence among keys
        key = lines.shared(_key(split[0]))
        if key in mapping:
            raise NotPlain  # the full loaders say which key, and where
        inline = _value_text(split[1])
        lines.advance()
        if inline:
            mapping[key] = lines.shared(_scalar(inline))
        elif lines.indent > indent or (lines.indent == indent and lines.content == "-"):
            mapping[key] = _block(lines, depth + 1)
        else:
            mapping[key] = None
        if lines.indent > indent:
            raise NotPlain  # a scalar running on to the next line, or a stray indent
    return mapping


def _sequence(lines: _Lines, indent: int, depth: int) -> list:
    sequence: list = []
    while lines.indent == indent and lines.content == "-":
        lines.advance()
        sequence.append(_block(lines, depth + 1) if lines.indent > indent else None)
        if lines.indent > indent:
            raise NotPlain
    return sequence


def read(text: str) -> dict:
    """The data of ``text``, a block mapping in the plain form; :class:`NotPlain` otherwise."""
    if not text.isascii() or _has_control(text):
        raise NotPlain
    lines = _Lines(text)
    if lines.indent != 0 or lines.content == "-":
        raise NotPlain
    data = _mapping(lines, 0, 1)
    if lines.content is not None:
        raise NotPlain
    return data


def _has_control(text: str) -> bool:
    """A character below the space other than the line feed (a tab, a carriage return...),
    or DEL: the full loaders say whether YAML allows it there."""
    global _control
    if _control is None:
        import re

        _control = re.compile("[^\n -~]")
    return _control.search(text) is not None


_control = None
