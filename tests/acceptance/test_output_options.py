"""``--format``, ``-q/--quiet``, ``--color`` and ``-v/--verbose`` are one set of options, in one
order, on every command that prints a result through them: validate, the authoring commands,
``ack write``, ``ack verify``, ``registry recover`` and ``conformance check``."""

from __future__ import annotations

import pytest

from baton.cli import cli

COMMANDS = [("validate",), ("ack", "write"), ("ack", "verify"), ("registry", "recover"),
            ("conformance", "check"), ("checkpoint", "decision"), ("migrate",)]


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
