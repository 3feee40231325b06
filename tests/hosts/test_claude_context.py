"""``passdown hook claude SessionStart|PreCompact|Stop``: the checkpoint read into the model's
context on resume, and the instruction to update it before compaction and at the end of a
turn, each in the output form the host documents for the event; fed the JSON the host sends
(one fixture per event and source), checked by exact output and exit status."""

from __future__ import annotations

import calendar
import contextlib
import json
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from passdown.cli import cli
from passdown.hosts import _claude_hooks, _hook_context, _hooks

from hosts_support import DATA, RESUME, documented_output, hook_input, new_project, run_hook

CHECKPOINT = os.path.join("xbrief", "continue.xbrief.json")
WRITTEN = "2026-10-14T09:00:00Z"


@pytest.fixture
def project(tmp_path):
    folder = tmp_path / "project"
    shutil.copytree(DATA / "project", folder)
    return folder


def _git(folder, *args, when="2026-10-14T10:00:00Z"):
    env = {**os.environ, "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when,
           "GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@example.org",
           "GIT_COMMITTER_NAME": "a", "GIT_COMMITTER_EMAIL": "a@example.org"}
    done = subprocess.run(["git", "-C", str(folder), *args], capture_output=True, text=True,
                          env=env, check=True)
    return done.stdout.strip()


def _commit(folder, message, *paths, when):
    for path in paths:
        target = folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists():
            target.write_text("work\n")
    _git(folder, "add", "-A")
    _git(folder, "commit", "-q", "-m", message, when=when)
    return _git(folder, "rev-parse", "HEAD")


@pytest.fixture
def repository(project):
    """The project as a checkout whose first commit carries the checkpoint."""
    _git(project, "init", "-q")
    _commit(project, "Start the refactor", "README.md", when="2026-10-14T08:00:00Z")
    return project


def _context(done, event="SessionStart"):
    """The model's context a SessionStart hook gave, in the documented output form."""
    assert (done.returncode, done.stderr) == (0, b"")
    return documented_output(event, done.stdout)["hookSpecificOutput"]["additionalContext"]


def _reason(done):
    """The instruction a Stop hook continues the turn with, in the documented output form."""
    assert (done.returncode, done.stderr) == (0, b"")
    return documented_output("Stop", done.stdout)["reason"]


def _message(done):
    """The warning a PreCompact hook shows the person, in the documented output form."""
    assert (done.returncode, done.stderr) == (0, b"")
    return documented_output("PreCompact", done.stdout)["systemMessage"]


# -- SessionStart --------------------------------------------------------------------------

@pytest.mark.parametrize("source", ["startup", "resume", "clear", "compact"])
def test_session_start_injects_the_checkpoint_as_the_source_of_truth(project, source):
    done = run_hook("SessionStart", hook_input(f"session_start_{source}", cwd=str(project)))
    assert _context(done, "SessionStart") == RESUME


def test_the_folder_comes_from_claude_project_dir_before_cwd(project, tmp_path):
    call = hook_input("session_start_resume", cwd=str(tmp_path))
    done = run_hook("SessionStart", call, env={"CLAUDE_PROJECT_DIR": str(project)})
    assert _context(done, "SessionStart") == RESUME
    assert run_hook("SessionStart", call, "--folder", str(tmp_path),
                    env={"CLAUDE_PROJECT_DIR": str(project)}).stdout == b""


def test_a_consumed_checkpoint_is_not_a_resume_point(project):
    path = project / CHECKPOINT
    document = json.loads(path.read_text())
    document["x-passdown/checkpoint"]["consumed_at"] = "2026-10-14T09:30:00Z"
    document["plan"]["status"] = "completed"
    path.write_text(json.dumps(document, indent=2))
    done = run_hook("SessionStart", hook_input("session_start_resume", cwd=str(project)))
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")


def test_no_checkpoint_no_context(tmp_path):
    done = run_hook("SessionStart", hook_input("session_start_startup", cwd=str(tmp_path)))
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")


def _break(project):
    path = project / CHECKPOINT
    document = json.loads(path.read_text())
    del document["plan"]["items"][1]["narrative"]
    path.write_text(json.dumps(document, indent=2))


def test_an_invalid_checkpoint_is_not_trusted_and_the_model_is_told_to_fix_it(project):
    _break(project)
    done = run_hook("SessionStart", hook_input("session_start_resume", cwd=str(project)))
    assert _context(done, "SessionStart") == (
        "Passdown: the checkpoint xbrief/continue.xbrief.json is not valid "
        "(checkpoint.resume_point_missing). Fix it before anything else: `passdown validate "
        "xbrief/continue.xbrief.json` names each finding and how to fix it.")


def test_a_stale_checkpoint_is_injected_with_the_instruction_to_update_it(repository):
    commit = _commit(repository, "Migrate reports/monthly.py", "reports/monthly.py",
                     when="2026-10-14T10:00:00Z")
    done = run_hook("SessionStart", hook_input("session_start_resume", cwd=str(repository)))
    assert _context(done, "SessionStart") == RESUME + (
        "\n\nPassdown: the checkpoint xbrief/continue.xbrief.json is older than the last completed "
        f'work (commit {commit[:12]} "Migrate reports/monthly.py", 2026-10-14T10:00:00.000Z; the '
        f"checkpoint was written {WRITTEN}). Update it before anything else: record each "
        "completed step with its evidence (`passdown checkpoint add-completed TITLE --evidence "
        "REF`) and set the resume point (`passdown checkpoint set-resume TEXT`).")


def test_after_a_compaction_session_start_carries_the_update_instruction(repository):
    """PreCompact's stdout reaches neither the model nor the compaction: the instruction
    reaches the model from SessionStart with source ``compact``, right after it."""
    commit = _commit(repository, "Migrate reports", "reports/monthly.py", when="2026-10-14T10:00:00Z")
    done = run_hook("SessionStart", hook_input("session_start_compact", cwd=str(repository)))
    assert _context(done) == RESUME + "\n\n" + _stale_text(
        commit, "Migrate reports", "2026-10-14T10:00:00.000Z")


# -- PreCompact ----------------------------------------------------------------------------

def _stale_text(commit, subject, when):
    return (f"Passdown: the checkpoint xbrief/continue.xbrief.json is older than the last completed "
            f'work (commit {commit[:12]} "{subject}", {when}; the checkpoint was written '
            f"{WRITTEN}). Update it first thing after this compaction: record each completed "
            "step with its evidence (`passdown checkpoint add-completed TITLE --evidence REF`) and "
            "set the resume point (`passdown checkpoint set-resume TEXT`).")


@pytest.mark.parametrize("trigger", ["auto", "manual"])
def test_pre_compact_shows_the_person_the_update_instruction(repository, trigger):
    commit = _commit(repository, "Migrate reports", "reports/monthly.py", when="2026-10-14T10:00:00Z")
    done = run_hook("PreCompact", hook_input(f"pre_compact_{trigger}", cwd=str(repository)))
    assert _message(done) == _stale_text(commit, "Migrate reports", "2026-10-14T10:00:00.000Z")


def test_pre_compact_is_silent_when_the_checkpoint_is_current(repository):
    _commit(repository, "Earlier work", "ledger/parsing/csv.py", when="2026-10-14T08:30:00Z")
    done = run_hook("PreCompact", hook_input("pre_compact_auto", cwd=str(repository)))
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")


def test_work_committed_with_a_checkpoint_update_is_not_newer_than_it(repository):
    (repository / CHECKPOINT).write_text((repository / CHECKPOINT).read_text() + "\n")
    _commit(repository, "Migrate reports with its checkpoint", "reports/monthly.py",
            when="2026-10-14T10:00:00Z")
    done = run_hook("PreCompact", hook_input("pre_compact_auto", cwd=str(repository)))
    assert done.stdout == b""


@pytest.mark.parametrize("own", ["handoff.pending.json", "ack.json", "registry.yaml",
                                 "handoff.json", ".passdown/registry.yaml.lock",
                                 "xbrief/.passdown/continue.xbrief.json.tmp"])
def test_commits_of_passdown_files_alone_are_not_work(repository, own):
    """Passdown's own files are the handoff's own files as the ACK's dirty-artifact fingerprint
    reads them (ACK-128): the artifacts in the handoff folder, the lock and temporary files."""
    work = _commit(repository, "Migrate reports", "reports/monthly.py", when="2026-10-14T10:00:00Z")
    _commit(repository, "Passdown's bookkeeping", own, when="2026-10-14T10:05:00Z")
    done = run_hook("PreCompact", hook_input("pre_compact_auto", cwd=str(repository)))
    assert _message(done) == _stale_text(work, "Migrate reports", "2026-10-14T10:00:00.000Z")


@pytest.mark.parametrize("users", ["other/continuation.packet.txt", "xbrief/notes.md",
                                   "ack.json.orig"])
def test_a_users_file_is_work_even_beside_or_named_like_passdowns(repository, users):
    _commit(repository, "Migrate reports", "reports/monthly.py", when="2026-10-14T10:00:00Z")
    work = _commit(repository, "Notes", users, when="2026-10-14T10:05:00Z")
    done = run_hook("PreCompact", hook_input("pre_compact_auto", cwd=str(repository)))
    assert _message(done) == _stale_text(work, "Notes", "2026-10-14T10:05:00.000Z")


def test_pre_compact_outside_a_checkout_only_lints(project):
    assert run_hook("PreCompact", hook_input("pre_compact_auto", cwd=str(project))).stdout == b""
    _break(project)
    done = run_hook("PreCompact", hook_input("pre_compact_auto", cwd=str(project)))
    assert _message(done) == (
        "Passdown: the checkpoint xbrief/continue.xbrief.json is not valid "
        "(checkpoint.resume_point_missing). Fix it first thing after this compaction: `passdown "
        "validate xbrief/continue.xbrief.json` names each finding and how to fix it.")


# -- Stop ----------------------------------------------------------------------------------

def _stale_at_stop(commit, how):
    return ("Passdown: the checkpoint xbrief/continue.xbrief.json is older than the last "
            f'completed work (commit {commit[:12]} "Migrate reports", 2026-10-14T10:00:00.000Z; '
            f"the checkpoint was written {WRITTEN}). Update it now, before you stop: {how}")


@pytest.mark.parametrize(("folder", "how"), [
    ("repository", "record each completed step with its evidence (`passdown checkpoint "
                   "add-completed TITLE --evidence REF`) and set the resume point (`passdown "
                   "checkpoint set-resume TEXT`)."),
    ("plain_repository", "mark each finished item `completed`, record the decisions taken in "
                         "the plan's `Decisions` narrative, and put the exact next step in the "
                         "`ResumePoint` narrative of the next `pending` item."),
], ids=["passdown", "plain"])
def test_stop_continues_the_turn_with_the_update_instruction(request, folder, how):
    """A plain checkpoint is told how to update it by hand, a Passdown one by command."""
    checkout = request.getfixturevalue(folder)
    commit = _commit(checkout, "Migrate reports", "reports/monthly.py", when="2026-10-14T10:00:00Z")
    done = run_hook("Stop", hook_input("stop", cwd=str(checkout)))
    assert _reason(done) == _stale_at_stop(commit, how)


def test_stop_never_keeps_a_turn_going_twice(repository):
    _commit(repository, "Migrate reports", "reports/monthly.py", when="2026-10-14T10:00:00Z")
    done = run_hook("Stop", hook_input("stop", cwd=str(repository), stop_hook_active=True))
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")


def test_stop_is_silent_for_a_current_checkpoint_and_names_the_codes_of_an_invalid_one(project):
    assert run_hook("Stop", hook_input("stop", cwd=str(project))).stdout == b""
    _break(project)
    assert _reason(run_hook("Stop", hook_input("stop", cwd=str(project)))) == (
        "Passdown: the checkpoint xbrief/continue.xbrief.json is not valid "
        "(checkpoint.resume_point_missing). Fix it now, before you stop: `passdown validate "
        "xbrief/continue.xbrief.json` names each finding and how to fix it.")


# -- when Passdown itself fails ---------------------------------------------------------------

@pytest.mark.parametrize("event", ["SessionStart", "PreCompact", "Stop"])
def test_a_failure_is_a_non_blocking_error_the_host_shows(event, project):
    done = run_hook(event, b"not json", "--folder", str(project))
    assert (done.returncode, done.stdout) == (1, b"")
    assert done.stderr.decode().startswith("passdown hook: hook.bad_input: the hook input is not "
                                           "readable JSON: invalid JSON: ")
    assert done.stderr.decode().endswith("\n  hint: the host sends one JSON object on stdin; "
                                         "run the hook from the host\n")


def test_a_crash_while_reading_the_checkpoint_is_reported_not_swallowed(project, monkeypatch):

    def broken(folder):
        raise OSError("disk gone")

    monkeypatch.setattr(_hook_context, "read_state", broken)
    reply = _claude_hooks.run("Stop", json.dumps(hook_input("stop")).encode(),
                              _hooks.default_options())
    assert (reply.exit_code, reply.stdout) == (1, "")
    assert reply.stderr == ("passdown hook: hook.internal_error: OSError: disk gone\n"
                            "  hint: report this as a Passdown bug, with the hook input\n")


def test_the_hooks_write_only_the_compaction_count(project, tmp_path):
    """The hooks read, except PreCompact, which counts the compaction in .passdown/ (HST-104):
    every other file of the folder and the home folder are byte for byte as they were."""
    home = tmp_path / "home"
    home.mkdir()
    before = {p: p.read_bytes() for p in project.rglob("*") if p.is_file()}
    for event, fixture in (("SessionStart", "session_start_resume"), ("PreCompact", "pre_compact_auto"),
                           ("Stop", "stop"), ("PreToolUse", "pre_tool_use_bash")):
        run_hook(event, hook_input(fixture, cwd=str(project)), env={"HOME": str(home)})
    after = {p: p.read_bytes() for p in project.rglob("*") if p.is_file()}
    state = project / ".passdown" / "compactions.json"
    counted = json.loads(after.pop(state))
    assert [entry["count"] for entry in counted["sessions"].values()] == [1]
    assert {p: b for p, b in after.items() if p.parent.name != ".passdown"} == \
        {p: b for p, b in before.items() if p.parent.name != ".passdown"}
    assert list(home.iterdir()) == []


# -- a plain xBRIEF continue checkpoint (no Passdown block) ---------------------------------

PLAIN_RESUME = (
    "Passdown: this project has a continue checkpoint, xbrief/continue.xbrief.json (a plain "
    "xBRIEF continue checkpoint, written 2026-10-14T09:00:00Z). The checkpoint, not the "
    "conversation, is the source of truth for this work: where the conversation (or a summary "
    "of it) disagrees with the checkpoint, trust the checkpoint, and read the file itself "
    "before you act.\n\n"
    "Move the CSV parser [running] a plain xBRIEF continue checkpoint\n"
    "  [completed] extract-the-parser-into-ledger-parsing-csv-py: Extract the parser into "
    "ledger/parsing/csv.py\n"
    "  [pending] migrate: Migrate the callers\n"
    "next: migrate: Open reports/monthly.py and replace the parse_rows import\n\n"
    "Resume point (migrate): Open reports/monthly.py and replace the parse_rows import\n"
    "First safe action: Open reports/monthly.py and replace the parse_rows import")


@pytest.fixture
def plain(project):
    """The project's checkpoint as the continue-here procedure writes it: xBRIEF 0.8 alone."""
    path = project / CHECKPOINT
    document = json.loads(path.read_text())
    del document["x-passdown/checkpoint"]
    path.write_text(json.dumps(document, indent=2))
    return project


@pytest.mark.parametrize("source", ["startup", "resume", "clear", "compact"])
def test_a_plain_checkpoint_is_handed_to_the_model(plain, source):
    done = run_hook("SessionStart", hook_input(f"session_start_{source}", cwd=str(plain)))
    assert _context(done) == PLAIN_RESUME


def test_every_hook_exits_0_on_a_plain_checkpoint(plain):
    for event, fixture in (("PreCompact", "pre_compact_auto"), ("Stop", "stop")):
        done = run_hook(event, hook_input(fixture, cwd=str(plain)))
        assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")


@pytest.fixture
def plain_repository(plain):
    _git(plain, "init", "-q")
    _commit(plain, "Start", "README.md", when="2026-10-14T08:00:00Z")
    return plain


def _untimed(folder, modified):
    """The plain checkpoint without any time of its own (xBRIEF's ``updated`` is optional),
    its file last modified at ``modified`` (an RFC 3339 time in UTC)."""

    path = folder / CHECKPOINT
    document = json.loads(path.read_text())
    for member in ("xBRIEFInfo", "plan"):
        document[member].pop("updated", None)
        document[member].pop("created", None)
    path.write_text(json.dumps(document, indent=2))
    seconds = calendar.timegm(time.strptime(modified, "%Y-%m-%dT%H:%M:%SZ"))
    os.utime(path, (seconds, seconds))


def test_a_plain_checkpoint_without_a_time_is_judged_by_its_files_modification_time(
        plain_repository):
    """HST-313: the file's modification time stands in, and the instruction says so."""
    _untimed(plain_repository, "2026-10-14T09:30:00Z")
    _commit(plain_repository, "Checkpoint", when="2026-10-14T09:30:00Z")
    commit = _commit(plain_repository, "Migrate reports", "reports/monthly.py",
                     when="2026-10-14T10:00:00Z")
    done = run_hook("Stop", hook_input("stop", cwd=str(plain_repository)))
    assert _reason(done) == (
        "Passdown: the checkpoint xbrief/continue.xbrief.json is older than the last completed "
        f'work (commit {commit[:12]} "Migrate reports", 2026-10-14T10:00:00.000Z; the checkpoint '
        "records no time it was written, so its file's modification time stands in: "
        "2026-10-14T09:30:00.000Z). Update it now, before you stop: mark each finished item "
        "`completed`, record the decisions taken in the plan's `Decisions` narrative, and put "
        "the exact next step in the `ResumePoint` narrative of the next `pending` item.")
    _untimed(plain_repository, "2026-10-14T10:30:00Z")  # written after the work: current
    for event, fixture in (("PreCompact", "pre_compact_auto"), ("Stop", "stop")):
        done = run_hook(event, hook_input(fixture, cwd=str(plain_repository)))
        assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")


def test_a_plain_checkpoint_beside_a_registry_is_told_the_command_that_adds_the_block(plain):
    """CKP-036: the hooks give the finding's own hint, `passdown init --outcome TEXT`, instead
    of sending the model to `passdown validate`, whose hint would say the same."""
    (plain / "registry.yaml").write_text(
        "passdown_version: '1.0'\nkind: registry\nrevision: 1\nfencing_epoch: 0\npolicy:\n"
        "  mode: 'off'\n  authorization_scope: 'none: restarts are not authorized'\n"
        "  archive_consent: false\n  main_id: sess-a\n  goal_id: goal-parser\n"
        "  checkpoint_path: xbrief/continue.xbrief.json\n  timezone: UTC\n"
        "  timezone_source: default\n  recorded_at: '2026-10-14T08:00:00Z'\ntitles: []\n"
        "sessions:\n- thread_id: sess-a\n  status: ACTIVE\n  role: MAIN\nattempts: []\n"
        "observation: null\ndecision: null\n")
    how = ("run `passdown init --outcome TEXT` in the handoff folder (TEXT: what must be "
           "delivered and how it is checked): it adds the x-passdown/checkpoint block with the "
           "goal, the session and the fencing epoch the registry records, keeps every item, and "
           "leaves the registry as it is.")
    plain_text = ("Passdown: the checkpoint xbrief/continue.xbrief.json is a plain xBRIEF "
                  "continue checkpoint, but the restart files beside it read its "
                  "x-passdown/checkpoint block (crossfile.checkpoint_plain). ")
    assert _reason(run_hook("Stop", hook_input("stop", cwd=str(plain)))) == (
        plain_text + "Fix it now, before you stop: " + how)
    assert _message(run_hook("PreCompact", hook_input("pre_compact_auto", cwd=str(plain)))) == (
        plain_text + "Fix it first thing after this compaction: " + how)


def test_the_block_comes_before_the_folder_findings_and_after_the_checkpoints_own(tmp_path):
    """Beside a packet, a registry and an ACK, the ACK's findings compare against the block:
    the command that adds it comes first. An error of the checkpoint itself comes before it,
    since `passdown init` adopts a valid checkpoint only."""

    folder = tmp_path / "handoff"
    shutil.copytree(Path(__file__).resolve().parents[2] / "examples" / "handoff", folder)
    path = folder / CHECKPOINT
    document = json.loads(path.read_text())
    del document["x-passdown/checkpoint"]
    path.write_text(json.dumps(document, indent=2))
    reason = _reason(run_hook("Stop", hook_input("stop", cwd=str(folder))))
    assert reason.startswith(
        "Passdown: the checkpoint xbrief/continue.xbrief.json is a plain xBRIEF continue "
        "checkpoint, but the restart files beside it read its x-passdown/checkpoint block "
        "(crossfile.checkpoint_plain). Fix it now, before you stop: run `passdown init "
        "--outcome TEXT` in the handoff folder")
    assert reason.endswith("leaves the registry as it is. Then `passdown validate "
                           "xbrief/continue.xbrief.json` names what else to fix "
                           "(ack.goal_mismatch).")
    document["plan"]["items"].append(dict(document["plan"]["items"][0]))  # a duplicate id
    path.write_text(json.dumps(document, indent=2))
    assert _reason(run_hook("Stop", hook_input("stop", cwd=str(folder)))) == (
        "Passdown: the checkpoint xbrief/continue.xbrief.json is not valid (ack.goal_mismatch, "
        "checkpoint.duplicate_id, crossfile.checkpoint_plain). Fix it now, before you stop: "
        "`passdown validate xbrief/continue.xbrief.json` names each finding and how to fix it.")


def test_a_plain_checkpoint_marked_completed_is_consumed(plain):
    path = plain / CHECKPOINT
    document = json.loads(path.read_text())
    document["plan"]["status"] = "completed"
    path.write_text(json.dumps(document, indent=2))
    done = run_hook("SessionStart", hook_input("session_start_startup", cwd=str(plain)))
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")


# -- only a legacy checkpoint --------------------------------------------------------------

def _legacy(tmp_path, document):
    (tmp_path / "vbrief").mkdir()
    (tmp_path / "vbrief" / "continue.vbrief.json").write_text(json.dumps(document))
    return run_hook("SessionStart", hook_input("session_start_startup", cwd=str(tmp_path)))


def test_a_legacy_vbrief_checkpoint_alone_gets_a_migrate_hint(tmp_path):
    done = _legacy(tmp_path, {"vBRIEFInfo": {"version": "0.5"},
                              "plan": {"title": "t", "status": "running", "items": []}})
    assert _context(done) == (
        "Passdown: this project's continue checkpoint is the legacy vbrief/continue.vbrief.json; "
        "there is no xbrief/continue.xbrief.json. Read it before anything else: it records where "
        "the previous session stopped. `passdown migrate`, run in this folder, converts it to "
        "xbrief/continue.xbrief.json (`--fix` makes the mechanical fixes it needs, with a diff).")


def test_the_command_the_legacy_hint_names_migrates_the_real_file(tmp_path):
    """The hint's command, run as it says (with the identity migrate asks for and `--fix`),
    turns a real legacy continue file into the checkpoint; naming the file as an argument
    was a usage error."""


    (tmp_path / "vbrief").mkdir()
    shutil.copyfile(DATA.parent / "real" / "deft-spec-stale-0.5.vbrief.json",
                    tmp_path / "vbrief" / "continue.vbrief.json")
    done = run_hook("SessionStart", hook_input("session_start_startup", cwd=str(tmp_path)))
    command = _context(done).split("`")[1]
    assert command == "passdown migrate"
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(tmp_path)
        result = CliRunner().invoke(cli, [*command.split()[1:], "--fix", "--goal-id", "g",
                                          "--main-id", "m", "--outcome", "o"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "xbrief" / "continue.xbrief.json").is_file()


def test_a_legacy_named_file_that_is_not_xbrief_is_called_what_it_is(tmp_path):
    """The shape of a real one (``"schema": "vbrief/1.0"``, ``session_summary``,
    ``known_gaps``): no tool reads it as a checkpoint, and the hint says so."""
    done = _legacy(tmp_path, {"schema": "vbrief/1.0", "session_summary": {"completed": ["x"]},
                              "known_gaps": {"a": "b"}})
    assert _context(done).startswith(
        "Passdown: this project has a file at the legacy checkpoint path "
        "vbrief/continue.vbrief.json, but it is not an xBRIEF document (it has no vBRIEFInfo or "
        "xBRIEFInfo header), so no tool can read it as a checkpoint.")


def test_a_current_checkpoint_whose_open_attempt_registered_an_earlier_version_is_given(tmp_path):
    """The commands permit changing the checkpoint while an attempt is open; SessionStart then
    gives the checkpoint and says what is stale (the attempt's digest), instead of calling
    the checkpoint not valid (HST-205)."""
    folder = new_project(tmp_path / "project")
    with contextlib.chdir(folder):
        for args in (["packet", "render", "--source-id", "sess-main-1", "--restart-id", "r1"],
                     ["checkpoint", "set-resume", "Open ledger/parsing/csv.py"]):
            result = CliRunner().invoke(cli, args)
            assert result.exit_code == 0, result.output
    options = {**_hooks.default_options(), "folder": str(folder)}
    replies = {event: _claude_hooks.run(event, json.dumps(
        {"hook_event_name": event, "source": "startup", "stop_hook_active": False}).encode(), options)
        for event in ("SessionStart", "PreCompact", "Stop")}
    context = json.loads(replies["SessionStart"].stdout)["hookSpecificOutput"]["additionalContext"]
    assert "not valid" not in context
    assert "Resume point" in context and "Open ledger/parsing/csv.py" in context
    note = context.split("\n\n")[-1]
    assert note.startswith("Passdown: note: ") and "(crossfile.checkpoint_changed)" in note
    assert "render a new packet (`passdown packet render`)" in note
    assert (replies["PreCompact"].stdout, replies["Stop"].stdout) == ("", "")


# -- payloads as a host really sent them ---------------------------------------------------

REAL = DATA / "real"


REAL_PAYLOADS = json.loads((REAL / "MANIFEST.json").read_text())["files"]


def test_the_payload_manifest_names_every_file_and_where_it_came_from():
    """Every real payload is listed once with its repository and either the path and commit
    it was taken from or the thread of that repository that shows it."""

    assert sorted(entry["file"] for entry in REAL_PAYLOADS) == sorted(
        path.name for path in REAL.iterdir() if path.name != "MANIFEST.json")
    for entry in REAL_PAYLOADS:
        assert entry["repository"].count("/") == 1 and entry["event"], entry
        if "commit" in entry:
            assert re.fullmatch(r"[0-9a-f]{40}", entry["commit"]) and entry["path"], entry
        else:
            assert entry["source"].startswith(f"https://github.com/{entry['repository']}/"), entry


@pytest.mark.parametrize("entry", [e for e in REAL_PAYLOADS if e["event"] == "PreCompact"],
                         ids=lambda entry: entry["file"])
def test_a_real_payload_gets_the_documented_answer(repository, entry):
    """A payload with only some of the documented fields (the handoff folder then comes from
    $CLAUDE_PROJECT_DIR) is answered in the event's documented form, never a failure."""
    commit = _commit(repository, "Migrate reports", "reports/monthly.py", when="2026-10-14T10:00:00Z")
    raw = (REAL / entry["file"]).read_bytes()
    done = run_hook(entry["event"], raw, env={"CLAUDE_PROJECT_DIR": str(repository)})
    assert _message(done) == _stale_text(commit, "Migrate reports", "2026-10-14T10:00:00.000Z")


@pytest.mark.parametrize("entry", [e for e in REAL_PAYLOADS if e["event"] == "SessionStart"],
                         ids=lambda entry: entry["file"])
def test_a_real_session_start_gets_the_checkpoint(project, entry):
    """A captured SessionStart (its cwd a folder of the capturing machine): the handoff folder
    comes from $CLAUDE_PROJECT_DIR, and the model is given the checkpoint's resume point."""
    raw = (REAL / entry["file"]).read_bytes()
    assert json.loads(raw)["source"] == "startup" and not os.path.exists(json.loads(raw)["cwd"])
    done = run_hook("SessionStart", raw, env={"CLAUDE_PROJECT_DIR": str(project)})
    assert _context(done, "SessionStart") == RESUME
