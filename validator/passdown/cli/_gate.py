"""``passdown gate``: run a decision gate on JSON input, or list the gates.

The common call (``passdown gate NAME [FILE|-]`` with no options) never reaches this module: the
front door (:mod:`passdown._entry`) routes it straight to the gate table. This command serves the
rest: help, ``--list``, ``--outcomes``, unreadable input files, which it explains, and a
decision asked for with options: ``--format json`` prints the gate's published bytes,
``--format text`` a form for people. Either way a refused input gets a ``detail:`` line on
stderr saying which field or which byte the gate could not read; stdout never changes."""

from __future__ import annotations

import sys

import click

from passdown.errors import PassdownError, UnreadableInput
from passdown.cli._options import (
    color_option, fail, format_option, quiet_option, use_color, verbose_option,
)
from passdown.gates import _helper_input, _table
from passdown.reporters import paint


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
@format_option(("text", "json"), default=None,
               help="Output format [default: json for a decision (the gate's published bytes), "
                    "text for --list and --outcomes]. A decision's text form is for people: "
                    "its outcome, then one `member: value` line each.")
@quiet_option("No detail line on stderr: the decision only.")
@verbose_option("Also name the gate, its version, the outcome and the exit status on stderr.")
@color_option()
def gate(name, source, list_gates, outcomes, output_format, quiet, verbose, color):
    """Run gate NAME on one JSON value read from FILE (default: stdin) and print its decision.

    The exit status is the gate's own: 0 for a decision, 2 for the restart gate's BLOCKED and
    for unreadable input; each gate's spec page lists its outcomes. With any option, a
    refused input (exit status 2) also gets a `detail:` line on stderr naming the field or
    the place the gate could not read; standard output stays the gate's published bytes.
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
    except PassdownError as error:  # not a regular file, a link loop
        fail(error, color=use_color(color, err=True))
    except OSError as error:
        fail(UnreadableInput(f"cannot read {source}: {error.strerror or error}",
                             code="load.unreadable", hint="name a readable file, or - for stdin"),
             color=use_color(color, err=True))
    decision = module.run(raw)
    if output_format == "text":
        click.echo(text_form(name, decision, color=use_color(color)), nl=False,
                   color=use_color(color))
    else:
        sys.stdout.write(decision.text)
        sys.stdout.flush()
    if verbose:
        click.echo(f"passdown: gate {name} v{module.VERSION}: {decision.outcome}, exit status "
                   f"{decision.exit_code} ({module.SPEC})", err=True)
    if not quiet and decision.exit_code == 2:
        said = detail(name, raw, decision)
        if said:
            click.echo(f"passdown: detail: {said}", err=True)
    sys.exit(decision.exit_code)


# -- the text form -------------------------------------------------------------------------

def text_form(name: str, decision, *, color: bool = False) -> str:
    """A decision for people: ``<gate>: <outcome> (exit status N)``, then each member of the
    output as ``member: value`` (nested members joined with dots, lists and other values as
    compact JSON). The JSON form is the contract; this one may change."""
    style = "ok" if decision.exit_code == 0 else "error"
    lines = [f"{name}: {paint(style, str(decision.outcome), color)} "
             f"(exit status {decision.exit_code})"]
    output = decision.output
    if isinstance(output, dict):
        lines += [f"  {member}: {value}" for member, value in _flat(output)]
    else:
        lines.append(f"  {_show(output)}")
    return "\n".join(lines) + "\n"


def _flat(value: dict, prefix: str = ""):
    for member, child in value.items():
        if isinstance(child, dict) and child:
            yield from _flat(child, f"{prefix}{member}.")
        else:
            yield f"{prefix}{member}", _show(child)


def _show(value) -> str:
    from passdown.formats._fastjson import dumps

    if isinstance(value, str):
        return value
    try:
        return dumps(value, separators=(", ", ": "))
    except (TypeError, ValueError):
        return repr(value)


# -- the detail line of a refused input ----------------------------------------------------

#: Output members other gates name the unreadable field in.
_FIELD_MEMBERS = ("field", "path")


def detail(name: str, raw: bytes, decision) -> str | None:
    """Which field, or which place in the bytes, made the gate refuse its input; None when
    there is nothing more to say than the output does."""
    if name == "restart":
        reason = decision.output.get("reason") if isinstance(decision.output, dict) else None
        if reason == "unsupported_schema":
            return _schema_detail(raw)
        if reason == "invalid_input":
            return _unreadable(raw, _helper_input.parse_like_json_loads, 65536) or _restart_value(raw)
        return None
    unreadable = _unreadable(raw, _table.parse_input, getattr(_table.load(name), "MAX_INPUT_BYTES",
                                                               1 << 20))
    if unreadable:
        return unreadable
    output = decision.output if isinstance(decision.output, dict) else {}
    where = next((output[m] for m in _FIELD_MEMBERS if isinstance(output.get(m), str)), None)
    return f"the input's {where} is not what the gate's input schema allows" if where else None


def _unreadable(raw: bytes, parse, limit: int) -> str | None:
    """What makes ``raw`` unreadable as JSON, with the line and column; None if it reads."""
    try:
        parse(raw, limit)
    except _table.InputError as error:
        return f"the input is not one readable JSON value: {error}"
    except Exception:  # noqa: BLE001 - a reader's own defect is no detail to give
        return None
    return None


def _parsed(raw: bytes):
    try:
        return _helper_input.parse_like_json_loads(raw, 65536)
    except _table.InputError:
        return None


def _schema_detail(raw: bytes) -> str:
    value = _parsed(raw)
    if not isinstance(value, dict) or "schema" not in value:
        return "the observation has no `schema` member; this gate reads `\"schema\": 1`"
    schema = value["schema"]
    from passdown.formats._fastjson import dumps

    return (f"`schema` is {dumps(schema)} ({_json_type(schema)}); this gate reads "
            "`\"schema\": 1`, the integer")


def _restart_value(raw: bytes) -> str:
    value = _parsed(raw)
    if not isinstance(value, dict):
        return f"the input is {_json_type(value)}, not an object of observations"
    too_large = [member for member, child in value.items()
                 if type(child) is int and child.bit_length() > 1000]
    if too_large:
        return (f"{', '.join(f'`{m}`' for m in too_large)}: an integer too large for the "
                "gate's arithmetic (a double)")
    return "a value the gate cannot compute with (a number beyond a double's range)"


def _json_type(value) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean",
             int: "an integer", float: "a number", type(None): "null"}
    return names.get(type(value), type(value).__name__)
