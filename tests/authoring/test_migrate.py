"""``baton migrate``: a legacy vBRIEF checkpoint becomes an xBRIEF one losing nothing. The
comparison walks every member of the legacy document (values, unknown members, extension
blocks, key order) and names each difference the migration is allowed to make."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from authoring_support import errors_in, run, run_json

from baton.errors import RefusedError, UsageError
from baton.authoring import migrate
from baton.authoring._migrate import convert

LEGACY = Path(__file__).resolve().parents[1] / "data" / "authoring_data" / "vbrief" / "continue.vbrief.json"
IDENTITY = ("--goal-id", "goal-report-export", "--main-id", "sess-a",
            "--outcome", "Monthly reports export as CSV; finance imports them")


@pytest.fixture
def project(tmp_path):
    (tmp_path / "vbrief").mkdir()
    shutil.copy(LEGACY, tmp_path / "vbrief" / "continue.vbrief.json")
    return tmp_path


def walk(value, path=()):
    """Every (path, leaf or container type) of a JSON value, in document order."""
    if isinstance(value, dict):
        yield path, ("object", tuple(value))
        for key, child in value.items():
            yield from walk(child, (*path, key))
    elif isinstance(value, list):
        yield path, ("array", len(value))
        for index, child in enumerate(value):
            yield from walk(child, (*path, index))
    else:
        yield path, (type(value).__name__, value)


def renamed(path):
    return tuple("xBRIEFInfo" if part == "vBRIEFInfo" else part for part in path)


def test_every_legacy_member_survives_and_only_the_named_changes_happen(project):
    legacy_bytes = (project / "vbrief" / "continue.vbrief.json").read_bytes()
    code, out = run_json("migrate", project, *IDENTITY)
    assert code == 0, out
    target = project / "xbrief" / "continue.xbrief.json"
    migrated = json.loads(target.read_text())
    legacy = json.loads(legacy_bytes)
    # the legacy file is untouched
    assert (project / "vbrief" / "continue.vbrief.json").read_bytes() == legacy_bytes

    new = dict(walk(migrated))
    expected_changes = {
        ("xBRIEFInfo", "version"): ("str", "0.8"),
        ("plan", "items", 0, "references", 0, "type"): ("str", "x-xbrief/github-pr"),
        ("plan", "items", 1, "subItems", 0, "references", 0, "type"): ("str", "x-xbrief/commit"),
        ("plan", "references", 0, "type"): ("str", "x-xbrief/external"),
    }
    for path, shape in walk(legacy):
        target_path = renamed(path)
        assert target_path in new, f"lost {path}"
        if target_path in expected_changes:
            assert new[target_path] == expected_changes[target_path], path
        elif shape[0] == "object":
            kept = [renamed((k,))[0] for k in shape[1]]
            # key order kept; the only key added anywhere is the Baton block at the root
            assert [k for k in new[target_path][1] if k != "x-baton/checkpoint"] == kept, path
        else:
            assert new[target_path] == shape, path
    # nothing else changed or appeared, except the Baton block
    legacy_paths = {renamed(p) for p, _ in walk(legacy)}
    added = sorted(str(p) for p in new if p not in legacy_paths
                   and p[:1] != ("x-baton/checkpoint",))
    assert added == []
    assert out["result"]["changes"] == [
        "$.vBRIEFInfo -> $.xBRIEFInfo (version '0.6' -> '0.8')",
        "$.plan.references[0].type -> x-xbrief/external",
        "$.plan.items[0].references[0].type -> x-xbrief/github-pr",
        "$.plan.items[1].subItems[0].references[0].type -> x-xbrief/commit",
        '$["x-baton/checkpoint"] added',
    ]
    # the other tool's reference type and extension members are untouched
    assert migrated["plan"]["references"][1]["type"] == "x-other/adr"
    assert migrated["xBRIEFInfo"]["x-vbrief/origin"] == {
        "tool": "deft", "revision": 12}


def test_the_added_block_points_at_the_first_pending_step_and_validates(project):
    run("migrate", project, *IDENTITY)
    target = project / "xbrief" / "continue.xbrief.json"
    block = json.loads(target.read_text())["x-baton/checkpoint"]
    assert block["revision"] == 1
    assert block["goal_id"] == "goal-report-export"
    assert block["task"] == "Export monthly reports as CSV"  # the legacy plan title
    assert block["next_action"] == {
        "item_id": "writer.escape",
        "summary": "Add a failing test for a comma inside a quoted field, then fix writer.py.",
        "required_inputs": []}
    assert errors_in(target) == []


def test_a_legacy_file_with_a_baton_block_keeps_it(project):
    legacy = json.loads(LEGACY.read_text())
    block = {"baton_version": "1.0", "kind": "checkpoint", "revision": 9, "x-t/keep": 1}
    legacy["x-baton/checkpoint"] = block
    document, changes = convert(legacy)
    assert document["x-baton/checkpoint"] == block
    assert '$["x-baton/checkpoint"] added' not in changes


def test_refuses_to_overwrite_and_changes_nothing(project):
    (project / "xbrief").mkdir()
    existing = project / "xbrief" / "continue.xbrief.json"
    existing.write_text('{"keep": true}')
    code, out = run_json("migrate", project, *IDENTITY)
    assert (code, out["error"]["code"]) == (1, "authoring.exists")
    assert existing.read_text() == '{"keep": true}'


@pytest.mark.parametrize(("content", "code"), [
    ({"schema": "vbrief/1.0", "session_summary": "freestyle"}, "authoring.not_vbrief"),
    ({"vBRIEFInfo": {"version": "0.5"}, "xBRIEFInfo": {"version": "0.8"}, "plan": {}},
     "authoring.not_vbrief"),
    ({"vBRIEFInfo": {"version": "0.5"}, "todoList": {"items": []}}, "authoring.unsupported_root"),
])
def test_documents_that_are_not_legacy_plans_are_refused(project, content, code):
    (project / "vbrief" / "continue.vbrief.json").write_text(json.dumps(content))
    with pytest.raises(RefusedError) as caught:
        migrate(project, identity={"goal_id": "g", "main_id": "m", "outcome": "o"})
    assert caught.value.code == code
    assert not (project / "xbrief").exists()


def test_a_plan_without_pending_steps_is_refused(project):
    legacy = json.loads(LEGACY.read_text())
    legacy["plan"]["items"] = [legacy["plan"]["items"][0]]
    (project / "vbrief" / "continue.vbrief.json").write_text(json.dumps(legacy))
    code, out = run_json("migrate", project, *IDENTITY)
    assert (code, out["error"]["code"]) == (1, "authoring.no_pending")


def test_identity_options_are_needed_without_a_block(project):
    with pytest.raises(UsageError) as caught:
        migrate(project, identity={"goal_id": "g"})
    assert caught.value.code == "authoring.missing_identity"
    assert "--main-id, --outcome" in caught.value.message


def test_missing_legacy_file(tmp_path):
    code, out = run_json("migrate", tmp_path, *IDENTITY)
    assert (code, out["error"]["code"]) == (1, "authoring.no_legacy")


def test_a_broken_legacy_file_gives_its_loading_code(project):
    (project / "vbrief" / "continue.vbrief.json").write_bytes(b'{"plan": 1, "plan": 2}')
    code, out = run_json("migrate", project, *IDENTITY)
    assert (code, out["error"]["code"]) == (2, "load.duplicate_key")
