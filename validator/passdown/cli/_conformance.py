"""``passdown conformance``: ``check`` lints the suite and prints its coverage, ``run`` runs it
against one implementation or several (the built-in reference, ``--harness``, ``--program``),
``report`` renders a run's report stream again, ``list`` shows the cases a selection picks,
``adapters`` says where the shipped adapters are. Thin: options in, library calls out."""

from __future__ import annotations

import shlex
import signal
import sys
from pathlib import Path

import click

from passdown.conformance.profiles import PROFILES
from passdown.errors import PassdownError, UnreadableInput, UsageError
from passdown.cli._options import (color_option, fail, format_option, output_options, quiet_option,
                                use_color, verbose_option)

_SUITE = click.option("--suite", "suite_dir", type=click.Path(file_okay=False, path_type=Path),
                      help="Folder of fixture files (<gate>/<topic>.json); default: the packaged suite.")


def _selection_options(command):
    for option in reversed((
        click.option("--gate", "gates", multiple=True, metavar="NAME", help="Only this gate (repeatable)."),
        click.option("--id", "ids", multiple=True, metavar="PATTERN", help="Only case ids matching this glob (repeatable)."),
        click.option("--requirement", "requirements", multiple=True, metavar="ID", help="Only cases covering this requirement (repeatable)."),
        click.option("--tag", "tags", multiple=True, metavar="TAG", help="Only cases with this tag (repeatable)."),
        click.option("--profile", "profiles", multiple=True, metavar="NAME",
                     help="Only the cases of this conformance profile (repeatable): "
                          f"{', '.join(PROFILES)}."),
    )):
        command = option(command)
    return command


def _load(suite_dir):
    from passdown.conformance import load_suite

    if suite_dir is not None and not suite_dir.is_dir():
        raise UsageError(f"no suite folder at {suite_dir}", code="conformance.suite")
    suite = load_suite(suite_dir)
    if not suite.usable:
        first = suite.findings[0]
        raise UnreadableInput(
            f"the suite has {len(suite.findings)} broken fixture files or cases; first: "
            f"{first.file}::{first.json_path}: {first.code}: {first.message}",
            code="conformance.suite", hint="run `passdown conformance check` for every finding")
    return suite


def _select(suite, gates, ids, requirements, tags, profiles=()):
    from passdown.conformance import Selection
    from passdown.conformance.profiles import PROFILES, unknown

    known_gates = set(suite.gates())
    for gate in gates:
        if gate not in known_gates:
            raise UsageError(f"the suite has no cases for a gate named {gate!r}",
                             code="conformance.selection",
                             hint="gates with cases: " + ", ".join(sorted(known_gates)))
    for name in unknown(profiles):
        raise UsageError(f"no conformance profile is named {name!r}", code="conformance.selection",
                         hint="profiles: " + ", ".join(PROFILES))
    _check_requirements(requirements, suite)
    selected = Selection(tuple(gates), tuple(ids), tuple(requirements), tuple(tags),
                         tuple(profiles)).apply(suite.cases)
    if not selected:
        raise UsageError("no case matches the selection", code="conformance.selection",
                         hint="see `passdown conformance list` for the cases and their ids")
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
    from passdown.workspace._atomic import atomic_write

    try:
        atomic_write(path, content.encode("utf-8", "backslashreplace"))
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror or error}", code="usage") from None


@click.group()
def conformance():
    """Check the conformance suite, run it against implementations, render its reports.

    \b
    Exit status: 0 every selected case passed (or the suite is clean), 1 a case failed or
    errored (or the suite has findings), 2 usage error or an unusable suite."""


@conformance.command()
@_SUITE
@output_options(("text", "json"),
                quiet="Findings only: no hints, no coverage (nothing at all when clean).",
                verbose="Before the findings, name the suite and spec folders read.")
def check(suite_dir, output_format, quiet, color, verbose):
    """Lint the suite and print its coverage.

    Every fixture file is valid against conformance/fixture.schema.json, case ids are unique,
    every requirement named exists, descriptions follow the style, every gate has cases, every
    MUST-level requirement and every outcome code of every gate is covered, and the built-in
    reference passes every case."""
    from passdown.conformance import _check, load_suite, requirements

    if suite_dir is not None and not suite_dir.is_dir():
        fail(UsageError(f"no suite folder at {suite_dir}", code="conformance.suite"),
             color=use_color(color, err=True))
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
    suite = load_suite(suite_dir)
    result = _check.check(suite, catalogue, extra_findings=extra)
    if output_format == "json":
        click.echo(_check.json_text(result), nl=False)
        sys.exit(result.exit_code)
    colored = use_color(color)
    if verbose:
        click.echo(f"suite folder: {suite.root}\nspec folder: {spec_dir or '(the packaged catalogue)'}")
    click.echo(_check.text(result, quiet=quiet, color=colored), nl=False, color=colored)
    sys.exit(result.exit_code)


def _named(values) -> list[tuple[str | None, str]]:
    """``[NAME=]VALUE`` entries of a repeatable option: ``(NAME or None, VALUE)``."""
    import re

    found = []
    for value in values:
        match = re.fullmatch(r"([A-Za-z0-9][A-Za-z0-9_.-]{0,63})=(.*)", value, re.DOTALL)
        found.append((match.group(1), match.group(2)) if match else (None, value))
    return found


def _entrants(reference, harnesses, programs):
    """The implementations of the run, each with its run name: the reference first, then
    every harness, then every program, each in the order given."""
    from passdown.conformance._plan import Entrant

    wanted = [("harness", name, _command(command, "--harness")) for name, command in _named(harnesses)]
    wanted += [("program", name, _command(command, "--program")) for name, command in _named(programs)]
    entrants = [Entrant("reference", "reference")] if reference or not wanted else []
    counts = {mode: sum(1 for m, _, _ in wanted if m == mode) for mode in ("harness", "program")}
    numbers = dict.fromkeys(counts, 0)
    for mode, name, argv in wanted:
        numbers[mode] += 1
        if name is None:
            name = mode if counts[mode] == 1 else f"{mode}-{numbers[mode]}"
        entrants.append(Entrant(name, mode, tuple(argv)))
    seen = set()
    for entrant in entrants:
        if entrant.name in seen:
            raise UsageError(f"two implementations are named {entrant.name!r}", code="usage",
                             hint="name each one: --harness NAME=CMD, --program NAME=CMD")
        seen.add(entrant.name)
    return entrants


def _per_implementation(values, option: str, entrants, *, every: bool) -> dict[str, Path]:
    """``[NAME=]FILE`` options: the file for each run name. Without a NAME the file is for
    every implementation (``every``) or for the only one."""
    names = [e.name for e in entrants]
    chosen: dict[str, Path] = {}
    for name, value in _named(values):
        if name is not None and name not in names:  # not a run name: the whole value is a path
            name, value = None, f"{name}={value}"
        targets = [name] if name is not None else names
        if name is None and not every and len(names) > 1:
            raise UsageError(f"{option} {value}: the run has {len(names)} implementations; say which: NAME=FILE",
                             code="usage", hint="names: " + ", ".join(names))
        for target in targets:
            if target in chosen:
                raise UsageError(f"{option} is given twice for {target!r}", code="usage")
            chosen[target] = Path(value)
    return chosen


def _default_jobs() -> int:
    import os

    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


_WRITTEN_FORMATS = ("text", "json", "markdown", "html", "junit", "badge")


def _text_options(function):
    """``-q``, ``--color`` and ``-v`` of the text report (the other formats are whole)."""
    for option in reversed((quiet_option("Text: the failures and the final line only."), color_option(),
                            verbose_option("Text: also one line per case with its status."))):
        function = option(function)
    return function


def _render(view, output_format, quiet, colored, verbose) -> str:
    from passdown.conformance import _reports

    if output_format == "text":
        return _reports.text(view, quiet=quiet, verbose=verbose, color=colored)
    return _reports.FORMATS[output_format](view)


@conformance.command()
@click.option("--reference", is_flag=True,
              help="Run the built-in reference too (it runs alone when no --harness or --program is given).")
@click.option("--harness", "harnesses", multiple=True, metavar="[NAME=]CMD",
              help="A persistent process speaking the harness protocol (JSON Lines). Repeatable; NAME names it in the reports.")
@click.option("--program", "programs", multiple=True, metavar="[NAME=]CMD",
              help="One process per case: the gate name as last argument, input on stdin; exit status 77 means skipped. Repeatable.")
@_selection_options
@click.option("--expected-failures", "expected_failures", multiple=True, metavar="[NAME=]FILE",
              help="Cases known to fail: one `<id or glob> <reason>` per line. Strict: a listed case that passes fails the run. Without NAME=, for every implementation. "
                   "A bare name such as restart-gate-v2.2.1 names a list shipped with the suite.")
@click.option("--write-expected-failures", "write_failures", multiple=True, metavar="[NAME=]FILE",
              help="Write the strict expected-failures file of this run's failures, each with a placeholder reason to fill in.")
@click.option("-j", "--jobs", type=click.IntRange(min=1, max=256), default=None,
              help="Cases answered at once in program mode (default: the number of cores).")
@click.option("--timeout", type=click.FloatRange(min=0.01, max=3600), default=5.0, show_default=True,
              callback=lambda ctx, param, value: _finite(value, param),
              help="Seconds an implementation may take to answer one case.")
@click.option("--restarts", type=click.IntRange(min=0), default=10, show_default=True,
              help="How often a crashed or stuck harness is started again.")
@_SUITE
@format_option(_WRITTEN_FORMATS)
@_text_options
@click.option("--jsonl", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the report stream (JSON Lines) as the run goes; `passdown conformance report FILE` renders it again.")
@click.option("--junit", type=click.Path(dir_okay=False, path_type=Path), help="Also write a JUnit XML report.")
@click.option("--markdown", type=click.Path(dir_okay=False, path_type=Path), help="Also write a Markdown summary (for CI step summaries).")
@click.option("--html", type=click.Path(dir_okay=False, path_type=Path), help="Also write the HTML report: one self-contained page.")
@click.option("--badge", type=click.Path(dir_okay=False, path_type=Path), help="Also write a shields.io endpoint badge (JSON).")
def run(reference, harnesses, programs, gates, ids, requirements, tags, profiles, expected_failures, write_failures,
        jobs, timeout, restarts, suite_dir, output_format, quiet, color, verbose, jsonl, junit, markdown,
        html, badge):
    """Run the suite against one implementation or several (default: the built-in reference).

    Prints a summary per gate, the differences of every failure (the JSON path of each
    differing value, expected and got), and a final line `N passed, N failed, N errored,
    N skipped`. With several implementations it opens with a comparison: who passed, who
    failed and who skipped, per gate and for each case one of them failed. Every report states
    the verdict per conformance profile (core, then one per optional gate): `conforms` only
    when every case of the profile ran and passed; a skip inside a profile the implementation
    declares (its `ready` line's `profiles`) fails the run."""
    from passdown.conformance import ExpectedFailures, _process, _reports, _stream
    from passdown.conformance._plan import run_all
    from passdown.conformance._progress import Progress
    from passdown.conformance._runner import expected_failures_text
    from passdown.conformance.profiles import totals as profile_totals

    writer = None
    try:
        entrants = _entrants(reference, harnesses, programs)
        suite = _load(suite_dir)
        selected = _select(suite, gates, ids, requirements, tags, profiles)
        failures = {}
        for name, path in _per_implementation(expected_failures, "--expected-failures", entrants, every=True).items():
            failures[name] = ExpectedFailures.read(_expected_failures_file(path))
            failures[name].check_against(case.id for case in suite.cases)
        to_write = _per_implementation(write_failures, "--write-expected-failures", entrants, every=False)
        if jsonl is not None:
            try:
                writer = _stream.Writer(jsonl)
            except OSError as error:
                raise UsageError(f"cannot write {jsonl}: {error.strerror or error}", code="usage") from None
        _process.adopt_orphans()
        previous = _on_sigterm(_terminated)  # unwind, so every process is ended too
        try:
            view = run_all(entrants, selected, suite_root=str(suite_dir or "conformance/cases"),
                           profiles=profile_totals(suite.cases), siblings=suite.by_file(),
                           timeout=timeout, restarts=restarts, jobs=jobs or _default_jobs(),
                           expected_failures=failures, emit=writer.write if writer else None,
                           progress=Progress.for_terminal())
        finally:
            _on_sigterm(previous)
            _process.sweep()
        for path, render in ((junit, _reports.junit), (markdown, _reports.markdown),
                             (html, _reports.html), (badge, _reports.badge_text)):
            if path is not None:
                _write(path, render(view))
        by_name = {entry.name: entry for entry in view.entries}
        for name, path in to_write.items():
            _write(path, expected_failures_text(by_name[name].results, by_name[name].title))
    except PassdownError as error:
        fail(error)
    finally:
        if writer is not None:
            writer.close()
    for entry in view.entries:
        if entry.error:  # said where CI logs show it, whatever the report's format
            click.echo(f"passdown: conformance.harness_failed: {entry.name}: {entry.error}", err=True)
    colored = use_color(color)
    click.echo(_render(view, output_format, quiet, colored, verbose), nl=False, color=colored)
    sys.exit(view.exit_code)


@conformance.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@format_option(_WRITTEN_FORMATS)
@_text_options
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the report to this file instead of stdout.")
def report(file, output_format, quiet, color, verbose, output):
    """Render a report stream (written by `run --jsonl FILE`) again, in any format.

    Exit status: 0 rendered, 2 the file is unreadable or not a report stream."""
    from passdown.conformance import _stream

    try:
        colored = output is None and use_color(color)
        rendered = _render(_stream.read(file), output_format, quiet, colored, verbose)
        if output is not None:
            _write(output, rendered)
            return
    except PassdownError as error:
        fail(error)
    click.echo(rendered, nl=False, color=colored)


@conformance.command()
@format_option(("text", "json"))
@click.option("--folder", is_flag=True, help="Print only the folder that holds them.")
def adapters(output_format, folder):
    """Where the shipped example adapters are, and the exact commands that run them.

    They implement the restart and title gates from the spec alone; copy one as the start of
    your own. The folder is inside the installed package (or the checkout)."""
    import json

    from passdown.conformance import _adapters

    if folder:
        click.echo(str(_adapters.folder()))
        return
    found = _adapters.shipped()
    if output_format == "json":
        click.echo(json.dumps([a.to_json() for a in found], indent=2))
        return
    for number, adapter in enumerate(found):
        if number:
            click.echo("")
        click.echo(f"{adapter.name}: {adapter.path}")
        click.echo(f"  {adapter.summary}")
        click.echo(f"  harness: {adapter.harness_command}")
        click.echo(f"  program: {adapter.program_command}")


def _expected_failures_file(path: Path) -> Path:
    """``path``, or, for a bare name that is no file here, the list of that name shipped
    with the suite under conformance/expected-failures/ (``restart-gate-v2.2.1``)."""
    if path.exists() or len(path.parts) != 1:
        return path
    from passdown._resources import data_dir

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
    from passdown.conformance import requirements as catalogue_module

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
def list_cases(gates, ids, requirements, tags, profiles, suite_dir, output_format):
    """List the cases a selection picks: id, requirements and description."""
    import json

    try:
        suite = _load(suite_dir)
        selected = _select(suite, gates, ids, requirements, tags, profiles)
    except PassdownError as error:
        fail(error)
    if output_format == "json":
        click.echo(json.dumps([{"id": c.id, "gate": c.gate, "description": c.description,
                                "requirements": list(c.requirements), "tags": list(c.tags),
                                "profile": c.profile,
                                "file": c.file} for c in selected], indent=2, ensure_ascii=False))
        return
    width = max(len(c.id) for c in selected)
    for case in selected:
        click.echo(f"{case.id:<{width}}  {','.join(case.requirements):<15}  {case.description}")
    click.echo(f"{len(selected)} cases")
