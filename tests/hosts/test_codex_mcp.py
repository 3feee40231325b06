"""Passdown's MCP server for Codex CLI, started exactly as Codex would start it from what
``passdown hook install codex --mcp --dry-run`` prints (spec/hosts.md HST-306, HST-311): the
``[mcp_servers.passdown]`` table read with tomllib (and valid against Codex's config schema), and the ``codex mcp add`` line split with
shlex (never run through a shell). Each is started with its own command, arguments,
environment and working folder (none given: the environment the SDK passes by default, and
the session's folder, as Codex does) by the MCP SDK's stdio client, which lists the tools and
validates the example handoff's checkpoint."""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import tomllib

import anyio
import jsonschema
import mcp

from docs_support import ROOT
from hosts_support import launcher

CHECKPOINT = "xbrief/continue.xbrief.json"
#: Codex's own config schema, its [mcp_servers] and [hooks] definitions (tests/data/codex_config).
SCHEMA = json.loads((ROOT / "tests" / "data" / "codex_config" / "config.schema.excerpt.json").read_text())


def _printed(folder):
    done = subprocess.run([launcher(), "hook", "install", "codex", "--mcp", "--dry-run"], cwd=folder,
                          capture_output=True, text=True, timeout=60, check=False)
    assert (done.returncode, done.stderr) == (0, ""), done.stdout
    return done.stdout


def _start(folder, command, args, env, cwd):
    server = mcp.StdioServerParameters(command=command, args=args, env=env, cwd=cwd or str(folder))
    found = {}

    async def main():
        async with mcp.Client(server) as client:
            found["tools"] = [tool.name for tool in (await client.list_tools()).tools]
            found["validate"] = await client.call_tool("validate", {"path": CHECKPOINT})

    anyio.run(main)
    return found


def test_the_printed_table_and_codex_mcp_add_line_start_the_server(tmp_path):
    folder = tmp_path / "project"
    shutil.copytree(ROOT / "examples" / "handoff", folder)
    printed = _printed(folder)
    config = tomllib.loads(printed)  # the whole output is TOML
    jsonschema.Draft7Validator(SCHEMA).validate(config)  # as Codex's config schema has it
    table = config["mcp_servers"]["passdown"]
    assert sorted(table) == ["args", "command"]
    added = shlex.split(printed.splitlines()[-1].removeprefix("# "))
    assert added[:5] == ["codex", "mcp", "add", "passdown", "--"]
    assert added[5:] == [table["command"], *table["args"]]
    for command, args, env, cwd in ((table["command"], table["args"], table.get("env"), table.get("cwd")),
                                    (added[5], added[6:], None, None)):
        found = _start(folder, command, args, env, cwd)
        assert "validate" in found["tools"] and "checkpoint_add_completed" in found["tools"]
        reply = found["validate"]
        assert reply.is_error is False, reply.content[0].text
        assert (reply.structured_content["ok"], reply.structured_content["exit_code"]) == (True, 0)
        assert reply.structured_content["kind"] == "findings"
        assert [f["code"] for f in reply.structured_content["findings"] if f["severity"] == "error"] == []
