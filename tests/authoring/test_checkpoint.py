"""``passdown checkpoint`` and ``passdown consume``: every subcommand's effect, its refusal codes,
and that repeating it changes nothing. The result validates after every step."""

from __future__ import annotations

import json
import shutil

import pytest
from authoring_support import REPO, checkpoint_of, errors_in, make_project, run, run_json

from passdown.errors import RefusedError, UsageError
from passdown.authoring import update_checkpoint

BLOCK = "x-passdown/checkpoint"


@pytest.fixture
def project(tmp_path):
    return make_project(tmp_path)


@pytest.fixture
def path(project):
    return checkpoint_of(project)


def doc(path):
    return json.loads(path.read_text())


def items(path):
    return [(i["id"], i["status"]) for i in doc(path)["plan"]["items"]]


def cli(path, *args):
    code, out = run_json("checkpoint", *args, "--checkpoint", path)
    return code, out


def test_init_checkpoint_has_one_pending_step_that_is_the_next_action(path):
    document = doc(path)
    assert document["plan"]["narratives"] == {"Decisions": "- No decisions recorded yet.",
                                              "Hazards": "- No hazards recorded yet."}
    assert items(path) == [("extract-the-parser-into-ledger-parsing-csv-py", "pending")]
    item = document["plan"]["items"][0]
    assert document[BLOCK]["next_action"] == {
        "item_id": item["id"], "summary": item["title"], "required_inputs": []}
    assert item["narrative"] == {"ResumePoint": item["title"]}
    assert errors_in(path) == []


def test_add_completed_completes_the_matching_pending_step_in_place(path):
    code, out = cli(path, "add-pending", "Migrate callers")
    assert (code, out["changed"], out["revision"]) == (0, True, 2)
    code, out = cli(path, "add-completed", "Extract the parser into ledger/parsing/csv.py",
                    "--evidence", "commit 3f9c2d1e", "--evidence", "pytest: 41 passed",
                    "--summary", "parser extracted with 41 tests")
    assert code == 0 and out["result"] == {"item_id": "extract-the-parser-into-ledger-parsing-csv-py"}
    document = doc(path)
    first = document["plan"]["items"][0]
    assert first["status"] == "completed" and "completed" in first and "narrative" not in first
    assert document[BLOCK]["completed_work"] == [{
        "item_id": first["id"], "summary": "parser extracted with 41 tests",
        "evidence_refs": ["commit 3f9c2d1e", "pytest: 41 passed"]}]
    # the next action moved on to the next pending step, which carries the resume point
    assert document[BLOCK]["next_action"]["item_id"] == "migrate-callers"
    assert document["plan"]["items"][1]["narrative"] == {"ResumePoint": "Migrate callers"}
    assert errors_in(path) == []


def test_add_completed_is_idempotent_and_merges_new_evidence(path):
    args = ("add-completed", "Write docs", "--evidence", "docs/x.md")
    assert cli(path, *args)[1]["changed"] is True
    code, out = cli(path, *args)
    assert (code, out["changed"], out["message"]) == (
        0, False, "'write-docs' is already completed with this evidence")
    cli(path, *args, "--evidence", "review #12")
    work = doc(path)[BLOCK]["completed_work"]
    assert work == [{"item_id": "write-docs", "summary": "Write docs",
                     "evidence_refs": ["docs/x.md", "review #12"]}]
    # a new completed item goes after the completed ones, before the pending step
    assert [s for _, s in items(path)] == ["completed", "pending"]


def test_add_completed_needs_evidence(path):
    with pytest.raises(UsageError) as caught:
        update_checkpoint(path, "add-completed", "x", evidence=())
    assert caught.value.code == "authoring.no_evidence"
    result = run("checkpoint", "add-completed", "x", "--checkpoint", path)
    assert result.exit_code == 2  # click: --evidence is required


def test_add_pending_is_idempotent_by_title_and_by_id(path):
    assert cli(path, "add-pending", "Run the suite")[1]["changed"]
    assert not cli(path, "add-pending", "Run the suite")[1]["changed"]
    assert cli(path, "add-pending", "Other title", "--id", "run-the-suite")[1]["changed"] is False
    assert cli(path, "add-pending", "Run the suite", "--id", "suite-2")[1]["changed"] is True
    assert items(path)[-2:] == [("run-the-suite", "pending"), ("suite-2", "pending")]


def test_add_pending_before_and_under_a_parent(path):
    cli(path, "add-pending", "Group", "--id", "group")
    cli(path, "add-pending", "Child one", "--parent", "group")
    cli(path, "add-pending", "Child zero", "--before", "group.child-one", "--id", "group.zero")
    group = doc(path)["plan"]["items"][1]
    assert [c["id"] for c in group["items"]] == ["group.zero", "group.child-one"]
    code, out = cli(path, "add-pending", "x", "--before", "nope")
    assert (code, out["error"]["code"]) == (1, "authoring.unknown_item")
    code, out = cli(path, "add-pending", "x", "--id", "bad id!")
    assert (code, out["error"]["code"]) == (2, "authoring.bad_value")


def test_reorder_moves_pending_siblings_and_the_next_action_follows(path):
    for title in ("B", "C", "D"):
        cli(path, "add-pending", title)
    first = items(path)[0][0]
    code, out = cli(path, "reorder", "d", "c")
    assert code == 0 and out["result"]["order"] == ["d", "c", first, "b"]
    assert [i for i, _ in items(path)] == ["d", "c", first, "b"]
    document = doc(path)
    assert document[BLOCK]["next_action"]["item_id"] == "d"
    assert document["plan"]["items"][0]["narrative"] == {"ResumePoint": "D"}
    assert not cli(path, "reorder", "d", "c")[1]["changed"]
    assert errors_in(path) == []


def test_reorder_refusals(path):
    cli(path, "add-completed", "Done", "--evidence", "e")
    cli(path, "add-pending", "G", "--id", "g")
    cli(path, "add-pending", "Child", "--parent", "g")
    for args, status, code in [
        (("reorder", "done"), 1, "authoring.not_pending"),
        (("reorder", "ghost"), 1, "authoring.unknown_item"),
        (("reorder", "g", "g.child"), 1, "authoring.not_siblings"),
        (("reorder", "g", "g"), 2, "authoring.bad_value"),
    ]:
        result = cli(path, *args)
        assert (result[0], result[1]["error"]["code"]) == (status, code), args


def test_set_resume_sets_narrative_and_next_action_with_inputs(path):
    cli(path, "add-pending", "Second")
    code, out = cli(path, "set-resume", "Open csv.py and run pytest -q", "--input", "csv.py")
    assert code == 0
    document = doc(path)
    item = document["plan"]["items"][0]
    assert item["narrative"]["ResumePoint"] == "Open csv.py and run pytest -q"
    assert document[BLOCK]["next_action"] == {"item_id": item["id"],
                                              "summary": "Open csv.py and run pytest -q",
                                              "required_inputs": ["csv.py"]}
    assert not cli(path, "set-resume", "Open csv.py and run pytest -q")[1]["changed"]
    # --item moves that step first
    cli(path, "set-resume", "Start with the second", "--item", "second")
    assert items(path)[0][0] == "second"
    assert doc(path)[BLOCK]["next_action"]["item_id"] == "second"
    assert "ResumePoint" in doc(path)["plan"]["items"][1]["narrative"]  # earlier text kept


def test_set_resume_refusals(path):
    cli(path, "add-completed", "Done", "--evidence", "e", "--id", "done")
    assert cli(path, "set-resume", "x", "--item", "done")[1]["error"]["code"] == \
        "authoring.not_pending"
    cli(path, "add-pending", "G", "--id", "g")
    cli(path, "add-pending", "Child", "--parent", "g")
    assert cli(path, "set-resume", "x", "--item", "g.child")[1]["error"]["code"] == \
        "authoring.not_next"
    document = doc(path)  # a hand-written file whose steps are all done
    for item in document["plan"]["items"]:
        item["status"] = "completed"
    document["plan"]["items"][-1]["items"][0]["status"] = "completed"
    path.write_text(json.dumps(document))
    code, out = cli(path, "set-resume", "x")
    assert (code, out["error"]["code"]) == (1, "authoring.no_pending")


def test_completing_the_last_pending_step_is_refused_naming_the_commands_to_run(path):
    first = items(path)[0][0]
    before = path.read_bytes()
    code, out = cli(path, "add-completed", "x", "--id", first, "--evidence", "e")
    assert (code, out["error"]["code"]) == (1, "authoring.no_pending")
    assert out["error"]["message"] == (f"completing {first!r} would leave no pending step, and "
                                       "a checkpoint names what remains (CKP-010)")
    assert "`passdown checkpoint add-pending \"TITLE\"`" in out["error"]["hint"]
    assert "`passdown consume`" in out["error"]["hint"]
    assert path.read_bytes() == before
    # the way the hint names works: the next step first, then the last one completes
    assert cli(path, "add-pending", "Ship it")[0] == 0
    code, out = cli(path, "add-completed", "x", "--id", first, "--evidence", "e")
    assert (code, out["changed"]) == (0, True)
    assert errors_in(path) == []


def test_a_broken_file_can_be_repaired_one_change_at_a_time(path):
    document = doc(path)  # two independent errors: no Decisions, no ResumePoint
    document["plan"]["items"].insert(0, {"id": "survey", "title": "Survey the parser",
                                         "status": "completed"})  # Decisions are due once a step is done
    del document["plan"]["narratives"]
    del document["plan"]["items"][1]["narrative"]
    path.write_text(json.dumps(document))
    assert errors_in(path) == ["checkpoint.decisions_missing", "checkpoint.resume_point_missing"]
    assert cli(path, "decision", "Keep the shim")[0] == 0  # fixes one, leaves the other
    assert errors_in(path) == ["checkpoint.resume_point_missing"]
    assert cli(path, "set-resume", "Start with csv.py")[0] == 0
    assert errors_in(path) == []
    # but a change that adds a new error is still refused
    code, out = cli(path, "set", "role", "ma\tin")
    assert (code, out["error"]["code"]) == (1, "authoring.invalid_result")


def test_decisions_and_hazards_are_appended_once(path):
    cli(path, "decision", "Use JCS")
    cli(path, "decision", "Dates  use\nfromisoformat")
    assert not cli(path, "decision", "Use JCS")[1]["changed"]
    cli(path, "hazard", "Never run make golden")
    narratives = doc(path)["plan"]["narratives"]  # the first line replaced each placeholder
    assert narratives == {"Decisions": "- Use JCS\n- Dates use fromisoformat",
                          "Hazards": "- Never run make golden"}
    assert cli(path, "decision", "   ")[1]["error"]["code"] == "authoring.bad_value"


def test_blockers_are_recorded_once_and_resolved(path):
    first = items(path)[0][0]
    cli(path, "blocker", "Waiting for review", "--item", first)
    assert not cli(path, "blocker", "Waiting for review", "--item", first)[1]["changed"]
    blockers = doc(path)[BLOCK]["blockers"]
    assert [(b["item_id"], b["summary"]) for b in blockers] == [(first, "Waiting for review")]
    assert cli(path, "blocker", "x", "--item", "ghost")[1]["error"]["code"] == \
        "authoring.unknown_item"
    before = path.read_bytes()
    code, out = cli(path, "blocker", "Waiting for reveiw", "--resolve")  # a typo
    assert (code, out["error"]["code"]) == (1, "authoring.unknown_blocker")
    assert out["error"]["message"] == "no open blocker reads 'Waiting for reveiw'"
    assert out["error"]["hint"] == ("give the blocker's summary exactly as recorded (the open "
                                    "blockers: 'Waiting for review')")
    assert path.read_bytes() == before
    # resolving needs no --item: the summary names the blocker
    code, out = cli(path, "blocker", "Waiting for review", "--resolve")
    assert (code, out["changed"], out["message"]) == (0, True, "blocker resolved")
    assert doc(path)[BLOCK]["blockers"] == []
    code, out = cli(path, "blocker", "Waiting for review", "--item", first, "--resolve")
    assert (code, out["error"]["code"]) == (1, "authoring.unknown_blocker")
    assert out["error"]["hint"].endswith("(there is no open blocker)")


def test_failed_attempts_are_recorded_once(path):
    cli(path, "failed-attempt", "Kept the regex", "--reason", "rejected +05:45")
    cli(path, "failed-attempt", "Kept the regex", "--reason", "rejected +05:45")
    attempts = doc(path)[BLOCK]["failed_attempts"]
    assert [(a["summary"], a["reason"]) for a in attempts] == [("Kept the regex",
                                                                "rejected +05:45")]
    result = run("checkpoint", "failed-attempt", "x", "--checkpoint", path)
    assert result.exit_code == 2  # --reason is required


def test_set_identity_fields(path):
    assert cli(path, "set", "epoch", "4")[1]["result"] == {"field": "epoch", "value": 4}
    cli(path, "set", "constraints", "Only ledger/", "No new deps")
    cli(path, "set", "prd_pin", "docs/prd.md@3f9c")
    cli(path, "set", "prd_pin", "--null")
    cli(path, "set", "title", "New plan title")
    cli(path, "set", "leases", "--json",
        '[{"lease_id": "l1", "resource": "branch x", "fencing_epoch": 4, '
        '"expires_at": "2026-10-14T10:12:00+02:00"}]')
    document = doc(path)
    block = document[BLOCK]
    assert (block["epoch"], block["constraints"], block["prd_pin"]) == (
        4, ["Only ledger/", "No new deps"], None)
    assert block["leases"][0]["lease_id"] == "l1"
    assert document["plan"]["title"] == "New plan title"
    assert errors_in(path) == []
    for args, status, code in [
        (("set", "epoch", "-1"), 2, "usage"),  # an option to click: a JSON usage error
        (("set", "epoch", "4.5"), 2, "authoring.bad_value"),
        (("set", "epoch", "four"), 2, "authoring.bad_value"),
        (("set", "goal_id", "--null"), 2, "authoring.bad_value"),
        (("set", "mission", "a", "b"), 2, "authoring.bad_value"),
        (("set", "colour", "red"), 2, "authoring.unknown_field"),
        (("set", "leases", "--json", "[{]"), 2, "load.syntax"),
        (("set", "leases", "--json", '[{"lease_id": "l"}]'), 1, "authoring.invalid_result"),
    ]:
        code_, out = cli(path, *args)
        assert (code_, out["error"]["code"]) == (status, code), args


def test_fencing_epoch_refuses_a_stale_writer(path):
    cli(path, "set", "epoch", "3")
    before = path.read_bytes()
    code, out = run_json("checkpoint", "hazard", "x", "--checkpoint", path, "--epoch", "2")
    assert (code, out["error"]["code"]) == (1, "authoring.stale_epoch")
    assert path.read_bytes() == before
    assert run_json("checkpoint", "hazard", "x", "--checkpoint", path, "--epoch", "3")[0] == 0


def test_consume_then_consume_again_is_a_no_op(path):
    code, out = run_json("consume", "--checkpoint", path)
    assert (code, out["changed"], out["command"]) == (0, True, "consume")
    document = doc(path)
    assert document["plan"]["status"] == "completed"
    assert document[BLOCK]["consumed_at"] == out["result"]["consumed_at"]
    assert errors_in(path) == []
    result = run("consume", "--checkpoint", path)
    assert result.exit_code == 0
    assert result.stdout.startswith(f"already consumed at {out['result']['consumed_at']}")


def test_a_consumed_checkpoint_refuses_updates_until_reopened(path):
    run("consume", "--checkpoint", path)
    code, out = cli(path, "add-pending", "late write")
    assert (code, out["error"]["code"]) == (1, "authoring.consumed")
    code, out = cli(path, "reopen", "--incarnation-id", "inc-2")
    assert code == 0
    document = doc(path)
    assert (document["plan"]["status"], document[BLOCK]["consumed_at"],
            document[BLOCK]["incarnation_id"]) == ("running", None, "inc-2")
    assert cli(path, "add-pending", "late write")[0] == 0


def test_show_prints_summary_and_json_document(path):
    result = run("checkpoint", "show", "--checkpoint", path)
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == "goal-parser [running] goal goal-parser, revision 1"
    assert "next: extract-the-parser-into-ledger-parsing-csv-py:" in result.stdout
    code, out = cli(path, "show")
    assert code == 0 and out["result"]["document"] == doc(path)
    assert (out["revision"], out["changed"]) == (1, False)


def test_updates_keep_the_example_checkpoint_valid_and_lossless(tmp_path):
    source = REPO / "examples" / "handoff" / "xbrief" / "continue.xbrief.json"
    path = tmp_path / "continue.xbrief.json"
    shutil.copy(source, path)
    original = json.loads(source.read_text())
    update_checkpoint(path, "add-completed", "Migrate reports/monthly.py",
                      item_id="migrate-callers.reports", evidence=("pytest tests/reports: ok",))
    after = json.loads(path.read_text())
    assert after["x-acme-ci/run"] == original["x-acme-ci/run"]
    assert list(after) == list(original)
    group = after["plan"]["items"][2]["items"]
    assert [i["status"] for i in group] == ["completed", "completed", "pending"]
    assert after[BLOCK]["next_action"]["item_id"] == "migrate-callers.cli"
    assert group[2]["narrative"] == {"ResumePoint": "Migrate ledger/cli.py"}
    assert after[BLOCK]["revision"] == original[BLOCK]["revision"] + 1
    assert errors_in(path) == []


def test_library_refusals_carry_codes(path):
    with pytest.raises(RefusedError) as caught:
        update_checkpoint(path, "reorder", ("ghost",))
    assert caught.value.code == "authoring.unknown_item"


def test_a_revision_that_cannot_grow_within_doubles_is_refused_before_any_write(path):
    document = doc(path)
    document[BLOCK]["revision"] = 2 ** 53 - 1  # the last revision a double holds exactly
    path.write_text(json.dumps(document, indent=2))
    before = path.read_bytes()
    code, out = cli(path, "decision", "Keep the shim")
    assert (code, out["error"]["code"]) == (1, "authoring.revision_range")
    assert out["error"]["message"] == (f"{path}: the checkpoint's revision 9007199254740991 "
                                       "cannot grow: the next one would be beyond 2**53 - 1, "
                                       "where a digest cannot hold it")
    assert path.read_bytes() == before
    document[BLOCK]["revision"] = 2 ** 53 - 2
    path.write_text(json.dumps(document, indent=2))
    code, out = cli(path, "decision", "Keep the shim")
    assert (code, out["revision"]) == (0, 2 ** 53 - 1)
    assert errors_in(path) == []
