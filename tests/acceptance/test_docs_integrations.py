"""The configuration snippets of the integration guides run: each MCP client configuration
shown starts the server exactly as written (its command and arguments, in a copy of the
example handoff) and the SDK's client lists its tools."""

from __future__ import annotations

import json
import os
import shutil
import tomllib
from pathlib import Path

import anyio
import mcp
import pytest

from docs_support import ROOT
from hosts_support import launcher


EXAMPLES = ROOT / "docs" / "examples"
GUIDE = ROOT / "docs" / "guides" / "use-passdown-from-any-mcp-client.md"


def _servers():
    claude = json.loads((EXAMPLES / "mcp-config.json").read_text(encoding="utf-8"))["mcpServers"]
    codex = tomllib.loads((EXAMPLES / "mcp-codex-config.toml").read_text(encoding="utf-8"))["mcp_servers"]
    return {"claude-code .mcp.json": claude["passdown"], "codex config.toml": codex["passdown"]}


def test_the_guide_shows_each_configuration():
    page = GUIDE.read_text(encoding="utf-8")
    for name in ("mcp-config.json", "mcp-codex-config.toml", "mcp-client.py"):
        assert f'--8<-- "docs/examples/{name}"' in page


@pytest.mark.parametrize("name", list(_servers()))
def test_each_configuration_starts_the_server(name, tmp_path):
    entry = _servers()[name]
    assert entry.get("type", "stdio") == "stdio"
    folder = tmp_path / "project"
    shutil.copytree(ROOT / "examples" / "handoff", folder)
    path = f"{Path(launcher()).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    server = mcp.StdioServerParameters(command=entry["command"], args=entry["args"],
                                       env={**os.environ, "PATH": path}, cwd=str(folder))
    found = {}

    async def main():
        async with mcp.Client(server) as client:
            found["tools"] = [tool.name for tool in (await client.list_tools()).tools]
            found["checkpoint"] = await client.read_resource("passdown://handoff/checkpoint")

    anyio.run(main)
    assert "checkpoint_add_completed" in found["tools"] and "gate" in found["tools"]
    assert found["checkpoint"].contents[0].text == (folder / "xbrief" / "continue.xbrief.json").read_text()
