"""``passdown mcp``: Passdown's tools for any MCP client, over stdio, bound to one handoff folder
(spec/hosts.md).

- :mod:`passdown.mcp._folder`: the folder binding (every path resolved and checked);
- :mod:`passdown.mcp._tools`: the tool table, each tool a call into the library that answers
  with the CLI's codes and hints;
- :mod:`passdown.mcp._resources`: the checkpoint, the packet and the packaged schemas;
- :mod:`passdown.mcp._server`: the only module that imports the ``mcp`` SDK (the optional extra
  ``passdown[mcp]``), so neither ``import passdown`` nor the gate path ever loads it.
"""
