"""``passdown hook install|uninstall codex`` with Codex's ``[hooks]`` tables in ``config.toml``
(spec/hosts.md HST-308 to HST-310): written there when that is where the layer's hooks are,
into ``hooks.json`` otherwise; install then uninstall gives back real config files
(``tests/data/codex_config/``, see its MANIFEST.json) byte for byte, beside another tool's hooks,
in both files, the hooks written being valid against Codex's own config schema; a malformed, inline, FIFO or folder config is refused with its code and nothing
is written."""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from passdown.cli import cli
from passdown.hosts import _codex_config

DATA = Path(__file__).resolve().parents[1] / "data" / "codex_config"
SAMPLES = sorted(path.name for path in DATA.glob("*.config.toml"))
KIX = (DATA / "kix-agents.config.toml").read_bytes()  # another tool's SessionStart group
COORD = (DATA / "coord-harness.config.toml").read_bytes()  # no hooks: MCP tables only
EVENTS = ["PreToolUse", "SessionStart", "PreCompact", "PostCompact", "Stop"]
OTHER_JSON = b'{\n  "hooks": {\n    "Stop": [\n      {"hooks": [{"type": "command", "command": "other-tool stop"}]}\n    ]\n  }\n}\n'
#: Codex's own schema of the [hooks] table (codex-rs/core/config.schema.json, its hook definitions).
HOOKS_SCHEMA = jsonschema.Draft7Validator(json.loads((DATA / "config.schema.excerpt.json").read_text()))
#: The trust record Codex writes into the user's config.toml (codex-rs/config/src/hook_edit.rs).
TRUST = b'[hooks.state."/home/me/.codex/hooks.json:stop:0:0"]\ntrusted_hash = "sha256:0f3a"\n'


def _invoke(*args, cwd, env=None):
    old = os.getcwd()
    os.chdir(cwd)
    try:
        return CliRunner().invoke(cli, list(args), env=env)
    finally:
        os.chdir(old)


def _layer(tmp_path, config=None, hooks_json=None):
    folder = tmp_path / ".codex"
    folder.mkdir()
    if config is not None:
        (folder / "config.toml").write_bytes(config)
    if hooks_json is not None:
        (folder / "hooks.json").write_bytes(hooks_json)
    return folder


def _install(tmp_path, *options):
    return _invoke("hook", "install", "codex", "--project", "--command", "passdown", *options,
                   cwd=tmp_path)


def _add(path, options=None):
    """Install Passdown's hooks into the config.toml at ``path``."""
    _codex_config.plan_install(str(path), ["passdown"], options or {}).write()


def _remove(path):
    _codex_config.plan_uninstall(str(path)).write()


# -- the text edit, on every real sample ---------------------------------------------------

@pytest.mark.parametrize("crlf", [False, True])
@pytest.mark.parametrize("name", SAMPLES)
def test_install_then_uninstall_gives_back_each_real_config_byte_for_byte(tmp_path, name, crlf):
    original = (DATA / name).read_bytes()
    if crlf:
        original = original.replace(b"\n", b"\r\n")
    path = tmp_path / "config.toml"
    path.write_bytes(original)
    plan = _codex_config.plan_install(str(path), ["passdown"], {})
    plan.write()
    installed = path.read_bytes()
    assert installed.startswith(original)  # every foreign byte where it was
    data = tomllib.loads(installed.decode())
    before = tomllib.loads(original.decode())
    assert {k: v for k, v in data.items() if k != "hooks"} == {k: v for k, v in before.items() if k != "hooks"}
    for event, timeout in zip(EVENTS, [10, 30, 30, 30, 30]):
        assert data["hooks"][event][-1] == {"hooks": [{
            "type": "command", "command": f"passdown hook codex {event}", "timeout": timeout}]}
    assert data["hooks"].get("SessionStart")[:-1] == before.get("hooks", {}).get("SessionStart", [])
    HOOKS_SCHEMA.validate(data)  # Codex's own config schema accepts the hooks as written
    assert set(EVENTS) <= set(HOOKS_SCHEMA.schema["definitions"]["HooksToml"]["properties"])
    if crlf:
        assert installed.count(b"\n") == installed.count(b"\r\n")
    assert _codex_config.plan_install(str(path), ["passdown"], {}).changed is False
    _remove(path)
    assert path.read_bytes() == original


def test_new_options_change_the_commands_in_place_so_no_group_moves(tmp_path):
    """And a group added after Passdown's block keeps its place and its blank line."""
    path = tmp_path / "config.toml"
    path.write_bytes(COORD)
    _add(path)
    later = KIX.replace(b"SessionStart", b"PreToolUse")  # another tool's group after Passdown's
    with path.open("ab") as handle:
        handle.write(b"\n" + later)
    before = path.read_bytes()
    plan = _codex_config.plan_install(str(path), ["passdown"], {"restart_tool": "restart_codex"})
    assert plan.diff().count("\n-command") == 1 and plan.diff().count("\n+command") == 1
    plan.write()
    groups = tomllib.loads(path.read_text())["hooks"]["PreToolUse"]
    assert [group["hooks"][0]["command"] for group in groups] == [
        "passdown hook codex PreToolUse --restart-tool restart_codex",
        'bash "$(git rev-parse --show-toplevel)/.claude/hooks/session-start.sh"']
    assert path.read_bytes() == before.replace(b'command = "passdown hook codex PreToolUse"',
                                               b'command = "passdown hook codex PreToolUse --restart-tool restart_codex"')
    _remove(path)
    assert path.read_bytes() == COORD + b"\n" + later


def test_a_handler_put_into_another_tools_group_is_removed_alone(tmp_path):
    path = tmp_path / "config.toml"
    mixed = KIX.replace(b"# END KIX", b'\n[[hooks.SessionStart.hooks]]\ntype = "command"\n'
                        b'command = "passdown hook codex SessionStart"\ntimeout = 30\n# END KIX')
    path.write_bytes(mixed)
    _remove(path)
    assert path.read_bytes() == KIX


MULTI_LINE = (b'[mcp_servers.context-engine]\ncommand = "node"\nargs = [\n"/path/to/context-engine/dist/index.js",\n'
              b'"--workspace",\n]\ndescription = """\n[[hooks.Stop]]\n"""\n\n' + KIX)


@pytest.mark.parametrize("text", [b"", b"\n\n", b"model = 'o3'\n\n\n", b"model = 'o3'\n# last\n", KIX + b"\n",
                                  MULTI_LINE],
                         ids=["empty", "blank-lines", "blank-lines-after", "comment-last", "blank-line-last",
                              "multi-line-array-and-string"])
def test_the_file_comes_back_as_it_was(tmp_path, text):
    """Its ends as they were, and a multi-line array or string is never taken for a table."""
    path = tmp_path / "config.toml"
    path.write_bytes(text)
    _add(path)
    _remove(path)
    assert path.read_bytes() == text


def test_a_final_newline_the_file_lacked_is_the_one_byte_that_changes(tmp_path):
    path = tmp_path / "config.toml"
    path.write_bytes(KIX.rstrip(b"\n"))
    _add(path)
    _remove(path)
    assert path.read_bytes() == KIX


# -- any arrangement of real pieces --------------------------------------------------------

_ALC = (DATA / "agent-loop-core.config.toml").read_bytes()
_ROOT, _, _ALC_TABLES = _ALC.partition(b"\n\n")  # root keys first, as TOML wants them
_ONCE = {"coord": COORD, "agent-loop-core": _ALC_TABLES, "trust": TRUST,
         "multi-line": b'[mcp_servers.context-engine]\ncommand = "node"\nargs = [\n"/path/to/context-engine/dist/index.js",\n"--workspace",\n]\n'}


@st.composite
def _configs(draw):
    """A config.toml of the real pieces above in any order, the other tool's hook group
    (which may repeat) among them, set apart by a blank line or not, with or without a final
    newline, LF or CRLF."""
    pieces = list(draw(st.permutations(sorted(_ONCE))))[:draw(st.integers(0, len(_ONCE)))]
    chunks = [_ONCE[name] for name in pieces]
    for at in draw(st.lists(st.integers(0, len(chunks)), max_size=3)):
        chunks.insert(at, KIX)
    text = (_ROOT + b"\n" if draw(st.booleans()) else b"")
    for chunk in chunks:
        text += (b"\n" if text and draw(st.booleans()) else b"") + chunk
    if text.endswith(b"\n") and draw(st.booleans()):
        text += b"\n"
    return text.replace(b"\n", b"\r\n") if draw(st.booleans()) else text


@settings(max_examples=50, deadline=None)
@given(text=_configs())
def test_install_then_uninstall_is_the_identity_on_any_arrangement(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("codex") / "config.toml"
    path.write_bytes(text)
    before = tomllib.loads(text.decode())
    _codex_config.plan_install(str(path), ["passdown"], {"restart_tool": "restart_codex"}).write()
    installed = path.read_bytes()
    assert installed.startswith(text)
    groups = tomllib.loads(installed.decode())["hooks"]
    for event in EVENTS:
        assert groups[event][:-1] == before.get("hooks", {}).get(event, [])
    assert not _codex_config.plan_install(str(path), ["passdown"], {"restart_tool": "restart_codex"}).changed
    _remove(path)
    assert path.read_bytes() == text


# -- which file, through the command -------------------------------------------------------

@pytest.mark.parametrize("hooks_json", [None, b'{"hooks": {}}\n'], ids=["no-hooks-json", "empty-hooks-json"])
def test_install_writes_config_toml_where_the_layer_keeps_its_hooks(tmp_path, hooks_json):
    folder = _layer(tmp_path, config=KIX, hooks_json=hooks_json)
    dry = _install(tmp_path, "--dry-run")
    assert dry.output.endswith(".codex/config.toml: dry run, nothing written\n")
    assert (folder / "config.toml").read_bytes() == KIX
    installed = _install(tmp_path)
    assert installed.exit_code == 0, installed.output
    assert installed.output.startswith("--- .codex/config.toml\n+++ .codex/config.toml\n")
    assert ".codex/config.toml: written\n" in installed.output
    assert "open /hooks in Codex to review and trust Passdown's hooks" in installed.output
    assert "The hooks need Codex CLI 0.129.0 or later" in installed.output
    assert (folder / "hooks.json").read_bytes() == hooks_json if hooks_json else not (folder / "hooks.json").exists()
    assert sorted(tomllib.loads((folder / "config.toml").read_text())["hooks"]) == sorted(EVENTS)
    again = _install(tmp_path)
    assert again.output == ".codex/config.toml: Passdown's hooks are already installed; nothing changed\n"
    removed = _invoke("hook", "uninstall", "codex", "--project", cwd=tmp_path)
    assert removed.exit_code == 0, removed.output
    assert (folder / "config.toml").read_bytes() == KIX


@pytest.mark.parametrize("config", [COORD, TRUST], ids=["mcp-tables", "trust-records-only"])
def test_install_writes_hooks_json_when_config_toml_holds_no_hooks(tmp_path, config):
    folder = _layer(tmp_path, config=config)
    installed = _install(tmp_path)
    assert installed.exit_code == 0, installed.output
    assert ".codex/hooks.json: written\n" in installed.output
    assert (folder / "config.toml").read_bytes() == config
    assert sorted(json.loads((folder / "hooks.json").read_bytes())["hooks"]) == sorted(EVENTS)


def test_hooks_json_with_hooks_wins_over_config_toml(tmp_path):
    folder = _layer(tmp_path, config=KIX, hooks_json=OTHER_JSON)
    assert _install(tmp_path).exit_code == 0
    assert (folder / "config.toml").read_bytes() == KIX
    assert b"passdown hook codex Stop" in (folder / "hooks.json").read_bytes()
    assert _invoke("hook", "uninstall", "codex", "--project", cwd=tmp_path).exit_code == 0
    assert (folder / "hooks.json").read_bytes() == OTHER_JSON


def test_uninstall_removes_passdowns_hooks_from_both_files(tmp_path):
    folder = _layer(tmp_path, config=KIX, hooks_json=OTHER_JSON)
    config = folder / "config.toml"
    _codex_config.plan_install(str(config), ["passdown"], {}).write()
    from passdown.hosts import _claude_settings

    _claude_settings.plan_install(str(folder / "hooks.json"), ["passdown"], {}, "codex").write()
    removed = _invoke("hook", "uninstall", "codex", "--project", cwd=tmp_path)
    assert removed.exit_code == 0, removed.output
    assert ".codex/hooks.json: written\n" in removed.output and ".codex/config.toml: written\n" in removed.output
    assert (config.read_bytes(), (folder / "hooks.json").read_bytes()) == (KIX, OTHER_JSON)
    nothing = _invoke("hook", "uninstall", "codex", "--project", cwd=tmp_path)
    assert nothing.output == ".codex/hooks.json: no Passdown hooks to remove; nothing changed\n"


def test_user_scope_is_codex_home(tmp_path):
    home = tmp_path / "codex-home"
    home.mkdir()
    (home / "config.toml").write_bytes(KIX)
    installed = _invoke("hook", "install", "codex", "--user", "--command", "passdown",
                        cwd=tmp_path, env={"CODEX_HOME": str(home)})
    assert installed.exit_code == 0, installed.output
    assert b"passdown hook codex Stop" in (home / "config.toml").read_bytes()


def test_a_symlinked_config_toml_is_written_through_at_its_target(tmp_path):
    target = tmp_path / "dotfiles" / "config.toml"
    target.parent.mkdir()
    target.write_bytes(KIX)
    folder = _layer(tmp_path)
    (folder / "config.toml").symlink_to(target)
    assert _install(tmp_path).exit_code == 0
    assert (folder / "config.toml").is_symlink()
    assert b"passdown hook codex PreToolUse" in target.read_bytes()
    assert _invoke("hook", "uninstall", "codex", "--project", cwd=tmp_path).exit_code == 0
    assert target.read_bytes() == KIX


# -- refused, nothing written --------------------------------------------------------------

def _refused(tmp_path, result, code, status):
    assert result.exit_code == status, result.output
    assert f"{code}:" in result.output
    assert not (tmp_path / ".codex" / "hooks.json").exists()


def test_a_malformed_config_toml_is_refused(tmp_path):
    broken = KIX.replace(b"[[hooks.SessionStart.hooks]]", b"[[hooks.SessionStart.hooks]")
    folder = _layer(tmp_path, config=broken)
    result = _install(tmp_path)
    _refused(tmp_path, result, "hook.bad_config", 2)
    assert "not valid TOML" in result.output and "hint: fix config.toml by hand" in result.output
    assert (folder / "config.toml").read_bytes() == broken
    _refused(tmp_path, _invoke("hook", "uninstall", "codex", "--project", cwd=tmp_path), "hook.bad_config", 2)


def test_hooks_written_inline_are_refused(tmp_path):
    inline = b'hooks = { Stop = [{ hooks = [{ type = "command", command = "other-tool stop" }] }] }\n'
    folder = _layer(tmp_path, config=inline)
    result = _install(tmp_path)
    _refused(tmp_path, result, "hook.bad_settings", 1)
    assert "a form Passdown does not edit" in result.output
    assert (folder / "config.toml").read_bytes() == inline


def test_a_config_toml_that_is_not_utf8_is_refused(tmp_path):
    folder = _layer(tmp_path, config=KIX.replace(b"Kix session", b"Kix s\xe9ssion"))
    _refused(tmp_path, _install(tmp_path), "load.encoding", 2)
    assert b"\xe9" in (folder / "config.toml").read_bytes()


def test_a_config_toml_with_a_byte_order_mark_is_refused(tmp_path):
    folder = _layer(tmp_path, config=b"\xef\xbb\xbf" + KIX)
    _refused(tmp_path, _install(tmp_path), "load.bom", 2)
    assert (folder / "config.toml").read_bytes() == b"\xef\xbb\xbf" + KIX


def test_a_folder_in_place_of_config_toml_is_refused(tmp_path):
    folder = _layer(tmp_path)
    (folder / "config.toml").mkdir()
    _refused(tmp_path, _install(tmp_path), "load.unreadable", 2)


def test_a_fifo_in_place_of_config_toml_is_refused(tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("this platform has no FIFOs")
    folder = _layer(tmp_path)
    os.mkfifo(folder / "config.toml")
    _refused(tmp_path, _install(tmp_path), "load.not_regular", 2)


# -- hooks turned off in Codex's config (HST-312) -------------------------------------------

def test_install_warns_when_a_config_toml_turns_codex_hooks_off(tmp_path):
    _layer(tmp_path, config=COORD + b"\n[features]\nhooks = false\n")
    home = tmp_path / "codex-home"
    home.mkdir()
    (home / "config.toml").write_bytes(b"[features]\ncodex_hooks = false\n")
    installed = _invoke("hook", "install", "codex", "--project", "--command", "passdown",
                        cwd=tmp_path, env={"CODEX_HOME": str(home)})
    assert installed.exit_code == 0, installed.output
    warnings = [line for line in installed.output.splitlines() if line.startswith("warning:")]
    assert warnings == [
        "warning: .codex/config.toml turns Codex's hooks off ([features] hooks = false): no hook "
        "runs, Passdown's included, until you remove that line or set it to true.",
        "warning: codex-home/config.toml turns Codex's hooks off ([features] codex_hooks = false): "
        "no hook runs, Passdown's included, until you remove that line or set it to true."]


def test_hooks_turned_on_or_left_alone_give_no_warning(tmp_path):
    _layer(tmp_path, config=b"[features]\ncodex_hooks = false\nhooks = true\n")
    installed = _invoke("hook", "install", "codex", "--project", "--command", "passdown",
                        cwd=tmp_path, env={"CODEX_HOME": str(tmp_path / "none")})
    assert installed.exit_code == 0, installed.output
    assert "warning:" not in installed.output
