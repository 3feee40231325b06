"""Drive an MCP server with the MCP SDK's own client, as any MCP host does:
`python3 mcp-client.py COMMAND [ARGS...]` starts the server COMMAND over stdio."""

import sys

import anyio
from mcp import Client, StdioServerParameters

GUARD_INPUT = {"tool": "execute", "arguments": {"command": "systemctl --user restart dsh.service"},
               "host_pid": 4242, "service_unit": "dsh.service", "restart_tool": "restart_dsh"}


async def main():
    server = StdioServerParameters(command=sys.argv[1], args=sys.argv[2:])
    async with Client(server) as client:
        tools = await client.list_tools()
        print("tools:", ", ".join(tool.name for tool in tools.tools))

        done = await client.call_tool("checkpoint_decision", {
            "text": "Keep the re-export shim until every caller moved"})
        print(done.content[0].text)

        refused = await client.call_tool("checkpoint_hazard", {
            "text": "reports/monthly.py caches parsed rows", "expect_revision": 7})
        print("refused:", refused.is_error, refused.structured_content["error"]["code"])

        verdict = await client.call_tool("gate", {"name": "guard", "input": GUARD_INPUT})
        print(verdict.structured_content["outcome"], verdict.structured_content["exit_code"])


anyio.run(main)
