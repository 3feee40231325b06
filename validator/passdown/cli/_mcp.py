"""``passdown mcp``: serve Passdown's tools to an MCP client over stdio, bound to one folder.
Thin: the server is :mod:`passdown.mcp`; the SDK is the optional extra ``passdown[mcp]``."""

from __future__ import annotations

import click

from passdown.errors import PassdownError, UsageError
from passdown.cli._options import fail

#: The SDK's major version the server is written for.
SDK_MAJOR = 2
INSTALL_HINT = "pip install 'passdown[mcp]'"


def require_sdk() -> None:
    """Refuse (``mcp.not_installed``, exit 2) when the ``mcp`` SDK 2.x is not importable."""
    import importlib.metadata
    import importlib.util

    if importlib.util.find_spec("mcp") is None:
        fail(UsageError("the MCP server needs the mcp package, which is not installed",
                        code="mcp.not_installed", hint=INSTALL_HINT))
    version = importlib.metadata.version("mcp")
    if not version.split(".")[0].isdigit() or int(version.split(".")[0]) != SDK_MAJOR:
        fail(UsageError(f"the MCP server needs mcp {SDK_MAJOR}.x, not {version}",
                        code="mcp.not_installed", hint=INSTALL_HINT))


@click.command("mcp")
@click.option("--folder", required=True, type=click.Path(file_okay=False),
              help="The handoff folder the server is bound to: it reads and writes nothing "
                   "outside it.")
def mcp(folder):
    """Serve Passdown's tools to any MCP client over stdio, bound to one handoff folder.

    Tools: validate, checkpoint_show and the checkpoint updates, packet_render, ack_verify,
    and gate (every decision gate by name). Resources: the checkpoint, the packet and the
    packaged schemas. A refusal is a tool error carrying the CLI's code and hint.

    Needs the optional extra: pip install 'passdown[mcp]' (exit 2 without it)."""
    require_sdk()
    from passdown.mcp._folder import Folder
    from passdown.mcp._server import serve

    try:
        bound = Folder(folder)
    except PassdownError as error:
        fail(error)
    serve(bound)
