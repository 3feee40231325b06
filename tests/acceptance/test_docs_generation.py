"""The generators behind the docs site: requirement anchors, spec order, schema, CLI and
Python API pages."""

from __future__ import annotations

import sys

import click
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import docs_support
from docs_support import ROOT

sys.path.insert(0, str(ROOT / "docs" / "hooks"))

import _docs_cli  # noqa: E402
import _docs_python  # noqa: E402
import _docs_schemas  # noqa: E402
import _docs_spec  # noqa: E402


class TestRequirementAnchors:
    def test_a_requirement_item_becomes_a_self_link_with_its_id(self):
        page = "- **PKT-004** The packet MUST list the fields.\n"
        assert _docs_spec.anchor_requirements(page) == (
            '- <span id="pkt-004"></span>[**PKT-004**](#PKT-004){ #PKT-004 .passdown-req } '
            "The packet MUST list the fields.\n")

    def test_star_plus_and_numbered_items_and_nested_items_are_anchored(self):
        page = "* **CKP-001** a\n+ **CKP-002** b\n3. **CKP-003** c\n    - **CKP-004** d\n"
        anchored = _docs_spec.anchor_requirements(page)
        for requirement in ("CKP-001", "CKP-002", "CKP-003", "CKP-004"):
            assert f"{{ #{requirement} .passdown-req }}" in anchored

    def test_ids_in_fences_in_prose_or_later_in_the_item_stay_as_they_are(self):
        page = ("```markdown\n- **ACK-999** shown, not defined\n```\n"
                "See **ACK-001** for more.\n"
                "- The ACK follows **ACK-002**.\n"
                "~~~~\n- **ACK-998** x\n~~~\n- **ACK-997** still fenced\n~~~~\n")
        assert _docs_spec.anchor_requirements(page) == page
        assert _docs_spec.requirement_ids(page) == []

    def test_requirement_items_keep_their_continuation_lines(self):
        page = ("- **REG-001** The registry MUST carry\n  a revision.\n- **REG-002** A writer SHOULD lock.\n"
                "\nNot part of it.\n")
        assert _docs_spec.requirement_items(page) == [
            ("REG-001", "The registry MUST carry a revision."), ("REG-002", "A writer SHOULD lock.")]

    def test_requirement_ids_are_listed_in_page_order(self):
        page = "- **RST-002** b\n\ntext\n\n- **RST-001** a\n"
        assert _docs_spec.requirement_ids(page) == ["RST-002", "RST-001"]


def test_spec_pages_follow_the_prefix_order_with_the_index_first(tmp_path):
    spec = tmp_path / "spec"
    (spec / "gates").mkdir(parents=True)
    (spec / "ack.md").write_text("# ACK\n\n- **ACK-001** x MUST y.\n", encoding="utf-8")
    (spec / "checkpoint.md").write_text("# Checkpoint\n\n- **CKP-001** x MUST y.\n", encoding="utf-8")
    (spec / "index.md").write_text("# Overview\n\n- **GEN-001** x MUST y.\n", encoding="utf-8")
    (spec / "notes.md").write_text("# Notes\n\nNo requirements.\n", encoding="utf-8")
    (spec / "gates" / "title.md").write_text("# Title gate\n\n- **TTL-001** x MUST y.\n", encoding="utf-8")
    (spec / "gates" / "restart.md").write_text("# Restart gate\n\n- **RST-001** x MUST y.\n", encoding="utf-8")
    assert [page.as_posix() for page in _docs_spec.spec_pages(spec)] == [
        "index.md", "checkpoint.md", "ack.md", "notes.md", "gates/restart.md", "gates/title.md"]
    assert _docs_spec.page_title(spec / "gates" / "restart.md") == "Restart gate"


SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://spec.passdown.dev/schemas/v1/thing.schema.json",
    "title": "Thing",
    "description": "A thing with parts.",
    "type": "object",
    "required": ["kind", "parts"],
    "additionalProperties": False,
    "properties": {
        "kind": {"const": "thing", "description": "Always `thing`."},
        "mode": {"enum": ["off", "on"], "default": "off", "description": "Whether | it runs."},
        "code": {"type": "string", "pattern": "^(a|b)$", "minLength": 1, "maxLength": 8},
        "parts": {"type": "array", "minItems": 1, "items": {
            "type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}},
        "owner": {"$ref": "#/$defs/owner"},
        "digest": {"$ref": "defs.schema.json#/$defs/digest"},
        "score": {"type": ["number", "null"], "minimum": 0, "exclusiveMaximum": 100},
        "x-extra": {"type": "integer", "x-unworded": True},
    },
    "allOf": [{"if": {"properties": {"mode": {"const": "on"}}}, "then": {"required": ["owner"]}}],
    "$defs": {"owner": {"title": "Owner", "type": "string", "description": "Who owns it."}},
    "examples": [{"kind": "thing", "parts": [{"name": "wheel"}]}],
}


def _page(schema=SCHEMA):
    return _docs_schemas.render_schema_page(
        schema, file_name="thing.schema.json", download_href="../../schemas/v1/thing.schema.json",
        link_external=lambda url: "defs.md#def-digest" if url.endswith("defs.schema.json#/$defs/digest") else None,
        resolve_external=lambda url: {"$defs": {"digest": {"title": "Digest"}}} if url.endswith("defs.schema.json") else None,
        link_requirement=lambda requirement: f"../spec/{_SPEC_PAGES[requirement[:3]]}#{requirement}",
    )


_SPEC_PAGES = {"ACK": "ack.md", "CKP": "checkpoint.md"}


class TestSchemaPage:
    def test_the_page_states_title_description_id_and_file(self):
        page = _page()
        assert page.startswith("# Thing\n\nA thing with parts.\n")
        assert "[`thing.schema.json`](../../schemas/v1/thing.schema.json)" in page
        assert "`https://spec.passdown.dev/schemas/v1/thing.schema.json`" in page

    def test_each_field_has_its_type_requiredness_and_constraints(self):
        rows = {line.split("|")[1].strip(): line for line in _page().splitlines() if line.startswith("| `")}
        assert rows["`kind`"] == "| `kind` | string | yes | Always `thing`.<br>Value: `\"thing\"`. |"
        assert rows["`mode`"] == ("| `mode` | string | no | Whether \\| it runs.<br>Allowed values: `\"off\"`, `\"on\"`."
                                  "<br>Default: `\"off\"`. |")
        assert rows["`code`"] == "| `code` | string | no | Pattern: `^(a|b)$`.<br>Length: 1 to 8. |"
        assert rows["`score`"] == "| `score` | number or null | no | Range: ≥ 0, < 100. |"
        assert rows["`parts`"].startswith("| `parts` | array of [object](#f-parts-items) | yes | Items: at least 1.")

    def test_nested_objects_defs_and_other_schemas_are_linked(self):
        page = _page()
        assert "### `parts[]` { #f-parts-items }" in page
        assert "| `name` | string | yes |  |" in page
        assert "| `owner` | [`owner`](#def-owner) | no | *Owner* |" in page
        assert "### `owner` { #def-owner }" in page
        assert '| `digest` | [`digest`](defs.md#def-digest "defs.schema.json#/$defs/digest") | no | *Digest* |' in page

    def test_other_fields_conditions_unworded_keywords_and_examples_are_shown(self):
        page = _page()
        assert "Other fields: not allowed." in page
        assert "- If `mode` is `\"on\"`, then `owner` is required." in page
        assert 'Also: `{"x-unworded": true}`.' in page
        assert '## Examples\n\n```json\n{\n  "kind": "thing",' in page

    def test_fields_listed_by_all_of_members_join_the_table(self):
        schema = {"title": "Merged", "allOf": [
            {"$ref": "base.schema.json"},
            {"type": "object", "required": ["extra"], "properties": {"extra": {"type": "boolean"}}}]}
        page = _page(schema)
        assert "| `extra` | boolean | yes |  |" in page
        assert "Further rules" not in page

    def test_an_array_of_objects_or_null_links_to_its_item_section(self):
        schema = {"title": "Maybe", "type": "object", "properties": {"dirty": {"anyOf": [
            {"type": "array", "items": {"type": "object", "properties": {"path": {"type": "string"}}}},
            {"type": "null"}]}}}
        page = _page(schema)
        assert "| `dirty` | array of [object](#f-dirty-items) or null | no |  |" in page
        assert "### `dirty[]` { #f-dirty-items }" in page
        assert "| `path` | string | no |  |" in page

    def test_a_library_of_definitions_says_so_instead_of_a_value(self):
        page = _page({"title": "Defs", "$defs": {"id": {"type": "string"}}})
        assert "This schema holds only definitions" in page
        assert "### `id` { #def-id }" in page


class TestSchemaBranches:
    """Fields inside ``anyOf``/``oneOf``/``allOf``, conditions, tuples and maps are on the page."""

    def test_fields_of_an_array_branch_of_any_of_get_a_section(self):
        page = _page({"title": "T", "type": "object", "properties": {"dirty": {"anyOf": [
            {"type": "array", "items": {"type": "object", "required": ["path", "digest"], "properties": {
                "path": {"type": "string"}, "digest": {"type": "string", "description": "Its digest."}}}},
            {"type": "null"}]}}})
        assert "| `dirty` | array of [object](#f-dirty-items) or null | no |  |" in page
        assert "### `dirty[]` { #f-dirty-items }" in page
        assert "| `digest` | string | yes | Its digest. |" in page

    def test_titled_object_branches_of_one_of_are_listed_and_each_gets_a_section(self):
        page = _page({"title": "Result", "oneOf": [
            {"title": "Answered", "description": "The gate answered.", "type": "object",
             "properties": {"output": {"description": "Its output."}}},
            {"title": "Skipped", "type": "object", "properties": {"skipped": {"const": True}}}]})
        assert "## Value { #fields }\n\n| Type | Details |\n|---|---|\n| object | &nbsp; |" in page
        assert ("One of (exactly one matches):\n\n1. [Answered](#f-one-of-option-1) — The gate answered.\n"
                "2. [Skipped](#f-one-of-option-2)\n") in page
        assert "### One of, option 1: Answered { #f-one-of-option-1 }" in page
        assert "| `output` | any | no | Its output. |" in page
        assert "### One of, option 2: Skipped { #f-one-of-option-2 }" in page
        assert "| `skipped` | boolean | no | Value: `true`. |" in page

    def test_two_object_branches_of_a_field_are_named_any_of(self):
        page = _page({"title": "T", "type": "object", "properties": {"pending": {"anyOf": [
            {"title": "Continuity", "type": "object", "properties": {"trigger": {"type": "string"}}},
            {"title": "Role", "type": "object", "properties": {"role": {"type": "string"}}},
            {"type": "null"}]}}})
        assert ("| `pending` | [object](#f-pending-any-of-option-1) or [object](#f-pending-any-of-option-2) "
                "or null | no | Any of: [Continuity](#f-pending-any-of-option-1); [Role](#f-pending-any-of-option-2); "
                "null. |") in page
        assert "### `pending`, any of, option 1: Continuity { #f-pending-any-of-option-1 }" in page
        assert "| `role` | string | no |  |" in page

    def test_branch_constraints_that_the_type_cannot_show_are_listed(self):
        page = _page({"title": "T", "type": "object", "properties": {"queued": {"anyOf": [
            {"type": "integer", "minimum": 0}, {"type": "array"}, {"type": "null"}]}}})
        assert "| `queued` | integer or array or null | no | Any of: integer — Range: ≥ 0; array; null. |" in page

    def test_all_of_branches_that_are_not_plain_fields_are_listed_as_all_of(self):
        page = _page({"title": "T", "allOf": [
            {"$ref": "#/$defs/base"},
            {"type": "object", "x-requirement": "CKP-006", "properties": {"block": {"type": "object", "properties": {
                "epoch": {"type": "integer"}}}}}],
            "$defs": {"base": {"type": "object", "properties": {"id": {"type": "string"}}}}})
        assert "| Type | Details |\n|---|---|\n| object | &nbsp; |" in page
        assert "All of (every one matches):\n\n1. [`base`](#def-base)\n2. [object](#f-all-of-part-2)\n" in page
        assert "### All of, part 2 { #f-all-of-part-2 }" in page
        assert "| `epoch` | integer | no |  |" in page
        assert "A failure here cites [CKP-006](../spec/checkpoint.md#CKP-006)." in page

    def test_conditions_name_their_requirement_and_hint_and_not_is_worded(self):
        page = _page({"title": "T", "type": "object", "properties": {"status": {"enum": ["A", "B"]}},
                      "allOf": [
                          {"if": {"properties": {"status": {"const": "A"}}, "required": ["status"]},
                           "then": {"required": ["takeover", "owner"], "x-requirement": "ACK-009",
                                    "x-hint": "add the takeover object"},
                           "else": {"not": {"required": ["takeover"]}}}],
                      "not": {"anyOf": [{"required": ["todoList"]}, {"required": ["playbook"]}]}})
        assert ("- If `status` is `\"A\"`, then `takeover` and `owner` are required; otherwise `takeover` is "
                "not allowed. A failure here cites [ACK-009](../spec/ack.md#ACK-009). Hint given: "
                "*add the takeover object*.") in page
        assert "- None of `todoList`, `playbook` is allowed." in page
        assert "Further rules" not in page

    def test_a_condition_on_a_nested_field_reads_as_words(self):
        page = _page({"title": "T", "type": "object", "properties": {
            "state": {"type": "string"}, "pending": {"type": ["object", "null"]}},
            "if": {"properties": {"state": {"const": "active"}}},
            "then": {"properties": {"pending": {"type": "null"}}},
            "else": {"required": ["pending"], "properties": {"pending": {"properties": {"path": {"const": "role"}}}}}})
        assert ("- If `state` is `\"active\"`, then `pending` is null; otherwise `pending` is required; "
                "`pending`.`path` is `\"role\"`.") in page

    def test_an_object_in_a_condition_outcome_gets_a_section(self):
        page = _page({"title": "T", "type": "object", "properties": {"mode": {"type": "string"}},
                      "if": {"properties": {"mode": {"const": "on"}}},
                      "then": {"properties": {"owner": {"type": "object", "required": ["name"], "properties": {
                          "name": {"type": "string"}, "since": {"type": "string", "format": "date-time"}}}}}})
        assert "- If `mode` is `\"on\"`, then `owner` is [an object](#f-owner)." in page
        assert "### `owner` { #f-owner }" in page
        assert "| `since` | string | no | Format: `date-time`. |" in page

    def test_tuples_maps_and_name_patterns_show_the_fields_of_their_objects(self):
        page = _page({"title": "T", "type": "object", "properties": {
            "pair": {"type": "array", "prefixItems": [
                {"type": "string"}, {"type": "object", "properties": {"weight": {"type": "number"}}}], "items": False},
            "labels": {"type": "object", "additionalProperties": {
                "type": "object", "properties": {"colour": {"type": "string"}}}}},
            "patternProperties": {"^x-": {"type": "object", "properties": {"vendor": {"type": "string"}}}}})
        assert "| `pair` | array (string, [object](#f-pair-1)) | no |  |" in page
        assert "### `pair[1]` { #f-pair-1 }" in page and "| `weight` | number | no |  |" in page
        assert "| `labels` | object of [object](#f-labels) | no |  |" in page
        assert "| `colour` | string | no |  |" in page
        assert "Fields whose name matches `^x-`: [object](#f-x)." in page
        assert "### `/^x-/` { #f-x }" in page
        assert "| `vendor` | string | no |  |" in page

    def test_a_ref_branch_to_another_schema_links_to_its_page(self):
        page = _page({"title": "T", "type": "object", "properties": {"digest": {"anyOf": [
            {"$ref": "defs.schema.json#/$defs/digest"}, {"type": "null"}]}}})
        assert ('| `digest` | [`digest`](defs.md#def-digest "defs.schema.json#/$defs/digest") or null | no |  |'
                in page)

    def test_a_ref_to_a_definition_inside_a_branch_links_to_it(self):
        page = _page({"title": "T", "type": "object", "properties": {"event": {"oneOf": [
            {"$ref": "#/$defs/read"}, {"$ref": "#/$defs/write"}]}},
            "$defs": {"read": {"type": "object", "properties": {"op": {"const": "read"}}},
                      "write": {"type": "object", "properties": {"op": {"const": "write"}, "path": {"type": "string"}}}}})
        assert "| `event` | [`read`](#def-read) or [`write`](#def-write) | no |  |" in page
        assert "### `write` { #def-write }" in page and "| `path` | string | no |  |" in page


def _names_on_page(schema) -> set[str]:
    page = _page(schema)
    return {name for name in docs_support.property_names(schema) if f"`{name}`" not in page}


_LEAF = st.sampled_from([{"type": "string"}, {"type": "null"}, {"const": 1}, {"$ref": "#/$defs/shared"}, {}])
_NAMES = st.text(alphabet="abcdefghij_", min_size=1, max_size=6)


def _extend(inner):
    objects = st.dictionaries(_NAMES, inner, min_size=1, max_size=3).map(
        lambda fields: {"type": "object", "properties": fields})
    return st.one_of(
        objects,
        inner.map(lambda item: {"type": "array", "items": item}),
        st.lists(inner, min_size=1, max_size=2).map(lambda items: {"prefixItems": items}),
        inner.map(lambda value: {"type": "object", "additionalProperties": value}),
        inner.map(lambda value: {"patternProperties": {"^x-": value}}),
        st.tuples(st.sampled_from(["oneOf", "anyOf", "allOf"]), st.lists(inner, min_size=1, max_size=3)).map(
            lambda pair: {pair[0]: pair[1]}),
        st.tuples(objects, inner, inner).map(
            lambda parts: {"if": parts[0], "then": parts[1], "else": parts[2]}),
        inner.map(lambda value: {"not": value}),
    )


@settings(max_examples=60, deadline=None)
@given(st.recursive(_LEAF, _extend, max_leaves=12))
def test_every_field_of_any_nesting_is_named_on_the_page(value):
    schema = {"title": "Generated", "type": "object", "properties": {"root": value},
              "$defs": {"shared": {"type": "object", "properties": {"shared_field": {"type": "integer"}}}}}
    assert _names_on_page(schema) == set()


@click.group()
def _tool():
    """A tool.

    \b
    Exit status: 0 fine.
    """


@_tool.command("run")
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="Output format.")
@click.option("--timeout", type=click.FloatRange(min=0.01), default=5.0, help="Seconds per case.")
@click.option("--strict/--lenient", default=False, help="Warnings fail | too.")
@click.option("--tag", multiple=True, help="Only cases with <tag>.")
@click.option("--secret", hidden=True)
def _run(paths, output_format, timeout, strict, tag, secret):
    """Run things."""


@_tool.group("deep")
def _deep():
    """Deeper commands."""


@_deep.command("leaf", hidden=True)
def _hidden_leaf():
    """Never shown."""


class TestCliPage:
    def test_every_visible_command_gets_a_section_with_its_usage(self):
        page = _docs_cli.render_cli_page(_tool, "tool", title="Tool")
        assert "## `tool` { #tool }" in page
        assert "### `tool run` { #tool-run }" in page
        assert "### `tool deep` { #tool-deep }" in page
        assert "Usage: tool run [OPTIONS] PATH..." in page
        assert "leaf" not in page and "Never shown" not in page
        assert "| [`run`](#tool-run) | Run things. |" in page

    def test_options_show_type_default_and_help(self):
        page = _docs_cli.render_cli_page(_tool, "tool")
        assert "| `--format` | one of `text`, `json` | `text` | Output format. |" in page
        assert "| `--timeout` | float (> 0.01) |" not in page
        assert "| `--timeout` | float (≥ 0.01) | `5.0` | Seconds per case. |" in page
        assert "| `--strict` / `--lenient` | flag | `--lenient` | Warnings fail \\| too. |" in page
        assert "| `--tag` | text (repeatable) |  | Only cases with &lt;tag&gt;. |" in page
        assert "--secret" not in page
        assert "| `PATH...` | text (any number) | yes |  |" in page

    def test_help_text_is_dedented_and_kept_as_prose(self):
        page = _docs_cli.render_cli_page(_tool, "tool")
        assert "A tool.\n\nExit status: 0 fine.\n" in page


@pytest.mark.parametrize("text, expected", [
    ("a | b", "a \\| b"),
    ("`a | b` and <tag>", "`a | b` and &lt;tag&gt;"),
    ("two\nlines", "two lines"),
])
def test_table_cells_escape_outside_code_spans(text, expected):
    import _docs_text

    assert _docs_text.cell(text) == expected


def test_hook_modules_open_with_a_docstring():
    for module in sorted((ROOT / "docs" / "hooks").glob("*.py")):
        assert module.read_text(encoding="utf-8").startswith('"""'), module.name



def test_schema_folders_become_nav_sections():
    import passdown_site

    pages = [("ack.schema.json", "a.md"), ("gates/x.schema.json", "gx.md"), ("gates/y.schema.json", "gy.md"),
             ("protocol/v1/run.schema.json", "run.md"), ("fixture.schema.json", "f.md")]
    assert passdown_site._nav_tree(pages) == ["a.md", "f.md", {"Gates": ["gx.md", "gy.md"]}, {"Protocol v1": ["run.md"]}]


class TestPythonApiPage:
    """The Python API reference lists exactly ``passdown.__all__``, ``passdown.errors.__all__`` and
    ``passdown.authoring.__all__``."""

    def _page(self):
        import passdown
        from passdown import authoring, errors

        return _docs_python.render_api_page(passdown, errors, authoring)

    def test_every_public_name_has_a_section_with_its_docstring(self):
        import passdown

        page = self._page()
        headings = [line for line in page.splitlines() if line.startswith("### ")]
        documented = [h.split("`")[1].split("(")[0] for h in headings]
        assert documented[:len(passdown.__all__)] == [f"passdown.{name}" for name in passdown.__all__]
        assert "(no docstring)" not in page
        assert "`passdown.validate_bytes(raw: 'bytes', kind: 'str | None'" in page

    def test_every_public_error_is_listed_with_its_code_and_exit_status(self):
        from passdown import errors

        page = self._page()
        assert set(errors.__all__) == {name for name in vars(errors)
                                       if isinstance(getattr(errors, name), type)
                                       and issubclass(getattr(errors, name), errors.PassdownError)}
        assert "| `ConflictError` | `conflict` | 1 |" in page
        assert "| `DigestError` | `digest.error` | 2 |" in page
        for name in errors.__all__:
            assert f"### `passdown.errors.{name}`" in page

    def test_every_authoring_name_has_a_section(self):
        from passdown import authoring

        page = self._page()
        section = page.split("## `passdown.authoring`", 1)[1]
        headings = [line.split("`")[1].split("(")[0] for line in section.splitlines()
                    if line.startswith("### ")]
        assert headings == [f"passdown.authoring.{name}" for name in authoring.__all__]
        assert "### `passdown.authoring.CHECKPOINT_PATH`\n\nThe constant `'xbrief/continue.xbrief.json'`." in section

    def test_sphinx_roles_are_written_as_code(self):
        page = self._page()
        assert ":func:" not in page and ":class:" not in page and "``" not in page.replace("```", "")

