"""``baton mcp``: Baton's tools for any MCP client, over stdio, bound to one handoff folder
(spec/hosts.md).

- :mod:`baton.mcp._folder`: the folder binding (every path resolved and checked);
- :mod:`baton.mcp._tools`: the tool table, each tool a call into the library that answers
  with the CLI's codes and hints;
- :mod:`baton.mcp._resources`: the checkpoint, the packet and the packaged schemas;
- :mod:`baton.mcp._server`: the only module that imports the ``mcp`` SDK (the optional extra
  ``baton-handoff[mcp]``), so neither ``import baton`` nor the gate path ever loads it.
"""
