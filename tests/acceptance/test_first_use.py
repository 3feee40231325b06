"""The frictions a new user meets on a first handoff, each as the command line answers it now:
``validate`` and ``ack verify`` find the handoff folder from a subfolder, a walk on a terminal
shows its progress (and nothing else changes), every ``attempt`` step says what comes next,
``takeover`` reads the committed epoch itself, ``migrate`` leaves a registry, the legacy
warning stops asking to migrate once migrated, a mistyped command gets a suggestion, ``ack
write`` outside a checkout says what it needs, and ``--help`` reads in the order of a handoff,
ending with five commands that do run as a first handoff."""

from __future__ import annotations

import io
import json
import shlex
import shutil

import pytest
from click.testing import CliRunner

from authoring_support import REPO, make_project, registry_of
from git_support import git, new_checkout
from passdown import cli as cli_module
from passdown.cli import cli
from passdown.reporters import _progress
from xbrief_legacy import LEGACY

EXAMPLE_HANDOFF = REPO / "examples" / "handoff"


def passdown(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture
def handoff(tmp_path, monkeypatch):
    """A copy of the example handoff with a subfolder ``src/deep``, entered."""
    folder = tmp_path / "handoff"
    shutil.copytree(EXAMPLE_HANDOFF, folder)
    (folder / "src" / "deep").mkdir(parents=True)
    monkeypatch.chdir(folder / "src" / "deep")
    return folder


# -- validate and ack verify find the handoff folder upward (AUT-097, AUT-098) --------------

def test_validate_with_no_path_checks_the_handoff_folder_above(handoff):
    result = passdown("validate")
    assert (result.exit_code, result.stdout) == (0, "4 files checked: no findings\n")
    assert result.stderr == f"passdown: using the handoff folder {handoff}\n"
    report = json.loads(passdown("validate", "--format", "json").stdout)
    assert sorted(entry["file"] for entry in report["files"]) == [
        "../../ack.json", "../../continuation.packet.txt", "../../registry.yaml",
        "../../xbrief/continue.xbrief.json"]
    assert passdown("validate", "--format", "json").stderr == ""
    assert passdown("validate", "-q").stderr == ""


def test_validate_with_no_path_and_no_handoff_checks_the_current_folder(tmp_path, monkeypatch):
    (tmp_path / ".git").mkdir()  # the search stops at the top of a checkout
    monkeypatch.chdir(tmp_path)
    result = passdown("validate", "--format", "json")
    report = json.loads(result.stdout)
    assert (result.exit_code, [f["code"] for f in report["findings"]]) == (1, ["detect.no_artifacts"])


def test_ack_verify_finds_the_packet_and_the_registry(handoff):
    result = passdown("ack", "verify", handoff / "ack.json")
    assert (result.exit_code, result.stdout.splitlines()[0]) == (0, f"{handoff / 'ack.json'}: accepted")
    assert result.stderr == f"passdown: using the handoff folder {handoff}\n"
    beside = passdown("ack", "verify", handoff / "ack.json", "--registry", handoff / "registry.yaml", "-v")
    assert f"read packet: {handoff / 'continuation.packet.txt'}" in beside.stdout
    beside = passdown("ack", "verify", handoff / "ack.json", "--packet", handoff / "continuation.packet.txt", "-v")
    assert f"read registry: {handoff / 'registry.yaml'}" in beside.stdout


def test_ack_verify_with_no_handoff_folder_is_unusable(tmp_path, monkeypatch):
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ack.json").write_text("{}", encoding="utf-8")
    result = passdown("ack", "verify", "ack.json", "--format", "json")
    assert (result.exit_code, json.loads(result.stdout)["codes"]) == (2, ["authoring.no_registry"])


# -- progress on a terminal (AUT-094) ----------------------------------------------------------

class _Terminal(io.StringIO):
    def isatty(self):
        return True


class _Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_progress_waits_then_redraws_one_line_and_erases_it():
    stream, clock = _Terminal(), _Clock()
    progress = _progress.Progress(stream, clock, delay=0.5, interval=0.25)
    clock.now += 0.25
    progress(10, 1000)
    assert stream.getvalue() == ""  # a short walk draws nothing
    clock.now += 0.75
    progress(100, 1000)
    assert stream.getvalue() == "\r\x1b[Kchecked 100 of 1,000 files, 100 files/s, about 9 s left"
    clock.now += 0.125
    progress(110, 1000)  # within the interval: not redrawn
    assert stream.getvalue().count("checked") == 1
    clock.now += 0.125
    progress(125, 1000)
    assert stream.getvalue().endswith("\r\x1b[Kchecked 125 of 1,000 files, 100 files/s, about 9 s left")
    clock.now += 98.75
    progress(999, 1000)
    assert stream.getvalue().endswith("\r\x1b[Kchecked 999 of 1,000 files, 10 files/s, about 0 s left")
    progress.close()
    assert stream.getvalue().endswith("\r\x1b[K")


def test_progress_is_drawn_only_on_two_terminals_without_quiet():
    assert _progress.wanted(False, _Terminal(), _Terminal()) is True
    assert _progress.wanted(True, _Terminal(), _Terminal()) is False
    assert _progress.wanted(False, io.StringIO(), _Terminal()) is False  # stdout piped
    assert _progress.wanted(False, _Terminal(), io.StringIO()) is False
    assert _progress.line(0, 5, 0.0) == "checked 0 of 5 files"
    assert _progress.line(30, 5030, 1.0) == "checked 30 of 5,030 files, 30 files/s, about 2 min 47 s left"


def test_progress_leaves_the_output_unchanged(handoff, monkeypatch):
    plain = passdown("validate", "--format", "json", handoff)
    monkeypatch.setattr(_progress, "wanted", lambda quiet: not quiet)
    monkeypatch.setattr(_progress, "DELAY", 0.0)
    monkeypatch.setattr(_progress, "INTERVAL", 0.0)
    drawn = passdown("validate", "--format", "json", handoff)
    assert (drawn.exit_code, drawn.stdout) == (plain.exit_code, plain.stdout)
    assert "checked 4 of 4 files" in drawn.stderr and drawn.stderr.endswith("\r\x1b[K")
    assert passdown("validate", "-q", handoff).stderr == ""


# -- attempt: the next step, show, takeover (AUT-089, AUT-090, AUT-092) -------------------------

def _committed_project_with_a_packet(tmp_path, monkeypatch):
    """A checkout whose handoff files are committed, the working folder, and packet r1 rendered."""
    project = new_checkout(tmp_path / "project", {"README": "work\n"})
    make_project(project)
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "handoff files")
    monkeypatch.chdir(project)
    assert passdown("packet", "render", "--source-id", "sess-a", "--restart-id", "r1").exit_code == 0
    return project


def test_each_attempt_step_ends_with_the_next_command_and_takeover_reads_the_epoch(tmp_path, monkeypatch):
    project = _committed_project_with_a_packet(tmp_path, monkeypatch)
    created = passdown("attempt", "created", "r1", "--target-id", "sess-b")
    assert created.stdout.splitlines()[-1] == (
        "  next: passdown ack write --target-id sess-b (the target), then passdown attempt ack r1 ack.json")
    assert passdown("ack", "write", "--target-id", "sess-b").exit_code == 0
    accepted = passdown("attempt", "ack", "r1", "ack.json")
    assert accepted.stdout.splitlines()[-1] == "  next: passdown attempt commit r1"
    early = passdown("attempt", "takeover", "r1", "--target-id", "sess-b", "--format", "json")
    assert (early.exit_code, json.loads(early.stdout)["error"]["code"]) == (1, "attempt.state")
    committed = passdown("attempt", "commit", "r1")
    assert committed.stdout.splitlines()[-1] == "  next: passdown attempt takeover r1 --target-id sess-b (the target)"
    took = passdown("attempt", "takeover", "r1", "--target-id", "sess-b")
    assert took.exit_code == 0
    assert took.stdout.splitlines() == [
        "sess-b took over r1 at fencing epoch 1 (revision 6)",
        "  next: passdown checkpoint set epoch 1 --epoch 1, then passdown attempt release r1"]
    shown = passdown("attempt", "show", "r1")
    assert shown.stdout.splitlines() == [
        "attempt r1: taken_over (revision 6)", "  source: sess-a", "  target: sess-b",
        "  fencing epoch: 1 (committed)",
        "  next: passdown checkpoint set epoch 1 --epoch 1, then passdown attempt release r1"]
    wrong = passdown("attempt", "takeover", "r1", "--target-id", "sess-b", "--fencing-epoch", "2", "--format", "json")
    assert (wrong.exit_code, json.loads(wrong.stdout)["error"]["code"]) == (1, "attempt.takeover_mismatch")


def test_takeover_refuses_when_the_ownership_record_holds_no_epoch(tmp_path, monkeypatch):
    """Without --fencing-epoch and with no committed epoch to read, nothing is taken over (AUT-090)."""
    project = _committed_project_with_a_packet(tmp_path, monkeypatch)
    assert passdown("attempt", "created", "r1", "--target-id", "sess-b").exit_code == 0
    assert passdown("ack", "write", "--target-id", "sess-b").exit_code == 0
    assert passdown("attempt", "ack", "r1", "ack.json").exit_code == 0
    assert passdown("attempt", "commit", "r1").exit_code == 0
    registry = registry_of(project)
    committed = registry.read_text(encoding="utf-8")
    assert committed.count("    fencing_epoch: 1\n") == 1  # the attempt's ownership record
    registry.write_text(committed.replace("    fencing_epoch: 1\n", ""), encoding="utf-8")
    before = registry.read_bytes()
    refused = passdown("attempt", "takeover", "r1", "--target-id", "sess-b", "--format", "json")
    error = json.loads(refused.stdout)["error"]
    assert (refused.exit_code, error["code"]) == (1, "attempt.takeover_mismatch")
    assert error["message"] == 'attempt "r1" records no committed fencing epoch'
    assert "--fencing-epoch" in error["hint"]
    assert registry.read_bytes() == before
    text = passdown("attempt", "takeover", "r1", "--target-id", "sess-b")
    assert text.exit_code == 1 and "Traceback" not in text.output
    assert "attempt.takeover_mismatch" in text.stderr


# -- ack write outside a checkout (AUT-093) -----------------------------------------------------

def test_ack_write_outside_a_checkout_says_what_it_needs(tmp_path, monkeypatch):
    project = make_project(tmp_path / "project")
    monkeypatch.chdir(project)
    assert passdown("packet", "render", "--source-id", "sess-a", "--restart-id", "r1").exit_code == 0
    assert passdown("attempt", "created", "r1", "--target-id", "sess-b").exit_code == 0
    result = passdown("ack", "write", "--target-id", "sess-b")
    assert result.exit_code == 2 and not (project / "ack.json").exists()
    assert result.stderr.endswith(
        "  hint: the ACK records the git checkout the target read (its branch, HEAD and uncommitted "
        "files): run this in the checkout of the work, or name it with --workspace DIR\n")
    assert "git.not_a_repository" in result.stderr


# -- migrate leaves a registry, and the legacy warning stops asking (AUT-091, CKP-032) ------------

def _legacy_project(folder, with_block=False):
    legacy = json.loads(json.dumps(LEGACY["0.6"][1]))
    if with_block:
        (folder / "seed").mkdir(parents=True)
        make_project(folder / "seed")
        legacy["x-passdown/checkpoint"] = json.loads(
            (folder / "seed" / "xbrief" / "continue.xbrief.json").read_text())["x-passdown/checkpoint"]
        shutil.rmtree(folder / "seed")
    (folder / "vbrief").mkdir(parents=True)
    (folder / "vbrief" / "continue.vbrief.json").write_text(json.dumps(legacy, indent=2), encoding="utf-8")
    return folder


def test_migrate_creates_the_registry_and_the_warning_names_the_migrated_file(tmp_path, monkeypatch):
    project = _legacy_project(tmp_path / "project")
    (project / ".git").mkdir()
    monkeypatch.chdir(project)
    before = json.loads(passdown("validate", "--format", "json", "vbrief/continue.vbrief.json").stdout)
    assert [f["hint"] for f in before["findings"]] == [
        "run `passdown migrate` to rewrite it as xbrief/continue.xbrief.json (xBRIEF 0.8)"]
    result = passdown("migrate", "--goal-id", "goal-legacy", "--main-id", "sess-a", "--outcome", "done",
                      "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["result"]["registry"] == "./registry.yaml"
    assert passdown("validate").stdout.endswith("files checked: 0 errors, 1 warning\n")
    registry = (project / "registry.yaml").read_text(encoding="utf-8")
    assert "goal_id: goal-legacy" in registry and "mode: off" in registry
    after = json.loads(passdown("validate", "--format", "json", "vbrief/continue.vbrief.json").stdout)
    assert [(f["code"], f["message"], f["hint"]) for f in after["findings"]] == [(
        "checkpoint.legacy_vbrief",
        "this is a legacy vBRIEF 0.6 checkpoint, already migrated to xbrief/continue.xbrief.json",
        "the commands read xbrief/continue.xbrief.json: remove this legacy file once nothing else reads it")]
    assert passdown("attempt", "show").stdout.startswith("no attempt in progress")


def test_migrate_without_the_main_session_writes_nothing(tmp_path, monkeypatch):
    project = _legacy_project(tmp_path / "project", with_block=True)
    (project / ".git").mkdir()
    monkeypatch.chdir(project)
    result = passdown("migrate", "--format", "json")
    out = json.loads(result.stdout)
    assert (result.exit_code, out["error"]["code"]) == (2, "authoring.missing_identity")
    assert "--main-id" in out["error"]["message"]
    assert sorted(path.name for path in project.iterdir()) == [".git", "vbrief"]


# -- the command line itself -------------------------------------------------------------------

def test_a_mistyped_command_gets_a_suggestion():
    result = passdown("valdate")
    assert result.exit_code == 2
    assert result.stderr.endswith("Error: No such command 'valdate'. Did you mean 'validate'?\n")
    assert passdown("chekpoint").stderr.endswith("Did you mean 'checkpoint'?\n")
    assert passdown("zzzz").stderr.endswith("Error: No such command 'zzzz'.\n")


def test_help_lists_the_commands_in_handoff_order_and_ends_with_a_first_handoff():
    shown = passdown("--help").stdout
    listed = [line.split()[0] for line in shown.split("Commands:\n")[1].split("\n\n")[0].splitlines()
              if line.startswith("  ") and not line.startswith("    ")]
    assert listed == ["init", "checkpoint", "validate", "observe", "assess", "packet", "attempt", "ack",
                      "fence", "consume", "registry", "migrate", "digest", "gate", "hook", "mcp", "schema",
                      "conformance"]
    ending = [line.strip() for line in shown.rstrip("\n").splitlines()[-5:]]
    assert ending == [line.strip() for line in cli_module.FIRST_HANDOFF.splitlines()[-5:]]
    rows = passdown("attempt", "--help").stdout.split("Commands:\n")[1].splitlines()
    assert [row.split()[0] for row in rows] == ["created", "reconcile", "ack", "commit", "takeover",
                                                "release", "archive", "abandon", "show"]
    rows = passdown("ack", "--help").stdout.split("Commands:\n")[1].splitlines()
    assert [row.split()[0] for row in rows] == ["write", "verify"]
    rows = passdown("checkpoint", "--help").stdout.split("Commands:\n")[1].splitlines()
    assert [row.split()[0] for row in rows if not row.startswith("    ")] == [
        "add-completed", "add-pending", "reorder", "set-resume", "decision", "hazard", "blocker",
        "failed-attempt", "set", "reopen", "from-transcript", "show"]


def test_the_five_commands_of_the_help_run_as_a_first_handoff(tmp_path, monkeypatch):
    project = new_checkout(tmp_path / "project", {"README": "work\n"})
    monkeypatch.chdir(project)
    words = {"GOAL": "goal-1", "SOURCE": "sess-a", "TARGET": "sess-b", "RESTART": "r1",
             "TEXT": "the tests pass", "STEP": "write the parser"}
    lines = [line.strip() for line in cli_module.FIRST_HANDOFF.splitlines() if line.strip().startswith("passdown ")]
    assert len(lines) == 5
    for line in lines:
        argv = [words.get(word, word) for word in shlex.split(line)[1:]]
        result = passdown(*argv)
        assert result.exit_code == 0, (line, result.output)
    assert result.stdout.startswith("ack.json: accepted")
    assert registry_of(project).name == "registry.yaml"
