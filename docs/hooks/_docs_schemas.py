"""The schema reference: one Markdown page per JSON Schema, generated from the schema itself.

A page lists every field of every object in the schema, wherever the object sits: the root,
the fields of other objects, array items (``items``, ``prefixItems``, ``contains``), the
values of unlisted fields (``additionalProperties``, ``patternProperties``), every branch of
``oneOf``/``anyOf``/``allOf``, the ``then``/``else`` of a condition, and ``$defs``. Each
field has its type, whether it is required, its constraints, allowed values, default,
description and examples. A ``$ref`` links to the definition it names, on the same page or on
the other schema's page; the requirement a failure cites (``x-requirement``) links to the
spec. Keywords the page has no wording for are shown as JSON, so nothing in a schema is ever
left off its page.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urldefrag, urljoin

from _docs_text import cell as _cell
from _docs_text import code as _code

# Keywords that the page states in words (or that only organise the schema).
_WORDED = frozenset({
    "$schema", "$id", "$comment", "$defs", "definitions", "$anchor", "title", "description",
    "type", "properties", "required", "additionalProperties", "unevaluatedProperties",
    "patternProperties", "items", "prefixItems", "contains", "minContains", "maxContains",
    "$ref", "const", "enum", "default", "examples", "format", "pattern", "minLength",
    "maxLength", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
    "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties", "oneOf", "anyOf",
    "allOf", "if", "then", "else", "not", "dependentRequired", "deprecated", "readOnly",
    "writeOnly", "contentEncoding", "contentMediaType", "propertyNames",
    "x-requirement", "x-hint",
})
# Keywords that say nothing about the value: a schema holding only these accepts anything.
_ANNOTATIONS = frozenset({"title", "description", "$comment", "examples", "default", "deprecated",
                          "readOnly", "writeOnly", "x-requirement", "x-hint"})
_COMBINERS = (("oneOf", "one of", "exactly one matches"),
              ("anyOf", "any of", "at least one matches"),
              ("allOf", "all of", "every one matches"))
_JSON_TYPES = {dict: "object", list: "array", str: "string", bool: "boolean", type(None): "null",
               int: "integer", float: "number"}
_ARTICLES = {"object": "an object", "array": "an array", "string": "a string", "integer": "an integer",
             "number": "a number", "boolean": "a boolean", "null": "null"}
_MAX_LEVEL = 6

RefLink = Callable[[str], "str | None"]
RefTarget = Callable[[str], "dict | None"]
RequirementLink = Callable[[str], "str | None"]


@dataclass
class _Section:
    """One heading of the page: an object with fields (or a definition) and what lies inside it."""

    anchor: str
    heading: str
    schema: dict
    level: int
    is_root: bool = False
    children: list[_Section] = field(default_factory=list)


class _Page:
    """The sections of one schema page, and how each ``$ref`` and requirement on it is linked."""

    def __init__(self, schema: dict, link_external: RefLink, resolve_external: RefTarget,
                 link_requirement: RequirementLink):
        self.schema = schema
        self.base = schema.get("$id", "")
        self.link_external = link_external
        self.resolve_external = resolve_external
        self.link_requirement = link_requirement
        self.anchors: set[str] = set()
        # The section of each schema node that has one (by identity: equal nodes are separate).
        self.anchor_of: dict[int, str] = {}
        self.def_anchors = {
            f"#/{key}/{name}": self.claim(definition_anchor(name))
            for key in ("$defs", "definitions")
            for name in _dict(schema.get(key))
        }

    def claim(self, wanted: str) -> str:
        anchor = _slug(wanted)
        candidate, number = anchor, 2
        while candidate in self.anchors:
            candidate, number = f"{anchor}-{number}", number + 1
        self.anchors.add(candidate)
        return candidate

    def section(self, path: str, steps: list[str], schema: dict, level: int,
                anchor: str | None = None, heading: str | None = None) -> _Section:
        """A section for ``schema`` at field path ``path`` (``steps``: the branches taken to
        reach it), with child sections for every object with fields inside it."""
        anchor = anchor or self.claim("f-" + "-".join(part for part in [path.replace("[]", "-items"), *steps] if part))
        section = _Section(anchor, heading or _heading(path, steps, schema), schema, min(level, _MAX_LEVEL))
        self.anchor_of[id(schema)] = anchor
        self._descend(section, path, [], schema)
        return section

    def _visit(self, parent: _Section, path: str, steps: list[str], node, in_condition: bool = False) -> None:
        if not isinstance(node, dict) or id(node) in self.anchor_of:
            return
        fields = _fields(node)
        # A condition's outcome that only names fields and simple values reads as words.
        if fields and not (in_condition and all(_is_simple(sub) for sub in fields.values())):
            parent.children.append(self.section(path, steps, node, parent.level + 1))
        else:
            self._descend(parent, path, steps, node, in_condition)

    def _descend(self, section: _Section, path: str, steps: list[str], node: dict,
                 in_condition: bool = False) -> None:
        """Give ``section`` a child section for each object with fields found in ``node``,
        through every keyword that applies a schema to a part of the value."""
        for name, sub in _fields(node).items():
            self._visit(section, _join(path, name), [], sub, in_condition)
        for key in ("additionalProperties", "unevaluatedProperties"):
            self._visit(section, _join(path, "*"), [], node.get(key))
        for pattern, sub in _dict(node.get("patternProperties")).items():
            self._visit(section, _join(path, f"/{pattern}/"), [], sub)
        self._visit(section, path + "[]", [], node.get("items"))
        for number, sub in enumerate(_list(node.get("prefixItems"))):
            self._visit(section, f"{path}[{number}]", [], sub)
        self._visit(section, path + "[]", ["some item"], node.get("contains"))
        for key, words, _ in _COMBINERS:
            members = _members(node, key)
            for number, member in enumerate(members, 1):
                step = _option_step(key, words, members, number, named=bool(path))
                self._visit(section, path, steps + step, member, in_condition)
        for rule in [node, *(member for member in _list(node.get("allOf")) if _is_conditional(member))]:
            for key, words in (("if", "if"), ("then", "then"), ("else", "otherwise")):
                if isinstance(rule.get(key), dict):
                    self._descend(section, path, steps + [words], rule[key], in_condition=True)
        if isinstance(node.get("not"), dict):
            self._descend(section, path, steps + ["not"], node["not"], in_condition=True)

    def target(self, ref: str) -> dict | None:
        """The schema a ``$ref`` points to, where it is a definition this site knows."""
        absolute = urljoin(self.base, ref) if self.base else ref
        url, fragment = urldefrag(absolute)
        if url == urldefrag(self.base)[0] or ref.startswith("#"):
            node = _pointer(self.schema, fragment)
        else:
            node = _pointer(self.resolve_external(url), fragment)
        return node if isinstance(node, dict) else None

    def link_ref(self, ref: str) -> str:
        """Markdown for a ``$ref``: a link to its definition, on this page or another."""
        if ref in self.def_anchors:
            return f"[`{ref.rsplit('/', 1)[1]}`](#{self.def_anchors[ref]})"
        if ref == "#":
            return "[the whole schema](#fields)"
        target = urljoin(self.base, ref) if self.base else ref
        url, fragment = urldefrag(target)
        if url == urldefrag(self.base)[0] and f"#{fragment}" in self.def_anchors:
            return self.link_ref(f"#{fragment}")
        href = self.link_external(target)
        if not href:
            return _code(ref)
        name = fragment.rsplit("/", 1)[-1] if fragment else url.rsplit("/", 1)[-1]
        return f'[`{name}`]({href} "{_short_ref(ref)}")'

    def requirement(self, requirement: str) -> str:
        href = self.link_requirement(requirement)
        return f"[{requirement}]({href})" if href else _code(requirement)


def render_schema_page(schema: dict, *, file_name: str, download_href: str,
                       link_external: RefLink = lambda ref: None,
                       resolve_external: RefTarget = lambda url: None,
                       link_requirement: RequirementLink = lambda requirement: None) -> str:
    """The Markdown page for one schema.

    ``download_href`` is the relative link to the schema file served on the site;
    ``link_external`` turns the absolute URL of a ``$ref`` to another schema into a relative
    link to that schema's page (or None when the site does not have it);
    ``resolve_external`` gives the schema at such a URL (to name what a ``$ref`` points to);
    ``link_requirement`` gives the relative link to a requirement id in the spec (or None).
    """
    page = _Page(schema, link_external, resolve_external, link_requirement)
    title = schema.get("title") or file_name
    out = [f"# {title}", ""]
    if schema.get("description"):
        out += [schema["description"].strip(), ""]
    facts = [f"**Schema file:** [`{file_name}`]({download_href})"]
    if schema.get("$id"):
        facts.append(f"**`$id`:** {_code(schema['$id'])}")
    if schema.get("$schema"):
        facts.append(f"**Dialect:** {_code(schema['$schema'])}")
    out += [f"- {fact}" for fact in facts] + [""]

    # Every section is made before any is written, so that each can link to any other.
    sections: list[_Section] = []
    if _only_definitions(schema):
        intro = ["This schema holds only definitions, for the other schemas to reference.", ""]
    else:
        intro = []
        heading = "Fields" if _is_object(schema) else "Value"
        root = page.section("", [], schema, 2, anchor=page.claim("fields"), heading=heading)
        root.is_root = True
        sections.append(root)
    definitions = [(key, name, sub if isinstance(sub, dict) else {}) for key in ("$defs", "definitions")
                   for name, sub in _dict(schema.get(key)).items()]
    for key, name, sub in definitions:
        sections.append(page.section(name, [], sub, 3, anchor=page.def_anchors[f"#/{key}/{name}"],
                                     heading=f"`{name}`"))

    out += intro
    for section in sections[:len(sections) - len(definitions)]:
        out += _render_section(page, section)
    if definitions:
        out += ["## Definitions", ""]
        for section in sections[len(sections) - len(definitions):]:
            out += _render_section(page, section)

    examples = schema.get("examples") or []
    if examples:
        out += ["## Examples", ""]
        for example in examples:
            out += ["```json", json.dumps(example, indent=2, ensure_ascii=False), "```", ""]
    return "\n".join(out).rstrip() + "\n"


def definition_anchor(name: str) -> str:
    """The section id of a ``$defs`` entry on its schema page, for links from other pages."""
    return _slug(f"def-{name}")


def relative_href(from_page: str, to_file: str) -> str:
    """A relative link between two paths of the docs tree (``a/b.md`` -> ``c/d.json``)."""
    return posixpath.relpath(to_file, posixpath.dirname(from_page) or ".")


# -- sections ---------------------------------------------------------------------------------


def _render_section(page: _Page, section: _Section) -> list[str]:
    schema = section.schema
    out = [f"{'#' * section.level} {section.heading} {{ #{section.anchor} }}", ""]
    if not section.is_root:
        title = schema.get("title")
        if title and f"`{title}`" != section.heading and not section.heading.endswith(f": {title}"):
            out += [f"*{_cell(title)}*", ""]
        if schema.get("description"):
            out += [schema["description"].strip(), ""]

    properties = _fields(schema)
    if properties:
        required = _required(schema)
        out += ["| Field | Type | Required | Description |", "|---|---|---|---|"]
        for name, sub in properties.items():
            sub = sub if isinstance(sub, dict) else {}
            own_section = id(sub) in page.anchor_of
            details = _describe(page, sub, with_rules=not own_section)
            out.append(f"| {_code(name)} | {_type_text(page, sub)} | {'yes' if name in required else 'no'} "
                       f"| {details} |")
        out.append("")
        missing = sorted(required - set(properties))
        if missing:
            out += ["Also required: " + ", ".join(_code(name) for name in missing) + ".", ""]
    extras = _object_extras(page, schema)
    if not properties and not (_is_object(schema) and extras):
        # The table's details hold the extras: a value without fields states them as notes.
        details = _describe(page, schema, with_description=False, with_rules=False)
        out += ["| Type | Details |", "|---|---|", f"| {_type_text(page, schema, own=True)} | {details or '&nbsp;'} |", ""]
    else:
        out += [line for text in extras for line in (text, "")]
    out += _compositions(page, schema)
    logic = _logic(page, schema)
    if logic:
        out += ["Conditions:", "", *[f"- {sentence}" for sentence in logic], ""]
    out += [line for text in _annotation_notes(page, schema) for line in (text, "")]
    rest = _unworded(schema)
    if rest:
        out += ["Further rules:", "", "```json", json.dumps(rest, indent=2, ensure_ascii=False), "```", ""]
    for child in section.children:
        out += _render_section(page, child)
    return out


def _heading(path: str, steps: list[str], schema: dict) -> str:
    """``dirty[]``; ``pending``, any of, option 1: Title; One of, option 2: Title."""
    parts = ([_code(path)] if path else []) + steps
    text = ", ".join(parts) or "(value)"
    if steps and schema.get("title"):
        text += f": {schema['title']}"
    return text[:1].upper() + text[1:] if not path else text


def _option_step(key: str, words: str, members: list, number: int, named: bool) -> list[str]:
    """The words for one branch of a combiner (``any of, option 2``; ``all of, part 2``).

    None for a field's only alternative with fields (``dirty: [array of objects, null]``):
    the section of its objects is then simply the field's.
    """
    if key == "allOf":
        return [f"{words}, part {number}"]
    reaching = [member for member in members if _reaches_fields(member)]
    return [] if named and len(reaching) <= 1 else [f"{words}, option {number}"]


def _compositions(page: _Page, schema: dict) -> list[str]:
    """Each ``oneOf``/``anyOf``/``allOf`` of a schema as a numbered list of its branches."""
    out = []
    for key, words, meaning in _COMBINERS:
        members = _members(schema, key)
        if not members:
            continue
        if key == "allOf" and all(isinstance(m, dict) and set(m) == {"$ref"} for m in members):
            links = ", ".join(page.link_ref(member["$ref"]) for member in members)
            out += [f"It also matches {links}.", ""]
            continue
        out += [f"{words[:1].upper()}{words[1:]} ({meaning}):", ""]
        for number, member in enumerate(members, 1):
            out.append(f"{number}. {_branch_words(page, member)}")
        out.append("")
    return out


def _branch_words(page: _Page, member) -> str:
    """One branch of a combiner in one line: what it is, then its title and description."""
    if not isinstance(member, dict):
        return _type_text(page, member)
    anchor = page.anchor_of.get(id(member))
    title = member.get("title")
    extra = []
    if anchor:
        lead = f"[{_cell(title) if title else 'object'}](#{anchor})"
    elif "$ref" in member and set(member) - _ANNOTATIONS == {"$ref"}:
        lead = page.link_ref(member["$ref"])
        extra += [f"**{_cell(title)}**."] if title else []
    elif "$ref" in member or _is_test_only(member):
        lead = _joined(_clauses(page, member, test=False)) or "any value"
        lead = lead[:1].upper() + lead[1:]
        extra += [f"**{_cell(title)}**."] if title else []
    else:
        lead = _type_text(page, member)
        extra += [f"**{_cell(title)}**."] if title else []
    if member.get("description"):
        extra.append(_cell(member["description"]))
    if not anchor and not ("$ref" in member or _is_test_only(member)):
        extra += _notes(page, member, with_examples=False)
    return lead + (" — " + " ".join(extra) if extra else "")


# -- types and notes --------------------------------------------------------------------------


def _type_text(page: _Page, schema, own: bool = False) -> str:
    """The type of a value in words, linking to the section of each object inside it.

    ``own``: for the section that describes the value itself, which links to no section.
    """
    if own:
        return " or ".join(dict.fromkeys(re.sub(r"\[object\]\(#[^)]*\)", "object", kind)
                                         for kind in _type_text(page, {**schema}).split(" or ")))
    if schema is True or schema == {}:
        return "any"
    if not isinstance(schema, dict):
        return "nothing (never valid)"
    anchor = page.anchor_of.get(id(schema))
    if anchor and _fields(schema):
        return f"[object](#{anchor})"
    if "$ref" in schema:
        return page.link_ref(schema["$ref"])
    if "const" in schema:
        return _JSON_TYPES.get(type(schema["const"]), "value")
    if "enum" in schema and "type" not in schema:
        return " or ".join(sorted({_JSON_TYPES.get(type(value), "value") for value in schema["enum"]}))
    kinds = schema.get("type")
    if isinstance(kinds, list):
        return " or ".join(_one_type(page, schema, kind) for kind in kinds)
    if kinds:
        return _one_type(page, schema, kinds)
    for key in ("oneOf", "anyOf"):
        if schema.get(key):
            return " or ".join(dict.fromkeys(_type_text(page, option) for option in schema[key]))
    if schema.get("allOf"):
        kinds = {_type_text(page, _resolved(page, member), own=True) for member in _list(schema["allOf"])} - {"any"}
        if len(kinds) == 1:
            return kinds.pop() if len(schema["allOf"]) > 1 else _type_text(page, schema["allOf"][0])
    if _fields(schema) or "additionalProperties" in schema or "patternProperties" in schema:
        return _one_type(page, schema, "object")
    if "items" in schema or "prefixItems" in schema:
        return _one_type(page, schema, "array")
    return "any"


def _resolved(page: _Page, schema):
    """The definition a bare ``$ref`` names, where the site has it; else the schema itself."""
    if isinstance(schema, dict) and set(schema) - _ANNOTATIONS == {"$ref"}:
        return page.target(schema["$ref"]) or schema
    return schema


def _one_type(page: _Page, schema: dict, kind: str) -> str:
    if kind == "array":
        items = schema.get("items")
        leading = [_type_text(page, item) for item in _list(schema.get("prefixItems"))]
        if leading:
            tail = "" if items is False else (", then items of " + _type_text(page, items)
                                              if isinstance(items, dict) and items else ", then any items")
            return "array (" + ", ".join(leading) + tail + ")"
        if isinstance(items, dict) and items:
            return "array of " + _type_text(page, items)
        return "array"
    extra = schema.get("additionalProperties")
    if kind == "object" and not _fields(schema) and isinstance(extra, dict) and extra:
        return "object of " + _type_text(page, extra)
    return kind


def _describe(page: _Page, schema: dict, with_description: bool = True, with_rules: bool = True) -> str:
    """A field's description and constraints for its table row."""
    parts = []
    if with_description and schema.get("description"):
        parts.append(_cell(schema["description"]))
    elif with_description and "$ref" in schema:
        target = page.target(schema["$ref"])
        if target and target.get("title"):
            parts.append(f"*{_cell(target['title'])}*")
    parts += _notes(page, schema, with_rules=with_rules)
    return "<br>".join(parts)


def _notes(page: _Page, schema, with_rules: bool = True, with_examples: bool = True) -> list[str]:
    """The constraints of one schema, each as a short phrase.

    ``with_rules`` False leaves out what the schema's own section says (its conditions,
    branches and unworded keywords), for the row of a field that has a section.
    """
    if not isinstance(schema, dict):
        return []
    notes = []
    if schema.get("deprecated"):
        notes.append("**Deprecated.**")
    if "const" in schema:
        notes.append(f"Value: {_code(_json(schema['const']))}.")
    if "enum" in schema:
        notes.append("Allowed values: " + ", ".join(_code(_json(value)) for value in schema["enum"]) + ".")
    if schema.get("format"):
        notes.append(f"Format: {_code(schema['format'])}.")
    if schema.get("pattern"):
        notes.append(f"Pattern: {_code(schema['pattern'])}.")
    length = _range_words(schema.get("minLength"), schema.get("maxLength"))
    if length:
        notes.append(f"Length: {length}.")
    bounds = [f"{sign} {_json(schema[key])}" for key, sign in (
        ("minimum", "≥"), ("exclusiveMinimum", ">"), ("maximum", "≤"), ("exclusiveMaximum", "<")) if key in schema]
    if bounds:
        notes.append("Range: " + ", ".join(bounds) + ".")
    if "multipleOf" in schema:
        notes.append(f"Multiple of {_json(schema['multipleOf'])}.")
    count = _range_words(schema.get("minItems"), schema.get("maxItems"))
    if count:
        notes.append(f"Items: {count}.")
    if schema.get("uniqueItems"):
        notes.append("Items are unique.")
    items = schema.get("items")
    if isinstance(items, dict) and id(items) not in page.anchor_of and "$ref" not in items:
        inner = _notes(page, items, with_examples=False)
        if inner:
            notes.append("Each item: " + _lower_first(" ".join(inner)))
    for number, item in enumerate(_list(schema.get("prefixItems")), 1):
        inner = _notes(page, item, with_examples=False) if id(item) not in page.anchor_of else []
        if inner:
            notes.append(f"Item {number}: " + _lower_first(" ".join(inner)))
    if "contains" in schema:
        contained = _range_words(schema.get("minContains", 1), schema.get("maxContains"))
        notes.append(f"Items that are {_type_text(page, schema['contains'])}"
                     f"{_notes_sentence(page, schema['contains'])}: {contained}.")
    values = schema.get("additionalProperties")
    if isinstance(values, dict) and id(values) not in page.anchor_of and "$ref" not in values \
            and not _fields(schema):
        inner = _notes(page, values, with_examples=False)
        if inner:
            notes.append("Each value: " + _lower_first(" ".join(inner)))
    if schema.get("readOnly"):
        notes.append("Read-only.")
    if schema.get("writeOnly"):
        notes.append("Write-only.")
    for key, words in (("contentMediaType", "Content type"), ("contentEncoding", "Encoding")):
        if schema.get(key):
            notes.append(f"{words}: {_code(schema[key])}.")
    if not _fields(schema):
        notes += _object_extras(page, schema, values_typed=not isinstance(values, dict))
    if with_rules and id(schema) not in page.anchor_of:
        notes += _option_notes(page, schema) + _logic(page, schema)
    if "default" in schema:
        notes.append(f"Default: {_code(_json(schema['default']))}.")
    if with_examples and schema.get("examples"):
        notes.append("Examples: " + ", ".join(_code(_json(value)) for value in schema["examples"]) + ".")
    if with_rules:
        notes += _annotation_notes(page, schema)
        extra = _unworded(schema)
        if extra:
            notes.append(f"Also: {_code(_json(extra))}.")
    return notes


def _option_notes(page: _Page, schema: dict) -> list[str]:
    """For a value without a section of its own: the branches whose constraints its type
    cannot show (``anyOf: [{integer, minimum 0}, {null}]``), and ``allOf`` links."""
    notes = []
    for key, words, _ in _COMBINERS:
        members = _members(schema, key)
        if key == "allOf":
            links = [page.link_ref(m["$ref"]) for m in members if isinstance(m, dict) and set(m) == {"$ref"}]
            if links and (len(members) > 1 or set(schema) - {"allOf"} - _ANNOTATIONS):
                notes.append("Also matches " + ", ".join(links) + ".")
            members = [m for m in members if not (isinstance(m, dict) and set(m) == {"$ref"})]
            if not members:
                continue
        said = [_branch_words(page, member) for member in members]
        if any(_notes(page, m, with_examples=False) or _is_test_only(m) or (isinstance(m, dict) and m.get("title"))
               for m in members) or key == "allOf":
            notes.append(f"{words[:1].upper()}{words[1:]}: " + "; ".join(text.rstrip(".") for text in said) + ".")
    return notes


def _object_extras(page: _Page, schema: dict, values_typed: bool = True) -> list[str]:
    """Sentences about fields beyond the listed ones (other names, name patterns, counts)."""
    out = []
    for key in ("additionalProperties", "unevaluatedProperties"):
        if key not in schema:
            continue
        value = schema[key]
        if value is False:
            out.append("Other fields: not allowed.")
        elif value is True or value == {}:
            out.append("Other fields: allowed, any value.")
        elif values_typed:
            out.append(f"Other fields: allowed, each value {_type_text(page, value)}"
                       + _notes_sentence(page, value) + ".")
    for pattern, sub in _dict(schema.get("patternProperties")).items():
        words = _type_text(page, sub) + _notes_sentence(page, sub)
        description = f" {_cell(sub['description'])}" if isinstance(sub, dict) and sub.get("description") else ""
        out.append(f"Fields whose name matches {_code(pattern)}: {words}.{description}")
    names = schema.get("propertyNames")
    if isinstance(names, dict):
        out.append("Field names: " + _lower_first(" ".join(_notes(page, names)).rstrip(".") or "any") + ".")
    counts = _range_words(schema.get("minProperties"), schema.get("maxProperties"))
    if counts:
        out.append(f"Number of fields: {counts}.")
    for name, needed in _dict(schema.get("dependentRequired")).items():
        verb = "is" if len(needed) == 1 else "are"
        out.append(f"When {_code(name)} is present, {_names(needed)} {verb} required too.")
    return out


def _annotation_notes(page: _Page, schema: dict) -> list[str]:
    """The requirement a failure of this schema cites, and the hint it gives."""
    notes = []
    if isinstance(schema.get("x-requirement"), str):
        notes.append(f"A failure here cites {page.requirement(schema['x-requirement'])}.")
    if isinstance(schema.get("x-hint"), str):
        hint = _cell(schema["x-hint"]).rstrip(".")
        notes.append(f"Hint given: *{hint}*.")
    return notes


def _notes_sentence(page: _Page, schema) -> str:
    notes = _notes(page, schema, with_examples=False)
    return (" (" + _lower_first(" ".join(notes).rstrip(".")) + ")") if notes else ""


# -- conditions, in words ---------------------------------------------------------------------


def _logic(page: _Page, schema) -> list[str]:
    """The schema's conditions (``if``, conditional ``allOf`` members), ``not`` and the like,
    each as a sentence."""
    if not isinstance(schema, dict):
        return []
    sentences = []
    if "if" in schema:
        sentences.append(_condition(page, schema))
    for member in _list(schema.get("allOf")):
        if _is_conditional(member):
            sentences.append(_condition(page, member))
    if "not" in schema:
        said = _negation(page, schema["not"], test=False)
        sentences.append(said[:1].upper() + said[1:] + ".")
    return sentences


def _condition(page: _Page, rule: dict) -> str:
    test = _joined(_clauses(page, rule.get("if"), test=True)) or "the value is anything"
    branches = []
    for key, words in (("then", "then"), ("else", "otherwise")):
        if key in rule:
            said = _joined(_clauses(page, rule[key], test=False)) or "nothing more is asked"
            branches.append(f"{words} {said}")
    notes = _annotation_notes(page, rule)
    for key in ("then", "else"):
        notes += _branch_annotations(page, rule.get(key))
    return f"If {test}, " + "; ".join(branches or ["nothing follows"]) + "." + "".join(" " + note for note in notes)


def _branch_annotations(page: _Page, node) -> list[str]:
    """The requirements and hints inside a condition's outcome that no section shows."""
    if not isinstance(node, dict) or id(node) in page.anchor_of:
        return []
    notes = _annotation_notes(page, node)
    for sub in _fields(node).values():
        if isinstance(sub, dict) and id(sub) not in page.anchor_of:
            notes += _annotation_notes(page, sub)
    for key, _, _ in _COMBINERS:
        for member in _list(node.get(key)):
            notes += _branch_annotations(page, member)
    return notes


def _clauses(page: _Page, schema, test: bool, path: tuple[str, ...] = ()) -> list[str]:
    """What a schema asks of a value, as clauses (for the test or the outcome of a condition).

    ``path`` names the field the schema applies to (``("pending",)``), for clauses about the
    fields of a field.
    """
    if schema is True or schema == {}:
        return []
    if schema is False:
        return ["no value is allowed"]
    if not isinstance(schema, dict):
        return [_code(_json(schema))]
    anchor = page.anchor_of.get(id(schema))
    if anchor:
        return [f"the value matches [{_cell(schema.get('title') or 'the object')}](#{anchor})"]
    clauses = []
    rest = {key: value for key, value in schema.items() if key not in _ANNOTATIONS}
    if "$ref" in rest:
        clauses.append("the value matches " + page.link_ref(rest.pop("$ref")))
    kind = rest.pop("type", None)
    if kind is not None and not (kind == "object" and ("required" in rest or "properties" in rest)):
        kinds = kind if isinstance(kind, list) else [kind]
        clauses.append("the value is " + " or ".join(_ARTICLES.get(k, str(k)) for k in kinds))
    if "const" in rest:
        clauses.append(f"the value is {_code(_json(rest.pop('const')))}")
    if "enum" in rest:
        clauses.append("the value is one of " + ", ".join(_code(_json(v)) for v in rest.pop("enum")))
    required = _list(rest.pop("required", []))
    properties = _dict(rest.pop("properties", {}))
    said = {name: _field_clauses(page, sub, test, (*path, name)) for name, sub in properties.items()}
    bare = [_subject((*path, name)) for name in required if not said.get(name)]
    if bare:
        verb = "is" if len(bare) == 1 else "are"
        clauses.append(f"{_joined(bare)} {verb} {'present' if test else 'required'}")
    for name, field_clauses in said.items():
        if not field_clauses and name not in required:
            field_clauses = [f"{_subject((*path, name))} may hold any value"]
        elif field_clauses and name in required and not test:
            subject = _subject((*path, name))
            first = field_clauses[0]
            field_clauses[0] = (first.replace(f"{subject} is ", f"{subject} is required and is ", 1)
                                if first.startswith(f"{subject} is ") else f"{subject} is required; {first}")
        clauses += field_clauses
    if "not" in rest:
        clauses.append(_negation(page, rest.pop("not"), test))
    for key, words in (("items", "each item"), ("additionalProperties", "each other field"),
                       ("unevaluatedProperties", "each other field"), ("contains", "some item")):
        sub = rest.get(key)
        if isinstance(sub, dict) and sub:
            rest.pop(key)
            clauses.append(f"{words} is {_type_text(page, sub)}{_notes_sentence(page, sub)}")
    if _list(rest.get("prefixItems")):
        leading = ", ".join(_type_text(page, item) + _notes_sentence(page, item) for item in rest.pop("prefixItems"))
        clauses.append(f"the value starts with items ({leading})")
    for pattern, sub in _dict(rest.pop("patternProperties", {})).items():
        clauses.append(f"each field named like {_code(pattern)} is {_type_text(page, sub)}{_notes_sentence(page, sub)}")
    for key, words, _ in _COMBINERS:
        members = _list(rest.pop(key, []))
        if not members:
            continue
        options = [_joined(_clauses(page, member, test, path)) or "anything" for member in members]
        if key == "allOf":
            clauses += options
        else:
            clauses.append(f"{words} of these holds: " + "; ".join(options))
    if "if" in rest:
        clauses.append(_lower_first(_condition(page, rest).rstrip(".")))
        for key in ("if", "then", "else"):
            rest.pop(key, None)
    other = _notes(page, rest, with_rules=False, with_examples=False)
    if other:
        clauses.append("the value has " + _lower_first(" ".join(other).rstrip(".")))
    unworded = _unworded(rest)
    if unworded:
        clauses.append("the value matches " + _code(_json(unworded)))
    if path:
        subject = _subject(path)
        clauses = [f"{subject} {clause[len('the value '):]}" if clause.startswith("the value ") else clause
                   for clause in clauses]
    return clauses


def _field_clauses(page: _Page, sub, test: bool, path: tuple[str, ...]) -> list[str]:
    """What a condition says of one field (``status`` is ``"TAKEOVER"``); none for nothing."""
    subject = _subject(path)
    if sub is True or sub == {} or (isinstance(sub, dict) and set(sub) <= _ANNOTATIONS):
        return []
    if not isinstance(sub, dict):
        return [f"{subject} is never valid"]
    if id(sub) in page.anchor_of:
        return [f"{subject} is [an object](#{page.anchor_of[id(sub)]})"]
    return [clause if clause.startswith(subject) else f"{subject} satisfies: {clause}"
            for clause in _clauses(page, sub, test, path)]


def _subject(path: tuple[str, ...]) -> str:
    """A field inside fields, each name a code span: `pending`.`path`."""
    return ".".join(_code(name) for name in path)


def _negation(page: _Page, schema, test: bool) -> str:
    """A ``not`` in words: fields that must be absent, or the clauses that must not all hold."""
    if isinstance(schema, dict) and set(schema) == {"required"}:
        names = _list(schema["required"])
        verb = "is" if len(names) == 1 else "are"
        return f"{_names(names)} {verb} {'absent' if test else 'not allowed'}"
    options = _list(schema.get("anyOf")) if isinstance(schema, dict) and set(schema) == {"anyOf"} else []
    if options and all(isinstance(o, dict) and set(o) == {"required"} and len(_list(o["required"])) == 1
                       for o in options):
        names = [option["required"][0] for option in options]
        return f"none of {_names(names)} is {'present' if test else 'allowed'}"
    return "it is not so that " + (_joined(_clauses(page, schema, test=True)) or "the value is anything")


def _is_conditional(member) -> bool:
    return isinstance(member, dict) and "if" in member and set(member) <= {
        "if", "then", "else", "x-requirement", "x-hint", "$comment", "title", "description"}


def _is_simple(schema) -> bool:
    """A value the words of a condition state in full (a constant, a type, a hint)."""
    return not isinstance(schema, dict) or set(schema) <= _ANNOTATIONS | {"const", "enum", "type", "$ref"}


def _is_test_only(member) -> bool:
    """A branch that only names required or forbidden fields (``{"required": ["input"]}``)."""
    return isinstance(member, dict) and bool(set(member) & {"required", "not"}) and set(member) <= {
        "required", "not", "title", "description", "$comment", "x-requirement", "x-hint"}


def _joined(clauses: list[str]) -> str:
    if len(clauses) <= 1:
        return "".join(clauses)
    return ", ".join(clauses[:-1]) + " and " + clauses[-1]


# -- the schema's structure -------------------------------------------------------------------

_MERGEABLE = frozenset({"type", "properties", "required", "title", "description", "$comment"})


def _fields(schema) -> dict:
    """The object's own properties and those of its ``allOf`` members that only add fields."""
    if not isinstance(schema, dict):
        return {}
    merged = dict(schema["properties"]) if isinstance(schema.get("properties"), dict) else {}
    for member in _merged_members(schema):
        merged.update(member.get("properties") or {})
    return merged


def _required(schema: dict) -> set[str]:
    names = set(_list(schema.get("required")))
    for member in _merged_members(schema):
        names.update(member.get("required") or [])
    return names


def _merged_members(schema: dict) -> list[dict]:
    """``allOf`` members that only list fields (shown in the object's own table)."""
    return [member for member in _list(schema.get("allOf")) if _is_mergeable(member)]


def _members(schema: dict, key: str) -> list:
    """The branches of a combiner that the page lists as branches: for ``allOf``, those that
    neither join the object's table nor read as a condition."""
    members = _list(schema.get(key))
    if key == "allOf":
        members = [m for m in members if not _is_mergeable(m) and not _is_conditional(m)]
    return members


def _is_mergeable(member) -> bool:
    return (isinstance(member, dict) and set(member) <= _MERGEABLE and member.get("type", "object") == "object"
            and isinstance(member.get("properties", {}), dict))


def _reaches_fields(schema) -> bool:
    """Whether an object with fields lies in ``schema`` (so that it gets a section)."""
    if not isinstance(schema, dict):
        return False
    if _fields(schema):
        return True
    subs = [schema.get(key) for key in ("items", "contains", "additionalProperties", "unevaluatedProperties")]
    subs += _list(schema.get("prefixItems")) + list(_dict(schema.get("patternProperties")).values())
    subs += [member for key, _, _ in _COMBINERS for member in _members(schema, key)]
    subs += [schema.get("then"), schema.get("else")]
    return any(_reaches_fields(sub) for sub in subs)


def _is_object(schema) -> bool:
    if not isinstance(schema, dict):
        return False
    kind = schema.get("type")
    return kind == "object" or (isinstance(kind, list) and "object" in kind) or (
        kind is None and bool(_fields(schema)))


def _only_definitions(schema: dict) -> bool:
    """A schema that is a library of ``$defs`` and says nothing of a value itself."""
    return bool(schema.get("$defs") or schema.get("definitions")) and set(schema) <= {
        "$schema", "$id", "$comment", "$defs", "definitions", "title", "description", "examples"}


def _unworded(schema: dict) -> dict:
    """The keywords of a schema that the page has no words for."""
    return {key: value for key, value in schema.items() if key not in _WORDED}


# -- small helpers ----------------------------------------------------------------------------


def _range_words(low, high) -> str:
    if low is None and high is None:
        return ""
    if low is not None and high is not None:
        return f"exactly {low}" if low == high else f"{low} to {high}"
    return f"at least {low}" if low is not None else f"at most {high}"


def _names(names) -> str:
    return ", ".join(_code(name) for name in names)


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def _dict(value) -> dict:
    return value if isinstance(value, dict) else {}


def _list(value) -> list:
    return value if isinstance(value, list) else []


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_]*[^A-Za-z0-9_-][^A-Za-z0-9_]*|-{2,}", "-", text).strip("-") or "field"


def _join(parent: str, name: str) -> str:
    return f"{parent}.{name}" if parent else name


def _short_ref(ref: str) -> str:
    url, fragment = urldefrag(ref)
    name = url.rsplit("/", 1)[-1]
    return f"{name}#{fragment}" if fragment else name


def _pointer(document, fragment: str):
    """The node at a JSON pointer fragment (``/$defs/name``), or None."""
    node = document
    for part in [p for p in fragment.split("/") if p] if fragment else []:
        part = part.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return None
    return node


def _json(value) -> str:
    return json.dumps(value, ensure_ascii=False)
