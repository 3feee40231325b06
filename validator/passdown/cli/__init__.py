"""The ``passdown`` command: a thin click layer that parses options and calls the library.

Subcommands load lazily (each lives in its own module), so ``passdown --version`` and
``passdown gate`` never pay for the validator's imports.
"""

from __future__ import annotations

import importlib
import importlib.util

import click

from passdown._version import __version__

# name -> (module, attribute, one-line help shown by `passdown --help`), in the order of a
# handoff: set up and record progress, check, hand over, resume; then the tools around it.
_COMMANDS = {
    "init": ("passdown.cli._authoring", "init", "Create a checkpoint and a registry with its policy record."),
    "checkpoint": ("passdown.cli._authoring", "checkpoint", "Update the continue checkpoint (items, narratives, blockers)."),
    "validate": ("passdown.cli._validate", "validate", "Validate and lint artifacts, files or whole handoff folders."),
    "observe": ("passdown.cli._observe", "observe", "Read a Claude Code or Codex session's context size from its session file."),
    "assess": ("passdown.cli._observe", "assess", "Observe a session, run the restart gate, record both, say one line."),
    "packet": ("passdown.cli._authoring", "packet", "Render the continuation packet and register the restart attempt."),
    "attempt": ("passdown.cli._authoring", "attempt", "Record the later steps of one restart attempt."),
    "ack": ("passdown.cli._ack", "ack", "Write an ACK, or verify one against a fresh readback."),
    "fence": ("passdown.cli._authoring", "fence", "Check that this clone and a session still own the goal's writes."),
    "consume": ("passdown.cli._authoring", "consume", "Mark the checkpoint consumed on resume."),
    "registry": ("passdown.cli._authoring", "registry", "Recover a lost restart registry, or record the owner's restart consent."),
    "migrate": ("passdown.cli._authoring", "migrate", "Convert a legacy vBRIEF checkpoint to xBRIEF."),
    "digest": ("passdown.cli._digest", "digest", "Print, check or record artifact digests."),
    "gate": ("passdown.cli._gate", "gate", "Run a decision gate on JSON input."),
    "hook": ("passdown.cli._hook", "hook", "Run a Claude Code hook, or install or uninstall Passdown's hooks."),
    "mcp": ("passdown.cli._mcp", "mcp", "Serve Passdown's tools to any MCP client over stdio."),
    "schema": ("passdown.cli._schema", "schema", "List, show or locate the packaged JSON Schemas."),
    "conformance": ("passdown.cli._conformance", "conformance", "Check the conformance suite or run it against an implementation."),
}

#: The end of `passdown --help`: the five commands of a first handoff, in a git checkout.
FIRST_HANDOFF = """A first handoff, in five commands (each one's --help says more):

\b
  passdown init --goal-id GOAL --main-id SOURCE --outcome TEXT --next STEP
  passdown packet render --source-id SOURCE --restart-id RESTART
  passdown attempt created RESTART --target-id TARGET
  passdown ack write --target-id TARGET
  passdown ack verify ack.json --workspace .
"""


class _LazyGroup(click.Group):
    def list_commands(self, ctx):
        return [name for name in _COMMANDS if self._available(name)]

    def get_command(self, ctx, name):
        entry = _COMMANDS.get(name)
        if entry is None:
            return None
        try:
            module = importlib.import_module(entry[0])
        except ModuleNotFoundError as error:
            if error.name == entry[0]:
                return None
            raise
        return getattr(module, entry[1])

    def resolve_command(self, ctx, args):
        """As click's, but an unknown name is told the nearest command (the lazy commands are
        not in ``self.commands``, where click looks for suggestions)."""
        name = click.utils.make_str(args[0])
        if self.get_command(ctx, name) is None and not ctx.resilient_parsing and not name.startswith("-"):
            raise click.exceptions.NoSuchCommand(name, possibilities=self.list_commands(ctx), ctx=ctx)
        return super().resolve_command(ctx, args)

    def format_commands(self, ctx, formatter):
        rows = [(name, _COMMANDS[name][2]) for name in self.list_commands(ctx)]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    @staticmethod
    def _available(name):
        return importlib.util.find_spec(_COMMANDS[name][0]) is not None


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]}, epilog=FIRST_HANDOFF)
@click.version_option(__version__, "--version", prog_name="passdown", message="%(prog)s %(version)s")
def cli():
    """Passdown: hand an agent's work from one session to a fresh one without losing work,
    authority or evidence.

    Exit status: 0 clean, 1 findings or a refused/failed check, 2 usage error or unreadable
    input (the restart gate keeps its published contract: 2 for every BLOCKED).
    """

