"""``passdown hook codex EVENT`` and ``passdown hook install|uninstall codex``: every output
validated against Codex CLI's published output schema for its event
(``tests/data/codex_hooks/``, see its MANIFEST.json); the guard run under a process standing
for the Codex host; install then uninstall beside another tool's hooks gives the file back
byte for byte. The built inputs carry exactly the fields Codex's input schemas require; the
payloads Codex really sent (``tests/data/codex_hooks/real/``, see its MANIFEST.json) are fed
to the command as they were captured."""

from __future__ import annotations

import json
import re
import os
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from passdown.cli import cli
from passdown.hosts import _claude_settings, _codex_hooks, _compactions, _hooks
from hosts_support import DATA as CLAUDE_DATA, RESUME, run_as_host

SCHEMAS = Path(__file__).resolve().parents[1] / "data" / "codex_hooks"
SCHEMA_OF = {"PreToolUse": "pre-tool-use", "SessionStart": "session-start", "Stop": "stop",
             "PreCompact": "pre-compact", "PostCompact": "post-compact"}
EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "mcp-codex-config.toml"
SESSION = "019a2b3c-0000-7000-8000-000000000001"


def _input(event, cwd, **fields):
    """A hook input with the fields Codex's input schema for ``event`` requires, validated
    against that schema (SessionStart's input schema is not among the stored ones: its input
    has the common fields and ``source``)."""
    common = {"cwd": str(cwd), "hook_event_name": event, "model": "gpt-5-codex",
              "session_id": SESSION, "transcript_path": None}
    turn = {"turn_id": "turn-1"}
    own = {"PreToolUse": {"permission_mode": "default", "tool_name": "Bash",
                          "tool_use_id": "call-1", "tool_input": {"command": "ls"}},
           "SessionStart": {"source": "startup"},
           "PreCompact": {**turn, "trigger": "auto"}, "PostCompact": {**turn, "trigger": "auto"},
           "Stop": {**turn, "permission_mode": "default", "stop_hook_active": False,
                    "last_assistant_message": "Done."}}[event]
    value = {**common, **own, **fields}
    schema = SCHEMAS / f"{SCHEMA_OF[event]}.command.input.schema.json"
    if schema.exists() and value["hook_event_name"] == event:
        jsonschema.Draft7Validator(json.loads(schema.read_text())).validate(value)
    return value


def _answer(event, payload, **options):
    values = {**_hooks.default_options(), **options}
    return _codex_hooks.run(event, json.dumps(payload).encode(), values)


def _valid(event, reply):
    """The reply's stdout, parsed and validated against Codex's schema for ``event``."""
    schema = json.loads((SCHEMAS / f"{SCHEMA_OF[event]}.command.output.schema.json").read_text())
    output = json.loads(reply.stdout)
    jsonschema.Draft7Validator(schema).validate(output)
    return output


@pytest.fixture
def repository(tmp_path):
    """A checkout whose checkpoint is older than the last commit of work."""
    folder = tmp_path / "project"
    shutil.copytree(CLAUDE_DATA / "project", folder)
    env = {**os.environ, "GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@example.org",
           "GIT_COMMITTER_NAME": "a", "GIT_COMMITTER_EMAIL": "a@example.org"}
    for when, path in (("2026-10-14T08:00:00Z", "README.md"), ("2026-10-14T10:00:00Z", "reports/monthly.py")):
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text("work\n")
        dated = {**env, "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}
        if not (folder / ".git").exists():
            subprocess.run(["git", "-C", str(folder), "init", "-q"], check=True, env=dated)
        subprocess.run(["git", "-C", str(folder), "add", "-A"], check=True, env=dated)
        subprocess.run(["git", "-C", str(folder), "commit", "-q", "-m", f"Add {path}"], check=True, env=dated)
    return folder


# -- each event's output, against Codex's schema ---------------------------------------

def test_session_start_injects_the_checkpoint_as_additional_context(tmp_path):
    folder = tmp_path / "project"
    shutil.copytree(CLAUDE_DATA / "project", folder)
    output = _valid("SessionStart", _answer("SessionStart", _input("SessionStart", folder)))
    context = output["hookSpecificOutput"]["additionalContext"]
    assert output["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    assert context.startswith("Passdown: this project has a continue checkpoint, "
                              "xbrief/continue.xbrief.json (revision 6")
    assert "First safe action: Open reports/monthly.py and replace the parse_rows import" in context


def test_stop_blocks_with_the_update_instruction_when_work_is_newer(repository):
    output = _valid("Stop", _answer("Stop", _input("Stop", repository)))
    assert output["decision"] == "block"
    assert output["reason"].startswith("Passdown: the checkpoint xbrief/continue.xbrief.json")
    assert _answer("Stop", _input("Stop", repository, stop_hook_active=True)).stdout == ""


def test_pre_compact_shows_the_person_the_instruction_and_counts_nothing(repository):
    output = _valid("PreCompact", _answer("PreCompact", _input("PreCompact", repository)))
    assert set(output) == {"systemMessage"}
    assert _compactions.count(str(repository), "codex", SESSION) is None  # never counted


def test_post_compact_counts_the_compaction_and_says_nothing(repository):
    for expected in (1, 2):
        reply = _answer("PostCompact", _input("PostCompact", repository))
        assert (reply.exit_code, reply.stdout, reply.stderr) == (0, "", "")
        assert _compactions.count(str(repository), "codex", SESSION) == expected


def test_a_guard_denial_is_codex_deny_form(tmp_path):
    call = _input("PreToolUse", tmp_path, tool_input={"command": "systemctl --user restart dsh.service"})
    reply = _answer("PreToolUse", call, service_unit="dsh.service", restart_tool="restart_dsh")
    decided = _valid("PreToolUse", reply)["hookSpecificOutput"]
    assert (reply.exit_code, decided["permissionDecision"]) == (0, "deny")
    assert decided["permissionDecisionReason"].endswith("(passdown guard: service_restart)")


def test_where_the_guard_would_ask_codex_gets_a_deny_saying_so(tmp_path):
    reply = _answer("PreToolUse", _input("PreToolUse", tmp_path, tool_input={"command": "echo 'open"}),
                    restart_tool="restart_dsh")
    decided = _valid("PreToolUse", reply)["hookSpecificOutput"]
    assert decided["permissionDecision"] == "deny"
    assert decided["permissionDecisionReason"] == (
        "Codex hooks cannot ask the person, so Passdown denies this call instead of asking. Ask "
        "the person: they may run it themselves if it is safe. Ask: the guard cannot read part "
        "of this command (a single quote is not closed). Allow it only if it does not restart, "
        "stop or kill the host; to restart the host, use restart_dsh. (passdown guard: unreadable)")


@pytest.mark.parametrize(("raw", "code"), [(b"not json", "hook.bad_input"),
                                           (b'{"hook_event_name": "Stop"}', "hook.wrong_event")])
def test_input_passdown_cannot_judge_is_denied_with_its_code(raw, code):
    reply = _codex_hooks.run("PreToolUse", raw, _hooks.default_options())
    decided = _valid("PreToolUse", reply)["hookSpecificOutput"]
    assert decided["permissionDecision"] == "deny"
    assert f"Passdown's guard could not judge this call ({code}: " in decided["permissionDecisionReason"]


def test_a_wrong_event_names_the_codex_hook_to_register(tmp_path):
    reply = _answer("Stop", _input("PostCompact", tmp_path))
    assert (reply.exit_code, reply.stdout) == (1, "")
    assert reply.stderr == ("passdown hook: hook.wrong_event: the input is for 'PostCompact', but "
                            "this hook handles 'Stop'\n  hint: register `passdown hook codex "
                            "PostCompact` for PostCompact\n")


def test_other_events_fail_with_exit_1_and_the_code():
    reply = _codex_hooks.run("SessionStart", b"[1]", _hooks.default_options())
    assert (reply.exit_code, reply.stdout) == (1, "")
    assert reply.stderr.startswith("passdown hook: hook.bad_input: ")



@pytest.mark.parametrize("event", list(SCHEMA_OF))
def test_a_hook_out_of_time_answers_in_codex_failure_form(event, monkeypatch, tmp_path):
    """Within the hook's budget (HST-206) on a 16 MiB input: PreToolUse denies, in Codex's
    schema and saying why, where the Claude Code hook would ask; the others exit 1."""
    monkeypatch.setitem(_hooks.BUDGETS, event, 0.001)
    padded = {"tool_input": {"command": "kill -9 1; " * ((16 << 20) // 12)}} \
        if event == "PreToolUse" else {"pad": "x" * ((16 << 20) - 400)}
    reply = _answer(event, {**_input(event, tmp_path), **padded}, folder=str(tmp_path))
    if event == "PreToolUse":
        decided = _valid("PreToolUse", reply)["hookSpecificOutput"]
        assert decided["permissionDecision"] == "deny"
        assert decided["permissionDecisionReason"].startswith("Codex hooks cannot ask the person")
        assert "(hook.timeout: " in decided["permissionDecisionReason"]
    else:
        assert (reply.exit_code, reply.stdout) == (1, "")
        assert reply.stderr.startswith("passdown hook: hook.timeout: ")

ROLLOUT = Path(__file__).resolve().parents[1] / "data" / "hosts" / "codex" / "rollout-0.125.0.jsonl"
ROLLOUT_SESSION = "019e1625-789d-76c0-80ab-3724b5ddb799"


def test_session_start_assesses_the_session_from_its_codex_rollout(tmp_path):
    env = {**os.environ, "HOME": str(tmp_path)}
    init = subprocess.run([sys.executable, "-m", "passdown", "init", "--goal-id", "goal-app",
                           "--main-id", ROLLOUT_SESSION, "--outcome", "the app works", "--next",
                           "Do the first step", "-q"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=60)
    assert init.returncode == 0, init.stderr
    call = _input("SessionStart", tmp_path, session_id=ROLLOUT_SESSION, transcript_path=str(ROLLOUT))
    done = subprocess.run([sys.executable, "-m", "passdown", "hook", "codex", "SessionStart"],
                          input=json.dumps(call), cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=60)
    assert (done.returncode, done.stderr) == (0, "")
    output = json.loads(done.stdout)
    jsonschema.Draft7Validator(json.loads(
        (SCHEMAS / "session-start.command.output.schema.json").read_text())).validate(output)
    assert output["hookSpecificOutput"]["additionalContext"].endswith(
        "\n\nPassdown: CHECKPOINT_ONLY (restart_not_authorized; context 131,573 tokens of 258,400 "
        "(51%); a fresh start about 17,457): keep the checkpoint current and the units small.")


# -- the guard under a process standing for the Codex host ---------------------------------

def test_the_guard_denies_killing_the_observed_codex_host_and_allows_other_kills(tmp_path):
    if not os.path.isdir("/proc/self"):
        pytest.skip("the host is observed through /proc, which this system lacks")
    command = _claude_settings.hook_command(_claude_settings.hook_launcher(), "PreToolUse", {}, "codex")
    calls = [{"tool_input": {"command": text}} for text in ("kill -9 $PPID", "pkill -f pytest")]
    denied, allowed = run_as_host(tmp_path, "codex", command, calls, _input("PreToolUse", tmp_path))
    schema = json.loads((SCHEMAS / "pre-tool-use.command.output.schema.json").read_text())
    output = json.loads(denied[1])
    jsonschema.Draft7Validator(schema).validate(output)
    assert (denied[0], denied[2], output["hookSpecificOutput"]["permissionDecision"]) == (0, "", "deny")
    assert output["hookSpecificOutput"]["permissionDecisionReason"].endswith("(passdown guard: host_kill)")
    assert allowed == [0, "", ""]


# -- install and uninstall -----------------------------------------------------------------

OTHER = (b'{\r\n  "hooks": {\r\n    "PreToolUse": [\r\n      {\r\n        "matcher": "Bash",\r\n'
         b'        "hooks": [{"type": "command", "command": "other-tool check", "timeout": 5}]\r\n'
         b'      }\r\n    ]\r\n  }\r\n}\r\n')


def _invoke(*args, cwd):
    old = os.getcwd()
    os.chdir(cwd)
    try:
        return CliRunner().invoke(cli, list(args))
    finally:
        os.chdir(old)


def test_install_then_uninstall_gives_back_another_tools_hooks_byte_for_byte(tmp_path):
    path = tmp_path / ".codex" / "hooks.json"
    path.parent.mkdir()
    path.write_bytes(OTHER)
    installed = _invoke("hook", "install", "codex", "--project", "--command", "passdown", cwd=tmp_path)
    assert installed.exit_code == 0, installed.output
    assert "open /hooks in Codex to review and trust Passdown's hooks" in installed.output
    data = json.loads(path.read_bytes())
    assert sorted(data["hooks"]) == sorted(SCHEMA_OF)
    assert data["hooks"]["PreToolUse"][0]["hooks"][0]["command"] == "other-tool check"
    assert data["hooks"]["PostCompact"] == [
        {"hooks": [{"type": "command", "command": "passdown hook codex PostCompact", "timeout": 30}]}]
    assert b"\r\n" in path.read_bytes() and path.read_bytes().count(b"\n") == path.read_bytes().count(b"\r\n")
    again = _invoke("hook", "install", "codex", "--project", "--command", "passdown", cwd=tmp_path)
    assert "already installed; nothing changed" in again.output
    removed = _invoke("hook", "uninstall", "codex", "--project", cwd=tmp_path)
    assert removed.exit_code == 0, removed.output
    assert path.read_bytes() == OTHER


def test_uninstall_codex_leaves_claude_hooks_alone(tmp_path):
    path = tmp_path / "hooks.json"
    claude = _claude_settings.plan_install(str(path), ["passdown"], {})
    claude.write()
    before = path.read_bytes()
    assert _claude_settings.plan_uninstall(str(path), "codex").changed is False
    assert path.read_bytes() == before


def test_user_scope_is_codex_home(tmp_path):
    assert _claude_settings.settings_path("user", {"CODEX_HOME": str(tmp_path)}, host="codex") == \
        str(tmp_path / "hooks.json")


def test_a_symlinked_hooks_json_is_written_through_at_its_target(tmp_path):
    target = tmp_path / "dotfiles" / "hooks.json"
    target.parent.mkdir()
    target.write_bytes(OTHER)
    (tmp_path / ".codex").mkdir()
    (tmp_path / ".codex" / "hooks.json").symlink_to(target)
    assert _invoke("hook", "install", "codex", "--project", "--command", "passdown", cwd=tmp_path).exit_code == 0
    assert (tmp_path / ".codex" / "hooks.json").is_symlink()
    assert b"passdown hook codex PreToolUse" in target.read_bytes()
    assert _invoke("hook", "uninstall", "codex", "--project", cwd=tmp_path).exit_code == 0
    assert target.read_bytes() == OTHER


def test_a_fifo_as_hooks_json_is_refused_with_its_code(tmp_path):
    (tmp_path / ".codex").mkdir()
    os.mkfifo(tmp_path / ".codex" / "hooks.json")
    result = _invoke("hook", "install", "codex", "--project", cwd=tmp_path)
    assert result.exit_code == 2
    assert "load.not_regular" in result.output


def test_mcp_dry_run_prints_the_config_toml_table():
    result = CliRunner().invoke(cli, ["hook", "install", "codex", "--mcp", "--dry-run",
                                      "--command", "passdown"])
    assert (result.exit_code, result.output) == (0, EXAMPLE.read_text(encoding="utf-8"))
    refused = CliRunner().invoke(cli, ["hook", "install", "codex", "--mcp"])
    assert refused.exit_code == 2
    assert "--mcp prints Codex CLI's config.toml table and writes nothing" in refused.output


# -- the fast path -------------------------------------------------------------------------

HEAVY = ("json", "re", "typing", "dataclasses", "click", "jsonschema", "mcp", "enum")


def test_the_codex_pre_tool_use_path_loads_nothing_heavy(tmp_path):
    call = json.dumps(_input("PreToolUse", tmp_path, tool_input={"command": "kill -1"}))
    code = ("import io, sys\n"
            f"sys.stdin = io.TextIOWrapper(io.BytesIO({call.encode()!r}))\n"
            "from passdown._entry import main\n"
            "status = main(['hook', 'codex', 'PreToolUse'])\n"
            f"print(status, sorted(m for m in {HEAVY!r} if m in sys.modules), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False,
                          timeout=60)
    assert done.stderr.strip().splitlines()[-1] == "0 []"
    assert json.loads(done.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"


# -- payloads as Codex really sent them ----------------------------------------------------

REAL = SCHEMAS / "real"
REAL_PAYLOADS = json.loads((REAL / "MANIFEST.json").read_text())["files"]


def _real(event):
    return [entry for entry in REAL_PAYLOADS if entry["event"] == event]


def _hook(event, raw, *options):
    """``passdown hook codex EVENT OPTIONS`` as Codex runs it, ``raw`` on stdin."""
    return subprocess.run([sys.executable, "-m", "passdown", "hook", "codex", event, *options],
                          input=raw, capture_output=True, timeout=60, check=False)


def _stale(folder, when):
    """The update instruction for the ``repository`` fixture, whose newest commit is newer
    than its checkpoint; ``when`` is the event's own words for when to update it."""
    commit = subprocess.run(["git", "-C", str(folder), "rev-parse", "HEAD"], capture_output=True,
                            text=True, check=True).stdout.strip()
    return (f"Passdown: the checkpoint xbrief/continue.xbrief.json is older than the last "
            f'completed work (commit {commit[:12]} "Add reports/monthly.py", '
            f"2026-10-14T10:00:00.000Z; the checkpoint was written 2026-10-14T09:00:00Z). Update "
            f"it {when}: record each completed step with its evidence (`passdown checkpoint "
            f"add-completed TITLE --evidence REF`) and set the resume point (`passdown checkpoint "
            f"set-resume TEXT`).")


def _answered(event, done):
    """The hook's stdout, exit 0 and nothing on stderr, valid against Codex's output schema."""
    assert (done.returncode, done.stderr) == (0, b"")
    output = json.loads(done.stdout)
    jsonschema.Draft7Validator(json.loads(
        (SCHEMAS / f"{SCHEMA_OF[event]}.command.output.schema.json").read_text())).validate(output)
    return output


def test_the_real_payload_manifest_names_every_file_and_where_it_came_from():
    """Every captured payload is listed once, with the repository, path and commit it was
    taken from and the Codex release that sent it; its event is the one the payload names."""

    assert sorted(entry["file"] for entry in REAL_PAYLOADS) == sorted(
        path.name for path in REAL.iterdir() if path.name != "MANIFEST.json")
    for entry in REAL_PAYLOADS:
        assert entry["repository"].count("/") == 1 and entry["path"], entry
        assert re.fullmatch(r"[0-9a-f]{40}", entry["commit"]), entry
        assert json.loads((REAL / entry["file"]).read_bytes())["hook_event_name"] == entry["event"]
        assert entry["event"] in SCHEMA_OF and entry["captured"], entry


@pytest.mark.parametrize("entry", _real("PreToolUse"), ids=lambda entry: entry["file"])
def test_a_real_call_that_restarts_nothing_passes_silently(entry):
    """The shell as Codex names it (``Bash``) and its edit tool (``apply_patch``, the patch
    text in ``command``), with ``turn_id`` and an ``exec-`` tool_use_id: nothing printed, so
    Codex's own approval policy decides (HST-301)."""
    done = _hook("PreToolUse", (REAL / entry["file"]).read_bytes(), "--restart-tool", "restart_dsh")
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")


def test_the_real_bash_envelope_with_a_host_restart_in_it_is_denied_in_codex_form():
    """The captured Bash call, its command replaced by one that restarts the host's unit:
    every other member as Codex sent it; the denial names the restart tool (HST-301)."""
    call = json.loads((REAL / "pre_tool_use_bash_0.144.5.json").read_bytes())
    call["tool_input"]["command"] = "systemctl --user restart dsh.service"
    done = _hook("PreToolUse", json.dumps(call).encode(), "--service-unit", "dsh.service",
                 "--restart-tool", "restart_dsh")
    assert _answered("PreToolUse", done) == {"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "permissionDecision": "deny",
        "permissionDecisionReason": "Denied: this command restarts or stops dsh.service from "
                                    "inside the host, which ends this call and the turn with it. "
                                    "Use restart_dsh instead: it records a handoff and restarts "
                                    "the host safely. (passdown guard: service_restart)"}}


def test_the_real_apply_patch_call_is_judged_as_data():
    """Codex's edit tool is not an execution channel (HST-024): a patch whose text reads as a
    restart is data, and passes as the same text in a file would."""
    call = json.loads((REAL / "pre_tool_use_apply_patch_0.152.1.json").read_bytes())
    call["tool_input"]["command"] += "\nsystemctl --user restart dsh.service\n"
    done = _hook("PreToolUse", json.dumps(call).encode(), "--service-unit", "dsh.service",
                 "--restart-tool", "restart_dsh")
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")


@pytest.mark.parametrize("entry", _real("SessionStart"), ids=lambda entry: entry["file"])
def test_a_real_session_start_gets_the_checkpoint(tmp_path, entry):
    """A captured SessionStart (its cwd a folder of the capturing machine), the handoff folder
    given with ``--folder``: the model is given the checkpoint's resume point (HST-303)."""
    folder = tmp_path / "project"
    shutil.copytree(CLAUDE_DATA / "project", folder)
    raw = (REAL / entry["file"]).read_bytes()
    assert not os.path.exists(json.loads(raw)["cwd"])
    output = _answered("SessionStart", _hook("SessionStart", raw, "--folder", str(folder)))
    assert output == {"hookSpecificOutput": {"hookEventName": "SessionStart",
                                             "additionalContext": RESUME}}


def test_the_real_session_start_after_a_compaction_asks_for_the_update_first(repository):
    """Source ``compact`` on a checkpoint older than the last commit: the resume point, then
    the instruction to update the checkpoint first thing after this compaction."""
    raw = (REAL / "session_start_compact_0.152.1.json").read_bytes()
    output = _answered("SessionStart", _hook("SessionStart", raw, "--folder", str(repository)))
    assert output["hookSpecificOutput"]["additionalContext"] == (
        RESUME + "\n\n" + _stale(repository, "first thing after this compaction"))


def test_the_real_stop_blocks_with_the_update_instruction(repository):
    output = _answered("Stop", _hook("Stop", (REAL / "stop_0.144.5.json").read_bytes(),
                                     "--folder", str(repository)))
    assert output == {"decision": "block", "reason": _stale(repository, "now, before you stop")}


def test_the_real_stop_after_one_block_stays_silent(repository):
    """``stop_hook_active`` true, as Codex sent it after a Stop hook blocked once (HST-009):
    nothing printed, though the checkpoint is still older than the work."""
    raw = (REAL / "stop_hook_active_0.152.1.json").read_bytes()
    done = _hook("Stop", raw, "--folder", str(repository))
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")


def test_the_real_pre_compact_tells_the_person_and_counts_nothing(repository):
    raw = (REAL / "pre_compact_auto_0.152.1.json").read_bytes()
    output = _answered("PreCompact", _hook("PreCompact", raw, "--folder", str(repository)))
    assert output == {"systemMessage": _stale(repository, "first thing after this compaction")}
    assert _compactions.count(str(repository), "codex", json.loads(raw)["session_id"]) is None


def test_the_real_post_compact_counts_its_session_s_compaction(repository):
    """Counted under the host ``codex`` and the session Codex named, the trigger kept; nothing
    printed (HST-304)."""
    raw = (REAL / "post_compact_auto_0.152.1.json").read_bytes()
    session = json.loads(raw)["session_id"]
    for expected in (1, 2):
        done = _hook("PostCompact", raw, "--folder", str(repository))
        assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
        assert _compactions.count(str(repository), "codex", session) == expected
    recorded = json.loads(Path(_compactions.path_of(str(repository))).read_text())
    assert recorded["sessions"][f"codex:{session}"]["last_trigger"] == "auto"


@pytest.mark.parametrize("entry", REAL_PAYLOADS, ids=lambda entry: entry["file"])
def test_a_real_payload_whose_cwd_is_not_here_is_answered_quietly(entry):
    """Without ``--folder`` the handoff folder is the payload's cwd, a folder of the capturing
    machine: no checkpoint there, so every event exits 0 and prints nothing, and no hook
    creates that folder (HST-011; the count has nowhere to go)."""
    raw = (REAL / entry["file"]).read_bytes()
    cwd = json.loads(raw)["cwd"]
    assert not os.path.exists(cwd)
    done = _hook(entry["event"], raw)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    assert not os.path.exists(cwd)


def test_where_the_system_does_not_say_the_host_s_name_is_codex(tmp_path, monkeypatch):
    """Without /proc only the pid is known; ``pkill codex`` still stops the host (HST-031)."""
    monkeypatch.setattr(_hooks._host, "observe", lambda pid=None: {"host_pid": 4242})
    denied = _answer("PreToolUse", _input("PreToolUse", tmp_path, tool_input={"command": "pkill codex"}))
    passed = _answer("PreToolUse", _input("PreToolUse", tmp_path, tool_input={"command": "pkill -f vite"}))
    assert "process_kill" in denied.stdout and passed.stdout == ""
