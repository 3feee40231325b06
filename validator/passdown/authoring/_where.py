"""Where the handoff folder is. A command run anywhere inside a project finds the folder that
holds its handoff files by looking upward from the current folder, the way git finds its
repository, so ``cd xbrief && passdown checkpoint show`` reads the project's checkpoint instead
of asking for a new one (spec/authoring.md, AUT-085 and AUT-086).

A *handoff folder* holds the continue checkpoint (``xbrief/continue.xbrief.json``, or the
legacy ``vbrief/continue.vbrief.json``) or a restart registry (``registry.yaml``,
``registry.json``, ``registry.yml``). The folders that keep the checkpoint (``xbrief``,
``vbrief``) are never handoff folders themselves.

Every command that takes a folder calls :func:`locate` for its default::

    found = locate(None, needs="registry")   # no folder given: search upward from "."
    found = locate(directory)                # a folder given: used as it is
    require(found, "registry")               # nothing found: refuse, naming the folder
    path = found.join("registry.yaml")

and reports ``found.folder`` (absolute) when ``found.searched`` says it came from the search.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from passdown.errors import RefusedError, UnreadableInput

#: The checkpoint's file, current then legacy, relative to the handoff folder.
CHECKPOINTS = (os.path.join("xbrief", "continue.xbrief.json"),
               os.path.join("vbrief", "continue.vbrief.json"))
#: Folders that keep the checkpoint: inside one, the handoff folder is its parent.
CHECKPOINT_DIRS = ("xbrief", "vbrief")
#: A folder holding this is the top of a checkout: the search never goes above it.
CEILING = ".git"


def markers(needs: str | None = None) -> tuple[str, ...]:
    """The entries that make a folder a handoff folder for a command that ``needs`` the
    ``checkpoint`` or the ``registry`` (None: either)."""
    names = registry_names()
    return {"checkpoint": CHECKPOINTS, "registry": names}.get(needs, (*CHECKPOINTS, *names))


def registry_names() -> tuple[str, ...]:
    """The names a restart registry may have (the validator's, so both find the same files)."""
    from passdown.formats import _detect

    return _detect.get("registry").names


def registries_in(directory: str | os.PathLike) -> list[str]:
    """Every entry in ``directory`` under a registry's name (any entry counts: reading one
    that is no regular file reports its ``load.*`` code)."""
    return [os.path.join(directory, name) for name in registry_names()
            if os.path.lexists(os.path.join(directory, name))]


@dataclass(frozen=True)
class Located:
    """The handoff folder a command works in.

    ``path``: the folder as the command should name it (``"."``, ``".."``, or as given);
    ``folder``: the same folder, absolute; ``searched``: found by looking upward (no folder
    was given); ``found``: it holds what the command needs (else it is where that would be
    created)."""

    path: str
    folder: str
    searched: bool
    found: bool

    def join(self, *parts: str) -> str:
        """A path inside the folder, as the command names it (``xbrief/continue.xbrief.json``
        for the current folder, ``../xbrief/continue.xbrief.json`` from inside ``xbrief``)."""
        return os.path.join(*parts) if self.path == "." \
            else os.path.normpath(os.path.join(self.path, *parts))


def holds_handoff(folder: str | os.PathLike, needs: str | None = None) -> str | None:
    """The first handoff file (relative) in ``folder`` of those ``needs`` names, or None."""
    return next((marker for marker in markers(needs)
                 if os.path.lexists(os.path.join(folder, marker))), None)


def enclosing(start: str | os.PathLike = ".", needs: str | None = None) -> str | None:
    """The nearest handoff folder at or above ``start`` (absolute), or None. The search
    stops at the top of a git checkout (a folder holding ``.git``), like git's own."""
    here = os.path.abspath(start)
    while True:
        if os.path.basename(here) not in CHECKPOINT_DIRS and holds_handoff(here, needs):
            return here
        parent = os.path.dirname(here)
        if parent == here or os.path.lexists(os.path.join(here, CEILING)):
            return None
        here = parent


def natural(start: str | os.PathLike = ".") -> str:
    """Where a handoff folder for ``start`` belongs when none exists yet: ``start`` itself,
    or its parent when ``start`` is a folder that keeps the checkpoint (``xbrief``)."""
    here = os.path.abspath(start)
    return os.path.dirname(here) if os.path.basename(here) in CHECKPOINT_DIRS else here


def locate(given: str | os.PathLike | None, start: str | os.PathLike = ".", *,
           needs: str | None = None) -> Located:
    """The handoff folder of a command: ``given`` as it is, or else the nearest folder at or
    above ``start`` that holds what the command ``needs`` (``checkpoint``, ``registry``, or
    None for either), or else (nothing found) the folder where it belongs."""
    if given is not None:
        given = os.fspath(given)
        return Located(given, os.path.abspath(given), False,
                       holds_handoff(given, needs) is not None)
    found = enclosing(start, needs)
    folder = found or natural(start)
    relative = os.path.relpath(folder, os.path.abspath(start))
    return Located(relative, folder, True, found is not None)


def require(located: Located, what: str) -> None:
    """Refuse a search that found no folder holding the ``checkpoint`` or the ``registry``
    (``authoring.no_checkpoint`` or ``authoring.no_registry``, exit 2), naming the folder
    where it belongs."""
    if located.found or not located.searched:
        return
    code = {"checkpoint": "authoring.no_checkpoint", "registry": "authoring.no_registry"}[what]
    raise UnreadableInput(
        f"no {what} in {os.path.abspath('.')} or any folder above it", code=code,
        hint=f"run `passdown init` in {located.folder} (the folder of the task) to create the "
             "checkpoint and the registry there, or run this command inside an existing "
             "handoff folder")


def check_not_nested(directory: str | os.PathLike) -> None:
    """Refuse to create handoff files inside another handoff folder, or in a folder that
    keeps a checkpoint (``authoring.nested``): commands run below would find one or the
    other, never both."""
    here = os.path.abspath(directory)
    if os.path.basename(here) in CHECKPOINT_DIRS:
        raise RefusedError(f"{here} is where a checkpoint is kept, not a handoff folder",
                           code="authoring.nested",
                           hint=f"run `passdown init` in {os.path.dirname(here)} (the folder of "
                                "the task)")
    parent = os.path.dirname(here)
    if parent == here or os.path.lexists(os.path.join(here, CEILING)):
        return
    outer = enclosing(parent)
    if outer is not None:
        marker = holds_handoff(outer).replace(os.sep, "/")
        raise RefusedError(f"{here} is inside the handoff folder {outer} (it holds {marker})",
                           code="authoring.nested",
                           hint=f"work in {outer}: every command finds it from any folder "
                                "below it; pass --nested to start a separate handoff here on "
                                "purpose")
