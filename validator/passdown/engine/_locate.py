"""JSON paths to line numbers. Owns finding where in the text a value (or key) sits.

Only run when a document has findings, and only for the paths those findings name. An
object member is placed at its key; an array item at its first character. A path that does
not exist (a missing property) falls back to its nearest existing ancestor.
"""

from __future__ import annotations


def lines_for(text: str, syntax: str, paths, known: dict[tuple, int] | None = None) -> dict[tuple, int]:
    """``{path parts: 1-based line}`` for each of ``paths`` (tuples of keys and indexes)
    found in ``text``, or for its nearest existing ancestor. For text syntaxes, ``known``
    gives the lines (from the kind's ``text_lines``)."""
    wanted = {tuple(path) for path in paths}
    prefixes = {path[:n] for path in wanted for n in range(len(path) + 1)}
    try:
        if syntax == "json":
            found = _json_lines(text, prefixes)
        elif syntax == "yaml":
            found = _yaml_lines(text, prefixes)
        else:
            found = known or {}
    except Exception:  # lines are a courtesy: a document that parsed must never crash here
        return {}
    result = {}
    for path in wanted:
        for n in range(len(path), -1, -1):
            line = found.get(path[:n])
            if line is not None:
                result[path] = line
                break
    return result


def _json_lines(text: str, wanted: set[tuple]) -> dict[tuple, int]:
    import re

    # a string token as an unrolled loop: ``"(?:[^"\\]|\\.)*"`` keeps one backtracking
    # entry per character, about 120 bytes each (a 9 MiB string took 1.1 GB)
    token = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[{}\[\],:]|[^\s{}\[\],:"]+')
    found: dict[tuple, int] = {}
    # ``path`` holds one element per open container: the key or index being read in it
    path: list = []
    # per open container: [is_object, expecting_key]
    frames: list[list[bool]] = []
    line, last = 1, 0
    for match in token.finditer(text):
        start = match.start()
        line += text.count("\n", last, start)
        last = start
        first = text[start]  # not match.group(): a value token may be megabytes long
        if first == ":":
            continue
        if first == ",":
            if frames[-1][0]:
                frames[-1][1] = True
            else:
                path[-1] += 1
            continue
        if first in "}]":
            frames.pop()
            path.pop()
            continue
        if first == '"' and frames and frames[-1][1]:
            path[-1] = _key(match.group())
            frames[-1][1] = False
        here = tuple(path)
        if here in wanted and here not in found:
            found[here] = line
        if first == "{":
            frames.append([True, True])
            path.append(None)
        elif first == "[":
            frames.append([False, False])
            path.append(0)
    return found


def _key(token: str) -> str:
    if "\\" not in token:
        return token[1:-1]
    from passdown.formats import _fastjson

    return _fastjson.loads(token)


def _yaml_lines(text: str, wanted: set[tuple]) -> dict[tuple, int]:
    from ruamel.yaml import YAML
    from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode

    root = YAML(typ="safe", pure=True).compose(text)
    found: dict[tuple, int] = {}
    stack = [((), root, None)]
    while stack:
        path, node, key_line = stack.pop()
        if path in wanted:
            found.setdefault(path, key_line if key_line is not None else node.start_mark.line + 1)
        if not any(len(w) > len(path) and w[: len(path)] == path for w in wanted):
            continue
        if isinstance(node, MappingNode):
            for key_node, value_node in node.value:
                key = key_node.value if isinstance(key_node, ScalarNode) else None
                stack.append((path + (key,), value_node, key_node.start_mark.line + 1))
        elif isinstance(node, SequenceNode):
            for index, item in enumerate(node.value):
                stack.append((path + (index,), item, None))
    return found


def packet_lines(parsed) -> dict[tuple, int]:
    """A parsed text packet's lines by projection member (the first field of each key)."""
    from passdown.formats._packet import MEMBER_BY_KEY

    lines: dict[tuple, int] = {}
    for field in parsed.fields:
        member = MEMBER_BY_KEY.get(field.key)
        if member is not None and field.line is not None:
            lines.setdefault((member,), field.line)
    return lines
