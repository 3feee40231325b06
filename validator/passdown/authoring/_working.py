"""What a packet says of its source and of the checkout it leaves (spec/packet.md, "SOURCE and
WORKING_STATE"): the facts the environment and a fresh readback of the checkout give, and the
WORKING_STATE text with its bounded list of uncommitted paths.

The checkout is read through :mod:`passdown.workspace._readback`, with the one own-files rule
``passdown ack write`` and ``passdown ack verify`` apply (ACK-128), so every path and digest the
packet names is one the target's ACK will name. Beyond :data:`MAX_INLINE_PATHS` entries (or
:data:`MAX_INLINE_CHARS` characters) the packet names the rest by count and links the list of
every path, :data:`~passdown.formats._packet.WORKING_STATE_NAME` beside the packet, by its
digest. Nothing here writes: :mod:`passdown.authoring._render` writes the list in its locked step.
"""

from __future__ import annotations

import os
import platform
import re
from dataclasses import dataclass, field

from passdown.formats import _digest, _files, _packet
from passdown.workspace import _readback
from passdown.workspace._git import GitError

#: The most uncommitted paths WORKING_STATE lists itself (PKT-021).
MAX_INLINE_PATHS = 16
#: The most characters those entries take together (PKT-021).
MAX_INLINE_CHARS = 2000
#: The git codes that mean "no checkout here": the state is unknown, and the packet says so.
NO_CHECKOUT = ("git.not_a_repository", "git.not_found")
#: What a host's environment says of the session a command runs in (PKT-018): (variable,
#: harness, whether the variable's value is the session id). Claude Code sets ``CLAUDECODE``
#: for the commands it runs but exposes no session id to them (a hook reads it from its
#: input); Codex CLI sets ``CODEX_THREAD_ID`` to the session's thread id.
HOST_ENVIRONMENT = (("CODEX_THREAD_ID", "codex", True), ("CLAUDECODE", "claude-code", False))
#: Why a path is there: the sentence every measured WORKING_STATE opens with.
_PRESERVE = "preserve them: never reset, clean or commit to restart."
#: The first line of a WORKING_STATE this module wrote from a readback (PKT-019).
_READ_STATE = re.compile(r"(?:Clean: no uncommitted paths|(\d+) uncommitted paths?) in the "
                         r"checkout \(the handoff's own files left out\)")
#: The line naming the list of every path (PKT-021): its file and digest.
_LIST_LINE = re.compile(r"- \.\.\. \d+ more: every path is listed in (\S+) \((\S+)\)\Z")


@dataclass(frozen=True)
class Environment:
    """What the environment says of the running session: its harness and, where the harness
    exposes it, the session id; ``None`` where it says nothing."""

    harness: str | None = None
    session: str | None = None
    variable: str | None = None


def from_environment(environ=None) -> Environment:
    """The first :data:`HOST_ENVIRONMENT` entry set in ``environ`` (default: this process's)."""
    environ = os.environ if environ is None else environ
    for variable, harness, is_session in HOST_ENVIRONMENT:
        value = environ.get(variable)
        if value and value.strip():
            return Environment(harness, value.strip() if is_session else None, variable)
    return Environment()


@dataclass(frozen=True)
class Checkout:
    """The fresh readback of the workspace: the folder read, the checkout fingerprint and the
    uncommitted paths (``path``, ``digest``, ``status``), or ``missing`` saying why there is
    no checkout to read."""

    folder: str
    fingerprint: dict | None = None
    rows: tuple = ()
    missing: str | None = None
    inline: tuple = field(default=(), compare=False)

    @property
    def overflow(self) -> bool:
        """Whether WORKING_STATE cannot list every path and links the list file."""
        return len(self.inline) < len(self.rows)


def read(workspace: str, *, registry_path: str, given) -> Checkout:
    """Read the checkout ``workspace`` lies in, leaving out the handoff's own files (the
    registry's folder, and the files ``given``: packet, registry, checkpoint). No checkout
    there is :attr:`Checkout.missing`; any other failure to read it (a FIFO among the dirty
    paths, a timeout...) is raised, since the target's ACK could not be written either."""
    folder = os.path.abspath(workspace)
    leave_out = _readback.own_files_of(registry_path, list(given))
    try:
        fingerprint, rows = _readback.workspace_readback(folder, leave_out=leave_out,
                                                         with_status=True)
    except GitError as error:
        if error.code not in NO_CHECKOUT:
            raise
        reason = ("the git program is not installed" if error.code == "git.not_found"
                  else f"{_packet.shown_path(folder)} is not in a git checkout")
        return Checkout(folder, missing=reason)
    return Checkout(folder, fingerprint, tuple(rows), inline=_inline(rows))


def _inline(rows) -> tuple:
    """The entries WORKING_STATE lists itself: the first in path order, while both bounds hold."""
    chosen, size = [], 0
    for row in rows:
        line = _line(row)
        if len(chosen) == MAX_INLINE_PATHS or size + len(line) + 1 > MAX_INLINE_CHARS:
            break
        chosen.append(row)
        size += len(line) + 1
    return tuple(chosen)


def _line(row) -> str:
    return _packet.entry_line(row["status"], row["digest"], row["path"])


def list_bytes(checkout: Checkout) -> bytes:
    """The list file's content: one header line, then every entry, one a line (PKT-021)."""
    top = checkout.fingerprint
    header = (f"# Every uncommitted path of the checkout {_packet.shown_path(top['repository'])}"
              f" (branch {_packet.shown_path(top['branch'])}, HEAD {top['head']}), the "
              "handoff's own files left out; one entry a line: - STATUS DIGEST PATH")
    return "".join(line + "\n" for line in [header, *map(_line, checkout.rows)]).encode("utf-8")


def working_state(checkout: Checkout, notes: str | None, list_ref: str) -> str:
    """The WORKING_STATE value (PKT-019 to PKT-022): what the readback found, the entries,
    the list file by name and digest when they do not all fit, and the caller's ``notes``."""
    if checkout.missing is not None:
        if notes:
            return notes
        return (f"UNKNOWN: {checkout.missing}, so no working state was read; inspect the "
                "workspace before writing; never reset, clean or commit to restart.")
    count = len(checkout.rows)
    if not count:
        lines = ["Clean: no uncommitted paths in the checkout (the handoff's own files left "
                 "out)."]
    else:
        lines = [f"{count} uncommitted path{'s' if count != 1 else ''} in the checkout (the "
                 f"handoff's own files left out), each with the digest of its content; "
                 f"{_PRESERVE}", *map(_line, checkout.inline)]
    if checkout.overflow:
        digest = _digest.digest_bytes(list_bytes(checkout))
        lines.append(f"- ... {count - len(checkout.inline)} more: every path is listed in "
                     f"{list_ref} ({digest})")
    if notes:
        lines.append(f"Notes: {notes}")
    return "\n".join(lines)


def source_facts(checkout: Checkout, environment: Environment, row: dict, given) -> list:
    """The SOURCE facts in their order (PKT-018): ``[(name, value or None), ...]``. The
    readback's repository, branch and HEAD win over what the registry's session row
    records; ``given`` (the caller's values) must agree with the readback (refused by the
    caller otherwise, :func:`disagreements`)."""
    measured = checkout.fingerprint or {}
    top = measured.get("repository")
    stated = given.checkout or row.get("checkout")
    return [
        ("session", given.source_id),
        ("host", given.host or row.get("host_id") or platform.node() or None),
        ("harness", given.harness or row.get("harness") or environment.harness),
        ("workspace", checkout.folder),
        ("repository", given.repository or row.get("repository") or top),
        ("checkout", top or stated or f"none ({checkout.missing})"),
        ("branch", measured.get("branch") or given.branch or row.get("branch")),
        ("HEAD", measured.get("head") or given.head or row.get("head_commit")),
    ]


def disagreements(checkout: Checkout, given) -> list[str]:
    """What the caller stated that the readback contradicts: ``["branch main, not dev"]``."""
    measured = checkout.fingerprint
    if measured is None:
        return []
    out = []
    for name, stated, found in (("branch", given.branch, measured["branch"]),
                                ("HEAD", given.head, measured["head"])):
        if stated and not (found == stated or (name == "HEAD" and len(stated) >= 7
                                               and found.startswith(stated))):
            out.append(f"{name} {found}, not {stated}")
    if given.checkout and os.path.realpath(given.checkout) != os.path.realpath(
            measured["repository"]):
        out.append(f"checkout {measured['repository']}, not {given.checkout}")
    return out


def stated_rows(value: str, packet_path: str) -> list | None:
    """The ``{path, digest}`` rows a WORKING_STATE written from a readback states, the list
    file's included (read beside the packet, its digest checked), or ``None`` when the value
    is not in that form (a packet written by hand) or its list cannot be confirmed."""
    lines = _packet.canonical_value(value).split("\n")
    first = _READ_STATE.match(" ".join(_packet.canonical_value(value).split()))
    if first is None:
        return None
    entries = [entry for entry in map(_packet.parse_entry, lines) if entry]
    listed = next((match for match in map(_LIST_LINE.match, lines) if match), None)
    if listed is not None:
        path = os.path.join(os.path.dirname(os.path.abspath(packet_path)), listed.group(1))
        try:
            data = _files.read_regular(path, _files.DEFAULT_MAX_BYTES)
        except (OSError, _files.FileRefused):
            return None
        if _digest.check_digest(listed.group(2), data) is not None:
            return None
        entries = [entry for entry in map(_packet.parse_entry, data.decode(
            "utf-8", "replace").split("\n")) if entry]
    return [{"path": path, "digest": digest} for _, digest, path in entries]


def changes_since(stated: list, dirty: list) -> str | None:
    """What differs between the rows a packet states and a fresh readback's, said in one
    sentence naming at most three paths of each kind, or ``None`` when they agree."""
    before = {row["path"]: row["digest"] for row in stated}
    now = {row["path"]: row["digest"] for row in dirty}
    kinds = (("now uncommitted", sorted(set(now) - set(before))),
             ("no longer uncommitted", sorted(set(before) - set(now))),
             ("changed", sorted(p for p in set(now) & set(before) if now[p] != before[p])))
    said = [f"{label}: {', '.join(map(_packet.shown_path, paths[:3]))}"
            + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")
            for label, paths in kinds if paths]
    return "; ".join(said) or None
