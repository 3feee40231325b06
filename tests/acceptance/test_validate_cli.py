"""``passdown validate`` and ``passdown schema`` through click's CliRunner: every option and every
exit status."""

from __future__ import annotations

import json

import pytest
from engine_support import ACK, CHECKPOINT, ROOT, TEST_SCHEMAS, dump, isolated, write  # noqa: F401
from click.testing import CliRunner

from passdown.cli import cli
from passdown.cli._options import use_color as _use_color
from passdown.rules import Hit, rule


def run(*args, input=None, env=None):
    result = CliRunner().invoke(cli, list(args), input=input, env=env)
    assert "Traceback" not in result.stderr
    if result.exception is not None:
        assert isinstance(result.exception, SystemExit), result.exception
    return result


@pytest.fixture
def warned(isolated):
    @rule("ack", "ack.test_warning", requirement="ACK-009", summary="a warning", hint="fix it",
          severity="warning")
    def _warn(artifact):
        if artifact.data.get("status") == "TAKEOVER":
            yield Hit(("status",), "takeover seen")

    return isolated


def test_a_clean_file_exits_0_with_a_summary(isolated, tmp_path):
    path = write(tmp_path, "ack.json", ACK)
    result = run("validate", str(path))
    assert result.exit_code == 0
    assert result.stdout == "1 file checked: no findings\n"


def test_findings_exit_1_with_file_line_severity_code_and_hint(isolated, tmp_path):
    path = write(tmp_path, "ack.json", {**ACK, "goal_id": 3})
    result = run("validate", str(path))
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        f"{path}:5: error schema.type $.goal_id: must be a string, not an integer [ACK-001]",
        "  hint: write a string here (A short id)",
        "1 file checked: 1 error, 0 warnings",
    ]


def test_no_path_validates_the_current_folder(isolated, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "ack.json", {**ACK, "goal_id": 3})
    result = run("validate")
    assert result.exit_code == 1
    assert result.stdout.startswith("./ack.json:5: error schema.type ")
    assert run("validate", "-v").stdout.startswith("checked ./ack.json (ack)\n")


def test_an_unknown_kind_is_a_usage_error(isolated, tmp_path):
    result = run("validate", "--kind", "nonsense", str(tmp_path))
    assert result.exit_code == 2 and "nonsense" in result.stderr


def test_stdin_needs_kind(isolated):
    result = run("validate", "-", input=dump(ACK))
    assert result.exit_code == 2 and "--kind" in result.stderr


def test_stdin_with_kind(isolated):
    assert run("validate", "--kind", "ack", "-", input=dump(ACK)).exit_code == 0
    result = run("validate", "--kind", "ack", "-", input=dump({**ACK, "status": "NO"}))
    assert result.exit_code == 1 and result.stdout.startswith("<stdin>:4: error schema.enum")


def test_unreadable_stdin_exits_2(isolated):
    result = run("validate", "--kind", "ack", "-", input=b"\xff\xfe{\x00}\x00")
    assert result.exit_code == 2 and "load.encoding" in result.stdout


def test_kind_forces_a_named_file(isolated, tmp_path):
    path = write(tmp_path, "anything.json", ACK)
    assert run("validate", "--kind", "ack", str(path)).exit_code == 0
    result = run("validate", "--kind", "checkpoint", str(path))
    assert result.exit_code == 1 and "schema.required" in result.stdout


def test_an_unreadable_named_file_exits_2_and_a_missing_one_too(isolated, tmp_path):
    broken = write(tmp_path, "ack.json", '{"goal_id": "a",')
    result = run("validate", str(broken))
    assert result.exit_code == 2 and "load.syntax" in result.stdout
    result = run("validate", str(tmp_path / "missing.json"))
    assert result.exit_code == 2 and "load.unreadable" in result.stdout


def test_unreadable_wins_over_findings(isolated, tmp_path):
    bad = write(tmp_path, "a/ack.json", {**ACK, "goal_id": 3})
    broken = write(tmp_path, "b/ack.json", "")
    result = run("validate", str(bad), str(broken))
    assert result.exit_code == 2
    assert "schema.type" in result.stdout and "load.empty" in result.stdout


def test_strict_makes_warnings_fail(warned, tmp_path):
    path = write(tmp_path, "ack.json", {**ACK, "status": "TAKEOVER"})
    result = run("validate", str(path))
    assert result.exit_code == 0 and "warning ack.test_warning" in result.stdout
    result = run("validate", "--strict", str(path))
    assert result.exit_code == 1
    assert result.stdout.endswith("1 file checked: 0 errors, 1 warning (warnings fail under --strict)\n")


def test_quiet_prints_findings_only(isolated, tmp_path):
    clean = write(tmp_path, "a/ack.json", ACK)
    assert run("validate", "-q", str(clean)).stdout == ""
    bad = write(tmp_path, "b/ack.json", {**ACK, "goal_id": 3})
    result = run("validate", "--quiet", str(bad))
    assert result.exit_code == 1
    assert result.stdout == f"{bad}:5: error schema.type $.goal_id: must be a string, not an integer [ACK-001]\n"


def test_color(isolated, tmp_path):
    bad = write(tmp_path, "ack.json", {**ACK, "goal_id": 3})
    assert "\x1b[" in run("validate", "--color", "always", str(bad)).stdout
    assert "\x1b[" in run("validate", "--color", "always", str(bad), env={"NO_COLOR": "1"}).stdout
    assert "\x1b[" not in run("validate", "--color", "never", str(bad)).stdout
    assert "\x1b[" not in run("validate", str(bad)).stdout  # auto, and not a terminal
    assert "\x1b[" not in run("validate", "--format", "json", "--color", "always", str(bad)).stdout


def test_color_auto_follows_the_terminal_and_no_color(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setattr("sys.stdout.isatty", lambda: True)
    assert _use_color("auto") is True
    monkeypatch.setenv("NO_COLOR", "1")
    assert _use_color("auto") is False
    assert _use_color("always") is True
    monkeypatch.setenv("NO_COLOR", "")
    assert _use_color("auto") is True
    monkeypatch.setattr("sys.stdout.isatty", lambda: False)
    assert _use_color("auto") is False
    assert _use_color("never") is False


@pytest.mark.parametrize("output_format", ["json", "sarif"])
def test_machine_formats_parse(isolated, tmp_path, output_format):
    bad = write(tmp_path, "ack.json", {**ACK, "goal_id": 3})
    result = run("validate", "--format", output_format, str(bad))
    assert result.exit_code == 1
    assert json.loads(result.stdout)


def test_github_format(isolated, tmp_path):
    bad = write(tmp_path, "ack.json", {**ACK, "goal_id": 3})
    result = run("validate", "--format", "github", str(bad))
    assert result.exit_code == 1
    assert result.stdout.startswith(f"::error file={bad},line=5,title=schema.type::")


def test_an_unknown_format_is_a_usage_error(isolated, tmp_path):
    assert run("validate", "--format", "xml", str(tmp_path)).exit_code == 2


def test_a_folder_without_artifacts_exits_1(isolated, tmp_path):
    result = run("validate", str(tmp_path))
    assert result.exit_code == 1 and "detect.no_artifacts" in result.stdout


def test_help_names_the_options(isolated):
    result = run("validate", "--help")
    assert result.exit_code == 0
    for option in ("--kind", "--format", "--color", "--strict", "--quiet"):
        assert option in result.stdout


# -- passdown schema ---------------------------------------------------------------------------


def test_schema_list(isolated):
    result = run("schema", "list")
    assert result.exit_code == 0
    names = [line.split()[0] for line in result.stdout.splitlines()]
    assert names == ["ack", "checkpoint", "defs", "packet", "registry"]
    assert "https://spec.passdown.dev/schemas/v1/ack.schema.json" in result.stdout
    rows = json.loads(run("schema", "list", "--format", "json").stdout)
    assert [row["name"] for row in rows] == names
    assert rows[0]["title"] == "test ack"


@pytest.mark.parametrize("name", ["ack", "ack.schema.json", "v1/ack.schema.json",
                                  "https://spec.passdown.dev/schemas/v1/ack.schema.json"])
def test_schema_show_and_path(isolated, name):
    expected = TEST_SCHEMAS / "v1" / "ack.schema.json"
    result = run("schema", "show", name)
    assert result.exit_code == 0 and result.stdout == expected.read_text(encoding="utf-8")
    result = run("schema", "path", name)
    assert result.exit_code == 0 and result.stdout == f"{expected}\n"


def test_schema_unknown_name_exits_2(isolated):
    result = run("schema", "show", "nope")
    assert result.exit_code == 2
    assert "nope" in result.stderr and "ack, checkpoint" in result.stderr


def test_real_schema_list_includes_every_kind():
    from passdown.formats import _detect
    from passdown.engine._schemas import store

    names = run("schema", "list").stdout
    for kind in _detect.KINDS:
        if (store().root / "v1" / kind.schema).exists():
            assert kind.schema.removesuffix(".schema.json") in names
    assert "findings" in names


def test_the_example_handoff_is_clean_with_every_kind_placed():
    result = run("validate", "--format", "json", str(ROOT / "examples" / "handoff"))
    assert result.exit_code == 0, result.stdout
    report = json.loads(result.stdout)
    assert report["findings"] == []
    assert sorted(entry["kind"] for entry in report["files"]) == ["ack", "checkpoint", "packet", "registry"]


def test_every_invalid_example_gives_its_expected_codes():
    expected = json.loads((ROOT / "examples" / "invalid" / "expected.json").read_text("utf-8"))
    for relative, codes in expected.items():
        result = run("validate", "--format", "json", str(ROOT / "examples" / "invalid" / relative))
        findings = json.loads(result.stdout)["findings"]
        got = {"errors": sorted({f["code"] for f in findings if f["severity"] == "error"}),
               "warnings": sorted({f["code"] for f in findings if f["severity"] == "warning"})}
        assert got == codes, relative
        assert result.exit_code == (1 if codes["errors"] else 0), relative


def test_files_and_stdin_in_one_call(isolated, tmp_path):
    path = write(tmp_path, "ack.json", ACK)
    result = run("validate", "--kind", "ack", str(path), "-", str(path), input=dump({**ACK, "goal_id": 1}))
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0].startswith("<stdin>:5: error schema.type")
    assert result.stdout.splitlines()[-1] == "2 files checked: 1 error, 0 warnings"


ACTIONS = ["BLOCKED", "VERIFY_TAKEOVER", "VERIFY_SOURCE_RELEASE", "RECONCILE_ARCHIVE", "COMPLETE",
           "ARCHIVE_PENDING", "ARCHIVE_SOURCE", "RECONCILE_TARGET", "FINISH", "CHECKPOINT_ONLY",
           "CONTINUE", "WAIT_SAFE_BOUNDARY", "CHECKPOINT", "MANUAL_HANDOFF", "CREATE_FRESH",
           "VERIFY_TARGET", "COMMIT_TRANSFER"]  # registry.schema.json, $defs.decision.action


def test_a_long_list_is_cut_in_text_and_whole_in_json(tmp_path):
    source = ROOT / "examples" / "invalid" / "registry" / "timezone.json"
    document = json.loads(source.read_text())
    document["decision"]["action"] = "JUMP"
    path = tmp_path / "registry.json"
    path.write_text(json.dumps(document, indent=2))
    text = run("validate", str(path))
    message = ('"JUMP" is not one of the allowed values: ' + ", ".join(f'"{a}"' for a in ACTIONS[:12])
               + " (and 5 more)")
    assert message in text.stdout
    data = json.loads(run("validate", "--format", "json", str(path)).stdout)
    [finding] = [f for f in data["findings"] if f["path"] == "$.decision.action"]
    assert (finding["message"], finding["values"]) == (message, ACTIONS)
