"""``passdown digest``: digest lines, --check lists, --canonical, stdin, JSON output."""

import hashlib
import json
import shutil
import subprocess

import pytest
from blake3 import blake3
from click.testing import CliRunner

from passdown.cli import cli


def b3(data: bytes) -> str:
    return "blake3:" + blake3(data).hexdigest()


ACK_JCS = b3(b'{"a":"x","b":1}')
PACKET = b3(b"GOAL_ID: g\n")
PLAIN = b3(b"hello\r\n")
PLAIN_SHA256 = "sha256:" + hashlib.sha256(b"hello\r\n").hexdigest()


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ack.json").write_text('{"b": 1.0, "a": "x"}\n')
    (tmp_path / "continuation.packet.txt").write_bytes(b"GOAL_ID: g\r\nCHECKPOINT_DIGEST: blake3:00\r\n")
    (tmp_path / "plain.txt").write_bytes(b"hello\r\n")
    return tmp_path


def run(*args, input=None):
    return CliRunner().invoke(cli, ["digest", *args], input=input, catch_exceptions=False)


def test_digest_lines_hash_artifacts_canonically_and_other_files_raw(folder):
    result = run("ack.json", "continuation.packet.txt", "plain.txt")
    assert result.exit_code == 0
    assert result.output == (f"{ACK_JCS}  ack.json\n"
                             f"{PACKET}  continuation.packet.txt\n"
                             f"{PLAIN}  plain.txt\n")


def test_sha256_digests_agree_with_sha256sum(folder):
    result = run("--algorithm", "sha256", "plain.txt")
    assert result.output == f"{PLAIN_SHA256}  plain.txt\n"
    if shutil.which("sha256sum"):
        printed = subprocess.run(["sha256sum", "plain.txt"], capture_output=True, text=True, check=True).stdout
        assert result.output == "sha256:" + printed


def test_stdin_is_hashed_raw_unless_a_kind_is_named(folder):
    assert run("-", input=b'{"b": 1}').output == b3(b'{"b": 1}') + "  -\n"
    assert run("--kind", "json", "-", input=b'{"b": 1}').output == b3(b'{"b":1}') + "  -\n"


def test_kind_forces_a_form(folder):
    assert run("--kind", "raw", "ack.json").output == b3(b'{"b": 1.0, "a": "x"}\n') + "  ack.json\n"


def test_unreadable_files_are_reported_and_exit_2(folder):
    (folder / "bad.json").write_text("{}")
    result = CliRunner().invoke(cli, ["digest", "plain.txt", "missing.txt"])
    assert result.exit_code == 2
    assert result.stdout == f"{PLAIN}  plain.txt\n"
    assert "load.unreadable" in result.stderr and "missing.txt" in result.stderr


def test_an_artifact_that_fails_loading_is_reported_with_its_code(folder):
    (folder / "ack.json").write_text('{"a": 1, "a": 2}')
    result = run("--format", "json", "ack.json")
    assert result.exit_code == 2
    assert [e["code"] for e in json.loads(result.output)["errors"]] == ["load.duplicate_key"]


def test_json_output(folder):
    result = run("--format", "json", "ack.json", "plain.txt")
    assert json.loads(result.output) == {"digests": [
        {"file": "ack.json", "digest": ACK_JCS, "form": "jcs"},
        {"file": "plain.txt", "digest": PLAIN, "form": "raw"}], "errors": []}


def test_canonical_prints_the_canonical_bytes(folder):
    result = CliRunner().invoke(cli, ["digest", "--canonical", "continuation.packet.txt"])
    assert result.stdout_bytes == b"GOAL_ID: g\n"
    assert run("--canonical", "ack.json").stdout_bytes == b'{"a":"x","b":1}'


def test_a_file_name_with_a_newline_is_escaped_and_checks_back(folder):
    name = "odd\nname\\x.txt"
    (folder / name).write_bytes(b"x")
    listed = run(name).output
    assert listed == "\\" + b3(b"x") + "  odd\\nname\\\\x.txt\n"
    (folder / "list").write_text(listed)
    assert run("--check", "list").exit_code == 0


def test_check_reports_each_line_and_exits_1_on_any_failure(folder):
    listed = run("ack.json", "continuation.packet.txt", "plain.txt").output
    lines = listed + "\n".join([
        b3(b"other") + "  plain.txt",
        "blake3:zz  plain.txt",
        f"sha512:{'ab' * 64}  plain.txt",
        "not a line",
        f"{PLAIN_SHA256}  plain.txt",
        b3(b"x") + "  missing.txt",
    ]) + "\n"
    (folder / "list.b3").write_text(lines)
    result = CliRunner().invoke(cli, ["digest", "--check", "list.b3"])
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "ack.json: OK", "continuation.packet.txt: OK", "plain.txt: OK",
        "plain.txt: FAILED (digest.mismatch)",
        "plain.txt: FAILED (digest.malformed)",
        "plain.txt: FAILED (digest.unknown_algorithm)",
        "list.b3:7: FAILED (digest.malformed_line)",
        "plain.txt: OK",
        "missing.txt: FAILED (load.unreadable)",
    ]
    assert "5 of 9 lines FAILED" in result.stderr


def test_check_all_ok_exits_0_and_json_lists_results(folder):
    (folder / "list").write_text(run("ack.json", "plain.txt").output + "\n\n")
    assert run("--check", "list").exit_code == 0
    data = json.loads(run("--check", "list", "--format", "json").output)
    assert data["ok"] is True
    assert [(r["line"], r["file"], r["status"]) for r in data["results"]] == [(1, "ack.json", "OK"), (2, "plain.txt", "OK")]


def test_check_of_an_empty_list_fails(folder):
    (folder / "empty").write_text("\n")
    result = CliRunner().invoke(cli, ["digest", "--check", "empty"])
    assert result.exit_code == 1
    assert "digest.empty_list" in result.stderr


def test_check_reads_the_list_from_stdin(folder):
    result = run("--check", "-", input=run("plain.txt").output)
    assert (result.exit_code, result.output) == (0, "plain.txt: OK\n")


@pytest.mark.parametrize("args", [
    [], ["--canonical", "a", "b"], ["--check", "x", "plain.txt"], ["--restart-id", "r", "plain.txt"],
    ["--record", "registry.yaml", "p.txt"], ["--status", "plain.txt"], ["--check", "x", "--tag"],
    ["--tag", "--format", "json", "plain.txt"],
])
def test_usage_errors_exit_2(folder, args):
    result = CliRunner().invoke(cli, ["digest", *args])
    assert result.exit_code == 2
    assert "usage" in result.stderr


def test_kind_registry_follows_the_file_syntax(folder):
    (folder / "reg.yaml").write_text("b: 1\na: 2\n")
    (folder / "reg.json").write_text('{"b": 1, "a": 2}')
    result = run("--kind", "registry", "reg.yaml", "reg.json")
    digest = b3(b'{"a":2,"b":1}')
    assert result.output == f"{digest}  reg.yaml\n{digest}  reg.json\n"


# -- lists sha256sum and b3sum write and read ----------------------------------------------

ACK_RAW = b'{"b": 1.0, "a": "x"}\n'


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_check_reads_a_sha256sum_list_by_its_name(folder):
    # bare hex over the raw bytes: an artifact too, as sha256sum hashes it
    (folder / "SHA256SUMS").write_text(f"{_sha256(ACK_RAW)}  ack.json\n"
                                       f"{_sha256(b'hello' + bytes([13, 10]))} *plain.txt\n")
    result = run("--check", "SHA256SUMS")
    assert (result.exit_code, result.output) == (0, "ack.json: OK\nplain.txt: OK\n")


def test_check_reads_a_b3sum_list_and_any_list_with_algorithm(folder):
    (folder / "B3SUMS").write_text(f"{blake3(ACK_RAW).hexdigest()}  ack.json\n")
    assert run("--check", "B3SUMS").exit_code == 0
    (folder / "list.txt").write_text(f"{_sha256(ACK_RAW)}  ack.json\n")
    assert run("--check", "list.txt", "--algorithm", "sha256").exit_code == 0


def test_a_bare_list_read_with_the_wrong_algorithm_says_which_to_pass(folder):
    (folder / "list.txt").write_text(f"{_sha256(ACK_RAW)}  ack.json\n")
    result = run("--check", "list.txt")
    assert (result.exit_code, result.stdout) == (1, "ack.json: FAILED (digest.mismatch)\n")
    assert result.stderr.splitlines()[:2] == [
        "passdown: list.txt:1: digest.mismatch: the file's digest differs from the listed one",
        "  hint: a bare line names no algorithm and was read as blake3: for a sha256sum list "
        "pass --algorithm sha256"]


def test_check_reads_a_tagged_list(folder):
    (folder / "tags").write_text(f"SHA256 (ack.json) = {_sha256(ACK_RAW)}\n"
                                 f"BLAKE3 (plain.txt) = {blake3(b'hello' + bytes([13, 10])).hexdigest()}\n"
                                 f"MD5 (plain.txt) = {'0' * 32}\n")
    result = run("--check", "tags")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == ["ack.json: OK", "plain.txt: OK",
                                          "plain.txt: FAILED (digest.unknown_algorithm)"]


@pytest.mark.parametrize("style, line", [
    ("--tag", f"SHA256 (ack.json) = {_sha256(ACK_RAW)}\n"),
    ("--bare", f"{_sha256(ACK_RAW)}  ack.json\n"),
])
def test_tag_and_bare_write_what_sha256sum_checks(folder, style, line):
    result = run("--algorithm", "sha256", style, "ack.json")
    assert (result.exit_code, result.output) == (0, line)
    (folder / "list").write_text(result.output)
    assert run("--check", "list", "--algorithm", "sha256").output == "ack.json: OK\n"
    if shutil.which("sha256sum"):
        checked = subprocess.run(["sha256sum", "-c", "list"], capture_output=True, text=True)
        assert (checked.returncode, checked.stdout) == (0, "ack.json: OK\n")
        (folder / "theirs").write_text(subprocess.run(
            ["sha256sum", *(["--tag"] if style == "--tag" else []), "ack.json"],
            capture_output=True, text=True, check=True).stdout)
        assert (folder / "theirs").read_text() == line


def test_the_default_list_of_an_artifact_is_canonical_and_the_tag_list_raw(folder):
    assert run("ack.json").output == f"{ACK_JCS}  ack.json\n"
    assert run("--tag", "ack.json").output == f"BLAKE3 (ack.json) = {blake3(ACK_RAW).hexdigest()}\n"
    assert run("--tag", "--kind", "ack", "ack.json").output == \
        f"BLAKE3 (ack.json) = {ACK_JCS.removeprefix('blake3:')}\n"


def test_quiet_prints_only_failures_and_status_prints_nothing(folder):
    (folder / "list").write_text(run("ack.json", "plain.txt").output + b3(b"no") + "  plain.txt\n")
    result = run("--check", "list", "-q")
    assert (result.exit_code, result.stdout) == (1, "plain.txt: FAILED (digest.mismatch)\n")
    result = run("--check", "list", "--status")
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", "")
    (folder / "good").write_text(run("ack.json").output)
    result = run("--check", "good", "--status")
    assert (result.exit_code, result.output) == (0, "")
    assert run("--check", "good", "--quiet").output == ""


def test_a_malformed_line_gets_its_hint_on_stderr_and_in_json(folder):
    (folder / "list").write_text("not a line\n")
    result = run("--check", "list")
    assert result.stdout == "list:1: FAILED (digest.malformed_line)\n"
    assert "  hint: write `<digest>  <file>` (`blake3:<hex>  <file>`), the bare `<hex>  <file>` " \
           "of sha256sum and b3sum, or the tagged `SHA256 (<file>) = <hex>` of sha256sum --tag" \
           in result.stderr.splitlines()
    data = json.loads(run("--check", "list", "--format", "json").stdout)
    assert data["results"][0]["hint"].startswith("write `<digest>  <file>`")


def test_verbose_shows_the_listed_and_the_actual_digest(folder):
    (folder / "list").write_text(b3(b"no") + "  plain.txt\n")
    result = run("--check", "list", "-v")
    assert result.stderr.splitlines()[:3] == [
        "passdown: list:1: digest.mismatch: the file's digest differs from the listed one",
        f"  listed: {b3(b'no')}", f"  actual: {PLAIN}"]


def test_color_marks_ok_and_failed(folder):
    (folder / "list").write_text(run("plain.txt").output + b3(b"no") + "  plain.txt\n")
    result = run("--check", "list", "--color", "always")
    assert result.stdout == ("plain.txt: \x1b[32mOK\x1b[0m\n"
                             "plain.txt: \x1b[1;31mFAILED\x1b[0m (digest.mismatch)\n")
