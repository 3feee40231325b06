"""``baton ack verify``: re-read the packet, the registry, the continue checkpoint and the
checkout, and say whether an ACK matches. Thin: the readback is :mod:`baton.workspace._readback`, the
rules :mod:`baton.formats._ackcheck`."""

from __future__ import annotations

import json

import click

from baton.errors import BatonError
from baton.cli._options import fail, format_option

_SKIPPED_BECAUSE = {
    "checkout": "checkout fingerprint not compared (no --workspace)",
    "dirty_artifacts": "dirty-artifact fingerprint not compared (no --workspace)",
    "checkpoint": "the attempt records no continue_checkpoint_digest to compare",
    "clock": "read_at not compared with the clock",
}


@click.group("ack")
def ack():
    """Verify an ACK against a fresh readback."""


@ack.command("verify")
@click.argument("ack_path", metavar="ACK", type=click.Path(dir_okay=False))
@click.option("--packet", "packet_path", required=True, type=click.Path(dir_okay=False),
              help="The continuation packet the ACK answers.")
@click.option("--registry", "registry_path", required=True, type=click.Path(dir_okay=False),
              help="The restart registry holding the attempt.")
@click.option("--checkpoint", "checkpoint_path", type=click.Path(dir_okay=False),
              help="The continue checkpoint (default: the registry policy's checkpoint_path).")
@click.option("--workspace", type=click.Path(file_okay=False),
              help="The git checkout the target read; without it the checkout and dirty-artifact "
                   "fingerprints are not compared.")
@format_option(("text", "json"))
def verify(ack_path, packet_path, registry_path, checkpoint_path, workspace, output_format):
    """Re-read everything, recompute the digests and fingerprints, and answer whether ACK is
    accepted.

    Exit status: 0 accepted, 1 rejected (every failed rule's code is listed), 2 unusable
    (an input could not be read).
    """
    from baton.workspace._readback import read_and_verify

    try:
        verdict = read_and_verify(ack_path, packet_path, registry_path,
                                  checkpoint_path=checkpoint_path, workspace=workspace)
    except BatonError as error:
        if output_format == "json":
            click.echo(json.dumps({"outcome": "unusable", "codes": [error.code], "skipped": [],
                                   "failures": [], "error": error.to_dict()}, indent=2))
            raise SystemExit(2) from None
        fail(error)
    if output_format == "json":
        click.echo(json.dumps({"ack": ack_path, **verdict.to_dict(details=True)}, indent=2,
                              ensure_ascii=False))
    else:
        click.echo(f"{ack_path}: {verdict.outcome}")
        for failure in verdict.failures:
            click.echo(f"  {failure.code}: {failure.field}: {failure.message}")
        for part in verdict.skipped:
            click.echo(f"  note: {_SKIPPED_BECAUSE[part]}")
    raise SystemExit(verdict.exit_code)
