"""The schema reference: one Markdown page per JSON Schema, generated from the schema itself.

A page lists every field of every object (the root, nested objects, array items, variants
and ``$defs``) with its type, whether it is required, its constraints, allowed values,
default, description and examples. Keywords the page has no wording for are shown as JSON
under "Also", so nothing in a schema is ever left off its page.
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
    "patternProperties", "items", "prefixItems", "$ref", "const", "enum", "default",
    "examples", "format", "pattern", "minLength", "maxLength", "minimum", "maximum",
    "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems", "maxItems",
    "uniqueItems", "minProperties", "maxProperties", "oneOf", "anyOf", "allOf",
    "deprecated", "readOnly", "writeOnly", "contentEncoding", "contentMediaType",
    "propertyNames",
})
_JSON_TYPES = {dict: "object", list: "array", str: "string", bool: "boolean", type(None): "null",
               int: "integer", float: "number"}

RefLink = Callable[[str], "str | None"]
RefTarget = Callable[[str], "dict | None"]


@dataclass
class _Section:
    anchor: str
    label: str
    schema: dict
    level: int
    children: list[_Section] = field(default_factory=list)


class _Page:
    """The sections of one schema page, and how each ``$ref`` in it is linked."""

    def __init__(self, schema: dict, link_external: RefLink, resolve_external: RefTarget):
        self.schema = schema
        self.base = schema.get("$id", "")
        self.link_external = link_external
        self.resolve_external = resolve_external
        self.anchors: set[str] = set()
        self.def_anchors = {
            f"#/{key}/{name}": self._claim(definition_anchor(name))
            for key in ("$defs", "definitions")
            for name in (schema.get(key) or {})
        }

    def _claim(self, wanted: str) -> str:
        anchor = _slug(wanted)
        candidate, number = anchor, 2
        while candidate in self.anchors:
            candidate, number = f"{anchor}-{number}", number + 1
        self.anchors.add(candidate)
        return candidate

    def section(self, label: str, schema: dict, level: int, anchor: str | None = None) -> _Section:
        section = _Section(anchor or self._claim("f-" + label.replace("[]", "-items")), label, schema, level)
        self._nested(section)
        return section

    def _nested(self, section: _Section) -> None:
        """Give the section a child section for each inline object or variant inside it."""
        for name, sub in _properties(section.schema).items():
            self._child(section, _join(section.label, name), sub)
        for key in ("oneOf", "anyOf"):
            for number, variant in enumerate(section.schema.get(key) or [], 1):
                if _is_object(variant) and _properties(variant):
                    section.children.append(
                        self.section(f"{section.label} (option {number})", variant, section.level + 1))
        extra = section.schema.get("additionalProperties")
        if isinstance(extra, dict):
            self._child(section, _join(section.label, "*"), extra)

    def _child(self, section: _Section, label: str, sub) -> None:
        if not isinstance(sub, dict):
            return
        if _is_object(sub) and _properties(sub):
            section.children.append(self.section(label, sub, section.level + 1))
        items = sub.get("items")
        if isinstance(items, dict):
            self._child(section, label + "[]", items)
        extra = sub.get("additionalProperties")
        if isinstance(extra, dict) and not _properties(sub):
            self._child(section, _join(label, "*"), extra)
        for key in ("oneOf", "anyOf"):
            options = sub.get(key) or []
            for number, variant in enumerate(options, 1):
                self._child(section, _variant_label(label, options, number), variant)

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
        target = urljoin(self.base, ref) if self.base else ref
        url, fragment = urldefrag(target)
        if url == urldefrag(self.base)[0] and f"#{fragment}" in self.def_anchors:
            return self.link_ref(f"#{fragment}")
        href = self.link_external(target)
        if not href:
            return _code(ref)
        name = fragment.rsplit("/", 1)[-1] if fragment else url.rsplit("/", 1)[-1]
        return f'[`{name}`]({href} "{_short_ref(ref)}")'



def render_schema_page(schema: dict, *, file_name: str, download_href: str,
                       link_external: RefLink = lambda ref: None,
                       resolve_external: RefTarget = lambda url: None) -> str:
    """The Markdown page for one schema.

    ``download_href`` is the relative link to the schema file served on the site;
    ``link_external`` turns the absolute URL of a ``$ref`` to another schema into a relative
    link to that schema's page (or None when the site does not have it), and
    ``resolve_external`` gives the schema at such a URL (to name what a ``$ref`` points to).
    """
    page = _Page(schema, link_external, resolve_external)
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

    if _only_definitions(schema):
        out += ["This schema holds only definitions, for the other schemas to reference.", ""]
    else:
        root = page.section("(root)", schema, 2, anchor=page._claim("fields"))
        out += _render_section(page, root, heading="Fields" if _is_object(schema) else "Value")

    definitions = [(key, name, sub) for key in ("$defs", "definitions")
                   for name, sub in (schema.get(key) or {}).items()]
    if definitions:
        out += ["## Definitions", ""]
        for key, name, sub in definitions:
            anchor = page.def_anchors[f"#/{key}/{name}"]
            section = page.section(name, sub if isinstance(sub, dict) else {}, 3, anchor=anchor)
            out += _render_section(page, section, heading=f"`{name}`")

    examples = schema.get("examples") or []
    if examples:
        out += ["## Examples", ""]
        for example in examples:
            out += ["```json", json.dumps(example, indent=2, ensure_ascii=False), "```", ""]
    return "\n".join(out).rstrip() + "\n"


def definition_anchor(name: str) -> str:
    """The section id of a ``$defs`` entry on its schema page, for links from other pages."""
    return _slug(f"def-{name}")


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "-", text).strip("-") or "field"


def relative_href(from_page: str, to_file: str) -> str:
    """A relative link between two paths of the docs tree (``a/b.md`` -> ``c/d.json``)."""
    return posixpath.relpath(to_file, posixpath.dirname(from_page) or ".")


def _render_section(page: _Page, section: _Section, heading: str | None = None) -> list[str]:
    schema = section.schema
    title = heading or f"`{section.label.replace('(root) ', '')}`"
    out = [f"{'#' * section.level} {title} {{ #{section.anchor} }}", ""]
    if heading and section.label != "(root)" and schema.get("title") and schema["title"] != section.label:
        out += [f"*{_cell(schema['title'])}*", ""]
    if section.level > 2 or section.label != "(root)":
        if schema.get("description"):
            out += [schema["description"].strip(), ""]

    properties = _properties(schema)
    if properties:
        required = _required(schema)
        out += ["| Field | Type | Required | Description |", "|---|---|---|---|"]
        for name, sub in properties.items():
            sub = sub if isinstance(sub, dict) else {}
            where = _Where(section, _join(section.label, name))
            kind = _type_text(page, sub, where)
            details = _describe(page, sub, with_rules=where.anchor() is None)
            out.append(f"| `{name}` | {kind} | {'yes' if name in required else 'no'} | {details} |")
        out.append("")
        missing = sorted(required - set(properties))
        if missing:
            out += ["Also required: " + ", ".join(f"`{name}`" for name in missing) + ".", ""]
    elif not _is_object(schema) or not _object_extras(schema):
        kind = _type_text(page, schema, _Where.nowhere())
        details = _describe(page, schema, with_description=False, with_rules=False)
        out += ["| Type | Details |", "|---|---|", f"| {kind} | {details or '&nbsp;'} |", ""]

    out += _object_extras(schema, page, _Where(section, _join(section.label, "*")))
    variants = [(key, schema[key]) for key in ("oneOf", "anyOf") if schema.get(key)]
    for key, options in variants:
        words = "exactly one" if key == "oneOf" else "at least one"
        out += [f"The value matches {words} of:", ""]
        for number, option in enumerate(options, 1):
            where = _Where(section, f"{section.label} (option {number})")
            out.append(f"{number}. {_type_text(page, option, where)}" + _inline_description(option))
        out.append("")
    for option in schema.get("allOf") or []:
        if isinstance(option, dict) and "$ref" in option and len(option) == 1:
            out += [f"The value also matches {page.link_ref(option['$ref'])}.", ""]
    out += _rules(schema)
    for child in section.children:
        out += _render_section(page, child)
    return out


def _object_extras(schema: dict, page: _Page | None = None, where: _Where | None = None) -> list[str]:
    """Lines about fields beyond the listed ones (other names, name patterns, counts)."""
    out = []
    where = where or _Where.nowhere()
    for key in ("additionalProperties", "unevaluatedProperties"):
        if key not in schema:
            continue
        value = schema[key]
        if value is False:
            out.append("Other fields: not allowed.")
        elif value is True or value == {}:
            out.append("Other fields: allowed, any value.")
        elif page is not None:
            out.append(f"Other fields: allowed, each value {_type_text(page, value, where)}"
                       + _notes_sentence(page, value) + ".")
        else:
            out.append("Other fields: allowed.")
    for pattern, sub in (schema.get("patternProperties") or {}).items():
        words = _type_text(page, sub, _Where.nowhere()) + _notes_sentence(page, sub) if page else ""
        out.append(f"Fields whose name matches {_code(pattern)}: {words}.".replace(": .", "."))
    names = schema.get("propertyNames")
    if isinstance(names, dict):
        words = " ".join(_notes(page, names)).rstrip(".") if page else "constrained"
        out.append("Field names: " + _lower_first(words) + ".")
    counts = _range_words(schema.get("minProperties"), schema.get("maxProperties"), "field")
    if counts:
        out.append(f"Number of fields: {counts}.")
    return [line for text in out for line in (text, "")]


def _type_text(page: _Page, schema, where: _Where) -> str:
    """The type of a value in words, linking to the section of each object inside it."""
    if schema is True or schema == {}:
        return "any"
    if not isinstance(schema, dict):
        return "nothing (never valid)"
    if "$ref" in schema:
        return page.link_ref(schema["$ref"])
    anchor = where.anchor()
    if anchor and _properties(schema):
        return f"[object](#{anchor})"
    if "const" in schema:
        return _JSON_TYPES.get(type(schema["const"]), "value")
    if "enum" in schema and "type" not in schema:
        kinds = sorted({_JSON_TYPES.get(type(value), "value") for value in schema["enum"]})
        return " or ".join(kinds)
    kinds = schema.get("type")
    if isinstance(kinds, list):
        return " or ".join(_one_type(page, schema, kind, where) for kind in kinds)
    if kinds:
        return _one_type(page, schema, kinds, where)
    for key in ("oneOf", "anyOf"):
        if schema.get(key):
            return " or ".join(_type_text(page, option, where.option(schema[key], number))
                               for number, option in enumerate(schema[key], 1))
    if len(schema.get("allOf") or []) == 1:
        return _type_text(page, schema["allOf"][0], where)
    if _properties(schema) or "additionalProperties" in schema:
        return _one_type(page, schema, "object", where)
    if "items" in schema or "prefixItems" in schema:
        return _one_type(page, schema, "array", where)
    return "any"


def _one_type(page: _Page, schema: dict, kind: str, where: _Where) -> str:
    if kind == "array":
        items = schema.get("items")
        if isinstance(items, dict) and items:
            return "array of " + _type_text(page, items, where.items())
        if schema.get("prefixItems"):
            return "array (" + ", ".join(_type_text(page, item, _Where.nowhere())
                                         for item in schema["prefixItems"]) + ")"
        return "array"
    extra = schema.get("additionalProperties")
    if kind == "object" and not _properties(schema) and isinstance(extra, dict) and extra:
        return "object of " + _type_text(page, extra, where.values())
    return kind


@dataclass(frozen=True)
class _Where:
    """Where a value sits on the page (its label), to find the section that describes it."""

    section: _Section | None
    label: str

    @classmethod
    def nowhere(cls) -> _Where:
        return cls(None, "")

    def anchor(self) -> str | None:
        found = _find_child(self.section, self.label) if self.section else None
        return found.anchor if found else None

    def items(self) -> _Where:
        return _Where(self.section, self.label + "[]")

    def values(self) -> _Where:
        return _Where(self.section, _join(self.label, "*"))

    def option(self, options: list, number: int) -> _Where:
        return _Where(self.section, _variant_label(self.label, options, number))


def _describe(page: _Page, schema: dict, with_description: bool = True, with_rules: bool = True) -> str:
    parts = []
    if with_description and schema.get("description"):
        parts.append(_cell(schema["description"]))
    elif with_description and "$ref" in schema:
        target = page.target(schema["$ref"])
        if target and target.get("title"):
            parts.append(f"*{_cell(target['title'])}*")
    parts += _notes(page, schema, with_rules=with_rules)
    return "<br>".join(parts)


def _rules(schema: dict) -> list[str]:
    """An object's rules across its fields: conditions in words where simple, else JSON."""
    worded, rest = [], {}
    for key, value in schema.items():
        if key == "allOf" and isinstance(value, list):
            leftover = []
            for option in value:
                words = _condition_words(option)
                if words:
                    worded.append(words)
                elif not (isinstance(option, dict) and set(option) == {"$ref"}) and not _is_mergeable(option):
                    leftover.append(option)
            if leftover:
                rest[key] = leftover
        elif key in ("if", "then", "else") and _condition_words(schema):
            if key == "if":
                worded.append(_condition_words(schema))
        elif key not in _WORDED:
            rest[key] = value
    out = []
    if worded:
        out += ["Conditions:", "", *[f"- {words}" for words in worded], ""]
    if rest:
        out += ["Further rules:", "", "```json", json.dumps(rest, indent=2, ensure_ascii=False), "```", ""]
    return out


def _condition_words(rule) -> str | None:
    """``if`` field values ``then``/``else`` required fields, in words (None when not that simple)."""
    if not isinstance(rule, dict) or set(rule) - {"if", "then", "else"} or "if" not in rule:
        return None
    test = rule["if"]
    if not isinstance(test, dict) or set(test) - {"properties", "required"}:
        return None
    tests = []
    for name, condition in (test.get("properties") or {}).items():
        if not isinstance(condition, dict) or set(condition) - {"const", "enum"} or not condition:
            return None
        if "const" in condition:
            tests.append(f"`{name}` is {_code(_json(condition['const']))}")
        else:
            tests.append(f"`{name}` is one of " + ", ".join(_code(_json(v)) for v in condition["enum"]))
    if not tests:
        return None
    branches = []
    for key, words in (("then", "then"), ("else", "otherwise")):
        branch = rule.get(key)
        if branch is None:
            continue
        if not isinstance(branch, dict) or set(branch) != {"required"}:
            return None
        names = branch["required"]
        verb = "is" if len(names) == 1 else "are"
        branches.append(f"{words} " + ", ".join(f"`{name}`" for name in names) + f" {verb} required")
    if not branches:
        return None
    return "If " + " and ".join(tests) + ", " + "; ".join(branches) + "."


def _notes(page: _Page | None, schema, with_rules: bool = True) -> list[str]:
    """The constraints of one schema, each as a short phrase."""
    if not isinstance(schema, dict):
        return []
    notes = []
    if schema.get("deprecated"):
        notes.append("**Deprecated.**")
    if "const" in schema:
        notes.append(f"Value: {_code(_json(schema['const']))}.")
    if "enum" in schema:
        notes.append("One of: " + ", ".join(_code(_json(value)) for value in schema["enum"]) + ".")
    if schema.get("format"):
        notes.append(f"Format: {_code(schema['format'])}.")
    if schema.get("pattern"):
        notes.append(f"Pattern: {_code(schema['pattern'])}.")
    length = _range_words(schema.get("minLength"), schema.get("maxLength"), "character")
    if length:
        notes.append(f"Length: {length}.")
    bounds = []
    for key, sign in (("minimum", "≥"), ("exclusiveMinimum", ">"), ("maximum", "≤"), ("exclusiveMaximum", "<")):
        if key in schema:
            bounds.append(f"{sign} {_json(schema[key])}")
    if bounds:
        notes.append("Range: " + ", ".join(bounds) + ".")
    if "multipleOf" in schema:
        notes.append(f"Multiple of {_json(schema['multipleOf'])}.")
    count = _range_words(schema.get("minItems"), schema.get("maxItems"), "item")
    if count:
        notes.append(f"Items: {count}.")
    if schema.get("uniqueItems"):
        notes.append("Items are unique.")
    items = schema.get("items")
    if isinstance(items, dict) and "$ref" not in items and not _properties(items):
        inner = _notes(page, items)
        if inner:
            notes.append("Each item: " + _lower_first(" ".join(inner)))
    values = schema.get("additionalProperties")
    if isinstance(values, dict) and "$ref" not in values and not _properties(values) and not _properties(schema):
        inner = _notes(page, values)
        if inner:
            notes.append("Each value: " + _lower_first(" ".join(inner)))
    if schema.get("readOnly"):
        notes.append("Read-only.")
    if schema.get("writeOnly"):
        notes.append("Write-only.")
    for key, words in (("contentMediaType", "Content type"), ("contentEncoding", "Encoding")):
        if schema.get(key):
            notes.append(f"{words}: {_code(schema[key])}.")
    if page is not None and not _properties(schema):
        for key in ("additionalProperties", "patternProperties", "propertyNames"):
            if key in schema and not (key == "additionalProperties" and isinstance(schema[key], dict)):
                notes += [line for line in _object_extras({key: schema[key]}, page) if line]
    if "default" in schema:
        notes.append(f"Default: {_code(_json(schema['default']))}.")
    if schema.get("examples"):
        notes.append("Examples: " + ", ".join(_code(_json(value)) for value in schema["examples"]) + ".")
    if page is not None:
        for option in schema.get("allOf") or []:
            if isinstance(option, dict) and "$ref" in option and len(option) == 1 and len(schema["allOf"]) > 1:
                notes.append(f"Also matches {page.link_ref(option['$ref'])}.")
    extra = {key: value for key, value in schema.items()
             if key not in _WORDED or (key == "allOf" and _complex_all_of(value))}
    if extra and with_rules:
        notes.append(f"Also: {_code(_json(extra))}.")
    return notes


def _notes_sentence(page: _Page, schema) -> str:
    notes = _notes(page, schema)
    return (" (" + " ".join(notes).rstrip(".") + ")") if notes else ""


def _variant_label(label: str, options: list, number: int) -> str:
    """The label of one ``oneOf``/``anyOf`` option: the field's own when it is the only option
    with fields of its own (``X or null``), else the field's with the option's number."""
    structured = [option for option in options if _structured(option)]
    return label if len(structured) <= 1 else f"{label} (option {number})"


def _structured(schema) -> bool:
    """Whether a schema has fields somewhere inside (itself, its items, values or options)."""
    if not isinstance(schema, dict):
        return False
    inner = [schema.get("items"), schema.get("additionalProperties"),
             *(schema.get("oneOf") or []), *(schema.get("anyOf") or [])]
    return bool(_properties(schema)) or any(_structured(sub) for sub in inner)


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def _inline_description(schema) -> str:
    if isinstance(schema, dict) and schema.get("description"):
        return ": " + " ".join(schema["description"].split())
    return ""


def _complex_all_of(value) -> bool:
    return not all(isinstance(option, dict) and (set(option) == {"$ref"} or _is_mergeable(option))
                   for option in value or [])


def _range_words(low, high, noun: str) -> str:
    if low is None and high is None:
        return ""
    if low is not None and high is not None:
        return f"exactly {low}" if low == high else f"{low} to {high}"
    return f"at least {low}" if low is not None else f"at most {high}"


_MERGEABLE = frozenset({"type", "properties", "required", "title", "description", "$comment"})


def _properties(schema) -> dict:
    """The object's own properties and those of its ``allOf`` members that only add fields."""
    if not isinstance(schema, dict):
        return {}
    merged = dict(schema["properties"]) if isinstance(schema.get("properties"), dict) else {}
    for member in _merged_members(schema):
        merged.update(member.get("properties") or {})
    return merged


def _required(schema: dict) -> set[str]:
    names = set(schema.get("required") or [])
    for member in _merged_members(schema):
        names.update(member.get("required") or [])
    return names


def _merged_members(schema: dict) -> list[dict]:
    """``allOf`` members that only list fields (shown in the object's own table)."""
    members = schema.get("allOf")
    if not isinstance(members, list):
        return []
    return [member for member in members if _is_mergeable(member)]


def _is_mergeable(member) -> bool:
    return (isinstance(member, dict) and set(member) <= _MERGEABLE and member.get("type", "object") == "object"
            and isinstance(member.get("properties", {}), dict))


def _is_object(schema) -> bool:
    if not isinstance(schema, dict):
        return False
    kind = schema.get("type")
    return kind == "object" or (isinstance(kind, list) and "object" in kind) or (
        kind is None and bool(_properties(schema)))


def _only_definitions(schema: dict) -> bool:
    """A schema that is a library of ``$defs`` and says nothing of a value itself."""
    return bool(schema.get("$defs") or schema.get("definitions")) and set(schema) <= {
        "$schema", "$id", "$comment", "$defs", "definitions", "title", "description", "examples"}


def _find_child(section: _Section, label: str) -> _Section | None:
    return next((child for child in section.children if child.label == label), None)


def _join(parent: str, name: str) -> str:
    return name if parent == "(root)" else f"{parent}.{name}"


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
