"""``baton gate``: run a decision gate on JSON input, or list the gates.

The common call (``baton gate NAME [FILE|-]`` with no options) never reaches this module: the
front door (:mod:`baton._entry`) routes it straight to the gate table. This command serves the
rest: help, ``--list``, ``--outcomes``, and unreadable input files, which it explains."""

from __future__ import annotations

import sys

import click

from baton.errors import BatonError, UnreadableInput
from baton.cli._options import fail, format_option
from baton.gates import _table


def _describe(name: str) -> dict:
    module = _table.load(name)
    return {
        "name": name,
        "version": module.VERSION,
        "summary": module.SUMMARY,
        "spec": module.SPEC,
        "input_schema": module.INPUT_SCHEMA,
        "output_schema": module.OUTPUT_SCHEMA,
        "outcomes": list(module.OUTCOMES),
    }


@click.command("gate")
@click.argument("name", required=False, type=click.Choice(_table.gate_names()))
@click.argument("source", required=False, default="-", metavar="[FILE|-]")
@click.option("--list", "list_gates", is_flag=True, help="List the gates with their versions.")
@click.option("--outcomes", is_flag=True, help="List every outcome code of gate NAME.")
@format_option(("text", "json"))  # for --list and --outcomes; decisions are JSON already
def gate(name, source, list_gates, outcomes, output_format):
    """Run gate NAME on one JSON value read from FILE (default: stdin) and print its decision.

    The exit status is the gate's own: 0 for a decision, 2 for the restart gate's BLOCKED and
    for unreadable input; each gate's spec page lists its outcomes.
    """
    import json

    if list_gates or outcomes:
        names = _table.gate_names() if list_gates else ((name,) if name else ())
        if not names:
            raise click.UsageError("--outcomes needs a gate NAME")
        described = [_describe(each) for each in names]
        if output_format == "json":
            click.echo(json.dumps(described if list_gates else described[0], indent=2))
        elif list_gates:
            width = max(len(d["name"]) for d in described)
            for d in described:
                click.echo(f"{d['name']:<{width}}  v{d['version']:<7} {d['summary']}")
        else:
            click.echo("\n".join(described[0]["outcomes"]))
        return
    if name is None:
        raise click.UsageError("name a gate, or use --list")
    module = _table.load(name)
    try:
        raw = _table.read_source(module, source)
    except BatonError as error:  # not a regular file, a link loop
        fail(error)
    except OSError as error:
        fail(UnreadableInput(f"cannot read {source}: {error.strerror or error}",
                             code="load.unreadable", hint="name a readable file, or - for stdin"))
    decision = module.run(raw)
    sys.stdout.write(decision.text)
    sys.exit(decision.exit_code)
