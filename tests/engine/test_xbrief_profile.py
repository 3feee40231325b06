"""The continue checkpoint against the real xBRIEF 0.8 (spec/checkpoint.md, CKP-004): the
upstream core schema, read from ``../shared/reference/xbrief-upstream/`` beside the
repository, is the oracle.

- Whenever the upstream schema refuses a document, ``passdown validate`` refuses it too: every
  member of the valid examples is changed one at a time (another JSON type, out of range,
  empty, another shape, removed), exhaustively and with hypothesis. (A change that makes
  the document a legacy one, an ``xBRIEFInfo`` version from 0.4 to 0.7, is read with the
  legacy warning instead, as CKP-003 requires.)
- Passdown never calls a document invalid xBRIEF (CKP-004) that upstream accepts; anything
  else it refuses carries the id of the profile rule that says why.
- The validate-gate fixtures hold one refused case per upstream constraint and one accepted
  case per member, built by ``tests/support/xbrief_fixtures.py`` and up to date.
- The Appendix C fixtures are the 0.8 spec's examples plus only what the profile requires.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
import shared_reference
import xbrief_fixtures as xf
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator, FormatChecker

import passdown
from passdown.formats._detect import legacy_version

ROOT = Path(__file__).resolve().parents[2]
UPSTREAM = xf.upstream_dir()


@pytest.fixture(autouse=True)
def _needs_the_upstream_material():
    """Skips without ../shared/reference/xbrief-upstream/, and fails in CI without it."""
    shared_reference.require("xbrief-upstream", xf.CORE)
CASES = ROOT / "conformance" / "cases" / "validate"


def _upstream():
    schema = xf.upstream_schema(UPSTREAM)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, format_checker=FormatChecker())


UPSTREAM_VALIDATOR = _upstream() if UPSTREAM is not None else None


def _cases(name):
    return json.loads((CASES / name).read_text(encoding="utf-8"))["cases"]


def _findings(document):
    """``passdown validate`` on the document as a continue checkpoint: its findings."""
    raw = json.dumps(document).encode("utf-8")
    return passdown.validate_bytes(raw, "checkpoint", "continue.xbrief.json").findings


def _passdown(document):
    """The error findings of ``passdown validate``."""
    return [f for f in _findings(document) if f.is_error]


# -- the fixtures ------------------------------------------------------------------------------

def test_the_upstream_schema_is_a_valid_draft_2020_12_schema():
    Draft202012Validator.check_schema(xf.upstream_schema(UPSTREAM))


def test_the_fixture_files_are_what_the_builder_writes():
    for name, document in xf.documents(UPSTREAM).items():
        assert (CASES / name).read_text(encoding="utf-8") == xf.render(document), name


def test_every_upstream_constraint_has_a_refused_case_that_upstream_refuses():
    cases = {case["id"]: case for case in _cases("checkpoint_xbrief.json")}
    found = xf.constraints(xf.upstream_schema(UPSTREAM))
    assert len(found) > 200  # the walk reached every definition
    for constraint in found:
        case = cases[xf.constraint_id(constraint)]
        document = case["input"]["document"]
        keywords = xf.schema_keywords(UPSTREAM_VALIDATOR, document)
        assert keywords, constraint
        expected = case["expected"]["output"]
        assert expected["valid"] is False
        schema_codes = {code for code in expected["errors"] if code.startswith("schema.")}
        assert schema_codes == {f"schema.{xf._slug(k)}" for k in keywords}, constraint


def test_every_constrained_member_has_an_accepted_case_upstream_accepts():
    accepted = [case for case in _cases("checkpoint_xbrief.json") if case["expected"]["output"]["valid"]]
    documents = [case["input"]["document"] for case in accepted]
    for document in documents:
        assert UPSTREAM_VALIDATOR.is_valid(document)
    for constraint in xf.constraints(xf.upstream_schema(UPSTREAM)):
        if constraint.keyword in ("required", "not") or not constraint.site:
            continue  # every accepted document has the required members and no legacy root
        path = xf.document_path(constraint.site)
        if path[-1] == "Extra" or constraint.site[-2:-1] == ("narratives",):
            path = path[:-1]  # a narrative of any name: the narratives object holds strings
        assert any(xf._has(document, path) for document in documents), constraint


def test_the_appendix_c_cases_are_the_spec_examples_plus_what_the_profile_requires():
    examples = xf.appendix_c((UPSTREAM / xf.SPEC).read_text(encoding="utf-8"))
    assert sorted(examples) == ["C.1", "C.2", "C.3", "C.4"]
    for case in _cases("checkpoint_appendix_c.json"):
        name = "C." + case["id"].split(".c_")[1][0]
        document = copy.deepcopy(case["input"]["document"])
        del document["x-passdown/checkpoint"]
        plan = document["plan"]
        narratives = plan.get("narratives", {})
        if narratives.pop("Decisions", None) is not None and not narratives:
            del plan["narratives"]
        if case["id"].endswith("with_a_pending_step"):
            assert plan["items"].pop()["status"] == "pending"
            plan["status"] = examples[name]["plan"]["status"]
        for item in _all_items(plan["items"]):
            narrative = item.get("narrative", {})
            if narrative.pop("ResumePoint", None) is not None and not narrative:
                del item["narrative"]
        if name == "C.1":
            assert plan["items"][0].pop("id") == "fix-authentication-bug"
        assert document == examples[name], case["id"]


def _all_items(items):
    for item in items:
        yield item
        yield from _all_items(item.get("items", []))


def test_the_appendix_c_examples_pass_as_checkpoints():
    for case in _cases("checkpoint_appendix_c.json"):
        document = case["input"]["document"]
        assert UPSTREAM_VALIDATOR.is_valid(document), case["id"]
        codes = sorted({f.code for f in _passdown(document)})
        assert codes == case["expected"]["output"]["errors"], case["id"]


# -- the property: upstream refuses => Passdown refuses -------------------------------------------

def _valid_examples() -> dict[str, dict]:
    examples = {"example handoff": json.loads(
        (ROOT / "examples" / "handoff" / "xbrief" / "continue.xbrief.json").read_text(encoding="utf-8"))}
    examples["every member"] = xf.every_member_document()
    for case in _cases("checkpoint_appendix_c.json"):
        if case["expected"]["output"]["valid"]:
            examples[case["id"]] = case["input"]["document"]
    return examples


EXAMPLES = _valid_examples()


def _paths(value, path=()):
    """Every member and array entry of the xBRIEF part (not inside extension blocks)."""
    if isinstance(value, dict):
        for key, child in value.items():
            if key.startswith("x-") and "/" in key:
                continue
            yield path + (key,)
            yield from _paths(child, path + (key,))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield path + (index,)
            yield from _paths(child, path + (index,))


REMOVE = object()


#: A value of another JSON type than the member's, besides null.
_OTHER_TYPE = {str: 7, int: "7", float: "7", bool: "true", list: "text", dict: "text"}


def _mutations(value):
    """The one-member changes of ``value``: null and a value of another JSON type, one below
    and one above (the examples hold bounded numbers at their bounds), empty, another shape
    (the value inside an array, or an array's first entry instead of the array), a pattern
    broken, and the member removed."""
    found = [] if value is None else [None, _OTHER_TYPE[type(value)]]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        found += [value - 1, value + 1]
    if isinstance(value, (str, list, dict)):
        found.append(type(value)())
    found.append(value[0] if isinstance(value, list) and value else [value])
    if isinstance(value, str):
        found.append("http://" + value)
    return found + [REMOVE]


def _mutate(document, path, replacement):
    changed = copy.deepcopy(document)
    parent = changed
    for step in path[:-1]:
        parent = parent[step]
    if replacement is REMOVE:
        del parent[path[-1]]
    else:
        parent[path[-1]] = replacement
    return changed


def _check(document, tally):
    """The property on one document; ``tally`` counts the outcomes."""
    refused_upstream = not UPSTREAM_VALIDATOR.is_valid(document)
    findings = _findings(document)
    errors = [f for f in findings if f.is_error]
    if legacy_version(document) is not None:  # a version before 0.8: read with a warning
        tally["legacy"] = tally.get("legacy", 0) + 1
        assert "checkpoint.legacy_vbrief" in {f.code for f in findings}
        return
    if refused_upstream:
        tally["refused by upstream"] += 1
        assert errors, "upstream refuses this document, Passdown does not"
        return
    tally["accepted by upstream"] += 1
    stricter = [f for f in errors if f.requirement == "CKP-004" or f.requirement is None]
    assert stricter == [], "Passdown calls this invalid xBRIEF, upstream does not"


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_the_valid_examples_are_valid_for_upstream_and_for_passdown(name):
    assert UPSTREAM_VALIDATOR.is_valid(EXAMPLES[name])
    assert _passdown(EXAMPLES[name]) == []


TALLY: dict[str, dict[str, int]] = {}


def test_every_one_member_change_upstream_refuses_passdown_refuses():
    name = "every member"
    document = EXAMPLES[name]
    tally = TALLY.setdefault(name, {"refused by upstream": 0, "accepted by upstream": 0})
    for path in _paths(document):
        value = document
        for step in path:
            value = value[step]
        for replacement in _mutations(value):
            changed = _mutate(document, path, replacement)
            try:
                _check(changed, tally)
            except AssertionError as error:
                raise AssertionError(f"{name} {path} -> {replacement!r}: {error}") from None
    # the sweep must exercise both sides of the property
    assert tally["refused by upstream"] > 700 and tally["accepted by upstream"] > 150, tally


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 200) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3),
    max_leaves=6)
PATHS = [(name, path) for name in sorted(EXAMPLES) for path in _paths(EXAMPLES[name])]


@settings(max_examples=300, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PATHS), JSON_VALUES | st.just(REMOVE))
def test_any_one_member_changed_to_any_json_value(where, replacement):
    name, path = where
    tally = TALLY.setdefault("hypothesis", {"refused by upstream": 0, "accepted by upstream": 0})
    _check(_mutate(EXAMPLES[name], path, replacement), tally)
