"""``passdown validate``: options in, :mod:`passdown.engine._validate` called, a reporter chosen by name.
Thin: every decision lives in the library."""

from __future__ import annotations

import sys

import click

from passdown.formats import _detect
from passdown import reporters
from passdown.reporters import _progress
from passdown._text import printable
from passdown.errors import PassdownError
from passdown.formats._loading import DEFAULT_MAX_BYTES
from passdown.cli._options import fail, output_options, use_color


@click.command("validate")
@click.argument("paths", nargs=-1, metavar="[PATH]...")
@click.option("--kind", type=click.Choice(_detect.kind_names()),
              help="The artifact kind of the named files and of stdin (required with -); "
                   "folder walks then look for this kind only. `xbrief` lints any xBRIEF 0.8 "
                   "document (plan, specification, scope) against the core and its DAG and "
                   "edge rules, without the checkpoint profile.")
@click.option("--strict", is_flag=True, help="Warnings fail too (exit 1).")
@output_options(reporters.names(),
                quiet="Findings only: no hints, no summary (nothing at all when clean).",
                verbose="Before the findings, list every file checked with its artifact kind, "
                        "and every file left alone as another tool's.")
def validate(paths, kind, output_format, color, strict, quiet, verbose):
    """Validate and lint artifacts: files, or folders searched recursively for artifacts by
    name (a folder holding a handoff also gets the cross-file checks). A file with an
    artifact's name whose content is another tool's (a registry.json without
    passdown_version, kind or a registry's members) is left alone, named under -v; --kind
    judges it anyway. With no PATH, the handoff folder, found here or in a folder above (said
    on stderr when it is not this one), else the current folder. `-` reads stdin and needs
    --kind. A walk enters at most 64 folder levels
    and looks at 100,000 entries, and never follows a link to a folder; a FIFO, socket or
    device is reported, never read. On a terminal, a walk that takes a while shows its
    progress on stderr (files checked, rate, time left), erased when it ends; nothing is
    drawn when the output is piped or with -q.

    Exit status: 0 clean, 1 findings (errors; warnings too with --strict), 2 usage error or
    an unreadable named input.
    """
    from passdown.engine._validate import Report, validate_bytes, validate_paths

    paths = paths or (_handoff_folder(quiet or output_format != "text"),)
    if "-" in paths and kind is None:
        raise click.UsageError("reading stdin (-) needs --kind to say what it is")
    files = [path for path in dict.fromkeys(paths) if path != "-"]
    progress = _progress.Progress() if _progress.wanted(quiet) else None
    try:
        report = validate_paths(files, kind, progress=progress) if files else Report()
        if "-" in paths:
            report += validate_bytes(sys.stdin.buffer.read(DEFAULT_MAX_BYTES + 1), kind)
    except PassdownError as error:
        fail(error, color=use_color(color, err=True))
    finally:
        if progress is not None:
            progress.close()
    colored = output_format == "text" and use_color(color)
    output = reporters.render(output_format, report, strict=strict, color=colored, quiet=quiet)
    if quiet and output_format == "text" and not report.findings:
        output = ""
    if verbose and output_format == "text":
        kinds = dict(report.kinds)
        output = ("".join(f"checked {printable(file)} ({kinds.get(file, 'no artifact')})\n"
                          for file in report.files)
                  + "".join(f"skipped {printable(file)}: {why}\n" for file, why in report.skipped)
                  + output)
    click.echo(output, nl=False, color=colored)
    sys.exit(report.exit_code(strict=strict))


def _handoff_folder(silent: bool) -> str:
    """The handoff folder at or above the current one (as the authoring commands find it), or
    the current folder when there is none."""
    from passdown.authoring import locate_folder

    located = locate_folder(None)
    if not located.found:
        return "."
    if located.path != "." and not silent:
        click.echo(f"passdown: using the handoff folder {printable(located.folder)}", err=True)
    return located.path
