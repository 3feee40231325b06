"""The stdio MCP server over the official SDK (``mcp`` 2.x, the ``passdown[mcp]``
extra): the tool table of :mod:`passdown.mcp._tools` and the resources of
:mod:`passdown.mcp._resources`, bound to one folder. The only module that imports the SDK.

Every request line is read by Passdown's own reader before the SDK sees it (HST-204): a line
that is not JSON, nests too deep, holds an integer of too many digits or is larger than
:data:`MAX_LINE_BYTES` is answered with a JSON-RPC error (carrying the request's id when it
can be found, else ``null``), so the client never waits for a reply that cannot come."""

from __future__ import annotations

import json
import sys

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError
from mcp.shared.message import SessionMessage

from passdown._version import __version__
from passdown.errors import PassdownError, UsageError
from passdown.formats import _loading
from passdown.mcp import _resources, _tools
from passdown.mcp._folder import Folder

#: The JSON-RPC error code MCP gives a resource that does not exist.
RESOURCE_NOT_FOUND = -32002
#: JSON-RPC's codes for a line that is not JSON, and for a request that cannot be read.
PARSE_ERROR, INVALID_REQUEST = -32700, -32600
#: The longest request line read; a longer one is answered with an error and skipped.
MAX_LINE_BYTES = 16 << 20
#: The longest integer an id may be written with (a longer one is not looked at).
_MAX_ID_DIGITS = 20
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


class _CheckedLines:
    """The request lines of ``stream`` (binary), each read by Passdown's reader first
    (:func:`passdown.formats._loading.load_bytes`: depth, digits, string and syntax bounds);
    a line it refuses is answered on :attr:`replies` and never reaches the SDK."""

    def __init__(self, stream):
        self.stream = stream
        self.replies = None
        self.ready = anyio.Event()

    def __aiter__(self):
        return self._lines()

    async def _lines(self):
        while True:
            raw = await anyio.to_thread.run_sync(self.stream.readline, MAX_LINE_BYTES + 1)
            if not raw:
                return
            if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
                while True:  # the rest of the line is skipped, in bounded reads
                    more = await anyio.to_thread.run_sync(self.stream.readline, MAX_LINE_BYTES)
                    if not more or more.endswith(b"\n"):
                        break
                await self._answer(None, INVALID_REQUEST, "mcp.request_too_large",
                                   f"the request is larger than {MAX_LINE_BYTES:,} bytes")
                continue
            line = raw.strip()
            if not line:
                continue
            loaded, findings = _loading.load_bytes(line, source=None, syntax="json")
            if loaded is not None:
                yield line.decode("utf-8")
                continue
            code = findings[0].code if findings else "load.syntax"
            kind, request_id = _request_id(line)
            if kind != "notification":  # a notification takes no reply, even an error
                await self._answer(request_id, PARSE_ERROR if code == "load.syntax"
                                   else INVALID_REQUEST, code,
                                   findings[0].message if findings else "not JSON")

    async def _answer(self, request_id, number, code, message):
        await self.ready.wait()
        error = types.JSONRPCError(jsonrpc="2.0", id=request_id, error=types.ErrorData(
            code=number, message=f"{code}: {message}", data={"code": code}))
        try:
            await self.replies.send(SessionMessage(error))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
            pass


def _request_id(line: bytes):
    """``(kind, id)``: ``request`` with its id (a string or a short integer, else ``None``),
    ``notification`` (an object without an id), or ``unknown`` (the line cannot be read even
    leniently: the error then goes to id ``null``, as JSON-RPC says). Read leniently: no
    integer is converted unless it could be an id."""
    def number(digits):
        return int(digits) if len(digits) <= _MAX_ID_DIGITS else None

    try:
        value = json.loads(line, parse_int=number, parse_float=lambda _: None,
                           parse_constant=lambda _: None)
    except (ValueError, RecursionError):
        return "unknown", None
    if not isinstance(value, dict):
        return "unknown", None
    if "id" not in value:
        return "notification", None
    request_id = value["id"]
    valid = isinstance(request_id, str) or type(request_id) is int
    return "request", request_id if valid else None


def serve(folder: Folder) -> None:
    """Serve ``folder`` on stdin/stdout until the client closes the connection."""
    server = build(folder)
    lines = _CheckedLines(sys.stdin.buffer)

    async def main():
        async with stdio_server(stdin=lines) as (read_stream, write_stream):
            lines.replies = write_stream
            lines.ready.set()
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(main)
