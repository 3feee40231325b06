"""``--format``, ``-q/--quiet``, ``--color`` and ``-v/--verbose`` are one set of options, in one
order, on every command that prints a result through them: validate, the authoring commands,
``ack write``, ``ack verify``, ``registry recover`` and ``conformance check|run|report``."""

from __future__ import annotations

import pytest

from passdown.cli import cli

COMMANDS = [("validate",), ("ack", "write"), ("ack", "verify"), ("registry", "recover"),
            ("conformance", "check"), ("conformance", "run"), ("conformance", "report"),
            ("checkpoint", "decision"), ("migrate",)]


def _command(path):
    import click

    command, context = cli, click.Context(cli)
    for name in path:
        command = command.get_command(context, name)
    return command


def _options(command):
    return [(tuple(p.opts), tuple(p.secondary_opts)) for p in command.params
            if p.name in ("output_format", "quiet", "color", "verbose")]


@pytest.mark.parametrize("path", COMMANDS, ids=" ".join)
def test_each_command_takes_the_four_output_options_in_one_order(path):
    command = _command(path)
    assert _options(command) == [(("--format",), ()), (("-q", "--quiet"), ()),
                                 (("--color",), ()), (("-v", "--verbose"), ())]
    color = next(p for p in command.params if p.name == "color")
    assert (tuple(color.type.choices), color.default) == (("auto", "always", "never"), "auto")
    quiet, verbose = (next(p for p in command.params if p.name == name) for name in ("quiet", "verbose"))
    assert quiet.is_flag and verbose.is_flag and quiet.help and verbose.help


def _run(*options, program=None):
    from click.testing import CliRunner

    argv = ["conformance", "run", "--id", "title.worked.utc_default", "--id", "title.worked.stacked_suffixes"]
    if program:
        argv += ["--program", program]
    return CliRunner().invoke(cli, [*argv, *options])


def test_conformance_run_quiet_prints_the_failures_and_the_final_line_only():
    assert (_run("-q").exit_code, _run("-q").output) == (0, "2 passed, 0 failed, 0 errored, 0 skipped\n")
    failed = _run("-q", program="false")
    assert failed.exit_code == 1
    assert failed.output.startswith("ERRORED title.worked.stacked_suffixes  (conformance/cases/title/worked.json")
    assert failed.output.endswith("\n\n0 passed, 0 failed, 2 errored, 0 skipped\n")
    assert "gates implemented" not in failed.output


def test_conformance_run_verbose_names_every_case_and_color_marks_the_verdict():
    verbose = _run("-v").output
    assert "\npassed title.worked.stacked_suffixes\npassed title.worked.utc_default\n" in verbose
    assert "passed title." not in _run().output
    assert _run("-q", "--color", "always").output == "\x1b[32m2 passed, 0 failed, 0 errored, 0 skipped\x1b[0m\n"
    failed = _run("-q", "--color", "always", program="false").output
    assert failed.startswith("\x1b[1;31mERRORED\x1b[0m title.worked.stacked_suffixes")
    assert failed.endswith("\x1b[1;31m0 passed, 0 failed, 2 errored, 0 skipped\x1b[0m\n")
    assert "\x1b[" not in _run("-q", "--color", "never").output


def test_conformance_report_takes_the_same_text_options(tmp_path):
    from click.testing import CliRunner

    stream = tmp_path / "run.jsonl"
    _run("--jsonl", str(stream))
    quiet = CliRunner().invoke(cli, ["conformance", "report", str(stream), "-q", "--color", "always"])
    assert quiet.output == "\x1b[32m2 passed, 0 failed, 0 errored, 0 skipped\x1b[0m\n"
    written = tmp_path / "report.txt"
    CliRunner().invoke(cli, ["conformance", "report", str(stream), "-q", "--color", "always", "-o", str(written)])
    assert written.read_text() == "2 passed, 0 failed, 0 errored, 0 skipped\n"
