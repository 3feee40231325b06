"""Options shared by several commands, defined once: ``--format``, ``-q/--quiet``,
``--color`` and ``-v/--verbose``, and the one way a command prints a library error."""

from __future__ import annotations

import click

from passdown.errors import PassdownError
from passdown.reporters import use_color  # noqa: F401 - re-exported for the commands

COLOR_CHOICES = ("auto", "always", "never")


class InOrder(click.Group):
    """A command group whose ``--help`` lists its commands in the order they are defined, the
    order of a handoff (``ack write`` before ``ack verify``), not alphabetically."""

    def list_commands(self, ctx):
        return list(self.commands)


def format_option(choices: tuple[str, ...], default: str | None = "text", help: str = "Output format."):
    return click.option(
        "--format", "output_format", type=click.Choice(choices), default=default,
        show_default=default is not None, help=help,
    )


def quiet_option(help: str = "Print nothing on success; errors and findings only."):
    return click.option("-q", "--quiet", is_flag=True, help=help)


def verbose_option(help: str):
    return click.option("-v", "--verbose", is_flag=True, help=help)


def color_option():
    return click.option(
        "--color", type=click.Choice(COLOR_CHOICES), default="auto", show_default=True,
        help="Colour the text output (auto: on a terminal, unless NO_COLOR is set).")


def output_options(formats: tuple[str, ...], *, quiet: str, verbose: str):
    """The output options every command that prints a result takes, in one order:
    ``--format`` (one of ``formats``), ``-q/--quiet``, ``--color`` and ``-v/--verbose``, each
    ``help`` saying what it means for the command. Only shapes what is printed."""

    def decorate(function):
        for option in reversed((format_option(formats), quiet_option(quiet), color_option(),
                                verbose_option(verbose))):
            function = option(function)
        return function

    return decorate


def fail(error: PassdownError, *, color: bool = False) -> None:
    """Print a library error the way every command does, and exit with its status."""
    from passdown.reporters import paint

    message = f"passdown: {paint('error', error.code, color)}: {error.message}"
    if error.hint:
        message += "\n" + paint("hint", f"  hint: {error.hint}", color)
    click.echo(message, err=True, color=color)
    raise SystemExit(error.exit_code)


def clock_skew_option(function):
    """``--clock-skew SECONDS``: how far an ACK's read_at may lie after this host's clock."""
    from passdown.formats._ackcheck import CLOCK_SKEW_SECONDS

    return click.option(
        "--clock-skew", type=click.FloatRange(min=0, max=86400), default=CLOCK_SKEW_SECONDS,
        show_default=True,
        metavar="SECONDS",
        help="How many seconds the ACK's read_at may lie after this host's clock (the two "
             "hosts' clocks disagree by about this much).")(function)


def warn(code: str, where: str, message: str, *, color: bool = False) -> None:
    """One warning on stderr: ``warning CODE WHERE: MESSAGE``."""
    from passdown.reporters import paint

    click.echo(f"{paint('warning', 'warning', color)} {paint('code', code, color)} {where}: "
               f"{message}", err=True, color=color)
