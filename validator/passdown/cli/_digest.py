"""``passdown digest``: print, check or record artifact digests. Thin: the work is in
:mod:`passdown.formats._digest` (forms, hashing, lists) and :mod:`passdown.authoring._record` (registry writes)."""

from __future__ import annotations

import json
import os
import sys

import click

from passdown.formats import _digest
from passdown.errors import PassdownError, UsageError
from passdown.cli._options import (
    color_option, fail, format_option, quiet_option, use_color, verbose_option,
)
from passdown.reporters import paint

#: List file names that say which algorithm their bare lines use, as sha256sum and b3sum
#: lists are usually named: exact names, then endings.
_LIST_NAMES = {"SHA256SUMS": "sha256", "B3SUMS": "blake3"}
_LIST_ENDINGS = ((".sha256", "sha256"), (".sha256sum", "sha256"), (".b3", "blake3"),
                 (".blake3", "blake3"), (".b3sum", "blake3"))


@click.command("digest")
@click.argument("files", nargs=-1, type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--algorithm", type=click.Choice(_digest.ALGORITHMS), default=None,
              help="Digest algorithm for the digests printed or recorded [default: blake3]; "
                   "with --check, the algorithm of bare `<hex>  <file>` lines [default: by the "
                   "list's name (SHA256SUMS, *.sha256: sha256; B3SUMS, *.b3: blake3), else "
                   "blake3].")
@click.option("--kind", type=click.Choice(("auto", *_digest.FORM_BY_KIND)), default="auto", show_default=True,
              help="Hash every file in this artifact's canonical form (auto: by file name; "
                   "a file that is no artifact, and stdin, are hashed as raw bytes; with --tag "
                   "or --bare, and for a list's tagged or bare lines, every file raw).")
@click.option("--canonical", is_flag=True, help="Print the canonical bytes of one FILE instead of its digest.")
@click.option("--tag", "style", flag_value="tag",
              help="Print `SHA256 (<file>) = <hex>` lines of the raw bytes, as `sha256sum --tag` "
                   "writes and `sha256sum -c` reads them (BLAKE3 for blake3).")
@click.option("--bare", "style", flag_value="bare",
              help="Print bare `<hex>  <file>` lines of the raw bytes, as sha256sum and b3sum "
                   "write and read them.")
@click.option("--check", "check_list", metavar="LIST", type=click.Path(dir_okay=False, allow_dash=True),
              help="Verify a list: Passdown's `<digest>  <file>` lines, bare `<hex>  <file>` lines "
                   "(sha256sum, b3sum) or tagged `SHA256 (<file>) = <hex>` lines; exit 1 on any "
                   "failed line.")
@quiet_option("With --check: print no OK lines, only the failures. With --record: print "
              "nothing on success.")
@click.option("--status", is_flag=True,
              help="With --check: print nothing at all; the exit status says it all.")
@verbose_option("With --check: say why each failed line failed (the listed and the actual "
                "digest of a mismatch) on stderr.")
@color_option()
@click.option("--record", "registry", metavar="REGISTRY", type=click.Path(dir_okay=False),
              help="Record the digest of the packet FILE in this registry's attempt.")
@click.option("--restart-id", metavar="ID", help="With --record: the attempt to record the digest on.")
@click.option("--checkpoint", metavar="CHECKPOINT", type=click.Path(dir_okay=False),
              help="With --record: also record the digest of this continue checkpoint.")
@click.option("--expect-revision", type=click.IntRange(min=0),
              help="With --record: refuse (exit 1) unless the registry is at this revision.")
@format_option(("text", "json"))
def digest(files, algorithm, kind, canonical, style, check_list, quiet, status, verbose, color,
           registry, restart_id, checkpoint, expect_revision, output_format):
    """Print the digest of each FILE as `<digest>  <file>` lines (`-` reads stdin).

    Artifacts are hashed in their canonical form: JSON as RFC 8785 (JCS), a YAML registry as
    the JCS form of its data, the continuation packet without its CHECKPOINT_DIGEST line.
    Any other file is hashed over its raw bytes, streamed in bounded memory. --tag and
    --bare write lists that sha256sum -c (with --algorithm sha256) and b3sum --check read,
    over raw bytes as those tools hash; --check reads their lists too.

    Every file read (each FILE, the --check list and each file it names, the --record
    inputs) must be a regular file: a FIFO, socket or device is refused unread
    (load.not_regular), a directory is load.unreadable, a link loop load.symlink_loop.

    Exit status: 0 all digests printed or verified, 1 a failed check or a refused record,
    2 a usage error or an unreadable input.
    """
    colored = use_color(color)
    try:
        if registry is not None:
            _require(len(files) == 1 and not check_list and not canonical and style is None,
                     "--record takes exactly one packet FILE, and no --check, --canonical, "
                     "--tag or --bare")
            _require(restart_id is not None, "--record needs --restart-id")
            _record(registry, restart_id, files[0], checkpoint, algorithm or _digest.DEFAULT_ALGORITHM,
                    expect_revision, output_format, quiet)
            return
        _require(restart_id is None and checkpoint is None and expect_revision is None,
                 "--restart-id, --checkpoint and --expect-revision go with --record")
        kind = None if kind == "auto" else kind
        if check_list is not None:
            _require(not files and not canonical and style is None,
                     "--check takes the list only: no FILE, --canonical, --tag or --bare")
            raise SystemExit(_check(check_list, kind, output_format, algorithm=algorithm,
                                    quiet=quiet, status=status, verbose=verbose, color=colored))
        _require(not status, "--status goes with --check")
        _require(bool(files), "name at least one FILE (or - for stdin)")
        if canonical:
            _require(len(files) == 1 and output_format == "text" and style is None,
                     "--canonical prints the bytes of exactly one FILE, as text output")
            _print_canonical(files[0], _form(kind, files[0]))
            return
        _require(style is None or output_format == "text", "--tag and --bare are text lines")
        raise SystemExit(_print_digests(files, kind, algorithm or _digest.DEFAULT_ALGORITHM,
                                        output_format, style or "passdown", colored))
    except PassdownError as error:
        fail(error, color=use_color(color, err=True))


def _require(condition, message):
    if not condition:
        raise UsageError(message, hint="see `passdown digest --help`")


def _form(kind, name, style="passdown"):
    """The form a file is hashed in: the one ``--kind`` names, else by its name (stdin, and
    every file of a --tag or --bare list, as sha256sum and b3sum hash them: raw)."""
    if kind is not None:
        return _digest.form_for_kind(kind, None if name == "-" else name)
    return "raw" if name == "-" or style != "passdown" else _digest.form_for_name(name)


def _digest_one(name, form, algorithm):
    if name == "-":
        return _digest_stdin(form, algorithm)
    return _digest.digest_file(name, algorithm, form=form)


def _digest_stdin(form, algorithm):
    if form == "raw":
        return _digest.digest_stream(sys.stdin.buffer, algorithm)
    return _digest.digest_bytes(_canonical_stdin(form), algorithm)


def _stdin_bounded():
    """Stdin, up to the loading bound: a longer input is refused, not read on."""
    from passdown.formats._loading import DEFAULT_MAX_BYTES

    raw = sys.stdin.buffer.read(DEFAULT_MAX_BYTES + 1)
    if len(raw) > DEFAULT_MAX_BYTES:
        raise _digest.DigestError(f"stdin is larger than the {DEFAULT_MAX_BYTES:,}-byte bound",
                                  code="load.too_large",
                                  hint="hash a large plain file as raw bytes (--kind raw)")
    return raw


def _canonical_stdin(form):
    return _digest.canonical_bytes(_stdin_bounded(), form, source="-")


def _print_digests(files, kind, algorithm, output_format, style, color):
    rows, errors = [], []
    for name in files:
        form = _form(kind, name, style)
        try:
            rows.append({"file": name, "digest": _digest_one(name, form, algorithm), "form": form})
        except PassdownError as error:
            errors.append({"file": name, **error.to_dict()})
            if output_format == "text":
                said = error.message if error.message.startswith(f"{name}: ") \
                    else f"{name}: {error.message}"  # file errors name the file already
                click.echo(f"passdown: {paint('error', error.code, color)}: {said}", err=True,
                           color=color)
            continue
        if output_format == "text":
            click.echo(_digest.format_line(rows[-1]["digest"], name, style))
    if output_format == "json":
        click.echo(json.dumps({"digests": rows, "errors": errors}, indent=2, ensure_ascii=False))
    return 2 if errors else 0


def _print_canonical(name, form):
    if form == "raw":  # raw bytes are copied through, with bounded memory whatever their size
        if name == "-":
            _copy_out(sys.stdin.buffer, name)
        else:
            with _digest.open_input(name) as handle:
                _copy_out(handle, name)
        return
    data = _canonical_stdin(form) if name == "-" else _digest.canonical_file(name, form=form)
    click.echo(data, nl=False)


def _copy_out(handle, name, chunk=1 << 20):
    out = click.get_binary_stream("stdout")
    while True:
        try:
            block = handle.read(chunk)
        except OSError as error:
            raise _digest.unreadable(name, error) from None
        if not block:
            break
        out.write(block)
    out.flush()


def _bare_algorithm(list_name, explicit):
    """The algorithm of a list's bare lines: ``--algorithm``, else what the list's name says."""
    if explicit is not None or list_name == "-":
        return explicit
    base = os.path.basename(list_name)
    return _LIST_NAMES.get(base.upper()) or next(
        (algorithm for ending, algorithm in _LIST_ENDINGS if base.lower().endswith(ending)), None)


def _check(list_name, kind, output_format, *, algorithm=None, quiet=False, status=False,
           verbose=False, color=False):
    from passdown.formats._loading import decode_text, read_bounded

    if list_name == "-":
        raw, findings = _stdin_bounded(), []
    else:
        raw, findings = read_bounded(list_name)
    text = None
    if raw is not None:
        text, findings = decode_text(raw, list_name)
    if text is None:
        first = findings[0]
        raise PassdownError(f"{list_name}: {first.message}", code=first.code, hint=first.hint)
    results = _digest.check_list(text, kind=kind,
                                 bare_algorithm=_bare_algorithm(list_name, algorithm))
    failures = [r for r in results if r.status != "OK"]
    empty = not results
    if status:
        return 1 if failures or empty else 0
    if output_format == "json":
        click.echo(json.dumps({"ok": not failures and not empty,
                               "results": [r.to_dict() for r in results]},
                              indent=2, ensure_ascii=False))
    else:
        for result in results:
            where = result.file if result.file is not None else f"{list_name}:{result.line}"
            shown = where.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r")
            if result.code is None:
                if not quiet:
                    click.echo(f"{shown}: {paint('ok', 'OK', color)}", color=color)
                continue
            click.echo(f"{shown}: {paint('error', 'FAILED', color)} ({result.code})", color=color)
            if result.hint or verbose:
                _explain_line(list_name, result, verbose)
    if empty:
        click.echo(f"passdown: digest.empty_list: {list_name}: no digest lines", err=True)
    elif failures:
        click.echo(f"passdown: {len(failures)} of {len(results)} lines FAILED", err=True)
    return 1 if failures or empty else 0


def _explain_line(list_name, result, verbose):
    """Why one line failed, on stderr: its message and hint, and with ``verbose`` the listed
    and the actual digest."""
    click.echo(f"passdown: {list_name}:{result.line}: {result.code}: "
               f"{result.message or 'the line failed'}", err=True)
    if verbose and result.expected is not None:
        click.echo(f"  listed: {result.expected}", err=True)
        if result.actual is not None:
            click.echo(f"  actual: {result.actual}", err=True)
    if result.hint:
        click.echo(f"  hint: {result.hint}", err=True)


def _record(registry, restart_id, packet, checkpoint, algorithm, expect_revision, output_format,
            quiet=False):
    from passdown.authoring import record_packet

    outcome = record_packet(registry, restart_id, packet, checkpoint_path=checkpoint,
                            algorithm=algorithm, expect_revision=expect_revision)
    if output_format == "json":
        click.echo(json.dumps(outcome.to_dict(), indent=2, ensure_ascii=False))
    elif quiet:
        return
    elif outcome.changed:
        click.echo(f"recorded on attempt {restart_id} in {registry} "
                   f"(revision {outcome.previous_revision} -> {outcome.revision})")
    else:
        click.echo(f"attempt {restart_id} in {registry} already records these digests "
                   f"(revision {outcome.revision}, unchanged)")
