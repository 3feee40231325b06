"""The tool table of ``passdown mcp``, called in-process: the folder binding, argument checks,
the same answers and codes as the CLI, and the gate tool covering the whole gate table."""

from __future__ import annotations

import json
import os
import subprocess

import pytest
from click.testing import CliRunner

from passdown.cli import cli
from passdown.gates import gate_names
from passdown.mcp import _resources, _tools
from passdown.mcp._folder import Folder
from hosts_support import MAIN, launcher, new_project


@pytest.fixture
def project(tmp_path):
    return new_project(tmp_path / "project")


def _call(folder, name, arguments=None):
    table = {tool.name: tool for tool in _tools.tools()}
    return _tools.call(table[name], Folder(folder), arguments)


def test_the_folder_must_exist(tmp_path):
    with pytest.raises(Exception) as raised:
        Folder(tmp_path / "missing")
    assert raised.value.code == "mcp.bad_folder" and raised.value.exit_code == 2


@pytest.mark.parametrize("path", ["..", "../x", "/etc/passwd", "xbrief/../../x"])
def test_paths_leading_out_of_the_folder_are_refused(project, path):
    reply = _call(project, "validate", {"path": path})
    assert reply.is_error
    assert reply.structured["error"]["code"] == "mcp.outside_folder"


def test_a_symlinked_checkpoint_folder_that_leaves_the_folder_is_refused(project, tmp_path):
    outside = tmp_path / "elsewhere"
    os.rename(project / "xbrief", outside)
    (project / "xbrief").symlink_to(outside)
    before = (outside / "continue.xbrief.json").read_bytes()
    for name, arguments in (("checkpoint_decision", {"text": "x"}), ("checkpoint_show", {}),
                            ("packet_render", {"source_id": MAIN})):
        reply = _call(project, name, arguments)
        assert reply.structured["error"]["code"] == "mcp.outside_folder", (name, reply)
    with pytest.raises(Exception) as raised:
        _resources.read(Folder(project), _resources.CHECKPOINT_URI)
    assert raised.value.code == "mcp.outside_folder"
    assert (outside / "continue.xbrief.json").read_bytes() == before


def test_a_folder_walk_that_would_read_an_artifact_through_an_escaping_symlink_is_refused(project, tmp_path):
    (tmp_path / "ack.json").write_text("{}")
    (project / "sub").mkdir()
    (project / "sub" / "ack.json").symlink_to(tmp_path / "ack.json")
    reply = _call(project, "validate", {})
    assert reply.structured["error"]["code"] == "mcp.outside_folder"
    assert "sub/ack.json" in reply.structured["error"]["message"]


def test_validate_answers_the_json_reporter_document(project):
    reply = _call(project, "validate", {"path": "xbrief/continue.xbrief.json"})
    assert not reply.is_error
    assert reply.structured["kind"] == "findings" and reply.structured["exit_code"] == 0
    (project / "xbrief" / "continue.xbrief.json").write_text("{}")
    broken = _call(project, "validate", {"path": "xbrief/continue.xbrief.json", "strict": True})
    assert not broken.is_error  # findings are an answer, not a refusal
    assert broken.structured["exit_code"] == 1 and broken.structured["ok"] is False
    assert "checkpoint.not_xbrief" in {finding["code"] for finding in broken.structured["findings"]}


@pytest.mark.parametrize(("name", "arguments", "problem"), [
    ("checkpoint_add_completed", {"title": "x"}, "arguments: 'evidence' is a required property"),
    ("checkpoint_add_completed", {"title": "x", "evidence": []}, "arguments.evidence: [] should be non-empty"),
    ("checkpoint_decision", {"text": "x", "extra": 1}, "arguments: Additional properties are not allowed ('extra' was unexpected)"),
    ("gate", {"name": "nope", "input": {}}, "arguments.name: 'nope' is not one of"),
    ("checkpoint_hazard", {"text": 3}, "arguments.text: 3 is not of type 'string'"),
])
def test_arguments_that_do_not_match_the_schema_are_refused_with_the_path(project, name, arguments, problem):
    reply = _call(project, name, arguments)
    assert reply.is_error
    error = reply.structured["error"]
    assert error["code"] == "mcp.bad_arguments" and error["message"].startswith(problem)
    assert reply.structured["exit_code"] == 2


#: Members that hold the clock's reading: the two writers ran at different instants.
_CLOCK_MEMBERS = frozenset(("completed", "since", "at", "written_at", "updated", "created"))


def _timeless(value):
    if isinstance(value, dict):
        return {k: _timeless(v) for k, v in value.items() if k not in _CLOCK_MEMBERS}
    if isinstance(value, list):
        return [_timeless(v) for v in value]
    return value


def test_each_checkpoint_tool_writes_what_its_command_writes(project, tmp_path):
    """The same updates through the tools and through `passdown checkpoint`: the same plan."""
    twin = new_project(tmp_path / "twin")
    steps = [
        ("checkpoint_add_pending", {"title": "Migrate the callers", "id": "migrate"},
         ["add-pending", "Migrate the callers", "--id", "migrate"]),
        ("checkpoint_add_completed", {"title": "Extract the parser", "evidence": ["commit 1"]},
         ["add-completed", "Extract the parser", "--evidence", "commit 1"]),
        ("checkpoint_decision", {"text": "Keep the shim"}, ["decision", "Keep the shim"]),
        ("checkpoint_hazard", {"text": "Do not run make golden"}, ["hazard", "Do not run make golden"]),
        ("checkpoint_blocker", {"summary": "CI is red", "item": "migrate"}, ["blocker", "CI is red", "--item", "migrate"]),
        ("checkpoint_failed_attempt", {"summary": "Regex dates", "reason": "offsets", "item": "migrate"},
         ["failed-attempt", "Regex dates", "--reason", "offsets", "--item", "migrate"]),
        ("checkpoint_set_resume", {"text": "Open monthly.py", "required_inputs": ["monthly.py"]},
         ["set-resume", "Open monthly.py", "--input", "monthly.py"]),
        ("checkpoint_blocker", {"summary": "CI is red", "resolve": True}, ["blocker", "CI is red", "--resolve"]),
    ]
    for name, arguments, command in steps:
        reply = _call(project, name, arguments)
        assert not reply.is_error, reply
        result = CliRunner().invoke(cli, ["checkpoint", *command, "--format", "json", "--checkpoint",
                                          str(twin / "xbrief" / "continue.xbrief.json")])
        expected = json.loads(result.output)
        assert _timeless({k: v for k, v in reply.structured.items() if k != "path"}) == _timeless({
            k: v for k, v in expected.items() if k != "path"})
    ours, theirs = (_timeless(json.loads((folder / "xbrief" / "continue.xbrief.json").read_text()))
                    for folder in (project, twin))
    assert ours["plan"]["items"] == theirs["plan"]["items"]
    assert ours["plan"]["narratives"] == theirs["plan"]["narratives"]
    for key in ("completed_work", "blockers", "failed_attempts", "next_action"):
        assert ours["x-passdown/checkpoint"][key] == theirs["x-passdown/checkpoint"][key]
    shown = _call(project, "checkpoint_show")
    assert _timeless(shown.structured["result"]["document"]) == ours
    printed = CliRunner().invoke(cli, ["checkpoint", "show", "--checkpoint",
                                       str(project / "xbrief" / "continue.xbrief.json")]).output
    assert shown.text + "\n" == printed


def test_a_consumed_checkpoint_refuses_updates_with_the_cli_code(project):
    CliRunner().invoke(cli, ["consume", "--checkpoint", str(project / "xbrief" / "continue.xbrief.json")])
    reply = _call(project, "checkpoint_decision", {"text": "late"})
    assert reply.is_error and reply.structured["error"]["code"] == "authoring.consumed"
    assert reply.text.startswith("passdown: authoring.consumed: the checkpoint was consumed at ")
    assert reply.text.endswith("\n  hint: the resuming session owns the work now; it reopens the "
                               "checkpoint with `passdown checkpoint reopen` before writing")


def test_the_gate_tool_serves_every_gate_of_the_table_as_the_cli_does(project):
    table = {tool.name: tool for tool in _tools.tools()}
    assert table["gate"].input_schema["properties"]["name"]["enum"] == list(gate_names())
    for name in gate_names():
        assert f"- {name}: " in table["gate"].description
    observation = {"tool": "execute", "arguments": "kill -1", "host_pid": 7}
    reply = _call(project, "gate", {"name": "guard", "input": observation})
    cli_run = subprocess.run([launcher(), "gate", "guard"], input=json.dumps(observation).encode(),
                             capture_output=True, check=False)
    assert reply.text == cli_run.stdout.decode()
    assert reply.structured["exit_code"] == cli_run.returncode == 1
    assert reply.structured["outcome"] == "host_kill"


def test_ack_verify_reads_only_inside_the_folder(example_handoff):
    reply = _call(example_handoff, "ack_verify", {})
    assert not reply.is_error
    assert reply.text.splitlines()[0] == "ack.json: " + reply.structured["outcome"]
    checkout = _call(example_handoff, "ack_verify", {"compare_checkout": True})
    assert checkout.structured["error"]["code"] == "mcp.outside_folder"
    missing = _call(example_handoff, "ack_verify", {"ack": "nope.json"})
    assert missing.is_error and missing.structured["exit_code"] == 2


def test_packet_render_reads_the_checkout_only_from_its_top_folder(tmp_path):
    from git_support import git, new_checkout

    from passdown.formats import _packet

    repo = new_checkout(tmp_path / "repo", {"outside.txt": "a\n"})
    inner = new_project(repo / "handoff")
    (repo / "outside.txt").write_text("changed\n")
    reply = _call(inner, "packet_render", {"source_id": MAIN})
    assert not reply.is_error, reply.text
    values = _packet.parse((inner / _packet.TEXT_NAME).read_text()).values()
    assert " ".join(values["WORKING_STATE"].split()).startswith(
        "UNKNOWN: the checkout was not read: the MCP server is bound to a folder that is not "
        "the top folder of a git checkout, and reads nothing outside it")
    assert "outside.txt" not in (inner / _packet.TEXT_NAME).read_text()
    top = new_project(tmp_path / "top")
    git(top, "init", "-q", "-b", "main")
    (top / "base.txt").write_text("base\n")
    git(top, "add", "base.txt")
    git(top, "commit", "-q", "-m", "base")
    (top / "base.txt").write_text("edited\n")
    assert not _call(top, "packet_render", {"source_id": MAIN}).is_error
    values = _packet.parse((top / _packet.TEXT_NAME).read_text()).values()
    assert [entry[2] for entry in map(_packet.parse_entry, values["WORKING_STATE"].split("\n"))
            if entry] == ["base.txt"]
