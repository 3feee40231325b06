"""``passdown hook install|uninstall claude``: an explicit, printed change to one settings.json
that keeps every other byte, installs once however often it runs, and uninstalls exactly
what it added. Every test runs with a temporary HOME: the real user's settings are never
read or written."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from passdown.cli import cli
from passdown.hosts import _claude_settings

EVENTS = ("PreToolUse", "SessionStart", "PreCompact", "Stop")

# A project's settings as people write them: other hooks (one on the same event as Passdown's),
# permissions, env, unicode, four-space indentation, inline arrays.
EXISTING = """{
    "$schema": "https://json.schemastore.org/claude-code-settings.json",
    "model": "opus",
    "permissions": {"allow": ["Bash(npm test)", "Read"], "deny": []},
    "env": {"GREETING": "grüß dich"},
    "hooks": {
        "PostToolUse": [
            {
                "matcher": "Edit|Write",
                "hooks": [{"type": "command", "command": "npx prettier --write \\"$FILE\\""}]
            }
        ],
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [{"type": "command", "command": "./scripts/audit.sh", "timeout": 5}]
            }
        ]
    },
    "statusLine": {"type": "command", "command": "~/.claude/status.sh"}
}
"""


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    """A temporary HOME, and no host variables from the environment running the tests."""
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    for name in ("CLAUDE_CONFIG_DIR", "CLAUDE_PROJECT_DIR"):
        monkeypatch.delenv(name, raising=False)
    return folder


@pytest.fixture
def project(tmp_path, monkeypatch):
    folder = tmp_path / "project"
    (folder / ".claude").mkdir(parents=True)
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(folder))
    return folder


def _passdown(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def _install(*scope, command="passdown", extra=()):
    return _passdown("hook", "install", "claude", *scope, "--command", command, *extra)


def _ours(command, event):
    return {"type": "command", "command": command, "timeout": 10 if event == "PreToolUse" else 30}


def test_install_merges_the_four_entries_and_keeps_everything_else(project):
    path = project / ".claude" / "settings.json"
    path.write_text(EXISTING, encoding="utf-8")
    result = _install("--project", extra=("--restart-tool", "restart_dsh"))
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"--- {path}\n+++ {path}\n")
    assert result.output.endswith(f"{path}: written\n")
    written = json.loads(path.read_text(encoding="utf-8"))
    original = json.loads(EXISTING)
    assert {k: v for k, v in written.items() if k != "hooks"} == {k: v for k, v in original.items() if k != "hooks"}
    assert written["hooks"]["PostToolUse"] == original["hooks"]["PostToolUse"]
    assert written["hooks"]["PreToolUse"] == [
        original["hooks"]["PreToolUse"][0],
        {"matcher": "*", "hooks": [_ours("passdown hook claude PreToolUse --restart-tool restart_dsh", "PreToolUse")]}]
    assert written["hooks"]["SessionStart"] == [
        {"matcher": "startup|resume|clear|compact", "hooks": [_ours("passdown hook claude SessionStart", "SessionStart")]}]
    assert written["hooks"]["PreCompact"] == [{"hooks": [_ours("passdown hook claude PreCompact", "PreCompact")]}]
    assert written["hooks"]["Stop"] == [{"hooks": [_ours("passdown hook claude Stop", "Stop")]}]
    # every original line is still there, in order, untouched
    new_lines = path.read_text(encoding="utf-8").splitlines()
    position = 0
    for line in EXISTING.splitlines():
        position = new_lines.index(line, position) + 1


def test_install_twice_changes_nothing_and_uninstall_gives_back_the_original_bytes(project):
    path = project / ".claude" / "settings.json"
    path.write_bytes(EXISTING.encode("utf-8"))
    assert _install("--project").exit_code == 0
    installed = path.read_bytes()
    again = _install("--project")
    assert (again.exit_code, again.output) == (0, f"{path}: Passdown's hooks are already installed; nothing changed\n")
    assert path.read_bytes() == installed
    removed = _passdown("hook", "uninstall", "claude", "--project")
    assert removed.exit_code == 0 and removed.output.endswith(f"{path}: written\n")
    assert path.read_bytes() == EXISTING.encode("utf-8")
    nothing = _passdown("hook", "uninstall", "claude", "--project")
    assert nothing.output == f"{path}: no Passdown hooks to remove; nothing changed\n"


def test_dry_run_prints_the_exact_change_and_writes_nothing(project):
    path = project / ".claude" / "settings.json"
    path.write_text('{\n  "model": "opus"\n}\n')
    result = _install("--project", "--dry-run")
    assert result.exit_code == 0
    assert path.read_text() == '{\n  "model": "opus"\n}\n'
    assert result.output == f"""--- {path}
+++ {path}
@@ -1,3 +1,51 @@
 {{
-  "model": "opus"
+  "model": "opus",
+  "hooks": {{
+    "PreToolUse": [
+      {{
+        "matcher": "*",
+        "hooks": [
+          {{
+            "type": "command",
+            "command": "passdown hook claude PreToolUse",
+            "timeout": 10
+          }}
+        ]
+      }}
+    ],
+    "SessionStart": [
+      {{
+        "matcher": "startup|resume|clear|compact",
+        "hooks": [
+          {{
+            "type": "command",
+            "command": "passdown hook claude SessionStart",
+            "timeout": 30
+          }}
+        ]
+      }}
+    ],
+    "PreCompact": [
+      {{
+        "hooks": [
+          {{
+            "type": "command",
+            "command": "passdown hook claude PreCompact",
+            "timeout": 30
+          }}
+        ]
+      }}
+    ],
+    "Stop": [
+      {{
+        "hooks": [
+          {{
+            "type": "command",
+            "command": "passdown hook claude Stop",
+            "timeout": 30
+          }}
+        ]
+      }}
+    ]
+  }}
 }}
{path}: dry run, nothing written
"""


def test_the_user_scope_is_the_home_folder_or_claude_config_dir(home, tmp_path, monkeypatch):
    result = _install("--user")
    assert result.exit_code == 0
    created = home / ".claude" / "settings.json"
    assert result.output.startswith(f"--- /dev/null\n+++ {created}\n")
    assert set(json.loads(created.read_text())["hooks"]) == set(EVENTS)
    config = tmp_path / "config"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    assert _install("--user").exit_code == 0
    assert set(json.loads((config / "settings.json").read_text())["hooks"]) == set(EVENTS)


def test_the_project_scope_defaults_to_the_current_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert _install("--project").exit_code == 0
    assert (tmp_path / ".claude" / "settings.json").is_file()


def test_the_default_command_is_this_python_without_site_given_passdown_s_folder(project):
    assert _passdown("hook", "install", "claude", "--project").exit_code == 0
    written = json.loads((project / ".claude" / "settings.json").read_text())
    command = written["hooks"]["Stop"][0]["hooks"][0]["command"]
    folder = Path(_claude_settings.__file__).resolve().parents[2]
    assert shlex.split(command) == [sys.executable, "-S", "-P", "-c", _claude_settings.HOOK_CODE, str(folder),
                                    "hook", "claude", "Stop"]


def test_the_hook_command_fails_without_blocking_once_passdown_is_gone(tmp_path):
    """Python exits 2 for a script it cannot open, which Claude Code takes for a block (and a
    Stop hook's exit 2 keeps the session going); a module it cannot import exits 1."""
    command = _claude_settings.hook_command(
        [sys.executable, "-S", "-P", "-c", _claude_settings.HOOK_CODE, str(tmp_path / "gone")], "Stop", {})
    environ = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    result = subprocess.run(["sh", "-c", command], input=b"{}", capture_output=True, env=environ, timeout=60,
                            check=False)
    assert result.returncode == 1 and b"No module named 'passdown'" in result.stderr


def test_an_installation_upgraded_from_the_launcher_form_gets_the_new_command(project):
    path = project / ".claude" / "settings.json"
    assert _passdown("hook", "install", "claude", "--project", "--command", "/opt/venv/bin/passdown").exit_code == 0
    assert _passdown("hook", "install", "claude", "--project").exit_code == 0
    written = json.loads(path.read_text())["hooks"]
    commands = [hook["command"] for groups in written.values() for group in groups for hook in group["hooks"]]
    assert len(commands) == 4 and all(shlex.split(c)[1:5] == ["-S", "-P", "-c", _claude_settings.HOOK_CODE]
                                      for c in commands), commands


def test_new_options_update_only_the_command(project):
    path = project / ".claude" / "settings.json"
    _install("--project", extra=("--restart-tool", "restart_dsh"))
    before = path.read_text().splitlines()
    result = _install("--project", extra=("--service-unit", "dsh.service"))
    after = path.read_text().splitlines()
    changed = [(old, new) for old, new in zip(before, after) if old != new]
    assert len(before) == len(after) and changed == [
        ('            "command": "passdown hook claude PreToolUse --restart-tool restart_dsh",',
         '            "command": "passdown hook claude PreToolUse --service-unit dsh.service",')]
    assert "-            \"command\": \"passdown hook claude PreToolUse --restart-tool restart_dsh\"," in result.output


def test_an_install_with_the_older_session_start_matcher_is_brought_up_to_date(project):
    """Installed before `clear` was among the sources: reinstalling changes that line only."""
    path = project / ".claude" / "settings.json"
    _install("--project")
    old = path.read_text().replace('"startup|resume|clear|compact"', '"startup|resume|compact"')
    path.write_text(old)
    _install("--project")
    changed = [(a, b) for a, b in zip(old.splitlines(), path.read_text().splitlines()) if a != b]
    assert changed == [('        "matcher": "startup|resume|compact",',
                        '        "matcher": "startup|resume|clear|compact",')]


def test_uninstall_finds_passdown_hooks_whatever_their_options_and_leaves_a_shared_group(project):
    path = project / ".claude" / "settings.json"
    shared = {"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [
        {"type": "command", "command": "./audit.sh"},
        {"type": "command", "command": "/opt/venv/bin/passdown hook claude PreToolUse --host-pid 7"}]}]}}
    text = json.dumps(shared, indent=2) + "\n"
    path.write_text(text)
    assert _passdown("hook", "uninstall", "claude", "--project").exit_code == 0
    assert json.loads(path.read_text()) == {"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [
        {"type": "command", "command": "./audit.sh"}]}]}}


@pytest.mark.parametrize(("content", "code", "status"), [
    ("[1, 2]\n", "hook.bad_settings", 1),
    ('{"hooks": []}\n', "hook.bad_settings", 1),
    ('{"hooks": {"Stop": {"command": "x"}}}\n', "hook.bad_settings", 1),
    ('{"model": "a", "model": "b"}\n', "load.duplicate_key", 2),
    ('{"model": "a",}\n', "load.syntax", 2),
])
def test_a_settings_file_passdown_cannot_edit_is_refused_and_left_alone(project, content, code, status):
    path = project / ".claude" / "settings.json"
    path.write_text(content)
    for command in (("install", "claude", "--project", "--command", "passdown"), ("uninstall", "claude", "--project")):
        result = CliRunner().invoke(cli, ["hook", *command])
        assert result.exit_code == status, result.output
        assert f"passdown: {code}: " in result.output and "hint: " in result.output
        assert path.read_text() == content


def test_an_empty_hooks_object_left_by_hand_goes_with_the_entries(project):
    """The one difference uninstall can make: it cannot tell an empty "hooks" object (or event
    list) written by hand from one it emptied, and removes it."""
    path = project / ".claude" / "settings.json"
    path.write_text('{\n  "model": "opus",\n  "hooks": {\n    "Stop": []\n  }\n}\n')
    _install("--project")
    _passdown("hook", "uninstall", "claude", "--project")
    assert path.read_text() == '{\n  "model": "opus"\n}\n'


def test_a_scope_is_required():
    result = _passdown("hook", "install", "claude", "--command", "passdown")
    assert result.exit_code == 2
    assert "passdown: usage: say which settings file: --project or --user" in result.output


def test_the_file_changed_meanwhile_is_refused(project):
    path = project / ".claude" / "settings.json"
    path.write_text("{}\n")
    plan = _claude_settings.plan_install(str(path), ["passdown"])
    path.write_text('{"model": "opus"}\n')
    with pytest.raises(Exception) as raised:
        plan.write()
    assert raised.value.code == "hook.settings_changed"
    assert path.read_text() == '{"model": "opus"}\n'


# -- any formatting, any content ----------------------------------------------------------

_scalars = st.one_of(st.none(), st.booleans(), st.integers(-10, 10), st.text(max_size=8))
_values = st.recursive(_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)), max_leaves=12)
_handler = st.fixed_dictionaries({"type": st.just("command"), "command": st.sampled_from(
    ["./lint.sh", "echo hi", "npx prettier --write"])})
# Event lists and the hooks object are never empty here: one left empty by hand cannot be
# told from one uninstall emptied, and goes (see the test below).
_groups = st.lists(st.fixed_dictionaries({"hooks": st.lists(_handler, max_size=2)},
                                         optional={"matcher": st.sampled_from(["*", "Bash", ""])}),
                   min_size=1, max_size=2)
_hooks = st.dictionaries(st.sampled_from(["PreToolUse", "PostToolUse", "Stop", "SessionStart", "Notification"]),
                         _groups, min_size=1, max_size=4)
_settings = st.builds(lambda other, hooks, with_hooks: {**other, **({"hooks": hooks} if with_hooks else {})},
                      st.dictionaries(st.text(min_size=1, max_size=6).filter(lambda k: k != "hooks"), _values, max_size=4),
                      _hooks, st.booleans())
_styles = st.sampled_from([
    {"indent": 2}, {"indent": 4}, {"indent": "\t"}, {"indent": None},
    {"indent": None, "separators": (",", ":")}, {"indent": 3, "ensure_ascii": False}])


@settings(max_examples=150, deadline=None)
@given(data=_settings, style=_styles, newline=st.booleans())
def test_install_then_uninstall_is_the_identity_on_any_settings(tmp_path_factory, data, style, newline):
    path = tmp_path_factory.mktemp("settings") / "settings.json"
    text = json.dumps(data, **style) + ("\n" if newline else "")
    path.write_text(text, encoding="utf-8")
    install = _claude_settings.plan_install(str(path), ["passdown"], {"restart_tool": "restart_dsh"})
    install.write()
    installed = json.loads(path.read_text(encoding="utf-8"))
    for event in EVENTS:
        groups = installed["hooks"][event]
        assert groups[:len(data.get("hooks", {}).get(event, []))] == data.get("hooks", {}).get(event, [])
    assert {k: v for k, v in installed.items() if k != "hooks"} == {k: v for k, v in data.items() if k != "hooks"}
    assert not _claude_settings.plan_install(str(path), ["passdown"], {"restart_tool": "restart_dsh"}).changed
    _claude_settings.plan_uninstall(str(path)).write()
    assert path.read_bytes() == text.encode("utf-8")


# -- the settings file as the owner keeps it (HST-200 to HST-203) ---------------------------

def test_a_symlinked_settings_file_is_written_through_the_link(project, tmp_path):
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    (dotfiles / "claude.json").write_text(EXISTING)
    link = project / ".claude" / "settings.json"
    link.symlink_to(dotfiles / "claude.json")
    assert _install("--project").exit_code == 0
    assert link.is_symlink() and os.readlink(link) == str(dotfiles / "claude.json")
    installed = json.loads((dotfiles / "claude.json").read_text())
    assert set(installed["hooks"]) >= set(EVENTS)
    assert _passdown("hook", "uninstall", "claude", "--project").exit_code == 0
    assert link.is_symlink() and (dotfiles / "claude.json").read_text() == EXISTING


@pytest.mark.parametrize("make, code", [
    (lambda path: path.symlink_to("/dev/zero"), "load.not_regular"),
    (lambda path: os.mkfifo(path), "load.not_regular"),
    (lambda path: path.mkdir(), "load.unreadable"),
    (lambda path: path.symlink_to(path), "load.symlink_loop"),
    (lambda path: path.write_bytes(b"{" + b" " * (10 * 1024 * 1024) + b"}"), "load.too_large"),
], ids=["/dev/zero", "a FIFO", "a folder", "a link loop", "beyond 10 MiB"])
def test_a_settings_file_that_is_not_a_readable_file_is_refused_with_its_code(project, make, code):
    path = project / ".claude" / "settings.json"
    make(path)
    for command in (("install", "claude", "--project", "--command", "passdown"),
                    ("uninstall", "claude", "--project")):
        result = CliRunner().invoke(cli, ["hook", *command])
        assert result.exit_code == 2, result.output
        assert f"passdown: {code}: " in result.output and "hint: " in result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.mark.parametrize("command", [
    "other-tool hook claude Stop",
    "/usr/bin/audit --wrap passdown hook claude Stop",
    "passdown hook claude Stop && curl example.invalid",
    "passdown hook claude Stop --unknown x",
    "sh -c 'passdown hook claude Stop'",
    "passdown-fork hook claude Stop",
    "/usr/bin/python3 -S -P -c 'import os; os.system(\"rm -rf ~\")' /opt/lib hook claude Stop",
    "/usr/bin/python3 -S -c 'import sys; sys.path.append(sys.argv.pop(1)); import passdown.__main__' /opt/lib "
    "hook claude Stop",
    "/usr/bin/node -S -P -c 'import sys; sys.path.append(sys.argv.pop(1)); import passdown.__main__' /opt/lib "
    "hook claude Stop",
])
def test_uninstall_leaves_other_tools_hooks_that_mention_the_hook(project, command):
    path = project / ".claude" / "settings.json"
    settings_ = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": command}]}]}}
    path.write_text(json.dumps(settings_, indent=2) + "\n")
    before = path.read_bytes()
    assert _passdown("hook", "uninstall", "claude", "--project").exit_code == 0
    assert path.read_bytes() == before


@pytest.mark.parametrize("command", [
    "passdown hook claude Stop",
    "/opt/venv/bin/passdown hook claude Stop --folder /work",
    "'/path with space/passdown' hook claude Stop",
    "/usr/bin/python3.11 -m passdown hook claude Stop",
    "/opt/venv/bin/python -S -P -c 'import sys; sys.path.append(sys.argv.pop(1)); import passdown.__main__' "
    "/opt/venv/lib/python3.11/site-packages hook claude Stop",
    "'C:\\venv\\Scripts\\python.exe' -S -P -c 'import sys; sys.path.append(sys.argv.pop(1)); "
    "import passdown.__main__' 'C:\\venv\\Lib\\site-packages' hook claude Stop",
])
def test_uninstall_removes_each_command_passdown_writes(project, command):
    path = project / ".claude" / "settings.json"
    path.write_text(json.dumps({"hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": command}]}]}}) + "\n")
    assert _passdown("hook", "uninstall", "claude", "--project").exit_code == 0
    assert json.loads(path.read_text()) == {}


def test_crlf_line_endings_are_kept(project):
    path = project / ".claude" / "settings.json"
    original = EXISTING.replace("\n", "\r\n").encode()
    path.write_bytes(original)
    assert _install("--project").exit_code == 0
    installed = path.read_bytes()
    assert installed.count(b"\n") == installed.count(b"\r\n") > original.count(b"\r\n")
    assert _passdown("hook", "uninstall", "claude", "--project").exit_code == 0
    assert path.read_bytes() == original


def test_the_context_capacity_goes_to_the_hooks_that_assess():
    from passdown.hosts._claude_settings import hook_command

    options = {"context_capacity": 200000, "restart_tool": "restart_dsh"}
    commands = {event: hook_command(["passdown"], event, options)
                for event in ("PreToolUse", "SessionStart", "PreCompact", "Stop")}
    assert commands == {
        "PreToolUse": "passdown hook claude PreToolUse --restart-tool restart_dsh",
        "SessionStart": "passdown hook claude SessionStart --context-capacity 200000",
        "PreCompact": "passdown hook claude PreCompact",
        "Stop": "passdown hook claude Stop --context-capacity 200000"}
