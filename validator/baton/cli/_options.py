"""Options shared by several commands, defined once."""

from __future__ import annotations

import click

from baton.errors import BatonError


def format_option(choices: tuple[str, ...], default: str = "text"):
    return click.option(
        "--format", "output_format", type=click.Choice(choices), default=default,
        show_default=True, help="Output format.",
    )


def fail(error: BatonError) -> None:
    """Print a library error the way every command does, and exit with its status."""
    message = f"baton: {error.code}: {error.message}"
    if error.hint:
        message += f"\n  hint: {error.hint}"
    click.echo(message, err=True)
    raise SystemExit(error.exit_code)


def clock_skew_option(function):
    """``--clock-skew SECONDS``: how far an ACK's read_at may lie after this host's clock."""
    from baton.formats._ackcheck import CLOCK_SKEW_SECONDS

    return click.option(
        "--clock-skew", type=click.FloatRange(min=0, max=86400), default=CLOCK_SKEW_SECONDS,
        show_default=True,
        metavar="SECONDS",
        help="How many seconds the ACK's read_at may lie after this host's clock (the two "
             "hosts' clocks disagree by about this much).")(function)
