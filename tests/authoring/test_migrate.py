"""``passdown migrate``: each legacy checkpoint (xBRIEF 0.4 with a ``todoList``, ``plan`` or
``playbook`` root, 0.5, 0.6, 0.7; vBRIEF before the rename) becomes the xBRIEF 0.8 document
written out by hand in ``xbrief_legacy.py``, member by member and in key order, losing
nothing; ids are generated the same way every time; what the profile needs and the file
lacks is a marked placeholder and a warning, never a refusal."""

from __future__ import annotations

import json

import pytest
import shared_reference
from authoring_support import errors_in, run, run_json
from xbrief_legacy import LEGACY

from passdown.errors import RefusedError, UsageError
from passdown.authoring import migrate
from passdown.authoring._migrate import convert, reference_type

IDENTITY = ("--goal-id", "goal-legacy", "--main-id", "sess-a",
            "--outcome", "The legacy work resumes from an xBRIEF 0.8 checkpoint")
BLOCK = "x-passdown/checkpoint"


def _project(tmp_path, name):
    (tmp_path / "vbrief").mkdir()
    legacy = LEGACY[name][1]
    (tmp_path / "vbrief" / "continue.vbrief.json").write_text(json.dumps(legacy), encoding="utf-8")
    return tmp_path


def _migrated(project):
    code, out = run_json("migrate", project, *IDENTITY)
    assert code == 0, out
    target = project / "xbrief" / "continue.xbrief.json"
    return json.loads(target.read_text(encoding="utf-8")), out, target


def _ordered(value):
    """A JSON value with its key order made visible (dicts become lists of pairs)."""
    if isinstance(value, dict):
        return [(key, _ordered(child)) for key, child in value.items()]
    if isinstance(value, list):
        return [_ordered(child) for child in value]
    return (type(value).__name__, value)


@pytest.mark.parametrize("name", sorted(LEGACY))
def test_each_legacy_version_becomes_its_hand_written_0_8_form(tmp_path, name):
    _, legacy, expected, next_item, warned, _ = LEGACY[name]
    project = _project(tmp_path, name)
    legacy_bytes = (project / "vbrief" / "continue.vbrief.json").read_bytes()
    migrated, out, target = _migrated(project)
    block = migrated.pop(BLOCK)
    assert _ordered(migrated) == _ordered(expected)  # every member, value and key order
    assert list(migrated) + [BLOCK] == [k for k in expected] + [BLOCK]
    assert block["next_action"]["item_id"] == next_item
    assert [w["path"] for w in out["result"]["warnings"]] == warned
    assert {w["code"] for w in out["result"]["warnings"]} <= {"authoring.placeholder"}
    assert errors_in(target) == []
    assert (project / "vbrief" / "continue.vbrief.json").read_bytes() == legacy_bytes


@pytest.mark.parametrize("name", sorted(LEGACY))
def test_migration_is_deterministic(tmp_path, name):
    first = convert(LEGACY[name][1], {"next_action": None}).document
    second = convert(LEGACY[name][1], {"next_action": None}).document
    assert json.dumps(first) == json.dumps(second)


def test_the_changes_are_reported_as_paths(tmp_path):
    _, out, _ = _migrated(_project(tmp_path, "0.4-todolist"))
    assert out["result"]["changes"] == [
        "$.xBRIEFInfo.version '0.4' -> '0.8'",
        "$.todoList -> $.plan",
        "$.plan.title added ('Tasks')",
        "$.plan.status added ('running')",
        "$.plan.items[1].status 'inProgress' -> 'running'",
        "$.plan.items[1].id added ('review-pr')",
        "$.plan.items[2].id added ('write-release-notes')",
        "$.plan.items[2].dependencies -> $.plan.edges (1 blocks edge)",
        "$.plan.narratives.Decisions added (placeholder)",
        '$["x-passdown/checkpoint"] added',
        "$.plan.items[2].narrative.ResumePoint added (placeholder)",
    ]
    assert out["message"].endswith("is unchanged, and created " + str(tmp_path / "registry.yaml") + " (restart policy off) (2 warnings)")


def test_the_placeholders_are_marked_and_the_next_action_carries_the_resume_point(tmp_path):
    migrated, out, _ = _migrated(_project(tmp_path, "0.7"))
    item = migrated["plan"]["items"][1]
    assert item["narrative"]["ResumePoint"].startswith("[placeholder written by passdown migrate]")
    assert migrated[BLOCK]["next_action"]["summary"] == item["narrative"]["ResumePoint"]
    assert all("placeholder was written" in w["message"] for w in out["result"]["warnings"])


def test_the_placeholders_are_replaced_by_the_first_real_entry(tmp_path):
    project = _project(tmp_path, "0.7")
    _, _, target = _migrated(project)
    assert run("checkpoint", "decision", "Port the jobs one at a time.",
               "--checkpoint", target).exit_code == 0
    assert run("checkpoint", "set-resume", "Open jobs/nightly.py.",
               "--checkpoint", target).exit_code == 0
    document = json.loads(target.read_text(encoding="utf-8"))
    assert document["plan"]["narratives"]["Decisions"] == "- Port the jobs one at a time."
    assert document["plan"]["items"][1]["narrative"]["ResumePoint"] == "Open jobs/nightly.py."
    assert "[placeholder" not in target.read_text(encoding="utf-8")


def test_the_warnings_go_to_stderr_in_text_mode(tmp_path):
    project = _project(tmp_path, "0.7")
    result = run("migrate", project, *IDENTITY)
    assert result.exit_code == 0
    assert "(2 warnings)" in result.stdout
    assert result.stderr.splitlines() == [
        "warning authoring.placeholder $.plan.narratives.Decisions: the legacy checkpoint has "
        "completed work but no Decisions narrative: a placeholder was written; replace it with "
        "the decisions taken so far (`passdown checkpoint decision`)",
        "warning authoring.placeholder $.plan.items[1].narrative.ResumePoint: the next pending "
        "item has no ResumePoint narrative: a placeholder was written; replace it with the exact "
        "first thing to do (`passdown checkpoint set-resume`)",
    ]


@pytest.mark.parametrize(("legacy", "expected"), [
    ("x-vbrief/github-pr", "x-xbrief/github-pr"),
    ("x-vbrief/commit", "x-xbrief/commit"),
    ("x-xbrief/plan", "x-xbrief/plan"),
    ("x-vbrief/adr", "x-xbrief/adr"),
    ("x-vbrief/context", "x-vbrief/context"),  # not registered in 0.8: the legacy namespace
    ("x-xbrief/context", "x-vbrief/context"),
    ("x-xbrief/research", "x-xbrief/research"),
    ("x-other/adr", "x-other/adr"),  # another consumer's type is theirs
    (7, 7),
])
def test_reference_types_map_to_registered_types_or_stay_in_a_consumer_namespace(legacy, expected):
    assert reference_type(legacy) == expected


def test_items_and_sub_items_that_differ_are_both_kept_with_a_warning():
    legacy = json.loads(json.dumps(LEGACY["0.5"][1]))
    writer = legacy["plan"]["items"][1]
    writer["items"] = [{"id": "writer.other", "title": "Other", "status": "pending"}]
    migration = convert(legacy, {"next_action": None})
    kept = migration.document["plan"]["items"][1]
    assert [child["id"] for child in kept["items"]] == ["writer.other"]
    assert kept["subItems"] == writer["subItems"]
    assert [w["code"] for w in migration.warnings][0] == "authoring.legacy_kept"


def test_equal_items_and_sub_items_keep_only_items():
    legacy = json.loads(json.dumps(LEGACY["0.5"][1]))
    writer = legacy["plan"]["items"][1]
    writer["items"] = writer["subItems"]
    migration = convert(legacy, {"next_action": None})
    assert "subItems" not in migration.document["plan"]["items"][1]
    assert "$.plan.items[1].subItems removed (the same as $.plan.items[1].items)" in migration.changes


def test_a_legacy_file_with_a_passdown_block_keeps_it():
    legacy = json.loads(json.dumps(LEGACY["0.5"][1]))
    block = {"passdown_version": "1.0", "kind": "checkpoint", "revision": 9, "x-t/keep": 1,
             "next_action": {"item_id": "writer.escape"}}
    legacy[BLOCK] = block
    migration = convert(legacy)
    assert migration.document[BLOCK] == block
    assert '$["x-passdown/checkpoint"] added' not in migration.changes


def test_refuses_to_overwrite_and_changes_nothing(tmp_path):
    project = _project(tmp_path, "0.6")
    (project / "xbrief").mkdir()
    existing = project / "xbrief" / "continue.xbrief.json"
    existing.write_text('{"keep": true}')
    code, out = run_json("migrate", project, *IDENTITY)
    assert (code, out["error"]["code"]) == (1, "authoring.exists")
    assert existing.read_text() == '{"keep": true}'


@pytest.mark.parametrize(("content", "code", "words"), [
    ({"schema": "vbrief/1.0", "session_summary": "freestyle"}, "authoring.not_vbrief",
     "not a legacy checkpoint"),
    ({"vBRIEFInfo": {"version": "0.5"}, "xBRIEFInfo": {"version": "0.8"}, "plan": {}},
     "authoring.not_vbrief", "both"),
    ({"xBRIEFInfo": {"version": "0.8"}, "plan": {}}, "authoring.not_vbrief", "already xBRIEF 0.8"),
    ({"vBRIEFInfo": {"version": "0.9"}, "plan": {}}, "authoring.not_vbrief", "0.9"),
    ({"vBRIEFInfo": {"version": "0.4"}, "todoList": {"items": []}, "plan": {"items": []}},
     "authoring.unsupported_root", "`plan`, `todoList`"),
    ({"vBRIEFInfo": {"version": "0.5"}}, "authoring.unsupported_root", "has none"),
])
def test_documents_that_are_not_legacy_checkpoints_are_refused(tmp_path, content, code, words):
    (tmp_path / "vbrief").mkdir()
    (tmp_path / "vbrief" / "continue.vbrief.json").write_text(json.dumps(content))
    with pytest.raises(RefusedError) as caught:
        migrate(tmp_path, identity={"goal_id": "g", "main_id": "m", "outcome": "o"})
    assert caught.value.code == code
    assert words in caught.value.message
    assert not (tmp_path / "xbrief").exists()


def test_a_plan_without_pending_steps_is_refused(tmp_path):
    project = _project(tmp_path, "0.5")
    legacy = json.loads((project / "vbrief" / "continue.vbrief.json").read_text())
    legacy["plan"]["items"] = [legacy["plan"]["items"][0]]
    (project / "vbrief" / "continue.vbrief.json").write_text(json.dumps(legacy))
    code, out = run_json("migrate", project, *IDENTITY)
    assert (code, out["error"]["code"]) == (1, "authoring.migration_problems")
    problems = [(p["path"], p["code"]) for p in out["error"]["problems"]]
    assert ("$.plan.items", "checkpoint.no_pending_items") in problems


def test_identity_options_are_needed_without_a_block(tmp_path):
    project = _project(tmp_path, "0.6")
    with pytest.raises(UsageError) as caught:
        migrate(project, identity={"goal_id": "g"})
    assert caught.value.code == "authoring.missing_identity"
    assert "--main-id, --outcome" in caught.value.message


def test_missing_legacy_file(tmp_path):
    code, out = run_json("migrate", tmp_path, *IDENTITY)
    assert (code, out["error"]["code"]) == (1, "authoring.no_legacy")


def test_a_broken_legacy_file_gives_its_loading_code(tmp_path):
    project = _project(tmp_path, "0.6")
    (project / "vbrief" / "continue.vbrief.json").write_bytes(b'{"plan": 1, "plan": 2}')
    code, out = run_json("migrate", project, *IDENTITY)
    assert (code, out["error"]["code"]) == (2, "load.duplicate_key")


def test_a_result_that_would_not_validate_is_refused_with_its_codes(tmp_path):
    project = _project(tmp_path, "0.6")
    legacy = json.loads((project / "vbrief" / "continue.vbrief.json").read_text())
    legacy["plan"]["items"][0]["status"] = "done"  # no 0.8 status and no mapping for it
    (project / "vbrief" / "continue.vbrief.json").write_text(json.dumps(legacy))
    code, out = run_json("migrate", project, *IDENTITY)
    assert (code, out["error"]["code"]) == (1, "authoring.migration_problems")
    assert "schema.enum" in out["error"]["message"]
    assert [(p["path"], p["code"], p["fixable"]) for p in out["error"]["problems"]] == [
        ("$.plan.items[0].status", "schema.enum", False)]
    assert not (project / "xbrief").exists()


# -- every problem at once, and --fix ---------------------------------------------------------

def _wild(tmp_path):
    """A legacy checkpoint as they are in the wild: a version with a patch number, item
    narratives as strings (nested under subItems too), a reference type without a namespace."""
    document = {
        "vBRIEFInfo": {"version": "0.5.0"},
        "plan": {"title": "Port", "status": "running",
                 "narratives": {"Decisions": "- Keep the API", "Hazards": "- None known"},
                 "items": [
                     {"id": "a", "title": "Done", "status": "completed", "narrative": "Did it"},
                     {"id": "b", "title": "Next", "status": "pending", "narrative": "Start here",
                      "subItems": [{"id": "b1", "title": "Child", "status": "pending",
                                    "narrative": "A child"}]}],
                 "references": [{"type": "github-issue", "uri": "https://github.com/o/r/issues/1"}]}}
    path = tmp_path / "vbrief" / "continue.vbrief.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(document, indent=2))
    return path


def test_one_run_lists_every_problem_at_the_source_paths_and_writes_nothing(tmp_path):
    _wild(tmp_path)
    code, out = run_json("migrate", tmp_path, *IDENTITY)
    assert (code, out["error"]["code"]) == (1, "authoring.migration_problems")
    assert [(p["path"], p["code"], p["fixable"]) for p in out["error"]["problems"]] == [
        ("$.vBRIEFInfo.version", "authoring.version_form", True),
        ("$.plan.references[0].type", "authoring.reference_type", True),
        ("$.plan.items[0].narrative", "authoring.string_narrative", True),
        ("$.plan.items[1].narrative", "authoring.string_narrative", True),
        ("$.plan.items[1].subItems[0].narrative", "authoring.string_narrative", True)]
    assert out["error"]["message"].startswith(
        f"{tmp_path / 'vbrief' / 'continue.vbrief.json'}: 5 problems, so nothing was written:")
    assert out["error"]["hint"] == ("`passdown migrate --fix` makes the 5 marked [--fix] (a diff "
                                    "shows each)")
    assert not (tmp_path / "xbrief").exists()


def test_validate_names_the_same_forms(tmp_path):
    import passdown

    report = passdown.validate_paths([str(_wild(tmp_path))])
    assert sorted(f.json_path for f in report.findings if f.code == "checkpoint.legacy_fix") == [
        "$.plan.items[0].narrative", "$.plan.items[1].narrative",
        "$.plan.items[1].subItems[0].narrative", "$.plan.references[0].type",
        "$.vBRIEFInfo.version"]


def test_fix_migrates_with_a_diff_and_upstream_accepts_the_result(tmp_path):
    from jsonschema import Draft202012Validator
    from xbrief_fixtures import CORE, upstream_schema

    source = _wild(tmp_path)
    before = source.read_bytes()
    code, out = run_json("migrate", tmp_path, *IDENTITY, "--fix")
    assert code == 0, out
    assert out["result"]["diff"].startswith(f"--- {source}\n+++ {tmp_path / 'xbrief' / 'continue.xbrief.json'}\n")
    assert '+          "Overview": "Did it"' in out["result"]["diff"].splitlines()
    migrated = json.loads((tmp_path / "xbrief" / "continue.xbrief.json").read_text())
    assert migrated["plan"]["items"][1]["items"][0]["narrative"] == {"Overview": "A child"}
    assert migrated["plan"]["references"][0]["type"] == "x-xbrief/github-issue"
    assert source.read_bytes() == before and errors_in(tmp_path / "xbrief") == []
    folder = shared_reference.require("xbrief-upstream", CORE)
    upstream = Draft202012Validator(upstream_schema(folder))
    assert [error.message for error in upstream.iter_errors(migrated)] == []


def test_a_real_deft_scope_gets_every_problem_in_one_run(tmp_path):
    from pathlib import Path

    real = Path(__file__).resolve().parents[1] / "data" / "real" / "deft-bdd-context-0.6.vbrief.json"
    (tmp_path / "vbrief").mkdir()
    (tmp_path / "vbrief" / "continue.vbrief.json").write_bytes(real.read_bytes())
    code, out = run_json("migrate", tmp_path, *IDENTITY)
    assert (code, out["error"]["code"]) == (1, "authoring.migration_problems")
    assert [(p["path"], p["code"], p["fixable"]) for p in out["error"]["problems"]] == [
        ("$.plan.references[0].type", "authoring.reference_type", True),
        ("$.plan.references[0]", "authoring.reference_without_uri", True),
        ("$.plan.items", "checkpoint.no_pending_items", False)]


def _problems(project, *options):
    """``(path, code, fixable)`` of each problem of a refused ``migrate`` run."""
    code, out = run_json("migrate", project, *IDENTITY, *options)
    assert (code, out["error"]["code"]) == (1, "authoring.migration_problems")
    return [(p["path"], p["code"], p["fixable"]) for p in out["error"]["problems"]]


def _real(tmp_path, name):
    from pathlib import Path

    real = Path(__file__).resolve().parents[1] / "data" / "real" / name
    (tmp_path / "vbrief").mkdir()
    (tmp_path / "vbrief" / "continue.vbrief.json").write_bytes(real.read_bytes())
    return tmp_path / "vbrief" / "continue.vbrief.json"


def test_real_references_with_a_url_and_no_uri_are_listed_in_one_run_and_fixed(tmp_path):
    source = _real(tmp_path, "deft-scope-404-0.6.vbrief.json")
    assert _problems(tmp_path) == [
        ("$.plan.references[0].type", "authoring.reference_type", True),
        ("$.plan.references[1].type", "authoring.reference_type", True),
        ("$.plan.references[0]", "authoring.reference_without_uri", True),
        ("$.plan.references[1]", "authoring.reference_without_uri", True),
        ("$.plan.items", "checkpoint.no_pending_items", False)]
    # a finished scope is no continue checkpoint: --fix makes the four, and the one left is
    # the person's to decide
    assert _problems(tmp_path, "--fix") == [("$.plan.items", "checkpoint.no_pending_items", False)]
    from passdown.authoring._migrate import convert as converted

    document = converted(json.loads(source.read_text()), {}, fix=True).document
    assert document["plan"]["references"][0] == {
        "type": "x-xbrief/github-issue", "uri": "https://github.com/deftai/directive/issues/404",
        "id": "#404"}


def test_a_real_file_fixed_by_migrate_is_accepted_by_upstreams_schema_and_rules(tmp_path):
    from jsonschema import Draft202012Validator
    from xbrief_fixtures import CORE, upstream_schema

    source = _real(tmp_path, "deft-spec-stale-0.5.vbrief.json")
    assert _problems(tmp_path) == [
        ("$.plan.items[0].references[0].type", "authoring.reference_type", True),
        ("$.plan.items[0].references[0]", "authoring.reference_without_uri", True)]
    code, out = run_json("migrate", tmp_path, *IDENTITY, "--fix")
    assert code == 0, out
    target = tmp_path / "xbrief" / "continue.xbrief.json"
    migrated = json.loads(target.read_text())
    item = migrated["plan"]["items"][0]
    assert (item["references"], item["x-vbrief/references"]) == (
        [], [{"type": "x-xbrief/github-issue", "id": "#50"}])
    assert json.loads(source.read_text())["plan"]["items"][0]["references"] == [
        {"type": "github-issue", "id": "#50"}]
    folder = shared_reference.require("xbrief-upstream", CORE)
    upstream = Draft202012Validator(upstream_schema(folder))
    assert [error.message for error in upstream.iter_errors(migrated)] == []
    result = run("validate", "--kind", "xbrief", str(target))
    assert (result.exit_code, result.output) == (0, "1 file checked: no findings\n")
