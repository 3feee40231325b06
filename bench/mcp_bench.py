"""Benchmark: ``passdown mcp``'s ``validate`` tool on one checkpoint inside a handoff folder,
warm, against the MCP SDK's own round trip.

The official SDK's client (``mcp.Client`` over stdio) drives two servers, each a whole process
run by this environment's interpreter:

- ``passdown mcp --folder <a copy of examples/handoff>``: ``validate`` with
  ``{"path": "xbrief/continue.xbrief.json"}`` (the checkpoint and the cross-file rules of its
  folder), and ``tools/list`` (a round trip through Passdown's request reader that checks
  nothing);
- the baseline: a server of the same SDK (``mcp.server.lowlevel.Server``) with one tool that
  does nothing and answers an empty text, called the same way.

Every call is timed warm (after ``--warmup`` calls of each), the two servers' calls
interleaved round by round; min / median / max and the ratio of medians are printed, with the
CPU time each server process used over the timed calls (``/proc/<pid>/stat``). Target:
``validate`` within 5x the no-op round trip.

    python bench/mcp_bench.py [--calls 200] [--warmup 20]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HANDOFF = ROOT / "examples" / "handoff"
#: The baseline server: the SDK's low-level server with one tool that does nothing.
NOOP_SERVER = '''
import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server


async def list_tools(ctx, params):
    return types.ListToolsResult(tools=[types.Tool(
        name="noop", description="does nothing", input_schema={"type": "object"})])


async def call_tool(ctx, params):
    return types.CallToolResult(content=[types.TextContent(type="text", text="")])


server = Server("noop", on_list_tools=list_tools, on_call_tool=call_tool)


async def main():
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())

anyio.run(main)
'''


def _load() -> str:
    try:
        return " ".join(f"{v:.2f}" for v in os.getloadavg())
    except OSError:
        return "unknown"


def _versions() -> None:
    from importlib.metadata import PackageNotFoundError, version

    print(f"interpreter: {sys.version.split()[0]} ({sys.implementation.name}) at {sys.executable}")
    cells = []
    for name in ("passdown", "mcp", "anyio", "jsonschema-rs", "ruamel.yaml", "ruamel.yaml.clib"):
        try:
            cells.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            cells.append(f"{name} (not installed)")
    print("versions: " + ", ".join(cells))
    print(f"cpus: {os.cpu_count()}; load average at start: {_load()}")


def _cpu_seconds(pid: int) -> float:
    """User and system CPU time of ``pid`` and of the threads it runs (``/proc``)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _children() -> set[int]:
    found = set()
    for task in os.listdir(f"/proc/{os.getpid()}/task"):
        with open(f"/proc/{os.getpid()}/task/{task}/children") as children:
            found.update(int(c) for c in children.read().split())
    return found


async def _measure(args, folder: Path) -> dict:
    from mcp import Client, StdioServerParameters

    passdown = StdioServerParameters(command=str(Path(sys.executable).with_name("passdown")),
                                     args=["mcp", "--folder", str(folder)], env={**os.environ})
    noop = StdioServerParameters(command=sys.executable, args=["-c", NOOP_SERVER], env={**os.environ})
    calls = {
        "passdown mcp: validate xbrief/continue.xbrief.json": ("passdown", "validate",
                                                               {"path": "xbrief/continue.xbrief.json"}),
        "passdown mcp: tools/list": ("passdown", None, None),
        "SDK server: a no-op tool (baseline)": ("noop", "noop", {}),
    }
    before = _children()
    async with Client(passdown) as ours:
        mine = _children() - before
        async with Client(noop) as theirs:
            baseline = _children() - before - mine
            clients = {"passdown": ours, "noop": theirs}

            async def once(label):
                which, tool, arguments = calls[label]
                client = clients[which]
                start = time.perf_counter()
                if tool is None:
                    await client.list_tools()
                else:
                    reply = await client.call_tool(tool, arguments)
                    if reply.is_error:
                        sys.exit(f"mcp_bench: {tool} failed: {reply.content[0].text}")
                    if tool == "validate" and reply.structured_content.get("findings"):
                        sys.exit(f"mcp_bench: the handoff folder is not clean: {reply.content[0].text}")
                return time.perf_counter() - start

            for _ in range(args.warmup):
                for label in calls:
                    await once(label)
            cpu = {pid: _cpu_seconds(pid) for pid in mine | baseline}
            times = {label: [] for label in calls}
            for _ in range(args.calls):
                for label in calls:
                    times[label].append(await once(label))
            used = {pid: _cpu_seconds(pid) - cpu[pid] for pid in cpu}
    return {"times": times, "cpu": (sum(used[p] for p in mine), sum(used[p] for p in baseline))}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=200, help="timed calls of each kind")
    parser.add_argument("--warmup", type=int, default=20, help="untimed calls of each kind first")
    args = parser.parse_args(argv)
    try:
        import anyio
        import mcp  # noqa: F401
    except ImportError:
        sys.exit("mcp_bench: the MCP SDK is missing: pip install 'passdown[mcp]'")
    _versions()
    with tempfile.TemporaryDirectory(prefix="passdown-mcp-") as work:
        folder = Path(work) / "handoff"
        shutil.copytree(HANDOFF, folder)
        found = anyio.run(_measure, args, folder)
    times = found["times"]
    print(f"\n[mcp] {args.calls} interleaved calls of each, warm; load {_load()}")
    print(f"  {'call':<56} {'min':>8} {'median':>8} {'max':>8}  (ms)")
    for label, runs in times.items():
        print(f"  {label:<56} {min(runs) * 1e3:8.2f} {statistics.median(runs) * 1e3:8.2f} "
              f"{max(runs) * 1e3:8.2f}")
    labels = list(times)
    validate, noop = statistics.median(times[labels[0]]), statistics.median(times[labels[2]])
    ours, theirs = found["cpu"]
    print(f"  server CPU per call (both calls of passdown's server / the no-op server): "
          f"{ours / (2 * args.calls) * 1e3:.2f} ms / {theirs / args.calls * 1e3:.2f} ms")
    ratio = validate / noop
    print(f"  validate / no-op round trip (medians): {ratio:.2f}x  target <= 5x: "
          f"{'met' if ratio <= 5 else 'NOT met'}")
    print(f"  tools/list / no-op round trip (medians): {statistics.median(times[labels[1]]) / noop:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
