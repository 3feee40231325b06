"""The one folder a ``passdown mcp`` server is bound to: every path a tool or resource uses is
resolved (symlinks included) and refused unless it lies inside it."""

from __future__ import annotations

import os

from passdown.formats import _detect
from passdown.errors import UsageError
from passdown.formats._fastjson import shown


def _outside(given: str, resolved: str, root: str) -> UsageError:
    return UsageError(f"{shown(given)} resolves to {resolved}, outside the folder this server is "
                      f"bound to ({root})", code="mcp.outside_folder",
                      hint="give a path inside the bound folder; a symlink that leads out of "
                           "it is refused")


class Folder:
    """``root``: the bound folder, resolved once at start."""

    def __init__(self, path: str | os.PathLike):
        root = os.path.realpath(os.fspath(path))
        if not os.path.isdir(root):
            raise UsageError(f"{os.fspath(path)} is not a folder", code="mcp.bad_folder",
                             hint="start the server with --folder set to the handoff folder")
        self.root = root

    def inside(self, resolved: str) -> bool:
        return resolved == self.root or resolved.startswith(self.root + os.sep)

    def path(self, given: str = ".") -> str:
        """The resolved absolute path of ``given`` (relative to the root, or absolute);
        ``mcp.outside_folder`` when it leads out of the root."""
        if not isinstance(given, str) or not given or "\x00" in given:
            raise UsageError(f"{shown(given)} is not a path", code="mcp.bad_path",
                             hint="give a path relative to the bound folder")
        resolved = os.path.realpath(os.path.join(self.root, given))
        if not self.inside(resolved):
            raise _outside(given, resolved, self.root)
        return resolved

    def check_tree(self, top: str) -> None:
        """Refuse a folder walk that would read an artifact outside the root through a
        symlink (the walk reads every file it finds by an artifact's name)."""
        for folder, dirs, names in os.walk(top):
            dirs[:] = [d for d in dirs if d not in _detect.SKIPPED_DIRS]
            for name in names:
                if _detect.by_filename(name) is None:
                    continue
                path = os.path.join(folder, name)
                resolved = os.path.realpath(path)
                if not self.inside(resolved):
                    raise _outside(os.path.relpath(path, self.root), resolved, self.root)
