"""``passdown mcp`` as a client meets it: started as a subprocess and driven over stdio by the
SDK's own client. It lists its tools, records a completed step, renders the packet, runs a
gate, and answers a refusal as a tool error with the CLI's code and hint."""

from __future__ import annotations

import json
import os
import select
import subprocess

import anyio
import mcp
import pytest
from click.testing import CliRunner
from mcp import Client, StdioServerParameters

from passdown.cli import cli
from hosts_support import MAIN, launcher, new_project


TOOLS = ["validate", "checkpoint_show", "checkpoint_add_completed", "checkpoint_add_pending",
         "checkpoint_set_resume", "checkpoint_decision", "checkpoint_hazard", "checkpoint_blocker",
         "checkpoint_failed_attempt", "packet_render", "ack_write", "ack_verify", "gate"]


@pytest.fixture
def project(tmp_path):
    return new_project(tmp_path / "project")


def _session(folder, script, mode="auto"):
    """Run ``script(client)`` against ``passdown mcp --folder FOLDER`` over stdio."""
    server = StdioServerParameters(command=launcher(), args=["mcp", "--folder", str(folder)],
                                   env={**os.environ})
    found = {}

    async def main():
        async with Client(server, mode=mode) as client:
            found["value"] = await script(client)

    anyio.run(main)
    return found["value"]


def test_a_client_lists_records_renders_gates_and_is_refused(project):
    async def script(client):
        listed = await client.list_tools()
        pending = await client.call_tool("checkpoint_add_pending", {"title": "Migrate the callers"})
        completed = await client.call_tool("checkpoint_add_completed", {
            "title": "Extract the parser", "evidence": ["commit 3f9c2d1e", "pytest tests/parsing: 41 passed"]})
        decision = await client.call_tool("checkpoint_decision", {"text": "Dates via fromisoformat"})
        resume = await client.call_tool("checkpoint_set_resume", {"text": "Open reports/monthly.py"})
        rendered = await client.call_tool("packet_render", {"source_id": MAIN})
        gate = await client.call_tool("gate", {"name": "guard", "input": {
            "tool": "execute", "arguments": "systemctl --user restart dsh.service", "host_pid": 4242,
            "service_unit": "dsh.service", "restart_tool": "restart_dsh"}})
        refused = await client.call_tool("checkpoint_hazard", {"text": "make golden", "expect_revision": 1})
        return listed, completed, pending, decision, resume, rendered, gate, refused

    listed, completed, pending, decision, resume, rendered, gate, refused = _session(project, script)
    assert [tool.name for tool in listed.tools] == TOOLS
    for reply in (completed, pending, decision, resume, rendered):
        assert reply.is_error is False, reply.content[0].text
    assert completed.content[0].text == "completed 'extract-the-parser' (revision 3)"
    assert completed.structured_content["ok"] is True
    assert completed.structured_content["revision"] == 3
    checkpoint = json.loads((project / "xbrief" / "continue.xbrief.json").read_text())
    assert checkpoint["x-passdown/checkpoint"]["completed_work"] == [{
        "item_id": "extract-the-parser", "summary": "Extract the parser",
        "evidence_refs": ["commit 3f9c2d1e", "pytest tests/parsing: 41 passed"]}]
    packet = (project / "continuation.packet.txt").read_text()
    assert rendered.structured_content["result"]["restart_id"] in packet
    assert rendered.structured_content["path"] == str(project / "continuation.packet.txt")
    assert gate.is_error is False
    assert gate.structured_content == {"gate": "guard", "outcome": "service_restart", "exit_code": 1, "output": {
        "decision": "deny", "code": "service_restart",
        "message": "Denied: this command restarts or stops dsh.service from inside the host, which "
                   "ends this call and the turn with it. Use restart_dsh instead: it records a "
                   "handoff and restarts the host safely."}}
    assert refused.is_error is True
    error = refused.structured_content["error"]
    assert (error["code"], refused.structured_content["exit_code"]) == ("authoring.revision_conflict", 1)
    assert refused.content[0].text == f"passdown: {error['code']}: {error['message']}\n  hint: {error['hint']}"


def test_a_refusal_carries_exactly_what_the_cli_reports(project):
    """The same stale write through the CLI and through the server: the same error."""
    cli_result = CliRunner().invoke(cli, [
        "checkpoint", "hazard", "make golden", "--expect-revision", "5", "--format", "json",
        "--checkpoint", str(project / "xbrief" / "continue.xbrief.json")])
    expected = json.loads(cli_result.output)

    async def script(client):
        return await client.call_tool("checkpoint_hazard", {"text": "make golden", "expect_revision": 5})

    refused = _session(project, script)
    assert cli_result.exit_code == 1
    assert refused.is_error is True
    assert refused.structured_content == {"ok": False, "command": "checkpoint_hazard",
                                          "error": expected["error"], "exit_code": 1}


def test_resources_are_the_checkpoint_the_packet_and_the_schemas(project):
    async def script(client):
        listed = await client.list_resources()
        checkpoint = await client.read_resource("passdown://handoff/checkpoint")
        schema = await client.read_resource("https://spec.passdown.dev/schemas/v1/checkpoint.schema.json")
        try:
            await client.read_resource("passdown://handoff/packet")
        except mcp.MCPError as error:
            missing = error
        return listed, checkpoint, schema, missing

    listed, checkpoint, schema, missing = _session(project, script)
    uris = [resource.uri for resource in listed.resources]
    assert uris[:2] == ["passdown://handoff/checkpoint", "passdown://handoff/packet"]
    assert "https://spec.passdown.dev/schemas/v1/gates/guard.input.schema.json" in uris
    assert checkpoint.contents[0].text == (project / "xbrief" / "continue.xbrief.json").read_text()
    assert json.loads(schema.contents[0].text)["$id"] == "https://spec.passdown.dev/schemas/v1/checkpoint.schema.json"
    assert missing.code == -32002 and missing.data["code"] == "mcp.not_found"


def test_the_server_never_reaches_outside_its_folder(project, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.json").write_text("{}")
    (project / "escape").symlink_to(outside)

    async def script(client):
        return [await client.call_tool("validate", {"path": path})
                for path in ("../outside", str(outside), "escape", "escape/secret.json")]

    for reply in _session(project, script):
        assert reply.is_error is True
        assert reply.structured_content["error"]["code"] == "mcp.outside_folder"
        assert reply.structured_content["exit_code"] == 2


def test_a_client_of_the_initialize_handshake_era_is_served_too(project):
    """Harnesses that still open with `initialize` (protocol 2025-11-25 and before)."""
    async def script(client):
        listed = await client.list_tools()
        refused = await client.call_tool("validate", {"path": "../elsewhere"})
        return client.protocol_version, listed, refused

    version, listed, refused = _session(project, script, mode="legacy")
    assert version == "2025-11-25"
    assert [tool.name for tool in listed.tools] == TOOLS
    assert refused.is_error and refused.structured_content["error"]["code"] == "mcp.outside_folder"


def test_the_target_writes_its_ack_through_the_server_and_the_source_accepts_it(tmp_path):
    """ack_write calls the library's writer: the ACK it writes verifies, and a refusal comes
    back as a tool error with the very error the CLI prints for the same call."""
    import contextlib

    from git_support import new_checkout

    project = new_checkout(tmp_path / "project", {"app.py": "print(1)\n"})
    new_project(project)
    (project / "app.py").write_text("print(2)\n")  # uncommitted work the ACK fingerprints
    with contextlib.chdir(project):
        rendered = CliRunner().invoke(cli, ["packet", "render", "--source-id", MAIN, "--format", "json"])
        restart_id = json.loads(rendered.output)["result"]["restart_id"]
        created = CliRunner().invoke(cli, ["attempt", "created", restart_id, "--target-id", "sess-b"])
        assert created.exit_code == 0, created.output
        cli_refusal = CliRunner().invoke(cli, ["ack", "write", "--target-id", "sess-b", "--status",
                                               "TAKEOVER", "--format", "json"])
    expected_error = json.loads(cli_refusal.output)["error"]

    async def script(client):
        refused = await client.call_tool("ack_write", {"target_id": "sess-b", "status": "TAKEOVER"})
        written = await client.call_tool("ack_write", {"target_id": "sess-b"})
        verified = await client.call_tool("ack_verify", {"compare_checkout": True})
        return refused, written, verified

    refused, written, verified = _session(project, script)
    assert (cli_refusal.exit_code, expected_error["code"]) == (1, "attempt.state")
    assert refused.is_error is True
    assert refused.structured_content == {"ok": False, "command": "ack_write",
                                          "error": expected_error, "exit_code": 1}
    assert written.is_error is False, written.content[0].text
    ack = json.loads((project / "ack.json").read_text())
    assert written.structured_content["result"]["ack"] == ack
    assert (ack["status"], ack["restart_id"], ack["target_id"]) == ("READY_READONLY", restart_id, "sess-b")
    assert [a["path"] for a in ack["dirty_artifacts"]] == ["app.py"]
    assert verified.is_error is False
    assert (verified.structured_content["outcome"], verified.structured_content["codes"]) == ("accepted", [])


def test_ack_write_outside_a_checkout_top_is_refused_as_a_tool_error(project):
    async def script(client):
        return await client.call_tool("ack_write", {"target_id": "sess-b"})

    refused = _session(project, script)
    assert refused.is_error is True
    assert refused.structured_content["error"] == {
        "code": "mcp.outside_folder",
        "message": f"{project} is not the top folder of a git checkout, so reading the checkout's "
                   "fingerprints would read outside it",
        "hint": "bind the server to the checkout's top folder"}


def _raw_session(folder, lines):
    """``passdown mcp`` driven line by line: initialize, then each of ``lines``; the reply
    read for each (``None`` when none comes within a minute, which fails the test)."""
    process = subprocess.Popen([launcher(), "mcp", "--folder", str(folder)], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

    def exchange(line):
        process.stdin.write(line + b"\n")
        process.stdin.flush()
        ready, _, _ = select.select([process.stdout], [], [], 60)
        return json.loads(process.stdout.readline()) if ready else None

    try:
        hello = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "raw", "version": "1"}}}
        assert exchange(json.dumps(hello).encode())["id"] == 0
        process.stdin.write(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n')
        return [exchange(line) for line in lines]
    finally:
        process.kill()
        process.wait()
        process.stdin.close()
        process.stdout.close()


def _call(request_id, extra):
    return (b'{"jsonrpc": "2.0", "id": ' + request_id + b', "method": "tools/call", "params": '
            b'{"name": "validate", "arguments": {"path": "."}}, "extra": ' + extra + b'}')


def test_every_request_gets_a_reply_even_one_that_cannot_be_read(project):
    replies = _raw_session(project, [
        _call(b"1", b"[" * 200 + b"]" * 200),
        _call(b"2", b"9" * 100_000),
        _call(b'"three"', b'"' + b"x" * (1 << 21) + b'"'),
        b"{not json",
        _call(b"4", b"[" * 100_000 + b"]" * 100_000),
        b'{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": ' + b"[" * 100 + b"]" * 100 + b'}'
        + b'\n{"jsonrpc": "2.0", "id": 5, "method": "tools/list"}',
    ])
    assert [(r["id"], r["error"]["code"], r["error"]["data"]["code"]) for r in replies[:5]] == [
        (1, -32600, "load.too_deep"), (2, -32600, "load.too_many_digits"),
        ("three", -32600, "load.string_too_long"), (None, -32700, "load.syntax"),
        (None, -32600, "load.too_deep")]
    # a notification takes no reply, even when it cannot be read: the next reply is id 5's
    assert replies[5]["id"] == 5 and [tool["name"] for tool in replies[5]["result"]["tools"]] == TOOLS


def test_a_request_line_beyond_16_mib_is_answered_and_the_server_reads_on(project):
    """A line beyond the bound is skipped in bounded reads and answered (its id cannot be
    read: null), and the next request is served as usual (HST-204)."""
    over = _call(b"6", b'"' + b"x" * (16 << 20) + b'"')
    replies = _raw_session(project, [over, b'{"jsonrpc": "2.0", "id": 7, "method": "tools/list"}'])
    assert (replies[0]["id"], replies[0]["error"]["code"], replies[0]["error"]["data"]["code"]) == (
        None, -32600, "mcp.request_too_large")
    assert replies[1]["id"] == 7 and [tool["name"] for tool in replies[1]["result"]["tools"]] == TOOLS
