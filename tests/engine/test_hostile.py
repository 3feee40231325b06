"""Hostile input: every kind of bad bytes or bad file gives its code and exit status, never a
traceback and never a hang."""

from __future__ import annotations

import errno
import os
import subprocess
import sys

import pytest
from engine_support import ACK, ROOT, dump, isolated, write  # noqa: F401
from click.testing import CliRunner

from passdown.cli import cli

NAMED_UNREADABLE = 2


def validate(*args, input=None):
    result = CliRunner().invoke(cli, ["validate", "--format", "json", *map(str, args)], input=input)
    assert "Traceback" not in result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    import json

    return result.exit_code, [f["code"] for f in json.loads(result.stdout)["findings"]]


@pytest.mark.parametrize(("content", "code"), [
    (b"", "load.empty"),
    (b"   \n", "load.empty"),
    (b'{"kind": "ack", "goal_id": "a"', "load.syntax"),  # truncated
    (b'{"kind": "ack"}\n{"kind": "ack"}', "load.syntax"),  # two documents
    ('{"kind": "ack"}'.encode("utf-16"), "load.encoding"),
    ('{"kind": "ack"}'.encode("utf-16-be"), "load.encoding"),  # no BOM, NUL bytes
    (b'\xef\xbb\xbf{"kind": "ack"}', "load.bom"),
    (b'{"kind": "ack", "kind": "ack"}', "load.duplicate_key"),
    (b'{"kind": "ack", "n": NaN}', "load.non_finite"),
    (b'{"kind": "ack", "n": -Infinity}', "load.non_finite"),
    (b"[" * 100_000 + b"]" * 100_000, "load.too_deep"),
    (b'{"a":' * 70 + b"1" + b"}" * 70, "load.too_deep"),
    (b'{"kind": "ack\x01"}', "load.syntax"),  # a raw control character in a string
    (b'{"kind": "\xff"}', "load.encoding"),
    (b'{"n": ' + b"9" * 5000 + b"}", "load.too_many_digits"),  # no Python advice, a code
    (b'{"n": -' + b"9" * 4301 + b"}", "load.too_many_digits"),
    (b'{"n": 1e400}', "load.non_finite"),  # beyond the largest double: infinity
    (b'{"n": -1e400}', "load.non_finite"),
])
def test_bad_bytes_in_a_named_file(isolated, tmp_path, content, code):
    path = write(tmp_path, "ack.json", content)
    assert validate(path) == (NAMED_UNREADABLE, [code])


@pytest.mark.parametrize(("content", "code"), [
    ("a: 1\na: 2\n", "load.duplicate_key"),
    ("kind: !!python/object:os.system ls\n", "load.yaml_tag"),
    ("kind: registry\nrevision: .nan\n", "load.non_finite"),
    ("1: registry\n", "load.yaml_type"),
    ("kind: !!binary aGVsbG8=\n", "load.yaml_type"),
    ("a: &a [*a]\n", "load.too_deep"),
    ("a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]\n" for i in range(9)),
     "load.too_large"),  # an alias bomb: 10^10 nodes once expanded
    ("--- {}\n--- {}\n", "load.syntax"),
    ("key: [unclosed\n", "load.syntax"),
])
def test_bad_yaml(isolated, tmp_path, content, code):
    path = write(tmp_path, "registry.yaml", content)
    assert validate(path) == (NAMED_UNREADABLE, [code])


BOUND = 1 << 20  # characters in one string (INP-014)


@pytest.mark.parametrize(("name", "content"), [
    ("ack.json", '{"kind": "ack", "note": "' + "x" * (BOUND + 1) + '"}'),
    ("ack.json", '{"kind": "ack", "' + "k" * (BOUND + 1) + '": 1}'),  # a key
    ("ack.json", '{"kind": "ack", "note": "' + "\\u00e9" * (BOUND + 1) + '"}'),  # escapes count once
    ("registry.yaml", "kind: registry\nnote: " + "x" * (BOUND + 1) + "\n"),
    ("registry.yaml", "kind: registry\n? " + "k" * (BOUND + 1) + "\n: 1\n"),  # an explicit key
])
def test_a_string_over_the_bound(isolated, tmp_path, name, content):
    path = write(tmp_path, name, content)
    assert validate(path) == (NAMED_UNREADABLE, ["load.string_too_long"])


@pytest.mark.parametrize(("name", "content"), [
    ("ack.json", '{"kind": "ack", "note": "' + "x" * BOUND + '"}'),
    ("registry.yaml", "kind: registry\nnote: " + "x" * BOUND + "\n"),
])
def test_a_string_at_the_bound_loads(isolated, tmp_path, name, content):
    code, findings = validate(write(tmp_path, name, content))
    assert not [f for f in findings if f.startswith("load.")]


@pytest.mark.parametrize(("content", "code"), [
    ("n: " + "9" * 4300 + "\n", None),
    ("n: " + "9" * 4301 + "\n", "load.too_many_digits"),
    ("n: -" + "9" * 4301 + "\n", "load.too_many_digits"),
    ("n: 0x" + "f" * 3571 + "\n", None),  # 16**3571 - 1 has 4,300 decimal digits
    ("n: 0x" + "f" * 3572 + "\n", "load.too_many_digits"),  # 4,302: fewer written, longer value
    ("n: 0o" + "7" * 5000 + "\n", "load.too_many_digits"),
    ("n: " + "1_" * 3000 + "1\n", "load.too_many_digits"),  # separators count as written
    ("n: 1e400\n", "load.non_finite"),
    ("n: -1.0e+400\n", "load.non_finite"),
])
def test_yaml_numbers(isolated, tmp_path, content, code):
    findings = validate(write(tmp_path, "registry.yaml", content))[1]
    assert (code in findings) if code else not [f for f in findings if f.startswith("load.")]


def test_a_long_integer_gets_a_code_not_python_advice(isolated, tmp_path):
    result = CliRunner().invoke(cli, ["validate", str(write(tmp_path, "ack.json",
                                                           '{"n": ' + "9" * 5000 + "}"))])
    assert "load.too_many_digits" in result.stdout
    assert "set_int_max_str_digits" not in result.stdout + result.stderr


def test_wrong_types_are_schema_findings(isolated, tmp_path):
    path = write(tmp_path, "ack.json", {**ACK, "status": ["READY_READONLY"], "goal_id": None})
    assert validate(path) == (1, ["schema.enum", "schema.type"])
    for document in ([ACK], "ack", 3, None):
        path = write(tmp_path, "ack.json", dump(document))
        assert validate(path) == (1, ["schema.type"])


def test_a_huge_file_is_not_read(isolated, tmp_path):
    path = tmp_path / "ack.json"
    with open(path, "wb") as handle:
        handle.truncate(10 * 1024 * 1024 + 1)
    assert validate(path) == (NAMED_UNREADABLE, ["load.too_large"])


def test_huge_stdin_is_bounded(isolated):
    assert validate("--kind", "ack", "-", input=b" " * (10 * 1024 * 1024 + 5)) == (
        NAMED_UNREADABLE, ["load.too_large"])


def test_a_symlink_loop(isolated, tmp_path):
    loop = tmp_path / "ack.json"
    os.symlink(loop, loop)
    assert validate(loop) == (NAMED_UNREADABLE, ["load.symlink_loop"])
    # inside a folder: reported, but not an unreadable named input
    assert validate(tmp_path) == (1, ["load.symlink_loop"])


def test_a_folder_symlink_loop_is_not_followed(isolated, tmp_path):
    write(tmp_path, "ack.json", ACK)
    os.symlink(tmp_path, tmp_path / "again")
    code, findings = validate(tmp_path)
    assert (code, findings) == (0, [])


def test_an_unreadable_file(isolated, tmp_path, monkeypatch):
    # A path through a regular file cannot be opened whoever runs the test.
    write(tmp_path, "plain", "x")
    assert validate(tmp_path / "plain" / "ack.json") == (NAMED_UNREADABLE, ["load.unreadable"])
    # Permission denied, as an unprivileged user would meet it.
    real_open = os.open

    def denied(path, *args, **kwargs):
        if os.fspath(path).endswith("ack.json"):
            raise PermissionError(errno.EACCES, "Permission denied", path)
        return real_open(path, *args, **kwargs)

    path = write(tmp_path, "ack.json", ACK)
    monkeypatch.setattr(os, "open", denied)
    assert validate(path) == (NAMED_UNREADABLE, ["load.unreadable"])
    assert validate(tmp_path) == (1, ["load.unreadable"])


def test_a_directory_named_like_an_artifact(isolated, tmp_path):
    (tmp_path / "inner" / "ack.json").mkdir(parents=True)
    assert validate(tmp_path / "inner") == (1, ["detect.no_artifacts"])


def test_control_characters_in_a_packet(tmp_path):
    path = write(tmp_path, "continuation.packet.txt", "GOAL_ID: a\x1b[31mred\n")
    code, findings = validate(path)
    assert code == 1 and "packet.control_char" in findings


def _run_cli(*args, timeout=60):
    return subprocess.run(
        [sys.executable, "-m", "passdown", "validate", *map(str, args)],
        capture_output=True, timeout=timeout, cwd=ROOT, stdin=subprocess.DEVNULL,
    )


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_a_fifo_does_not_hang(tmp_path):
    fifo = tmp_path / "ack.json"
    os.mkfifo(fifo)
    named = _run_cli(fifo)  # nobody writes to it: reading it would block for ever
    assert named.returncode == 2 and b"load.not_regular" in named.stdout
    assert b"Traceback" not in named.stderr
    walked = _run_cli(tmp_path)
    assert walked.returncode == 1 and b"load.not_regular" in walked.stdout
    assert b"Traceback" not in walked.stderr


def test_a_device_is_not_read(tmp_path):
    result = _run_cli("--kind", "ack", "/dev/zero")
    assert result.returncode == 2 and b"load.not_regular" in result.stdout
    assert b"Traceback" not in result.stderr


def test_a_folder_tree_1000_levels_deep(deep_tree):
    # os.walk recursed once per level and failed near 1,000; the walk stops at 64 levels
    tmp_path = deep_tree
    write(tmp_path, "ack.json", ACK)
    result = _run_cli("--format", "json", tmp_path)
    assert b"Traceback" not in result.stderr
    import json

    report = json.loads(result.stdout)
    assert result.returncode == 1
    loading = [(f["code"], f["file"]) for f in report["findings"] if f["code"].startswith("load.")]
    assert loading == [("load.folder_too_deep", os.path.join(tmp_path, *["d"] * 64))]
    assert {"file": os.path.join(tmp_path, "ack.json"), "kind": "ack"} in report["files"]


def test_a_walk_over_its_entry_bound_is_an_unreadable_named_folder(isolated, tmp_path, monkeypatch):
    from passdown.formats import _files

    for index in range(12):
        write(tmp_path, f"sub{index}/ack.json", ACK)
    monkeypatch.setattr(_files, "MAX_WALK_ENTRIES", 10)
    code, findings = validate(tmp_path)
    assert code == NAMED_UNREADABLE and findings.count("load.too_many_files") == 1


def test_deep_nesting_in_a_subprocess(tmp_path):
    path = write(tmp_path, "ack.json", b"[" * 100_000)
    result = _run_cli(path)
    assert result.returncode == 2 and b"load." in result.stdout
    assert b"Traceback" not in result.stderr


@pytest.mark.parametrize("output_format", ["text", "json", "sarif", "github"])
def test_a_file_name_that_is_not_utf8(isolated, tmp_path, output_format, monkeypatch):
    folder = os.fsencode(tmp_path) + b"/bad\xffname"
    try:
        os.makedirs(folder)
    except OSError:
        pytest.fail("this file system refuses non-UTF-8 names; the test needs one that allows them")
    with open(folder + b"/ack.json", "w", encoding="utf-8") as handle:
        handle.write('{"kind": "ack"}')
    monkeypatch.chdir(tmp_path)
    for target in ("bad\udcffname", os.fsdecode(folder)):  # relative and absolute
        result = CliRunner().invoke(cli, ["validate", "--format", output_format, target])
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        assert result.exit_code == 1 and "schema.required" in result.stdout


@pytest.mark.parametrize("named", ["the folder", "its registry"])
def test_a_checkpoint_folder_linked_out_of_the_handoff_folder_is_reported(tmp_path, named):
    from authoring_support import make_project

    project = make_project(tmp_path / "h")
    (tmp_path / "elsewhere").mkdir()
    (project / "xbrief").rename(tmp_path / "elsewhere" / "xbrief")
    (project / "xbrief").symlink_to(tmp_path / "elsewhere" / "xbrief")
    target = project if named == "the folder" else project / "registry.yaml"
    assert validate(str(target)) == (1, ["load.link_escape"])


def test_a_checkpoint_folder_linked_inside_the_handoff_folder_is_no_escape(tmp_path):
    from authoring_support import make_project

    project = make_project(tmp_path / "h")
    (project / "xbrief").rename(project / "kept")
    (project / "xbrief").symlink_to(project / "kept")
    assert "load.link_escape" not in validate(str(project))[1]
