"""The stdio MCP server over the official SDK (``mcp`` 2.x, the ``passdown[mcp]``
extra): the tool table of :mod:`passdown.mcp._tools` and the resources of
:mod:`passdown.mcp._resources`, bound to one folder. The only module that imports the SDK."""

from __future__ import annotations

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError

from passdown._version import __version__
from passdown.errors import PassdownError, UsageError
from passdown.mcp import _resources, _tools
from passdown.mcp._folder import Folder

#: The JSON-RPC error code MCP gives a resource that does not exist.
RESOURCE_NOT_FOUND = -32002
INSTRUCTIONS = (
    "Passdown keeps this project's handoff files: the continue checkpoint (the source of truth a "
    "fresh session resumes from), the continuation packet, the restart registry and the ACK. "
    "Record each completed step with its evidence (checkpoint_add_completed), keep the resume "
    "point current (checkpoint_set_resume), and ask the gates for decisions. A refusal comes "
    "back as a tool error with a code and a hint that says how to fix the call.")


def build(folder: Folder) -> Server:
    """The server for ``folder``: tools and resources, nothing else."""
    table = {tool.name: tool for tool in _tools.tools()}

    async def list_tools(ctx, params):
        return types.ListToolsResult(tools=[
            types.Tool(name=tool.name, description=tool.description,
                       input_schema=tool.input_schema) for tool in table.values()])

    async def call_tool(ctx, params):
        tool = table.get(params.name)
        if tool is None:
            reply = _tools.refusal(UsageError(
                f"no tool {params.name!r}", code="mcp.unknown_tool",
                hint=f"use one of: {', '.join(table)}"), params.name)
        else:
            reply = await anyio.to_thread.run_sync(_tools.call, tool, folder, params.arguments)
        return types.CallToolResult(content=[types.TextContent(type="text", text=reply.text)],
                                    structured_content=reply.structured, is_error=reply.is_error)

    async def list_resources(ctx, params):
        return types.ListResourcesResult(resources=[
            types.Resource(uri=entry.uri, name=entry.name, description=entry.description,
                           mime_type=entry.mime_type) for entry in _resources.resources()])

    async def read_resource(ctx, params):
        try:
            entry, text = _resources.read(folder, str(params.uri))
        except PassdownError as error:
            code = RESOURCE_NOT_FOUND if error.code == "mcp.not_found" else types.INVALID_PARAMS
            raise MCPError(code, f"{error.code}: {error.message}", data=error.to_dict()) from None
        return types.ReadResourceResult(contents=[
            types.TextResourceContents(uri=entry.uri, mime_type=entry.mime_type, text=text)])

    return Server("passdown", version=__version__, instructions=INSTRUCTIONS,
                  on_list_tools=list_tools, on_call_tool=call_tool,
                  on_list_resources=list_resources, on_read_resource=read_resource)


def serve(folder: Folder) -> None:
    """Serve ``folder`` on stdin/stdout until the client closes the connection."""
    server = build(folder)

    async def main():
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(main)
