"""Where am I: the authoring commands find the handoff folder upward, as git finds its
repository, say which one they used, and refuse (naming the right folder) when there is
none; ``passdown init`` never creates a handoff inside another one (AUT-085, AUT-086). Also
the output options every authoring command shares, and the unknown-member warnings they
surface (AUT-084)."""

from __future__ import annotations

import json
import os

import pytest
from authoring_support import checkpoint_of, make_project, registry_of, run, run_json

from passdown.authoring import _where

INIT = ("init", "--goal-id", "g2", "--main-id", "m2", "--outcome", "o", "--next", "First step")


@pytest.fixture
def project(tmp_path):
    return make_project(tmp_path / "proj")


def test_checkpoint_show_from_inside_the_xbrief_folder_reads_the_project(project, monkeypatch):
    monkeypatch.chdir(project / "xbrief")
    result = run("checkpoint", "show")
    assert result.exit_code == 0
    assert result.stdout.startswith("goal-parser [running] goal goal-parser, revision 1\n")
    assert result.stderr == f"passdown: using the handoff folder {project}\n"
    code, out = run_json("checkpoint", "show")
    assert (code, out["folder"], out["path"]) == (0, str(project), os.path.join(
        "..", "xbrief", "continue.xbrief.json"))


def test_an_update_from_a_deeper_folder_changes_the_project_checkpoint(project, monkeypatch):
    deep = project / "src" / "ledger"
    deep.mkdir(parents=True)
    monkeypatch.chdir(deep)
    code, out = run_json("checkpoint", "add-pending", "Write the docs")
    assert (code, out["changed"], out["folder"]) == (0, True, str(project))
    titles = [i["title"] for i in json.loads(checkpoint_of(project).read_text())["plan"]["items"]]
    assert titles[-1] == "Write the docs"
    assert not (deep / "xbrief").exists()


def test_in_the_handoff_folder_itself_nothing_is_said(project, monkeypatch):
    monkeypatch.chdir(project)
    result = run("checkpoint", "show")
    assert (result.exit_code, result.stderr) == (0, "")


def test_attempt_and_packet_commands_find_the_registry_upward(project, monkeypatch):
    monkeypatch.chdir(project / "xbrief")
    code, out = run_json("attempt", "show")
    assert (code, out["path"], out["folder"]) == (0, os.path.join("..", "registry.yaml"),
                                                  str(project))


def test_no_handoff_anywhere_refuses_naming_the_folder_for_init(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out = run_json("checkpoint", "show")
    assert (code, out["error"]["code"]) == (2, "authoring.no_checkpoint")
    assert out["error"]["message"] == f"no checkpoint in {tmp_path} or any folder above it"
    assert out["error"]["hint"].startswith(f"run `passdown init` in {tmp_path} (the folder of the task)")
    code, out = run_json("attempt", "show")
    assert (code, out["error"]["code"]) == (2, "authoring.no_registry")


def test_inside_an_empty_xbrief_folder_the_hint_names_its_parent(tmp_path, monkeypatch):
    (tmp_path / "xbrief").mkdir()
    monkeypatch.chdir(tmp_path / "xbrief")
    code, out = run_json("checkpoint", "show")
    assert (code, out["error"]["code"]) == (2, "authoring.no_checkpoint")
    assert out["error"]["hint"].startswith(f"run `passdown init` in {tmp_path} ")
    # and init there refuses, naming the same folder: no xbrief/xbrief/ is ever made
    code, out = run_json(*INIT)
    assert (code, out["error"]["code"]) == (1, "authoring.nested")
    assert out["error"]["hint"] == f"run `passdown init` in {tmp_path} (the folder of the task)"
    assert os.listdir(tmp_path / "xbrief") == []


def test_following_the_hint_creates_the_files_once_and_where_they_belong(tmp_path, monkeypatch):
    (tmp_path / "xbrief").mkdir()
    monkeypatch.chdir(tmp_path)
    assert run_json(*INIT)[0] == 0
    monkeypatch.chdir(tmp_path / "xbrief")
    assert run("checkpoint", "show").exit_code == 0
    # the checkpoint, and the folder that keeps its lock out of git's sight
    assert sorted(os.listdir(tmp_path / "xbrief")) == [".passdown", "continue.xbrief.json"]


def test_init_inside_a_handoff_folder_is_refused_unless_nested(project, monkeypatch):
    sub = project / "services" / "billing"
    sub.mkdir(parents=True)
    monkeypatch.chdir(sub)
    code, out = run_json(*INIT)
    assert (code, out["error"]["code"]) == (1, "authoring.nested")
    assert out["error"]["message"] == (f"{sub} is inside the handoff folder {project} "
                                       "(it holds xbrief/continue.xbrief.json)")
    assert out["error"]["hint"].startswith(f"work in {project}: ")
    assert os.listdir(sub) == []
    code, out = run_json(*INIT, "--nested")
    assert code == 0 and (sub / "xbrief" / "continue.xbrief.json").is_file()
    # below it now, the nearer handoff is the one the commands find
    assert run_json("checkpoint", "show")[1]["result"]["document"]["x-passdown/checkpoint"][
        "goal_id"] == "g2"


def test_the_search_stops_at_the_top_of_a_git_checkout(project):
    checkout = project / "vendor" / "lib"
    (checkout / ".git").mkdir(parents=True)
    (checkout / "docs").mkdir()
    assert _where.enclosing(checkout / "docs") is None
    assert _where.enclosing(project / "vendor") == str(project)
    located = _where.locate(None, checkout / "docs", needs="checkpoint")
    assert (located.found, located.folder) == (False, str(checkout / "docs"))


def test_locate_names_the_folder_relative_to_where_it_started(project):
    located = _where.locate(None, project / "xbrief", needs="registry")
    assert (located.path, located.folder, located.searched, located.found) == (
        "..", str(project), True, True)
    assert located.join("registry.yaml") == os.path.join("..", "registry.yaml")
    given = _where.locate(str(project))
    assert (given.path, given.searched, given.found) == (str(project), False, True)
    assert _where.locate(None, project, needs="checkpoint").join("xbrief", "x") == \
        os.path.join("xbrief", "x")
    assert registry_of(project).name == "registry.yaml"


def test_a_stray_registry_above_does_not_hide_a_missing_checkpoint(tmp_path, monkeypatch):
    (tmp_path / "registry.yaml").write_text("stray: true\n")
    (tmp_path / "work").mkdir()
    monkeypatch.chdir(tmp_path / "work")
    code, out = run_json("checkpoint", "show")
    assert (code, out["error"]["code"]) == (2, "authoring.no_checkpoint")


# -- the output options every authoring command takes --------------------------------------

def test_quiet_prints_nothing_on_success_and_still_explains_a_refusal(project, monkeypatch):
    monkeypatch.chdir(project / "xbrief")
    result = run("checkpoint", "add-pending", "Write the docs", "-q")
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "")
    result = run("checkpoint", "blocker", "nothing like it", "--resolve", "--quiet")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr.startswith("passdown: authoring.unknown_blocker: ")


def test_verbose_names_the_folder_the_file_and_the_revision_change(project, monkeypatch):
    monkeypatch.chdir(project)
    result = run("checkpoint", "decision", "Keep the shim", "-v")
    assert result.stdout == ("decision recorded (revision 2)\n"
                             f"  folder: {project}\n"
                             f"  file: {os.path.join('xbrief', 'continue.xbrief.json')}\n"
                             "  revision: 1 -> 2\n")


def test_color_always_colours_the_error_code_and_never_does_not(project, monkeypatch):
    monkeypatch.chdir(project)
    coloured = run("checkpoint", "blocker", "x", "--resolve", "--color", "always")
    assert "\x1b[1;31mauthoring.unknown_blocker\x1b[0m" in coloured.stderr
    plain = run("checkpoint", "blocker", "x", "--resolve", "--color", "never")
    assert "\x1b[" not in plain.stderr


# -- unknown members, as the commands say them ---------------------------------------------

def test_a_command_writing_a_checkpoint_with_a_misspelt_member_says_so(project, monkeypatch):
    path = checkpoint_of(project)
    document = json.loads(path.read_text())
    document["x-passdown/checkpoint"]["mision"] = "typed by hand"
    path.write_text(json.dumps(document, indent=2))
    monkeypatch.chdir(project)
    result = run("checkpoint", "decision", "Keep the shim")
    assert result.exit_code == 0
    assert result.stderr == ('warning member.unknown $["x-passdown/checkpoint"].mision: "mision" is '
                             "not a member Passdown defines here: did you mean `mission`?\n")
    code, out = run_json("checkpoint", "hazard", "Golden files drift")
    assert out["result"]["warnings"] == [{
        "code": "member.unknown", "path": '$["x-passdown/checkpoint"].mision',
        "message": '"mision" is not a member Passdown defines here: did you mean `mission`?',
        "hint": "rename `mision` to `mission` (a member of your own belongs in an extension "
                "block of your tool, `x-<token>/...`)"}]
    # kept as written: a writer never drops what it does not know (AUT-006)
    assert json.loads(path.read_text())["x-passdown/checkpoint"]["mision"] == "typed by hand"
    assert "member.unknown" in run("checkpoint", "show").stderr


def test_a_clean_checkpoint_gets_no_warnings(project, monkeypatch):
    monkeypatch.chdir(project)
    code, out = run_json("checkpoint", "decision", "Keep the shim")
    assert code == 0 and "warnings" not in out["result"]
