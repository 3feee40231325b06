"""``baton conformance``: ``check`` lints the suite and prints its coverage, ``run`` runs it
against an implementation (the built-in reference, ``--harness`` or ``--program``), ``list``
shows the cases a selection picks. Thin: options in, library calls out."""

from __future__ import annotations

import shlex
import signal
import sys
from pathlib import Path

import click

from baton.errors import BatonError, UnreadableInput, UsageError
from baton.cli._options import fail, format_option

_SUITE = click.option("--suite", "suite_dir", type=click.Path(file_okay=False, path_type=Path),
                      help="Folder of fixture files (<gate>/<topic>.json); default: the packaged suite.")


def _selection_options(command):
    for option in reversed((
        click.option("--gate", "gates", multiple=True, metavar="NAME", help="Only this gate (repeatable)."),
        click.option("--id", "ids", multiple=True, metavar="PATTERN", help="Only case ids matching this glob (repeatable)."),
        click.option("--requirement", "requirements", multiple=True, metavar="ID", help="Only cases covering this requirement (repeatable)."),
        click.option("--tag", "tags", multiple=True, metavar="TAG", help="Only cases with this tag (repeatable)."),
    )):
        command = option(command)
    return command


def _load(suite_dir):
    from baton.conformance import load_suite

    if suite_dir is not None and not suite_dir.is_dir():
        raise UsageError(f"no suite folder at {suite_dir}", code="conformance.suite")
    suite = load_suite(suite_dir)
    if not suite.usable:
        first = suite.findings[0]
        raise UnreadableInput(
            f"the suite has {len(suite.findings)} broken fixture files or cases; first: "
            f"{first.file}::{first.json_path}: {first.code}: {first.message}",
            code="conformance.suite", hint="run `baton conformance check` for every finding")
    return suite


def _select(suite, gates, ids, requirements, tags):
    from baton.conformance import Selection

    known_gates = set(suite.gates())
    for gate in gates:
        if gate not in known_gates:
            raise UsageError(f"the suite has no cases for a gate named {gate!r}",
                             code="conformance.selection",
                             hint="gates with cases: " + ", ".join(sorted(known_gates)))
    _check_requirements(requirements, suite)
    selected = Selection(tuple(gates), tuple(ids), tuple(requirements), tuple(tags)).apply(suite.cases)
    if not selected:
        raise UsageError("no case matches the selection", code="conformance.selection",
                         hint="see `baton conformance list` for the cases and their ids")
    return selected


def _command(value: str, option: str) -> list[str]:
    try:
        argv = shlex.split(value)
    except ValueError as error:
        raise UsageError(f"{option}: {error}", code="usage") from None
    if not argv:
        raise UsageError(f"{option} needs a command", code="usage")
    return argv


def _write(path: Path, content: str) -> None:
    from baton.workspace._atomic import atomic_write

    try:
        atomic_write(path, content.encode("utf-8"))
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror or error}", code="usage") from None


@click.group()
def conformance():
    """Check the conformance suite, or run it against an implementation.

    \b
    Exit status: 0 every selected case passed (or the suite is clean), 1 a case failed or
    errored (or the suite has findings), 2 usage error or an unusable suite."""


@conformance.command()
@_SUITE
@format_option(("text", "json"))
def check(suite_dir, output_format):
    """Lint the suite and print its coverage.

    Every fixture file is valid against conformance/fixture.schema.json, case ids are unique,
    every requirement named exists, descriptions follow the style, every gate has cases, every
    MUST-level requirement and every outcome code of every gate is covered, and the built-in
    reference passes every case."""
    from baton.conformance import _check, load_suite, requirements

    if suite_dir is not None and not suite_dir.is_dir():
        fail(UsageError(f"no suite folder at {suite_dir}", code="conformance.suite"))
    extra = []
    spec_dir = requirements.default_spec_dir()
    if spec_dir is not None:
        catalogue = requirements.build(spec_dir)
        extra += catalogue.findings
        stale = requirements.stale_finding(catalogue, requirements.default_catalogue_path())
        if stale:
            extra.append(stale)
    else:
        catalogue = requirements.load()
    result = _check.check(load_suite(suite_dir), catalogue, extra_findings=extra)
    render = _check.json_text if output_format == "json" else _check.text
    click.echo(render(result), nl=False)
    sys.exit(result.exit_code)


@conformance.command()
@click.option("--harness", metavar="CMD", help="A persistent process speaking the harness protocol (JSON Lines).")
@click.option("--program", metavar="CMD", help="One process per case: the gate name as last argument, input on stdin.")
@_selection_options
@click.option("--expected-failures", "expected_failures", type=click.Path(dir_okay=False, path_type=Path),
              help="Cases known to fail: one `<id or glob> <reason>` per line. Strict: a listed case that passes fails the run. "
                   "A bare name such as restart-gate-v2.2.1 names a list shipped with the suite.")
@click.option("--timeout", type=click.FloatRange(min=0.01, max=3600), default=5.0, show_default=True,
              callback=lambda ctx, param, value: _finite(value, param),
              help="Seconds an implementation may take to answer one case.")
@click.option("--restarts", type=click.IntRange(min=0), default=10, show_default=True,
              help="How often a crashed or stuck harness is started again.")
@_SUITE
@format_option(("text", "json"))
@click.option("--junit", type=click.Path(dir_okay=False, path_type=Path), help="Also write a JUnit XML report.")
@click.option("--markdown", type=click.Path(dir_okay=False, path_type=Path), help="Also write a Markdown summary (for CI step summaries).")
@click.option("--badge", type=click.Path(dir_okay=False, path_type=Path), help="Also write a shields.io endpoint badge (JSON).")
def run(harness, program, gates, ids, requirements, tags, expected_failures, timeout, restarts,
        suite_dir, output_format, junit, markdown, badge):
    """Run the suite against an implementation (default: the built-in reference).

    Prints a summary per gate, a diff for every failure, and a final line
    `N passed, N failed, N errored, N skipped`."""
    from baton.conformance import ExpectedFailures, Harness, Program, Reference, _reports
    from baton.conformance import run as run_cases
    from baton.conformance._progress import Progress

    try:
        if harness and program:
            raise UsageError("give --harness or --program, not both", code="usage")
        suite = _load(suite_dir)
        selected = _select(suite, gates, ids, requirements, tags)
        failures = None
        if expected_failures is not None:
            failures = ExpectedFailures.read(_expected_failures_file(expected_failures))
            failures.check_against(case.id for case in suite.cases)
        if harness:
            implementation, mode = Harness(_command(harness, "--harness"), timeout=timeout,
                                           restarts=restarts), "harness"
        elif program:
            implementation, mode = Program(_command(program, "--program"), timeout=timeout), "program"
        else:
            implementation, mode = Reference(), "reference"
        progress = Progress.for_terminal()
        previous = _on_sigterm(_terminated)  # unwind, so the harness is killed too
        try:
            if mode == "harness":
                implementation.start()
            report = run_cases(selected, implementation, mode=mode, expected_failures=failures,
                               progress=progress)
        finally:
            implementation.close()
            _on_sigterm(previous)
            if progress is not None:
                progress.finish()
        for path, render in ((junit, _reports.junit), (markdown, _reports.markdown),
                             (badge, _reports.badge_text)):
            if path is not None:
                _write(path, render(report))
    except BatonError as error:
        fail(error)
    render = _reports.json_text if output_format == "json" else _reports.text
    click.echo(render(report), nl=False)
    sys.exit(report.exit_code)


def _expected_failures_file(path: Path) -> Path:
    """``path``, or, for a bare name that is no file here, the list of that name shipped
    with the suite under conformance/expected-failures/ (``restart-gate-v2.2.1``)."""
    if path.exists() or len(path.parts) != 1:
        return path
    from baton._resources import data_dir

    shipped = data_dir("conformance") / "expected-failures"
    for candidate in (shipped / path.name, shipped / f"{path.name}.txt"):
        if candidate.is_file():
            return candidate
    return path


def _finite(value, param):
    if value != value:  # NaN slips through every range comparison
        raise click.BadParameter("not a number", param=param)
    return value


def _terminated(signum, frame):
    raise SystemExit(128 + signum)


def _on_sigterm(handler):
    """Install ``handler`` for SIGTERM; the previous one (``None`` off the main thread)."""
    if handler is None:
        return None
    try:
        return signal.signal(signal.SIGTERM, handler)
    except ValueError:  # not the main thread: the caller owns signals
        return None


def _check_requirements(requirements, suite):
    if not requirements:
        return
    from baton.conformance import requirements as catalogue_module

    known = set(catalogue_module.load().by_id())
    known.update(ident for case in suite.cases for ident in case.requirements)
    for ident in requirements:
        if ident not in known:
            raise UsageError(f"{ident} is not a requirement of the spec", code="conformance.selection",
                             hint="conformance/requirements.json lists the requirements")


@conformance.command("list")
@_selection_options
@_SUITE
@format_option(("text", "json"))
def list_cases(gates, ids, requirements, tags, suite_dir, output_format):
    """List the cases a selection picks: id, requirements and description."""
    import json

    try:
        suite = _load(suite_dir)
        selected = _select(suite, gates, ids, requirements, tags)
    except BatonError as error:
        fail(error)
    if output_format == "json":
        click.echo(json.dumps([{"id": c.id, "gate": c.gate, "description": c.description,
                                "requirements": list(c.requirements), "tags": list(c.tags),
                                "file": c.file} for c in selected], indent=2, ensure_ascii=False))
        return
    width = max(len(c.id) for c in selected)
    for case in selected:
        click.echo(f"{case.id:<{width}}  {','.join(case.requirements):<15}  {case.description}")
    click.echo(f"{len(selected)} cases")
