"""The packaged JSON Schemas and the schema check. Owns schema lookup, the one registry of
packaged schemas, the compiled validators and the explanation of schema failures.

Every ``*.json`` file under the packaged ``schemas/`` folder is a resource of one registry,
keyed by its ``$id``; nothing is ever retrieved from anywhere else (a reference to anything
that is not packaged is an error, not a download).

The check is two-speed. ``jsonschema_rs`` answers "is it valid?" fast; only when it says no
does the reference validator (Python ``jsonschema``, imported only then) run to list and
explain the errors. Its verdict is the one reported. To make both enforce the same thing:
``format`` is an annotation in both (the draft 2020-12 default; the schemas state every form
they enforce with ``pattern``), and patterns mean what ECMA-262 says in both (each gets
them translated by :mod:`passdown.engine._ecma`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path

from passdown._text import cut
from passdown.formats import _fastjson
from passdown._findings import ERROR, Finding, json_path

#: Schema findings listed per document at most; the rest are counted in one finding.
MAX_SCHEMA_FINDINGS = 200


class SchemaMissing(LookupError):
    """No packaged schema answers to this name or ``$id``."""


@dataclass(frozen=True)
class SchemaFile:
    """One packaged schema: its short name (``checkpoint``, ``gates/restart.input``), file,
    ``$id``, title and description."""

    name: str
    path: Path
    id: str
    title: str | None
    description: str | None


def _short_name(relative: str) -> str:
    for suffix in (".schema.json", ".json"):
        if relative.endswith(suffix):
            relative = relative[: -len(suffix)]
            break
    return relative[3:] if relative.startswith("v1/") else relative


class Store:
    """The schemas under one root folder, their registry and their compiled validators.
    Everything is built on first use and kept."""

    def __init__(self, root: Path):
        self.root = Path(root)

    @cached_property
    def _loaded(self) -> tuple[dict[str, SchemaFile], dict[str, dict]]:
        files: dict[str, SchemaFile] = {}
        contents: dict[str, dict] = {}
        for folder, dirs, names in os.walk(self.root):
            dirs.sort()
            for filename in sorted(names):
                if not filename.endswith(".json"):
                    continue
                path = Path(folder, filename)
                relative = path.relative_to(self.root).as_posix()
                schema = _fastjson.loads(path.read_text(encoding="utf-8"))
                if not isinstance(schema, dict):
                    continue
                uri = schema.get("$id") or f"https://spec.passdown.dev/schemas/{relative}"
                name = _short_name(relative)
                files[name] = SchemaFile(name, path, uri, schema.get("title"),
                                         schema.get("description"))
                contents[name] = schema
        return files, contents

    def files(self) -> dict[str, SchemaFile]:
        """Every packaged schema by short name, in name order."""
        return self._loaded[0]

    def find(self, name: str) -> SchemaFile:
        """A schema by short name, file name (``ack.schema.json``), path or ``$id``."""
        files = self.files()
        key = _short_name(name.replace("\\", "/").removeprefix("schemas/"))
        if key in files:
            return files[key]
        for schema_file in files.values():
            if name in (schema_file.id, str(schema_file.path)):
                return schema_file
        raise SchemaMissing(name)

    def contents(self, name: str) -> dict:
        return self._loaded[1][self.find(name).name]

    # -- the fast path -------------------------------------------------------------------

    @cached_property
    def _rs_registry(self):
        import jsonschema_rs

        files = self.files()
        resources = [(files[name].id, schema) for name, schema in self._fast_contents.items()]
        return jsonschema_rs.Registry(resources, retriever=_refuse_retrieval)

    @cached_property
    def _fast_contents(self) -> dict[str, dict]:
        """The schemas with their class escapes written out (:mod:`passdown.engine._ecma`)."""
        from passdown.engine._ecma import translate_schema

        return {name: translate_schema(schema, python=False)
                for name, schema in self._loaded[1].items()}

    @cache  # noqa: B019 - one Store per root, kept for the process
    def _rs_validator(self, name: str):
        import jsonschema_rs

        return jsonschema_rs.validator_for(
            self._fast_contents[self.find(name).name], registry=self._rs_registry,
            retriever=_refuse_retrieval, validate_formats=False,
        )

    def prepare(self, name: str) -> None:
        """Build the fast validator of schema ``name`` now (before worker processes fork,
        so each does not build its own); a schema it cannot build is left to :meth:`check`."""
        try:
            self._rs_validator(name)
        except Exception:  # reported by the reference path when a document meets it
            pass

    def is_valid(self, name: str, instance) -> bool | None:
        """The fast verdict; ``None`` when the fast validator cannot give one (it cannot
        take this value, or cannot build the schema): the reference validator then decides
        and explains."""
        try:
            validator = self._rs_validator(name)
        except Exception:  # e.g. an unresolvable reference: reported by the reference path
            return None
        try:
            return validator.is_valid(instance)
        except (ValueError, TypeError, OverflowError):
            return None

    # -- the reference validator ---------------------------------------------------------

    @cached_property
    def registry(self):
        """The ``referencing.Registry`` of every packaged schema, crawled."""
        from referencing import Registry, Resource
        from referencing.jsonschema import DRAFT202012

        files = self.files()
        resources = [
            (files[name].id, Resource.from_contents(schema, default_specification=DRAFT202012))
            for name, schema in self._reference_contents.items()
        ]
        return Registry(retrieve=_refuse_reference).with_resources(resources).crawl()

    @cached_property
    def _reference_contents(self) -> dict[str, dict]:
        """The schemas with their ECMA-262 patterns in Python's dialect (:mod:`passdown.engine._ecma`)."""
        from passdown.engine._ecma import translate_schema

        return {name: translate_schema(schema, python=True)
                for name, schema in self._loaded[1].items()}

    @cache  # noqa: B019 - one Store per root, kept for the process
    def reference_validator(self, name: str):
        from jsonschema.validators import Draft202012Validator, validator_for

        schema = self._reference_contents[self.find(name).name]
        cls = validator_for(schema, default=Draft202012Validator)
        return cls(schema, registry=self.registry)

    def check(self, name: str, instance, *, file: str | None) -> list[tuple[tuple, Finding]]:
        """Schema findings for ``instance`` against schema ``name``, each with the JSON path
        parts it names (lines are placed later, by the caller)."""
        if self.is_valid(name, instance):
            return []
        return _explain_all(self.reference_validator(name), self.contents(name), instance, file)


def compile_schema(schema: dict):
    """The fast validator of a schema Passdown holds outside ``schemas/v1/`` (the conformance
    suite's fixture, protocol and report-stream schemas), compiled as the packaged ones are:
    patterns read as ECMA-262 (:mod:`passdown.engine._ecma`), nothing ever retrieved."""
    import jsonschema_rs

    from passdown.engine._ecma import translate_schema

    return jsonschema_rs.validator_for(translate_schema(schema, python=False),
                                       retriever=_refuse_retrieval)


def compile_reference_schema(schema: dict):
    """:func:`compile_schema` with the reference validator (``jsonschema``), for values the
    fast one cannot phrase an error about (text holding a lone surrogate)."""
    from jsonschema import Draft202012Validator

    from passdown.engine._ecma import translate_schema

    return Draft202012Validator(translate_schema(schema, python=True))


def _refuse_retrieval(uri: str):
    raise ValueError(f"{uri} is not a packaged schema and is never fetched")


def _refuse_reference(uri: str):
    from referencing.exceptions import NoSuchResource

    raise NoSuchResource(ref=uri)


_STORE: Store | None = None


def store() -> Store:
    """The store of the packaged schemas."""
    global _STORE
    if _STORE is None:
        from passdown._resources import data_dir

        _STORE = Store(data_dir("schemas"))
    return _STORE


# -- explaining failures, in plain words ---------------------------------------------------


def _explain_all(validator, root: dict, instance, file: str | None) -> list[tuple[tuple, Finding]]:
    from jsonschema.exceptions import best_match
    from referencing.exceptions import Unresolvable

    findings: list[tuple[tuple, Finding]] = []
    root_requirement = root.get("x-requirement")
    try:
        errors = []
        for error in validator.iter_errors(instance):
            errors.append(error)
            if len(errors) > MAX_SCHEMA_FINDINGS:
                break
        for error in _without_vacuous(errors[:MAX_SCHEMA_FINDINGS]):
            chosen = best_match([error])
            requirement = _requirement_of(chosen.schema) or root_requirement
            for parts, code, message, hint, *values in _explain(chosen, validator):
                findings.append((parts, Finding(file, _path(parts), code, ERROR, message,
                                                requirement, hint,
                                                values=tuple(values[0]) if values else None)))
        if len(errors) > MAX_SCHEMA_FINDINGS:
            findings.append(((), Finding(
                file, "$", "schema.too_many_errors", ERROR,
                f"more than {MAX_SCHEMA_FINDINGS} schema errors; the rest are not listed",
                root_requirement, "fix the errors listed, then validate again")))
    except Unresolvable as error:
        findings.append(((), Finding(
            file, "$", "schema.unresolvable", ERROR,
            f"the schema refers to {error.ref}, which is not packaged with Passdown",
            None, "this is a defect of the installed schemas: reinstall or report it")))
    return findings


def _without_vacuous(errors: list) -> list:
    """The errors without a ``not`` failure on a value of the wrong type: on a value that is
    not even an object, ``not: {required: [...]}`` fails only because ``required`` holds
    vacuously (an ACK that is ``[]`` is not an ACK that carries ``takeover``); the ``type``
    error at the same place says what is wrong."""
    mistyped = {tuple(error.absolute_path) for error in errors if error.validator == "type"}
    return [error for error in errors
            if not (error.validator == "not" and tuple(error.absolute_path) in mistyped)]


def _path(parts) -> str:
    return json_path(tuple(p if isinstance(p, (int, str)) else str(p) for p in parts))


def _requirement_of(schema) -> str | None:
    if isinstance(schema, dict):
        value = schema.get("x-requirement")
        return value if isinstance(value, str) else None
    return None


def _code(keyword: str | None) -> str:
    if keyword is None:
        return "schema.not_allowed"
    snake = "".join(f"_{c.lower()}" if c.isupper() else c for c in keyword.lstrip("$"))
    return f"schema.{snake}"


_TYPE_NAMES = {"object": "an object", "array": "an array", "string": "a string",
               "integer": "an integer", "number": "a number", "boolean": "a boolean",
               "null": "null"}


def json_type(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


#: A value as short JSON for a message.
show = _fastjson.shown


def _names(values, limit: int = 12) -> str:
    shown = [show(v, 40) for v in list(values)[:limit]]
    more = len(values) - limit
    return ", ".join(shown) + (f" (and {more} more)" if more > 0 else "")


def _described(schema, hint: str) -> str:
    if isinstance(schema, dict):
        custom = schema.get("x-hint")
        if isinstance(custom, str):
            return custom
        description = schema.get("description")
        if isinstance(description, str) and description:
            return f"{hint} ({_first_sentence(description)})"
    return hint


def _first_sentence(text: str) -> str:
    sentence = text.strip().split(". ", 1)[0].rstrip(".")
    return cut(sentence, 160)


def _explain(error, validator):
    """``[(path parts, code, message, hint[, values])]`` for one chosen error: the
    explanation of its keyword (:data:`_EXPLAIN`), else the validator's own message."""
    path, code = tuple(error.absolute_path), _code(error.validator)
    explain = _EXPLAIN.get(error.validator)
    return (explain and explain(error, validator, path, code)) or _other(error, path, code)


def _required(error, validator, path, code):
    instance, schema = error.instance, error.schema
    missing = [name for name in error.validator_value
               if isinstance(instance, dict) and name not in instance]
    name = next((n for n in missing if error.message.startswith(repr(n))),
                missing[0] if missing else "?")
    property_schema = (schema.get("properties") or {}).get(name)
    return [(path, code, f"the required property {show(name)} is missing",
             _described(property_schema, f"add {show(name)}"))]


def _not_allowed(error, validator, path, code):
    if not isinstance(error.instance, dict):
        return None
    from passdown.rules.members import nearest

    extras = _unexpected_keys(error, validator)
    allowed = sorted((error.schema.get("properties") or {}))
    hint = "remove it or fix its spelling"
    if allowed:
        hint += f"; allowed here: {_names(allowed)}"
    if extras:
        return [(path + (key,), code, f"the property {show(key)} is not allowed here"
                 + (f": did you mean {show(near)}?" if (near := nearest(key, allowed)) else ""),
                 hint, allowed)
                for key in extras]
    return [(path, code, "this object has properties that are not allowed here", hint, allowed)]


def _type(error, validator, path, code):
    value, instance = error.validator_value, error.instance
    expected = [value] if isinstance(value, str) else list(value)
    wanted = " or ".join(_TYPE_NAMES.get(t, t) for t in expected)
    return [(path, code, f"must be {wanted}, not {_TYPE_NAMES.get(json_type(instance), json_type(instance))}",
             _described(error.schema, f"write {wanted} here"))]


def _enum(error, validator, path, code):
    value = error.validator_value
    return [(path, code, f"{show(error.instance)} is not one of the allowed values: {_names(value)}",
             _described(error.schema, "use one of the listed values"), value)]


def _const(error, validator, path, code):
    value = error.validator_value
    return [(path, code, f"must be exactly {show(value)}, not {show(error.instance)}",
             _described(error.schema, f"write {show(value)}"))]


def _pattern(error, validator, path, code):
    from passdown.engine._ecma import original

    return [(path, code, f"{show(error.instance)} does not have the required form "
                         f"(pattern {original(error.validator_value)})",
             _described(error.schema, "write the value in the form the pattern gives"))]


def _size(error, validator, path, code):
    return [(path, code, _size_message(error.validator, error.validator_value, error.instance),
             _described(error.schema, "change the length to fit the bound"))]


_BOUND_WORDS = {"minimum": "at least", "maximum": "at most", "exclusiveMinimum": "greater than",
                "exclusiveMaximum": "less than", "multipleOf": "a multiple of"}


def _bound(error, validator, path, code):
    return [(path, code, f"must be {_BOUND_WORDS[error.validator]} {show(error.validator_value)}, "
                         f"not {show(error.instance)}",
             _described(error.schema, "use a number within the bound"))]


def _unique(error, validator, path, code):
    return [(path, code, "the items must be unique, but some repeat",
             _described(error.schema, "remove the repeated items"))]


def _dependent_required(error, validator, path, code):
    instance = error.instance
    if not isinstance(instance, dict):
        return None
    for trigger, needed in error.validator_value.items():
        if trigger in instance:
            for name in needed:
                if name not in instance:
                    return [(path, code, f"{show(name)} is required when {show(trigger)} is present",
                             f"add {show(name)}, or remove {show(trigger)}")]
    return None


def _any_of(error, validator, path, code):
    if error.validator == "oneOf" and not error.context:
        return [(path, code, "matches more than one of the allowed forms, but must match exactly one",
                 _described(error.schema, "make the value fit exactly one form"))]
    return [(path, code, "does not match any of the allowed forms",
             _described(error.schema, "make the value fit one of the forms the schema lists"))]


def _not(error, validator, path, code):
    return [(path, code, "has a form that is not allowed here",
             _described(error.schema, "change the value"))]


def _contains(error, validator, path, code):
    return [(path, code, "has no item of the required form",
             _described(error.schema, "add an item of the required form"))]


def _false(error, validator, path, code):
    """A ``false`` subschema: nothing is allowed at this place."""
    return [(path, code, "no value is allowed here", "remove this property")]


def _other(error, path, code):
    return [(path, code, _first_sentence(cut(error.message, 200)),
             _described(error.schema, "fix the value"))]


#: How each keyword's failure is told: ``explain(error, validator, path, code)`` gives the
#: findings, or None to fall back on the validator's own message (:func:`_other`).
_EXPLAIN = {
    "required": _required,
    "additionalProperties": _not_allowed, "unevaluatedProperties": _not_allowed,
    "type": _type,
    "enum": _enum,
    "const": _const,
    "pattern": _pattern,
    **dict.fromkeys(("minLength", "maxLength", "minItems", "maxItems", "minProperties",
                     "maxProperties"), _size),
    **dict.fromkeys(_BOUND_WORDS, _bound),
    "uniqueItems": _unique,
    "dependentRequired": _dependent_required,
    "anyOf": _any_of, "oneOf": _any_of,
    "not": _not,
    "contains": _contains,
    None: _false,
}


def _size_message(keyword: str, bound, instance) -> str:
    unit = {"Length": "character", "Items": "item", "Properties": "property"}[keyword[3:]]
    plural = "properties" if unit == "property" else f"{unit}s"
    size = len(instance) if isinstance(instance, (str, list, dict)) else 0
    if keyword.startswith("min"):
        if bound == 1:
            return "must not be empty"
        return f"must have at least {bound} {plural}, not {size}"
    return f"must have at most {bound} {plural}, not {size}"


def _unexpected_keys(error, validator) -> list[str]:
    instance, schema = error.instance, error.schema
    if error.validator == "additionalProperties":
        import re

        declared = schema.get("properties") or {}
        patterns = list(schema.get("patternProperties") or {})
        return [key for key in instance
                if key not in declared and not any(re.search(p, key) for p in patterns)]
    try:
        from jsonschema._utils import find_evaluated_property_keys_by_schema

        evaluated = set(find_evaluated_property_keys_by_schema(validator, instance, schema))
    except Exception:  # a private helper: when it moves, fall back to one finding
        return []
    return [key for key in instance if key not in evaluated]
