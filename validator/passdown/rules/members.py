"""Unknown members (spec/index.md, GEN-024): a member the artifact's schema does not define,
in an object whose members the schema lists, reported as ``member.unknown`` (a warning) with
the nearest defined name, so that a hand-edited ``"mision"`` does not pass unseen.

The member sets come from the packaged schemas themselves, walked along the document
(``$ref``, ``allOf``, ``anyOf``, ``oneOf`` and both branches of ``if``), so they can never
disagree with what the schema check reads. Where an object is Passdown's own (the
``x-passdown/checkpoint`` block, the registry, the ACK), every member it does not define is
reported; where it is xBRIEF's (the checkpoint's header, plan and items), only a name close
to one xBRIEF defines is, because xBRIEF allows members of any other name (CKP-005). Other
tools' ``x-<token>/`` blocks are never entered; objects the schema leaves open (``metadata``,
``narratives``) or closes (``additionalProperties: false``, reported by the schema check)
are not judged here. A newer minor ``passdown_version`` may define members this reader does not
know (VER-004), so Passdown's own objects are then not judged either.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache

from passdown._findings import WARNING
from passdown.formats._detect import legacy_version
from passdown.rules import Artifact, Hit, rule
from passdown.rules._shared import SUPPORTED_VERSION, is_foreign_extension, parse_version

CODE = "member.unknown"
REQUIREMENT = "GEN-024"
#: The kinds whose schemas leave unknown members open, by their schema file.
SCHEMAS = {"checkpoint": "checkpoint.schema.json", "registry": "registry.schema.json",
           "ack": "ack.schema.json"}
#: Schema files whose objects belong to another format (xBRIEF): only near misses count.
_FOREIGN_FORMATS = ("xbrief-0.8.schema.json",)
#: How close a name must be to count as a misspelling (difflib's ratio).
_CUTOFF = 0.75


def nearest(name: str, known) -> str | None:
    """The defined name ``name`` most likely misspells (the same name in another case
    first), or None when none is close."""
    from difflib import get_close_matches  # only once a name is unknown: cheap start-up

    known = [k for k in known if isinstance(k, str)]
    folded = {k.lower(): k for k in known}
    if name.lower() in folded and folded[name.lower()] != name:
        return folded[name.lower()]
    found = get_close_matches(name, known, n=1, cutoff=_CUTOFF)
    return found[0] if found else None


# -- the schemas ---------------------------------------------------------------------------

@cache
def _schema_file(name: str) -> dict:
    from passdown._resources import schema_path

    return json.loads(schema_path(name).read_text(encoding="utf-8"))


def _resolve(ref: str, base: str) -> tuple[str, object]:
    """``(file, node)`` a ``$ref`` names: ``#/$defs/x``, ``file.json`` or ``file.json#/...``."""
    target, _, pointer = ref.partition("#")
    file = target.rsplit("/", 1)[-1] if target else base
    node: object = _schema_file(file)
    for part in filter(None, pointer.split("/")):
        node = node.get(part.replace("~1", "/").replace("~0", "~")) if isinstance(node, dict) \
            else None
    return file, node


def _applicable(schemas) -> list[tuple[str, dict]]:
    """Every schema object that applies to a value, given those that name it directly:
    references followed, and the branches of ``allOf``, ``anyOf``, ``oneOf`` and ``if``
    (``then`` and ``else`` both: a name either branch defines is a defined name)."""
    found: list[tuple[str, dict]] = []
    seen: set[int] = set()
    stack = list(schemas)
    while stack:
        file, node = stack.pop()
        if not isinstance(node, dict) or id(node) in seen:
            continue
        seen.add(id(node))
        found.append((file, node))
        if isinstance(node.get("$ref"), str):
            stack.append(_resolve(node["$ref"], file))
        for keyword in ("allOf", "anyOf", "oneOf"):
            branches = node.get(keyword)
            if isinstance(branches, list):
                stack.extend((file, branch) for branch in branches)
        stack.extend((file, node[keyword]) for keyword in ("then", "else") if keyword in node)
    return found


#: :meth:`_Place.below`'s name for an array's items (no member name can be this object).
ITEM = object()


class _Place:
    """What the schemas say about one place of a document, worked out once per set of
    schemas (documents repeat the same shapes: every plan item is an ``item``): the names
    defined there (None where any member is allowed, or the schema check closes the
    object), whether the object is Passdown's own, the schemas of each member and of items."""

    __slots__ = ("known", "own", "members", "items", "_below")

    def __init__(self, applicable: list[tuple[str, dict]]):
        listed = [node for _, node in applicable if isinstance(node.get("properties"), dict)]
        open_or_closed = any("additionalProperties" in node or "unevaluatedProperties" in node
                             for _, node in applicable)
        self.known = (frozenset(name for node in listed for name in node["properties"])
                      if listed and not open_or_closed else None)
        self.own = not any(file in _FOREIGN_FORMATS for file, _ in applicable)
        self.members: dict[str, list] = {}
        for file, node in applicable:
            if isinstance(node.get("properties"), dict):
                for name, schema in node["properties"].items():
                    self.members.setdefault(name, []).append((file, schema))
        self.items = [(file, node["items"]) for file, node in applicable
                      if isinstance(node.get("items"), dict)]
        self._below: dict = {}  # member name (or ITEM) -> its place, once asked

    def below(self, key) -> _Place | None:
        """The place of the member ``key`` (:data:`ITEM`: of an item), or None where the
        schemas say nothing of it. Only defined names are kept: the cache stays small."""
        found = self._below.get(key)
        if found is None:
            schemas = self.items if key is ITEM else self.members.get(key)
            if not schemas:
                return None
            found = self._below[key] = _place(schemas)
        return found


_PLACES: dict[tuple, _Place] = {}


def _place(schemas: list[tuple[str, object]]) -> _Place:
    key = tuple(id(node) for _, node in schemas)  # the nodes live as long as the cache
    found = _PLACES.get(key)
    if found is None:
        found = _PLACES[key] = _Place(_applicable(schemas))
    return found


# -- the walk ------------------------------------------------------------------------------

def unknown_members(kind: str, data) -> Iterator[tuple[tuple, str, str | None, bool]]:
    """``(path, name, nearest defined name or None, whether the object is Passdown's own)``
    for each member of ``data`` the schema of ``kind`` does not define, as the rule
    reports them (near misses only in xBRIEF's objects)."""
    schema = SCHEMAS.get(kind)
    if schema is None:
        return
    stack: list[tuple[tuple, object, _Place]] = [((), data, _place([(schema, _schema_file(schema))]))]
    containers = (dict, list)
    while stack:
        path, value, place = stack.pop()
        if isinstance(value, dict):
            if place.known is not None and not place.known.issuperset(value):
                yield from _judge(path, value, place)
            if not place.members:
                continue  # no member has a place of its own: nothing below to judge
            places = place._below
            for key, child in value.items():
                if isinstance(child, containers):
                    below = places.get(key) or place.below(key)
                    if below is not None and not is_foreign_extension(key):
                        stack.append((path + (key,), child, below))
        elif isinstance(value, list) and place.items:
            below = place.below(ITEM)
            stack.extend((path + (index,), child, below) for index, child in enumerate(value)
                         if isinstance(child, (dict, list)))


def _judge(path: tuple, value: dict, place: _Place) -> Iterator[tuple[tuple, str, str | None, bool]]:
    if place.known is None:
        return  # open to any member, or closed and reported by the schema check
    for key in value:
        if not isinstance(key, str) or key in place.known or is_foreign_extension(key):
            continue
        suggestion = nearest(key, place.known)
        if place.own or suggestion is not None:
            yield path + (key,), key, suggestion, place.own


def hits(kind: str, data) -> list[Hit]:
    """The ``member.unknown`` hits of a document of ``kind``: what the rule reports, and
    what the authoring commands say when they write a document that has them."""
    if kind == "checkpoint" and legacy_version(data) is not None:
        return []  # each legacy version had members of its own; migration reports them
    newer = _newer_minor(kind, data)
    return [Hit(path, _message(name, suggestion, own), hint=_hint(name, suggestion))
            for path, name, suggestion, own in unknown_members(kind, data)
            if not (own and newer)]


def _newer_minor(kind: str, data) -> bool:
    if kind == "checkpoint" and isinstance(data, dict):
        data = data.get("x-passdown/checkpoint")
    version = parse_version(data.get("passdown_version")) if isinstance(data, dict) else None
    return bool(version) and version[0] == SUPPORTED_VERSION[0] and version > SUPPORTED_VERSION


def _register(kind: str) -> None:
    @rule(kind, CODE, requirement=REQUIREMENT, severity=WARNING,
          summary="a member the artifact's schema does not define, most likely misspelt",
          hint="fix the member's spelling; a member of your own belongs in an extension "
               "block of your tool (`x-<token>/...`)")
    def _unknown(artifact: Artifact):
        yield from hits(kind, artifact.data)


def _message(name: str, suggestion: str | None, own: bool) -> str:
    where = "Passdown defines" if own else "xBRIEF 0.8 defines"
    text = f"{json.dumps(name, ensure_ascii=False)} is not a member {where} here"
    return text + (f": did you mean `{suggestion}`?" if suggestion else "")


def _hint(name: str, suggestion: str | None) -> str | None:
    if suggestion is None:
        return None
    return (f"rename `{name}` to `{suggestion}` (a member of your own belongs in an "
            "extension block of your tool, `x-<token>/...`)")


for _kind in SCHEMAS:
    _register(_kind)
