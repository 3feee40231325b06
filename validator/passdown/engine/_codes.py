"""The codes the validation engine itself reports (loading, detection, schema check, rule
defects), each with a one-line description: what the spec pages document and what the SARIF
format describes. Semantic rules describe their own codes where they are registered."""

from __future__ import annotations

ENGINE_CODES = {
    "load.unreadable": "The file or folder cannot be read.",
    "load.not_regular": "The path is not a regular file (a FIFO, socket or device) and is not read.",
    "load.symlink_loop": "The path is a loop of symbolic links.",
    "load.too_large": "The input is larger than the size bound, or YAML aliases expand it far beyond it.",
    "load.bom": "The file starts with a UTF-8 byte order mark.",
    "load.encoding": "The file is not UTF-8 (UTF-16, or invalid bytes).",
    "load.empty": "The file is empty.",
    "load.syntax": "The file is not valid JSON or YAML, or holds more than one YAML document.",
    "load.duplicate_key": "A key appears twice in one object.",
    "load.non_finite": "A number is NaN or infinite, or too large for a double.",
    "load.too_deep": "The document nests deeper than the depth bound.",
    "load.yaml_tag": "The YAML uses an unsafe or unknown tag.",
    "load.yaml_type": "The YAML holds a value JSON cannot (a non-string key, binary data, a set).",
    "load.too_many_digits": "An integer has more digits than the digit bound.",
    "load.string_too_long": "A string is longer than the string bound.",
    "load.folder_too_deep": "A walked folder lies at the depth bound and has folders below it.",
    "load.too_many_files": "A folder walk met more entries than the walk bound.",
    "load.link_escape": "A checkpoint folder (xbrief/, vbrief/) is a symbolic link leading out of its folder.",
    "detect.unknown_kind": "The file cannot be placed in an artifact kind by its name or content.",
    "detect.no_artifacts": "A folder given to validate holds no artifact.",
    "detect.no_parser": "The installation cannot read this artifact's text form.",
    "schema.unavailable": "No schema for the artifact kind is packaged with the installation.",
    "schema.unresolvable": "A packaged schema refers to a schema that is not packaged.",
    "schema.too_many_errors": "More schema errors than are listed per document.",
    "rule.crashed": "A rule or parser failed on the input: a defect of the tool, not of the file.",
}

#: ``schema.<keyword>``: the schema keyword a document fails, in plain words.
SCHEMA_KEYWORDS = {
    "required": "A required property is missing.",
    "type": "A value has the wrong JSON type.",
    "enum": "A value is not one of the allowed values.",
    "const": "A value is not the one fixed value allowed.",
    "pattern": "A string does not have the required form.",
    "additional_properties": "An object has a property the schema does not allow.",
    "unevaluated_properties": "An object has a property the schema does not allow.",
    "min_length": "A string is too short.",
    "max_length": "A string is too long.",
    "min_items": "An array has too few items.",
    "max_items": "An array has too many items.",
    "min_properties": "An object has too few properties.",
    "max_properties": "An object has too many properties.",
    "minimum": "A number is below its minimum.",
    "maximum": "A number is above its maximum.",
    "exclusive_minimum": "A number is not above its bound.",
    "exclusive_maximum": "A number is not below its bound.",
    "multiple_of": "A number is not a multiple of the required step.",
    "unique_items": "An array repeats an item that must be unique.",
    "dependent_required": "A property requires another that is missing.",
    "any_of": "A value fits none of the allowed forms.",
    "one_of": "A value fits none, or more than one, of the allowed forms.",
    "not": "A value has a form that is not allowed.",
    "contains": "An array has no item of the required form.",
    "not_allowed": "A property is not allowed at this place.",
}


def describe(code: str) -> str | None:
    """The one-line description of an engine code, or ``None`` for codes it does not own."""
    if code in ENGINE_CODES:
        return ENGINE_CODES[code]
    if code.startswith("schema."):
        return SCHEMA_KEYWORDS.get(code[len("schema."):], "The document does not satisfy its schema.")
    return None
