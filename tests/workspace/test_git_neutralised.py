"""Every git configuration key and environment variable the one git runner neutralises
(spec/input-safety.md, INP-018), planted one at a time in a real repository, against every
command and hook that reads a checkout: the planted program only leaves a marker file, and
no marker may appear. A control per key runs plain git on the same repository and shows the
plant is live (the marker does appear), so no row can pass for want of a working plant."""

from __future__ import annotations

import contextlib
import json
import os
import pty
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from git_support import GIT_ENV, git, new_checkout

from passdown.cli import cli
from passdown.hosts import _claude_hooks, _codex_hooks, _hooks
from passdown.mcp import _tools
from passdown.mcp._folder import Folder
from passdown.workspace import _git

PROG = "@PROG@"  # stands for the marker program in a plant
SIGNATURES = {  # a signed commit of each signature format git verifies
    "openpgp": ("-----BEGIN PGP SIGNATURE-----", "-----END PGP SIGNATURE-----"),
    "x509": ("-----BEGIN SIGNED MESSAGE-----", "-----END SIGNED MESSAGE-----"),
    "ssh": ("-----BEGIN SSH SIGNATURE-----", "-----END SSH SIGNATURE-----"),
}
SHOWN = {"log.showsignature": "true"}
TRANSCRIPT = (Path(__file__).resolve().parents[1] / "data" / "hosts" / "claude"
              / "session-2.1.39.jsonl")  # a real session file
TRANSCRIPT_SESSION = "4d5611e5-241a-462a-8d15-5122611a9569"


def _row(name, config=None, env=None, control=None, *, tty=False, stdin=b"", sub=None):
    return pytest.param({"config": config or {}, "env": env or {}, "control": control,
                         "tty": tty, "stdin": stdin, "sub": sub or {}}, id=name)


CREDENTIAL = b"protocol=https\nhost=example.invalid\n\n"
#: One row per neutralised key or variable: what is planted (``config`` in .git/config,
#: ``env`` in the entry point's environment, ``sub`` in the submodule's config) and the plain
#: git command (``control``) that runs the planted program.
ROWS = [
    _row("core.fsmonitor", {"core.fsmonitor": PROG}, control=["status"]),
    _row("core.useBuiltinFSMonitor", {"core.useBuiltinFSMonitor": "true",
                                      "core.fsmonitor": PROG}, control=["status"]),
    _row("core.hooksPath", {"core.hooksPath": "@HOOKS@"},
         control=["commit", "-q", "--allow-empty", "-m", "x"]),
    _row("core.pager", {"core.pager": PROG}, control=["log", "-1"], tty=True),
    _row("pager.<command>", {"pager.log": PROG, "pager.status": PROG, "pager.config": PROG,
                     "pager.rev-parse": PROG, "pager.ls-files": PROG, "pager.check-attr": PROG,
                     "pager.symbolic-ref": PROG}, control=["log", "-1"], tty=True),
    _row("core.editor", {"core.editor": PROG}, control=["commit", "--allow-empty"]),
    _row("sequence.editor", {"sequence.editor": PROG},
         control=["rebase", "-q", "-i", "--autostash", "HEAD~1"]),
    _row("core.askPass", {"core.askPass": PROG}, control=["credential", "fill"],
         stdin=CREDENTIAL),
    _row("credential.helper", {"credential.helper": "!" + PROG}, control=["credential", "fill"],
         stdin=CREDENTIAL),
    _row("credential.<url>.helper", {"credential.https://example.invalid.helper": "!" + PROG},
         control=["credential", "fill"], stdin=CREDENTIAL),
    _row("core.sshCommand", {"core.sshCommand": PROG},
         control=["ls-remote", "ssh://example.invalid/r"]),
    _row("protocol.allow", {"remote.origin.url": f"ext::{PROG} x", "protocol.ext.allow": "always",
                            "remote.origin.promisor": "true",
                            "core.repositoryformatversion": "1",
                            "extensions.partialClone": "origin"},
         control=["fetch", "-q", "origin"]),
    _row("diff.external", {"diff.external": PROG}, control=["diff"]),
    _row("diff.<driver>.command", {"diff.evil.command": PROG}, control=["diff"]),
    _row("diff.<driver>.textconv", {"diff.evil.textconv": PROG}, control=["diff"]),
    _row("filter.<driver>.clean", {"filter.evil.clean": PROG}, control=["diff"]),
    _row("filter.<driver>.smudge and .required", {"filter.evil.smudge": PROG, "filter.evil.required": "true"},
         control=["checkout", "-q", "HEAD", "--", "app.py"]),
    _row("filter.<driver>.process", {"filter.evil.process": PROG, "filter.evil.required": "true"},
         control=["diff"]),
    _row("merge.<driver>.driver", {"merge.evil.driver": PROG},
         control=["merge", "-q", "--no-edit", "side"]),
    _row("log.showSignature and gpg.program", {**SHOWN, "gpg.program": PROG},
         control=["log", "-3"]),
    _row("gpg.openpgp.program", {**SHOWN, "gpg.openpgp.program": PROG}, control=["log", "-3"]),
    _row("gpg.x509.program", {**SHOWN, "gpg.x509.program": PROG}, control=["log", "-3"]),
    _row("gpg.ssh.program", {**SHOWN, "gpg.ssh.program": PROG,
                             "gpg.ssh.allowedSignersFile": "@SIGNERS@"}, control=["log", "-3"]),
    _row("gpg.ssh.defaultKeyCommand", {"gpg.format": "ssh", "gpg.ssh.defaultKeyCommand": PROG},
         control=["commit", "-q", "-S", "--allow-empty", "-m", "x"]),
    _row("status.submoduleSummary", {"status.submoduleSummary": "true"},
         control=["status"], sub={"core.fsmonitor": PROG}),
    _row("submodule.recurse", {"submodule.recurse": "true"}, control=["status"],
         sub={"core.fsmonitor": PROG}),
    _row("alias.<name>", {"alias.status": "!" + PROG, "alias.log": "!" + PROG,
                     "alias.rev-parse": "!" + PROG, "alias.config": "!" + PROG,
                     "alias.probe": "!" + PROG}, control=["probe"]),
    _row("include.path", {"include.path": "@INCLUDED@"}, control=["log", "-3"]),
    _row("includeIf.<condition>.path", {"includeIf.gitdir:@REPO@/.path": "@INCLUDED@"},
         control=["log", "-3"]),
    _row("GIT_EXTERNAL_DIFF", env={"GIT_EXTERNAL_DIFF": PROG}, control=["diff"]),
    _row("GIT_CONFIG_COUNT", env={"GIT_CONFIG_COUNT": "2", "GIT_CONFIG_KEY_0": "log.showSignature",
                                  "GIT_CONFIG_VALUE_0": "true", "GIT_CONFIG_KEY_1": "gpg.program",
                                  "GIT_CONFIG_VALUE_1": PROG}, control=["log", "-3"]),
    _row("GIT_CONFIG_PARAMETERS", env={"GIT_CONFIG_PARAMETERS": f"'core.fsmonitor'='{PROG}'"},
         control=["status"]),
    _row("GIT_CONFIG_GLOBAL", env={"GIT_CONFIG_GLOBAL": "@INCLUDED@"}, control=["log", "-3"]),
    _row("GIT_DIR", env={"GIT_DIR": "@OTHER@"}, control=["status"]),
    _row("GIT_SSH_COMMAND", env={"GIT_SSH_COMMAND": PROG},
         control=["ls-remote", "ssh://example.invalid/r"]),
    _row("GIT_TRACE", env={"GIT_TRACE": "@MARKER@"}, control=["status"]),
    _row("GIT_PAGER and PAGER", env={"GIT_PAGER": PROG, "PAGER": PROG}, control=["log", "-1"],
         tty=True),
    _row("GIT_EDITOR, EDITOR and VISUAL", env={"GIT_EDITOR": PROG, "EDITOR": PROG,
                                              "VISUAL": PROG},
         control=["commit", "--allow-empty"]),
    _row("GIT_ASKPASS and SSH_ASKPASS", env={"GIT_ASKPASS": PROG, "SSH_ASKPASS": PROG},
         control=["credential", "fill"], stdin=CREDENTIAL),
]


def _signed_commit(repo, message, kind):
    """A commit on HEAD carrying a (fake) signature of ``kind``: git runs the signature
    program to verify it whenever it is asked to show signatures."""
    git(repo, "commit", "-q", "--allow-empty", "-m", message)
    begin, end = SIGNATURES[kind]
    lines = []
    for line in git(repo, "cat-file", "commit", "HEAD").split("\n"):
        lines.append(line)
        if line.startswith("committer "):
            lines += [f"gpgsig {begin}", " =x", f" {end}"]
    commit = subprocess.run(["git", "-C", str(repo), "hash-object", "-t", "commit", "-w",
                             "--stdin"], input="\n".join(lines) + "\n", capture_output=True,
                            text=True, check=True).stdout.strip()
    git(repo, "update-ref", "HEAD", commit)


def _passdown(*args):
    result = CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    """A checkout with a handoff at its root (packet, registry, an attempt, the target's ACK),
    three signed commits, a submodule, a side branch, uncommitted work in a file whose
    attributes name the driver ``evil``, and a second repository elsewhere."""
    top = tmp_path_factory.mktemp("neutralised")
    repo = new_checkout(top / "repo", {"app.py": "print(1)\n",
                                       ".gitattributes": "*.py filter=evil diff=evil merge=evil\n"})
    sub = new_checkout(repo / "sub", {"s.txt": "s\n"})
    git(repo, "add", "sub")
    git(repo, "commit", "-q", "-m", "sub")
    git(repo, "checkout", "-q", "-b", "side")
    (repo / "app.py").write_text("print('side')\n")
    git(repo, "commit", "-q", "-am", "side")
    git(repo, "checkout", "-q", "main")
    (repo / "app.py").write_text("print('main')\n")
    git(repo, "commit", "-q", "-am", "main")
    for kind in SIGNATURES:
        _signed_commit(repo, f"signed {kind}", kind)
    with contextlib.chdir(repo):
        _passdown("init", ".", "--goal-id", "g", "--main-id", "sess-a", "--outcome", "o",
                  "--next", "n")
        _passdown("packet", "render", "--source-id", "sess-a", "--restart-id", "r1")
        _passdown("attempt", "created", "r1", "--target-id", "sess-b")
        (repo / "app.py").write_text("print(2)\n")
        (repo / "notes.txt").write_text("wip\n")
        _passdown("ack", "write", "--target-id", "sess-b")
    new_checkout(top / "other", {"o.txt": "o\n"})
    assert sub.is_dir()
    return top


@pytest.fixture(scope="module", params=ROWS)
def planted(request, base, tmp_path_factory):
    """A copy of :func:`base` with one row planted: ``(repo, marker, env, row)``."""
    row = request.param
    top = tmp_path_factory.mktemp("plant")
    shutil.copytree(base, top, dirs_exist_ok=True, symlinks=True)
    repo, marker = top / "repo", top / "ran"
    program = top / "program.sh"
    # a filter or pager (no arguments) passes its input through; anything else ends at once
    program.write_text(f'#!/bin/sh\ntouch {marker}\n[ $# -eq 0 ] && exec cat\nexit 0\n')
    program.chmod(0o755)
    hooks = top / "hooks"
    hooks.mkdir()
    for name in ("pre-commit", "post-commit", "post-index-change", "reference-transaction",
                 "post-checkout", "pre-auto-gc", "commit-msg", "prepare-commit-msg"):
        (hooks / name).write_text(f"#!/bin/sh\ntouch {marker}\n")
        (hooks / name).chmod(0o755)
    included = top / "included.gitconfig"
    included.write_text(f"[log]\n\tshowSignature = true\n[gpg]\n\tprogram = {program}\n"
                        f"[core]\n\tfsmonitor = {program}\n[filter \"evil\"]\n\tclean = {program}\n")
    (top / "signers").write_text("")
    git(top / "other", "config", "core.fsmonitor", str(program))

    def fill(text):
        for token, value in (("@PROG@", program), ("@HOOKS@", hooks), ("@INCLUDED@", included),
                             ("@SIGNERS@", top / "signers"), ("@REPO@", repo),
                             ("@OTHER@", top / "other" / ".git"), ("@MARKER@", marker)):
            text = text.replace(token, str(value))
        return text

    for key, value in row["config"].items():
        git(repo, "config", fill(key), fill(value))
    for key, value in row["sub"].items():
        git(repo / "sub", "config", fill(key), fill(value))
    env = {key: fill(value) for key, value in row["env"].items()}
    return repo, marker, env, row


def _cli(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def _hook(event):
    def run(repo):
        options = {**_hooks.default_options(), "folder": str(repo)}
        raw = b'{"hook_event_name": "%s", "stop_hook_active": false, "source": "startup"}' % (
            event.encode())
        return _claude_hooks.run(event, raw, options)
    return run


def _codex_hook(event):
    def run(repo):
        options = {**_hooks.default_options(), "folder": str(repo)}
        own = {"SessionStart": {"source": "startup"},
               "Stop": {"turn_id": "turn-1", "permission_mode": "default",
                        "stop_hook_active": False, "last_assistant_message": "Done."}}.get(
            event, {"turn_id": "turn-1", "trigger": "auto"})
        raw = json.dumps({"cwd": str(repo), "hook_event_name": event, "model": "gpt-5-codex",
                          "session_id": "codex-session", "transcript_path": None, **own})
        return _codex_hooks.run(event, raw.encode(), options)
    return run


def _assess(repo):
    """``passdown assess claude`` on a real session file, made the registry's source's."""
    transcript = repo.parent / "session.jsonl"
    transcript.write_text(TRANSCRIPT.read_text().replace(TRANSCRIPT_SESSION, "sess-a"))
    return _cli("assess", "claude", "--transcript", transcript, "--folder", repo,
                "--context-capacity", "200000")


def _mcp(name, arguments):
    def run(repo):
        table = {tool.name: tool for tool in _tools.tools()}
        return _tools.call(table[name], Folder(str(repo)), arguments)
    return run


#: Every command and hook that reads a checkout.
ENTRY_POINTS = {
    "ack write": lambda repo: _cli("ack", "write", "--target-id", "sess-b", "--output",
                                   repo / "ack.json"),
    "ack verify --workspace": lambda repo: _cli(
        "ack", "verify", repo / "ack.json", "--packet", repo / "continuation.packet.txt",
        "--registry", repo / "registry.yaml", "--workspace", repo),
    "attempt ack": lambda repo: _cli("attempt", "ack", "r1", repo / "ack.json", "--registry",
                                     repo / "registry.yaml"),
    "mcp ack_write": _mcp("ack_write", {"target_id": "sess-b"}),
    "mcp ack_verify": _mcp("ack_verify", {"compare_checkout": True}),
    "hook SessionStart": _hook("SessionStart"),
    "hook PreCompact": _hook("PreCompact"),
    "hook Stop": _hook("Stop"),
    "packet render": lambda repo: _cli("packet", "render", "--source-id", "sess-a",
                                       "--output", repo / "packet-again.txt"),
    "mcp packet_render": _mcp("packet_render", {"source_id": "sess-a"}),
    "hook codex SessionStart": _codex_hook("SessionStart"),
    "hook codex PreCompact": _codex_hook("PreCompact"),
    "hook codex PostCompact": _codex_hook("PostCompact"),
    "hook codex Stop": _codex_hook("Stop"),
    "assess": _assess,
}


@pytest.mark.parametrize("entry", list(ENTRY_POINTS))
def test_no_planted_program_runs(planted, entry, monkeypatch):
    repo, marker, env, _ = planted
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.chdir(repo)
    ENTRY_POINTS[entry](repo)
    assert not marker.exists()


@pytest.mark.parametrize("entry", list(ENTRY_POINTS))
def test_every_entry_point_runs_git_in_the_checkout(base, entry, tmp_path, monkeypatch):
    """No entry point passes the test above for want of reading the checkout: each one runs
    git, through the one runner, in the repository where the keys are planted."""
    top = tmp_path / "top"
    shutil.copytree(base, top, symlinks=True)
    ran = []
    run_bounded = _git._run_bounded

    def spy(command, name, workspace, *args):
        ran.append((name, os.path.realpath(workspace)))
        return run_bounded(command, name, workspace, *args)

    monkeypatch.setattr(_git, "_run_bounded", spy)
    monkeypatch.chdir(top / "repo")
    ENTRY_POINTS[entry](top / "repo")
    assert os.path.realpath(top / "repo") in {workspace for _, workspace in ran}, ran


def test_the_plant_is_live_under_plain_git(planted):
    """The control: plain git, on the same repository (after the entry points: it may change
    the repository), runs the planted program."""
    repo, marker, env, row = planted
    environment = {key: value for key, value in os.environ.items() if not key.startswith("GIT_")}
    environment.update(GIT_ENV, HOME=str(repo.parent), GIT_TERMINAL_PROMPT="0", **env)
    for key in ("PAGER", "EDITOR", "VISUAL", "SSH_ASKPASS"):
        if key not in env:
            environment.pop(key, None)
    command = ["git", "-C", str(repo), *row["control"]]
    if row["tty"]:
        leader, follower = pty.openpty()
        try:
            subprocess.run(command, stdin=subprocess.DEVNULL, stdout=follower,
                           stderr=subprocess.DEVNULL, env=environment, timeout=30, check=False)
        finally:
            os.close(follower)
            os.close(leader)
    else:
        subprocess.run(command, input=row["stdin"], capture_output=True, env=environment,
                       timeout=30, check=False)
    assert marker.exists(), f"plain git did not run the plant of {row}"
    marker.unlink()


def test_every_neutralised_key_has_a_row_and_a_line_in_the_spec():
    """Each key the runner sets is planted above (replace refs: in a test of their own) and
    listed, with its reason, in spec/input-safety.md."""
    names = " ".join(param.id for param in ROWS) + " core.useReplaceRefs"
    spec = (Path(__file__).resolve().parents[2] / "spec" / "input-safety.md").read_text()
    keys = [key for key, _, _ in _git.SAFE_CONFIG] + [shown for shown, *_ in _git.DRIVER_KEYS]
    assert [key for key in keys if key.replace("<driver>.required", "<driver>.smudge and .required")
            not in names] == []
    assert [key for key in keys if f"| `{key}` |" not in spec] == []
    for variable in ("GIT_EXTERNAL_DIFF", "GIT_CONFIG_COUNT", "GIT_CONFIG_PARAMETERS",
                     "GIT_CONFIG_GLOBAL", "GIT_DIR", "GIT_SSH_COMMAND", "GIT_TRACE", "GIT_PAGER",
                     "GIT_EDITOR", "GIT_ASKPASS", *_git._PROGRAM_VARIABLES):
        assert f"`{variable}`" in spec, variable


def test_replace_refs_never_change_what_log_reads(base, tmp_path):
    repo = tmp_path / "repo"
    shutil.copytree(base / "repo", repo, symlinks=True)
    head = git(repo, "rev-parse", "HEAD")
    git(repo, "commit", "-q", "--allow-empty", "-m", "a forged subject")
    forged = git(repo, "rev-parse", "HEAD")
    git(repo, "reset", "-q", "--soft", head)
    git(repo, "replace", head, forged)
    assert git(repo, "log", "-1", "--format=%s") == "a forged subject"  # the plant is live
    _, out = _git.log(repo, "-1", "--format=%s")
    assert out == b"signed ssh\n"


def test_the_signed_commit_attack_of_the_stop_hook(base, tmp_path):
    """The reported attack: log.showSignature and gpg.program in .git/config, a signed commit
    among the last 20, and the Stop hook at the end of a turn."""
    top = tmp_path / "top"
    shutil.copytree(base, top, symlinks=True)
    marker = tmp_path / "evil.ran"
    program = tmp_path / "evil.sh"
    program.write_text(f"#!/bin/sh\ntouch {marker}\n")
    program.chmod(0o755)
    git(top / "repo", "config", "log.showSignature", "true")
    git(top / "repo", "config", "gpg.program", str(program))
    reply = _hook("Stop")(top / "repo")
    assert reply.exit_code == 0
    assert not marker.exists()
    assert Path(top / "repo" / "xbrief" / "continue.xbrief.json").is_file()
