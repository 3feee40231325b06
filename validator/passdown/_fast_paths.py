"""The fast paths of ``passdown validate PATH...``, ``passdown digest FILE...`` and ``passdown ack
verify ACK``: each prints exactly what its click command prints, or answers ``None`` for anything
it leaves to click (:mod:`passdown._entry` routes them). Kept apart from the front door, which a
gate or hook call loads on every tool call.
"""

import os
import sys


def _validate(paths):
    """``passdown validate PATH...`` (plain paths, no option), as :mod:`passdown.cli._validate`
    prints it; ``None`` when the library refuses (the click command then reports it)."""
    from passdown import reporters
    from passdown.engine._validate import validate_paths
    from passdown.errors import PassdownError
    from passdown.reporters import _progress

    progress = _progress.Progress() if _progress.wanted(False) else None
    try:
        report = validate_paths(list(dict.fromkeys(paths)), progress=progress)
    except PassdownError:
        return None
    finally:
        if progress is not None:
            progress.close()
    colored = reporters.use_color("auto")
    output = reporters.render("text", report, color=colored)
    if not colored and "\x1b" in output:  # click strips escape sequences from plain output
        return None
    _write(output)
    return report.exit_code()


def _digest(files):
    """``passdown digest FILE...`` (plain files, no option), as :mod:`passdown.cli._digest`
    prints it; ``None`` for anything that is not a digest line per file (a directory or an
    unreadable name, which click refuses, or a file that cannot be hashed)."""
    from passdown.errors import PassdownError
    from passdown.formats import _digest

    lines = []
    for name in files:
        if "\x1b" in name or os.path.isdir(name) or (os.path.lexists(name) and not os.access(name, os.R_OK)):
            return None
        try:
            digest = _digest.digest_file(name, _digest.DEFAULT_ALGORITHM, form=_digest.form_for_name(name))
        except PassdownError:
            return None
        lines.append(_digest.format_line(digest, name) + "\n")
    _write("".join(lines))
    return 0


#: ``passdown ack verify``'s options the fast path reads: path options (and whether click's
#: ``Path`` type takes a file, a folder), ``--format``'s choices, and the flags.
_ACK_PATHS = {"--packet": ("packet", True, False), "--registry": ("registry", True, False),
              "--checkpoint": ("checkpoint", True, False),
              "--workspace": ("workspace", False, True)}
_ACK_FORMATS = ("text", "json")
_ACK_FLAGS = {"-q": "quiet", "--quiet": "quiet", "-v": "verbose", "--verbose": "verbose"}


def _ack_verify_options(args):
    """``passdown ack verify``'s arguments as click reads them, or ``None`` for anything else
    (an option the fast path leaves to click, a value click would refuse, a second ACK)."""
    options = {"ack": None, "packet": None, "registry": None, "checkpoint": None,
               "workspace": None, "format": "text", "quiet": False, "verbose": False}
    given = set()
    index = 0
    while index < len(args):
        arg = args[index]
        index += 1
        if arg in _ACK_FLAGS:
            options[_ACK_FLAGS[arg]] = True
            continue
        name, equals, value = arg.partition("=") if arg.startswith("--") else (arg, "", "")
        if name in _ACK_PATHS or name == "--format":
            if not equals:
                if index == len(args):
                    return None
                value = args[index]
                index += 1
            if name in given or not value:
                return None
            given.add(name)
            if name == "--format":
                if value not in _ACK_FORMATS:
                    return None
                options["format"] = value
                continue
            key, file_okay, dir_okay = _ACK_PATHS[name]
            if not _click_path_ok(value, file_okay, dir_okay):
                return None
            options[key] = value
            continue
        if arg.startswith("-") or options["ack"] is not None or not _click_path_ok(arg, True, False):
            return None
        options["ack"] = arg
    return options if options["ack"] is not None else None


def _click_path_ok(value, file_okay, dir_okay):
    """Whether click's ``Path(file_okay, dir_okay)`` takes ``value`` (a missing path is taken;
    an existing one must be of a kind it allows, and readable)."""
    import stat

    try:
        mode = os.stat(value).st_mode
    except OSError:
        return True
    except ValueError:  # a NUL in the name: click's own check fails on it
        return False
    if (not file_okay and stat.S_ISREG(mode)) or (not dir_okay and stat.S_ISDIR(mode)):
        return False
    return os.access(value, os.R_OK)


def _ack_inputs(packet, registry, note):
    """``(packet, registry)`` as ``passdown ack verify`` finds them (the one left out beside
    the other; both from the handoff folder here or above, whose folder ``note`` is told when
    it is not this one), or ``None`` where finding them is an error click reports."""
    from passdown.authoring import PACKET_NAME, locate_folder, registries_in

    if packet is not None:
        found = [registry] if registry is not None else registries_in(os.path.dirname(packet) or ".")
        return (packet, found[0]) if len(found) == 1 else None
    if registry is not None:
        return os.path.join(os.path.dirname(registry), PACKET_NAME), registry
    located = locate_folder(None, needs="registry")
    found = registries_in(located.path)
    if not located.found or len(found) != 1:
        return None
    if located.path != ".":
        note(located.folder)
    return located.join(PACKET_NAME), found[0]


def ack_verify(args):
    """``passdown ack verify ACK [OPTIONS]``, as :mod:`passdown.cli._ack` prints it; ``None``
    for an option or an input the fast path leaves to click, and for output click would
    change (an escape sequence it strips, text the stream cannot encode)."""
    options = _ack_verify_options(args)
    if options is None:
        return None
    from passdown._text import paint
    from passdown.errors import PassdownError
    from passdown.formats._ackcheck import text_report
    from passdown.reporters import use_color
    from passdown.workspace._readback import read_and_verify

    as_json = options["format"] == "json"
    notes = []
    found = _ack_inputs(options["packet"], options["registry"],
                        lambda folder: notes.append(f"passdown: using the handoff folder {folder}")
                        if not (as_json or options["quiet"]) else None)
    if found is None:
        return None
    packet, registry = found
    ack = options["ack"]
    try:
        verdict = read_and_verify(ack, packet, registry, checkpoint_path=options["checkpoint"],
                                  workspace=options["workspace"])
    except PassdownError as error:
        if as_json:
            import json

            return _ack_print(notes, json.dumps({"outcome": "unusable", "codes": [error.code],
                                                 "skipped": [], "failures": [],
                                                 "error": error.to_dict()}, indent=2),
                              False, 2, out=True)
        colored = use_color("auto", err=True)
        message = f"passdown: {paint('error', error.code, colored)}: {error.message}"
        if error.hint:
            message += "\n" + paint("hint", f"  hint: {error.hint}", colored)
        return _ack_print(notes, message, colored, error.exit_code, out=False)
    if as_json:
        import json

        return _ack_print(notes, json.dumps({"ack": ack, **verdict.to_dict(details=True)},
                                            indent=2, ensure_ascii=False),
                          False, verdict.exit_code, out=True)
    colored = use_color("auto")
    read = None
    if options["verbose"]:
        read = (("ACK", ack), ("packet", packet), ("registry", registry),
                ("checkpoint", options["checkpoint"] or "(the registry policy's checkpoint_path)"),
                ("workspace", options["workspace"] or "(none: fingerprints not compared)"))
    text = text_report(ack, verdict, quiet=options["quiet"], color=colored, read=read)
    return _ack_print(notes, text, colored, verdict.exit_code, out=True)


def _ack_print(notes, text, colored, status, *, out):
    """Print the notes on stderr, then ``text`` (with its newline, on stdout when ``out``,
    else stderr) as ``click.echo`` would, and answer ``status``; ``None``, printing nothing,
    when click would change a byte of it."""
    plain_stderr = not sys.stderr.isatty()
    if any("\x1b" in note for note in notes) and plain_stderr:
        return None
    if "\x1b" in text and not colored:
        return None
    stream = sys.stdout if out else sys.stderr
    try:
        for part, where in [*((note, sys.stderr) for note in notes), (text, stream)]:
            part.encode(where.encoding or "utf-8", where.errors or "strict")
    except (UnicodeEncodeError, LookupError):
        return None
    for note in notes:
        sys.stderr.write(note + "\n")
    sys.stderr.flush()
    if text:
        stream.write(text + "\n")
        stream.flush()
    return status


def _write(text):
    sys.stdout.write(text)
    sys.stdout.flush()


FAST_PATHS = {"validate": _validate, "digest": _digest}
