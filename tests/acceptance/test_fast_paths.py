"""The command's fast paths (``_fast_paths.py``, routed by ``_entry.py``: plain ``passdown validate PATH...`` and ``passdown
digest FILE...`` without click) print exactly what the click commands print, with the same
exit status, for every example, every file-shaped input of the validate conformance cases
and a set of hostile files; and they answer ``None`` (leaving the whole work to click)
exactly when click would print something they cannot (an error, an escape sequence)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from passdown import _entry, _fast_paths
from passdown.cli import cli
from passdown.formats import _detect

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "conformance" / "cases" / "validate"

#: Hostile files: (file name, bytes). Each is read by name, as a user's file is.
HOSTILE = [
    ("continue.xbrief.json", b'{"xBRIEFInfo": {"version": "0.8"}, "plan": '),  # cut short
    ("continue.xbrief.json", b"\xef\xbb\xbf" + (ROOT / "examples/handoff/xbrief/continue.xbrief.json").read_bytes()),
    ("ack.json", b'{"kind": "ack", "kind": "ack"}'),
    ("ack.json", b'{"passdown_version": NaN}'),
    ("ack.json", b'{"passdown_version": Infinity, "x": -Infinity}'),
    ("handoff.json", b"[" * 5000 + b"]" * 5000),
    ("handoff.json", b'{"a":' * 100 + b"1" + b"}" * 100),
    ("registry.json", b'{"passdown_version": 1, "kind": ["registry"], "revision": "x"}'),
    ("registry.yaml", b"passdown_version: [1\nkind: : :\n"),
    ("registry.yaml", b"a: &a [*a]\n"),
    ("continuation.packet.txt", b"GOAL_ID: g\r\nRESTART_ID: \xff\xfe\n"),
    ("continuation.packet.txt", b""),
    ("continue.xbrief.json", b"\x00\x01\x02 not json at all"),
    ("continue.xbrief.json", b'{"xBRIEFInfo": {"version": "0.8"}, "plan": {"title": "\\u001b[31mred\\u001b[0m"}}'),
    ("ack.json", b'"\\ud800"'),
    ("ack.json", b"1" * 5000),
    ("handoff.pending.json", b"{}"),
    ("x.relaunch-receipt.json", b'{"kind": "relaunch_receipt"}'),
]


def _example_files() -> list[Path]:
    return sorted(path for path in (ROOT / "examples").rglob("*") if path.is_file())


def _case_files(folder: Path) -> list[Path]:
    """Every validate case whose input is a document (or its exact text), written to a file
    under the name it gives (or its kind's canonical name)."""
    written = []
    for cases_file in sorted(CASES.glob("*.json")):
        for number, case in enumerate(json.loads(cases_file.read_text(encoding="utf-8"))["cases"]):
            value = case.get("input")
            if not isinstance(value, dict) or value.get("kind") not in _detect.kind_names():
                continue
            if "text" in value and isinstance(value["text"], str):
                raw = value["text"].encode("utf-8", "surrogatepass")
            elif "document" in value:
                raw = json.dumps(value["document"]).encode("utf-8", "surrogatepass")
            else:
                continue
            name = value.get("name")
            kind = _detect.get(value["kind"])
            if not kind.names:  # a kind found only with --kind (xbrief), never by its file's name
                continue
            if not isinstance(name, str) or "/" in name or "*" in name or not kind.matches_name(name):
                name = kind.names[0]
            path = folder / f"{cases_file.stem}-{number}" / name
            path.parent.mkdir(parents=True)
            path.write_bytes(raw)
            written.append(path)
    return written


def _hostile_files(folder: Path) -> list[Path]:
    written = []
    for number, (name, raw) in enumerate(HOSTILE):
        path = folder / f"hostile-{number}" / name
        path.parent.mkdir(parents=True)
        path.write_bytes(raw)
        written.append(path)
    return written


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> list[str]:
    folder = tmp_path_factory.mktemp("fast-paths")
    files = _example_files() + _case_files(folder / "cases") + _hostile_files(folder / "hostile")
    return [str(path) for path in files]


_FAST = {"validate": _fast_paths._validate, "digest": _fast_paths._digest}


def _click(args, capsys):
    try:
        status = cli.main(args=list(args), prog_name="passdown")
    except SystemExit as exit_:
        status = exit_.code
    captured = capsys.readouterr()
    return status or 0, captured.out, captured.err


def _fast(function, args, capsys):
    status = function(list(args))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_the_corpus_covers_what_it_says(corpus):
    examples, cases = len(_example_files()), len(corpus) - len(_example_files()) - len(HOSTILE)
    assert examples >= 100 and cases >= 300, (examples, cases)


@pytest.mark.parametrize("command, fast", [("validate", _fast_paths._validate), ("digest", _fast_paths._digest)])
def test_each_file_alone_prints_what_click_prints(corpus, command, fast, capsys, monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    answered = 0
    for path in corpus:
        expected = _click([command, path], capsys)
        got = _fast(fast, [path], capsys)
        if got[0] is None:  # left to click: only when click reports an error or strips escapes
            assert got[1:] == ("", ""), path
            assert expected[0] != 0 or "\x1b" in Path(path).read_text("utf-8", "replace"), path
            continue
        answered += 1
        assert got == expected, path
    assert answered >= len(corpus) // 2  # the fast path really ran


@pytest.mark.parametrize("command", ["validate", "digest"])
def test_the_front_door_prints_what_click_prints_in_both_formats(corpus, command, capsys):
    for output_format in ("text", "json"):
        options = ["--format", "json"] if output_format == "json" else []
        for args in ([command, *options, path] for path in corpus[::7]):
            assert _entry_main(args, capsys) == _click(args, capsys), args


def test_many_files_and_folders_in_one_call(corpus, capsys):
    folders = sorted({str(Path(path).parent) for path in corpus})[:40]
    for args in (["validate", *corpus], ["validate", *folders], ["digest", *corpus[:60]],
                 ["validate", str(ROOT / "examples")], ["validate", "no/such/file.json"],
                 ["digest", "no/such/file"], ["digest", str(ROOT / "examples")]):
        assert _entry_main(args, capsys) == _click(args, capsys), args[:3]


def _entry_main(args, capsys):
    try:
        status = _entry.main(list(args))
    except SystemExit as exit_:
        status = exit_.code
    captured = capsys.readouterr()
    return status or 0, captured.out, captured.err


def test_the_installed_launcher_prints_what_click_prints(corpus, tmp_path):
    """Whole processes: ``bin/passdown`` (fast paths) against the click command run by the same
    interpreter, on a valid folder, an invalid file and a raw file."""
    launcher = Path(sys.executable).with_name("passdown")
    if not launcher.is_file():
        pytest.fail(f"no passdown launcher beside {sys.executable}: install the package here")
    env = {**os.environ, "NO_COLOR": "1"}
    invalid = next(path for path in corpus if "hostile-0" in path)
    for args in (["validate", str(ROOT / "examples" / "handoff")], ["validate", invalid],
                 ["digest", str(ROOT / "README.md"), str(ROOT / "examples/handoff/ack.json")]):
        fast = subprocess.run([str(launcher), *args], capture_output=True, env=env, timeout=120)
        slow = subprocess.run([sys.executable, "-c", "import sys; from passdown.cli import cli; "
                               "cli.main(args=sys.argv[1:], prog_name='passdown')", *args],
                              capture_output=True, env=env, timeout=120)
        assert (fast.returncode, fast.stdout, fast.stderr) == (slow.returncode, slow.stdout, slow.stderr)


def test_a_module_beside_the_launcher_is_never_imported(tmp_path):
    """The launcher drops its own folder from the import path: a ``passdown`` package or a
    ``click.py`` left beside it is not run in place of the installed ones."""
    launcher = Path(sys.executable).with_name("passdown")
    if not launcher.is_file():
        pytest.fail(f"no passdown launcher beside {sys.executable}: install the package here")
    copy = tmp_path / "passdown"
    copy.write_bytes(launcher.read_bytes())
    copy.chmod(0o755)
    (tmp_path / "click.py").write_text("raise SystemExit('stray click imported')\n")
    (tmp_path / "passdown.py").write_text("raise SystemExit('stray passdown imported')\n")
    done = subprocess.run([str(copy), "--version"], capture_output=True, text=True, timeout=120,
                          cwd=tmp_path)
    assert (done.returncode, done.stdout.split()[0], done.stderr) == (0, "passdown", "")


def test_escape_sequences_in_a_report_are_left_to_click(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    folder = tmp_path / "\x1b[31mred"
    folder.mkdir()
    (folder / "continue.xbrief.json").write_bytes(b'{"xBRIEFInfo": {"version": "0.8"}}')
    (folder / "notes.txt").write_bytes(b"raw bytes")
    for command, name, expected_status in (("validate", "continue.xbrief.json", 1),
                                           ("digest", "notes.txt", 0)):
        path = str(folder / name)
        assert _fast(_FAST[command], [path], capsys) == (None, "", "")
        status, out, _ = _click([command, path], capsys)
        assert status == expected_status and "\x1b" not in out and "/red/" in out  # stripped
        assert _entry_main([command, path], capsys) == (status, out, "")


def test_a_digest_error_is_left_to_click(tmp_path, capsys):
    broken = tmp_path / "ack.json"
    broken.write_bytes(b"{")
    assert _fast(_fast_paths._digest, [str(broken)], capsys) == (None, "", "")
    status, out, err = _click(["digest", str(broken)], capsys)
    assert status == 2 and out == "" and "load.syntax" in err


@pytest.mark.parametrize("interrupt", [KeyboardInterrupt, EOFError])
def test_an_interrupt_ends_a_fast_path_as_click_ends_a_command(interrupt, capsys, monkeypatch):
    from passdown.engine import _validate

    def interrupted(*args, **kwargs):
        raise interrupt

    monkeypatch.setattr(_validate, "validate_paths", interrupted)
    args = ["validate", str(ROOT / "examples" / "handoff")]
    assert _entry_main(args, capsys) == _click(args, capsys) == (1, "", "\nAborted!\n")


def _launcher() -> str:
    launcher = Path(sys.executable).with_name("passdown")
    if not launcher.is_file():
        pytest.fail(f"no passdown launcher beside {sys.executable}: install the package here")
    return str(launcher)


_CLICK_ONLY = "import sys; from passdown.cli import cli; cli.main(args=sys.argv[1:], prog_name='passdown')"


@pytest.mark.parametrize("command", ["validate", "digest"])
def test_a_closed_pipe_ends_a_fast_path_as_click_ends_a_command(command):
    """The reader has gone before the command writes: exit 1 and nothing on stderr, both ways."""
    target = ROOT / "examples" / ("handoff" if command == "validate" else "handoff/ack.json")
    answers = []
    for argv in ([_launcher(), command, str(target)], [sys.executable, "-c", _CLICK_ONLY, command, str(target)]):
        with subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
            process.stdout.close()
            error = process.stderr.read()
            answers.append((process.wait(timeout=120), error))
    assert answers[0] == answers[1] == (1, b"")


def test_a_shell_asking_for_completions_is_answered_by_click():
    env = {**os.environ, "_PASSDOWN_COMPLETE": "bash_source"}
    argv = ["validate", str(ROOT / "examples" / "handoff")]
    fast = subprocess.run([_launcher(), *argv], capture_output=True, env=env, timeout=120)
    slow = subprocess.run([sys.executable, "-c", _CLICK_ONLY, *argv], capture_output=True, env=env,
                          timeout=120)
    assert (fast.returncode, fast.stdout) == (slow.returncode, slow.stdout) == (0, slow.stdout)
    assert b"_PASSDOWN_COMPLETE" in fast.stdout


@pytest.mark.parametrize("args", [["gate", "guard", "CALL"], ["hook", "claude", "PreToolUse"]])
def test_a_fast_path_whose_reader_went_away_ends_as_click_does(args, tmp_path):
    """The launcher's gate and hook paths writing to a pipe nobody reads: exit 1, nothing on
    stderr (no traceback), as click ends a command on a closed pipe."""
    launcher = Path(sys.executable).with_name("passdown")
    call = tmp_path / "call.json"
    call.write_text(json.dumps({"tool": "execute", "arguments": "reboot", "host_pid": 4242}))
    hook = json.dumps({"session_id": "s", "transcript_path": "/t.jsonl", "cwd": "/", "permission_mode":
                       "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
                       "tool_input": {"command": "reboot"}, "tool_use_id": "t"}).encode()
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run([str(launcher), *[str(call) if a == "CALL" else a for a in args]],
                              input=hook, stdout=write_end, stderr=subprocess.PIPE, timeout=120,
                              check=False)
    finally:
        os.close(write_end)
    assert (done.returncode, done.stderr) == (1, b"")
