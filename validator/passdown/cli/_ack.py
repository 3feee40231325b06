"""``passdown ack write`` and ``passdown ack verify``: the target writes its ACK from a fresh readback
of the packet, the registry, the continue checkpoint and the checkout; the source re-reads all
of it and says whether the ACK matches. Thin: the writer is :mod:`passdown.authoring._ack`, the
readback :mod:`passdown.workspace._readback`, the rules :mod:`passdown.formats._ackcheck`."""

from __future__ import annotations

import json
import os

import click

from passdown.errors import PassdownError
from passdown.cli._authoring import _Command, _locate, _outside_a_checkout, _output_options, _run
from passdown.cli._options import InOrder, clock_skew_option, fail, output_options, use_color

@click.group("ack", cls=InOrder)
def ack():
    """Write an ACK (the target) or verify one (the source) against a fresh readback."""


@ack.command("write", cls=_Command)
@click.option("--packet", "packet_path", default=None, type=click.Path(dir_okay=False),
              help="The continuation packet handed over [default: continuation.packet.txt of "
                   "the handoff folder, found here or in a folder above].")
@click.option("--target-id", required=True, help="This session's own exact id.")
@click.option("--status", type=click.Choice(("READY_READONLY", "TAKEOVER")),
              default="READY_READONLY", show_default=True,
              help="READY_READONLY (read everything, wrote nothing) or TAKEOVER (read back "
                   "the committed ownership).")
@click.option("--registry", "registry_path", default=None, type=click.Path(dir_okay=False),
              help="The restart registry [default: found beside the packet].")
@click.option("--checkpoint", "checkpoint_path", default=None, type=click.Path(dir_okay=False),
              help="The continue checkpoint [default: the registry policy's checkpoint_path].")
@click.option("--output", "output_path", default=None, type=click.Path(dir_okay=False),
              help="Where to write the ACK [default: ack.json beside the packet]; only a "
                   "missing file or an untracked ACK of the same handoff is replaced.")
@click.option("--workspace", default=None, type=click.Path(file_okay=False),
              help="The git checkout to fingerprint [default: the one holding the packet].")
@_output_options
@_run("ack write")
def write(packet_path, target_id, status, registry_path, checkpoint_path, output_path,
          workspace):
    """Read the packet, the registry, the checkpoint and the checkout, and write ack.json.

    The checkout and dirty-artifact fingerprints are read exactly as `passdown ack verify
    --workspace` reads them (the handoff's own files left out), NEXT_SAFE_ACTION is copied
    exactly and read_at is the clock at full precision. Refuses, writing nothing, when the
    packet cannot be read or its digest does not verify (authoring.packet_unverified), or when the
    attempt's state does not accept the status (attempt.state), when the output file exists
    and is not an untracked ACK of the same handoff (authoring.output_taken): never another
    artifact, a tracked file, a link or a folder, and outside a git checkout
    (git.not_a_repository): the ACK records the checkout it was read from."""
    from passdown.authoring import PACKET_NAME, write_ack

    if packet_path is None:
        packet_path = _locate(None, "registry").join(PACKET_NAME)
    with _outside_a_checkout("the ACK records the git checkout the target read (its branch, HEAD "
                             "and uncommitted files): run this in the checkout of the work, or "
                             "name it with --workspace DIR"):
        return write_ack(packet_path, target_id=target_id, status=status,
                         registry_path=registry_path, checkpoint_path=checkpoint_path,
                         output_path=output_path, workspace=workspace)


@ack.command("verify")
@click.argument("ack_path", metavar="ACK", type=click.Path(dir_okay=False))
@click.option("--packet", "packet_path", default=None, type=click.Path(dir_okay=False),
              help="The continuation packet the ACK answers [default: continuation.packet.txt "
                   "beside the registry, or of the handoff folder found here or in a folder "
                   "above].")
@click.option("--registry", "registry_path", default=None, type=click.Path(dir_okay=False),
              help="The restart registry holding the attempt [default: beside the packet, or "
                   "of the handoff folder found here or in a folder above].")
@click.option("--checkpoint", "checkpoint_path", type=click.Path(dir_okay=False),
              help="The continue checkpoint (default: the registry policy's checkpoint_path).")
@click.option("--workspace", type=click.Path(file_okay=False),
              help="The git checkout the target read; without it the checkout and dirty-artifact "
                   "fingerprints are not compared.")
@clock_skew_option
@output_options(("text", "json"),
                quiet="Failures only: nothing when the ACK is accepted, no notes.",
                verbose="Before the verdict, list every file read and the workspace.")
def verify(ack_path, packet_path, registry_path, checkpoint_path, workspace, clock_skew,
           output_format, quiet, color, verbose):
    """Re-read everything, recompute the digests and fingerprints, and answer whether ACK is
    accepted. Without --packet and --registry, those of the handoff folder found here or in a
    folder above.

    Exit status: 0 accepted, 1 rejected (every failed rule's code is listed), 2 unusable
    (an input could not be read).
    """
    from passdown.formats._ackcheck import text_report
    from passdown.workspace._readback import read_and_verify

    try:
        packet_path, registry_path = _packet_and_registry(packet_path, registry_path, output_format, quiet)
        verdict = read_and_verify(ack_path, packet_path, registry_path,
                                  checkpoint_path=checkpoint_path, workspace=workspace,
                                  clock_skew=clock_skew)
    except PassdownError as error:
        if output_format == "json":
            click.echo(json.dumps({"outcome": "unusable", "codes": [error.code], "skipped": [],
                                   "failures": [], "error": error.to_dict()}, indent=2))
            raise SystemExit(2) from None
        fail(error, color=use_color(color, err=True))
    if output_format == "json":
        click.echo(json.dumps({"ack": ack_path, **verdict.to_dict(details=True)}, indent=2,
                              ensure_ascii=False))
        raise SystemExit(verdict.exit_code)
    colored = use_color(color)
    read = None
    if verbose:
        read = (("ACK", ack_path), ("packet", packet_path), ("registry", registry_path),
                ("checkpoint", checkpoint_path or "(the registry policy's checkpoint_path)"),
                ("workspace", workspace or "(none: fingerprints not compared)"))
    text = text_report(ack_path, verdict, quiet=quiet, color=colored, read=read)
    if text:
        click.echo(text, color=colored)
    raise SystemExit(verdict.exit_code)


def _packet_and_registry(packet_path, registry_path, output_format, quiet):
    """``--packet`` and ``--registry`` as given; one missing is taken beside the other, and both
    missing from the handoff folder found here or in a folder above (said on stderr, as the
    authoring commands say it, when it is not this one)."""
    from passdown.authoring import PACKET_NAME, locate_folder, locate_registry, require_folder

    if packet_path is not None:
        return packet_path, locate_registry(os.path.dirname(packet_path) or ".", registry_path)
    if registry_path is not None:
        return os.path.join(os.path.dirname(registry_path), PACKET_NAME), registry_path
    located = locate_folder(None, needs="registry")
    require_folder(located, "registry")
    if located.path != "." and output_format != "json" and not quiet:
        click.echo(f"passdown: using the handoff folder {located.folder}", err=True)
    return located.join(PACKET_NAME), locate_registry(located.path)
