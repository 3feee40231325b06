"""Changing a JSON text in place: one member or element added or removed at a time, every
other byte of the text kept as it was.

A host's settings file belongs to its owner: its key order, its indentation, its spacing and
everything Passdown does not add stay byte for byte. Re-serialising the parsed value would keep
the data but not the text, so edits are splices into the text at the spans a small reader
records. Removing what an insertion added gives back the text it started from.

The reader expects text that a strict JSON loader already accepted (``_editing.parse``):
it records spans, it does not re-check JSON.
"""

from __future__ import annotations

import json
from json.decoder import scanstring

_WHITESPACE = " \t\n\r"
_SCALAR_END = ",]}" + _WHITESPACE


class Node:
    """One value of the text: ``start``/``end`` offsets (``end`` exclusive), its ``kind``
    (``object``, ``array`` or ``scalar``) and, for a container, its ``children``: for an
    object ``(key, node)`` pairs, for an array the nodes, in text order; ``starts`` holds
    where each child begins (for a member, its key's opening quote)."""

    __slots__ = ("start", "end", "kind", "children", "starts")

    def __init__(self, start, end, kind, children=(), starts=()):
        self.start, self.end, self.kind = start, end, kind
        self.children, self.starts = list(children), list(starts)

    def member(self, key):
        """The index and value node of ``key`` in an object (the last one, as loaders do),
        or ``(None, None)``."""
        found = (None, None)
        for index, (name, node) in enumerate(self.children):
            if name == key:
                found = (index, node)
        return found

    def child(self, index):
        entry = self.children[index]
        return entry[1] if self.kind == "object" else entry


def parse(text: str) -> Node:
    """The span tree of the one JSON value ``text`` holds."""
    node, end = _value(text, _skip(text, 0))
    if _skip(text, end) != len(text):
        raise ValueError("text after the JSON value")
    return node


def _skip(text, index):
    while index < len(text) and text[index] in _WHITESPACE:
        index += 1
    return index


def _value(text, index):
    opener = text[index]
    if opener == "{":
        return _container(text, index, "object", "}")
    if opener == "[":
        return _container(text, index, "array", "]")
    if opener == '"':
        _, end = scanstring(text, index + 1)
        return Node(index, end, "scalar"), end
    end = index
    while end < len(text) and text[end] not in _SCALAR_END:
        end += 1
    return Node(index, end, "scalar"), end


def _container(text, index, kind, closer):
    children, starts = [], []
    position = _skip(text, index + 1)
    if text[position] == closer:
        return Node(index, position + 1, kind), position + 1
    while True:
        starts.append(position)
        if kind == "object":
            key, position = scanstring(text, position + 1)
            position = _skip(text, position)  # at the colon
            node, position = _value(text, _skip(text, position + 1))
            children.append((key, node))
        else:
            node, position = _value(text, position)
            children.append(node)
        position = _skip(text, position)
        if text[position] == closer:
            return Node(index, position + 1, kind, children, starts), position + 1
        position = _skip(text, position + 1)  # past the comma


def indent_unit(text: str) -> str:
    """The indentation one nesting level adds: that of the first indented line (two spaces
    when no line is indented)."""
    for line in text.split("\n")[1:]:
        stripped = line.lstrip(" \t")
        if stripped and len(stripped) != len(line):
            return line[: len(line) - len(stripped)]
    return "  "


def dumps(value, unit: str) -> str:
    """``value`` as a new file holds it: indented by ``unit``, final newline."""
    return json.dumps(value, indent=unit, ensure_ascii=False) + "\n"


def _line_indent(text, offset):
    line_start = text.rfind("\n", 0, offset) + 1
    line = text[line_start:offset]
    return line[: len(line) - len(line.lstrip(" \t"))]


def _render(value, indent, unit, inline):
    if inline:
        return json.dumps(value, ensure_ascii=False)
    return json.dumps(value, indent=unit, ensure_ascii=False).replace("\n", "\n" + indent)


def _add(text, container, entry, unit):
    """Insert ``entry`` (a rendered member or element, given as a function of the child
    indentation and whether the container is written on one line) after the last child."""
    if not container.children:
        outer = _line_indent(text, container.start)
        inner = outer + unit
        body = "\n" + inner + entry(inner, False) + "\n" + outer
        return text[: container.start + 1] + body + text[container.end - 1:]
    lead = text[container.start + 1: container.starts[0]]
    inline = "\n" not in lead
    inner = lead[lead.rfind("\n") + 1:]
    last = container.child(len(container.children) - 1)
    separator = ", " if inline else ",\n" + inner
    return text[: last.end] + separator + entry(inner, inline) + text[last.end:]


def add_member(text: str, obj: Node, key: str, value, unit: str) -> str:
    """``text`` with ``"key": value`` added as the last member of the object ``obj``."""
    def entry(indent, inline):
        return json.dumps(key, ensure_ascii=False) + ": " + _render(value, indent, unit, inline)
    return _add(text, obj, entry, unit)


def add_element(text: str, array: Node, value, unit: str) -> str:
    """``text`` with ``value`` added as the last element of the array ``array``."""
    return _add(text, array, lambda indent, inline: _render(value, indent, unit, inline), unit)


def replace(text: str, node: Node, value, unit: str) -> str:
    """``text`` with the value ``node`` spans replaced by ``value`` (a scalar stays on its
    line; a container is indented from the line it starts on)."""
    rendered = _render(value, _line_indent(text, node.start), unit, False)
    return text[: node.start] + rendered + text[node.end:]


def remove(text: str, container: Node, index: int) -> str:
    """``text`` without child ``index`` of ``container`` (a member or an element): with the
    separator before it, or for the first child the one after it; the only child leaves the
    container empty (``{}``, ``[]``)."""
    count = len(container.children)
    if count == 1:
        return text[: container.start + 1] + text[container.end - 1:]
    node = container.child(index)
    if index > 0:
        return text[: container.child(index - 1).end] + text[node.end:]
    return text[: container.starts[0]] + text[container.starts[1]:]
