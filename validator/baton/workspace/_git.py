"""Fingerprints of a real git checkout, read fresh: the checkout fingerprint (repository,
branch, HEAD) and the dirty-artifact fingerprint (every uncommitted path with the digest of
its content on disk).

Runs ``git`` as a subprocess with a time bound and a scrubbed environment: no network (only
local plumbing commands), no optional locks (a read never rewrites the index), no fsmonitor
hook, and no inherited ``GIT_DIR``-style variables that could point it at another repository.
"""

from __future__ import annotations

import os
import subprocess

from baton.formats import _digest
from baton.errors import BatonError

#: Seconds one git command may take before the read is abandoned (``git.timeout``).
TIMEOUT = 10.0
#: The branch recorded for a detached HEAD, as ``git rev-parse --abbrev-ref HEAD`` prints it.
DETACHED = "HEAD"
_HEADS = "refs/heads/"


class GitError(BatonError):
    """The checkout could not be read: ``git.not_found`` (no git program),
    ``git.not_a_repository``, ``git.no_commit`` (HEAD names no commit yet), ``git.timeout``,
    ``git.failed``."""

    exit_code = 2
    code = "git.failed"


def _environment():
    env = {key: value for key, value in os.environ.items() if not key.startswith("GIT_")}
    env.update(GIT_OPTIONAL_LOCKS="0", GIT_TERMINAL_PROMPT="0", LC_ALL="C", LANGUAGE="C",
               GIT_CONFIG_NOSYSTEM="1")
    return env


def _git(workspace, *args, timeout=TIMEOUT, check=True):
    command = ["git", "-c", "core.fsmonitor=false", "-c", "core.quotepath=false",
               "-C", os.fspath(workspace), *args]
    try:
        done = subprocess.run(command, capture_output=True, timeout=timeout, env=_environment(),
                              stdin=subprocess.DEVNULL, check=False)
    except FileNotFoundError:
        raise GitError("the git program is not installed or not on PATH", code="git.not_found",
                       hint="install git, or verify without --workspace") from None
    except subprocess.TimeoutExpired:
        raise GitError(f"`git {args[0]}` took longer than {timeout:g} s in {workspace}",
                       code="git.timeout", hint="retry when the checkout is less busy") from None
    if check and done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        first = message[0] if message else f"exit status {done.returncode}"
        if "not a git repository" in first or "must be run in a work tree" in first:
            raise GitError(f"{workspace} is not inside a git working tree", code="git.not_a_repository",
                           hint="pass the checkout folder with --workspace")
        raise GitError(f"`git {args[0]}` failed in {workspace}: {first}", code="git.failed",
                       hint="run the same git command by hand to see what is wrong")
    return done


def toplevel(workspace):
    """The working tree's top-level folder, as git prints it (absolute, symlinks resolved)."""
    if not os.path.isdir(workspace):
        raise GitError(f"{workspace} is not a folder", code="git.not_a_repository",
                       hint="pass the checkout folder with --workspace")
    out = _git(workspace, "rev-parse", "--show-toplevel").stdout
    return os.fsdecode(out.rstrip(b"\n"))


def checkout_fingerprint(workspace):
    """``{"repository", "branch", "head"}`` of the checkout ``workspace`` lies in.

    ``repository`` is the top-level folder; ``branch`` the checked-out branch's short name
    (``HEAD`` when detached); ``head`` the full commit id HEAD resolves to."""
    top = toplevel(workspace)
    ref = _git(top, "symbolic-ref", "-q", "HEAD", check=False)
    name = ref.stdout.decode("utf-8", "backslashreplace").strip() if ref.returncode == 0 else ""
    branch = name[len(_HEADS):] if name.startswith(_HEADS) else (name or DETACHED)
    head = _git(top, "rev-parse", "-q", "--verify", "HEAD^{commit}", check=False)
    if head.returncode != 0:
        raise GitError(f"HEAD names no commit yet in {top}", code="git.no_commit",
                       hint="commit once, so the checkout has a HEAD to fingerprint")
    return {"repository": top, "branch": branch, "head": head.stdout.decode("ascii").strip()}


def dirty_paths(workspace):
    """Every path ``git status`` reports as changed, staged or untracked (ignored files
    excluded; both sides of a rename), relative to the top level, as raw bytes, sorted."""
    top = toplevel(workspace)
    out = _git(top, "status", "--porcelain=v1", "-z", "--untracked-files=all",
               "--ignore-submodules=none").stdout
    entries = out.split(b"\0")
    paths = set()
    index = 0
    while index < len(entries):
        entry = entries[index]
        index += 1
        if len(entry) < 4:
            continue
        status, path = entry[:2], entry[3:]
        paths.add(path)
        if b"R" in status or b"C" in status:  # the next entry is the rename's source
            if index < len(entries) and entries[index]:
                paths.add(entries[index])
            index += 1
    return top, sorted(paths)


def dirty_fingerprint(workspace, algorithm=_digest.DEFAULT_ALGORITHM, *, algorithms=None):
    """``[{"path", "digest"}, ...]`` for every dirty path, sorted by path.

    A file is hashed over its raw bytes; a symbolic link over its target text (what git
    stores); a path absent from disk (deleted) over zero bytes; a submodule folder over the
    text of its HEAD commit id. ``algorithms`` maps a path to the algorithm to use for it
    (to reproduce a fingerprint someone wrote with another algorithm)."""
    top, paths = dirty_paths(workspace)
    rows = []
    for raw_path in paths:
        name = raw_path.decode("utf-8", "backslashreplace")
        chosen = (algorithms or {}).get(name, algorithm)
        rows.append({"path": name, "digest": _path_digest(top, raw_path, chosen)})
    return rows


def _path_digest(top, raw_path, algorithm):
    full = os.path.join(os.fsencode(top), raw_path)
    if os.path.islink(full):
        return _digest.digest_bytes(os.readlink(full), algorithm)
    if os.path.isdir(full):
        head = _git(os.fsdecode(full), "rev-parse", "-q", "--verify", "HEAD", check=False)
        return _digest.digest_bytes(head.stdout.strip(), algorithm)
    try:
        with open(full, "rb") as handle:
            return _digest.digest_stream(handle, algorithm)
    except FileNotFoundError:
        return _digest.digest_bytes(b"", algorithm)
    except OSError as error:
        raise GitError(f"cannot read the dirty path {os.fsdecode(raw_path)}: {error.strerror}",
                       code="git.failed", hint="check the file's permissions") from None
